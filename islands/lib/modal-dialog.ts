import { useEffect, useRef, type RefObject } from "react";

/**
 * The behaviour every modal of ours shares, on the browser's own `<dialog>`: it opens with `showModal()` when the
 * component mounts (the page behind becomes inert, Escape closes), focus returns to the element that had it when
 * the component unmounts, and `onClose` is called once the dialog has really closed (close button, Escape, backdrop).
 * Render the component only while the dialog is open; the parent unmounts it from `onClose`.
 * @returns the ref for the `<dialog>` and the handler for its `onClose` event.
 */
export function useModalDialog(onClose: () => void): {
  ref: RefObject<HTMLDialogElement | null>;
  handleClose: () => void;
} {
  const ref = useRef<HTMLDialogElement>(null);
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    return () => {
      if (dialog.open) dialog.close();
      opener?.focus();
    };
  }, []);

  // A close event can arrive after the dialog was opened again (React's development double mount); only a dialog
  // that is really closed tells the parent.
  const handleClose = () => {
    if (!ref.current?.open) onCloseRef.current();
  };
  return { ref, handleClose };
}
