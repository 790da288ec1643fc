import { useId, type ReactNode } from "react";
import { createPortal } from "react-dom";
import { useModalDialog } from "../lib/modal-dialog.ts";
import * as s from "./settings.css.ts";

/**
 * A confirmation on the browser's own modal `<dialog>` (as the article dialog does, for the JavaScript budget): the
 * page behind is inert, Escape cancels, focus starts on Cancel (the safe choice) and returns to the opener on close.
 * Render it only while it is open; it is never rendered on the server.
 */
export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  dismissLabel = "Cancel",
  busyLabel,
  busy,
  onConfirm,
  onClose,
}: {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  /** The label of the button that closes without confirming (default 'Cancel'). */
  dismissLabel?: string;
  /** Shown on the confirm button while `busy`. */
  busyLabel: string;
  /** While true, nothing closes the dialog (the action is under way). */
  busy: boolean;
  onConfirm: () => void;
  /** Called once the dialog has closed without confirming. */
  onClose: () => void;
}) {
  const titleId = useId();
  const textId = useId();
  const { ref, handleClose } = useModalDialog(onClose);

  return createPortal(
    <dialog
      ref={ref}
      className={s.dialog}
      aria-labelledby={titleId}
      aria-describedby={textId}
      data-testid="confirm-dialog"
      onCancel={(e) => {
        if (busy) e.preventDefault();
      }}
      onClose={handleClose}
    >
      <h2 id={titleId} className={s.dialogTitle}>
        {title}
      </h2>
      <div id={textId} className={s.dialogText}>
        {children}
      </div>
      <div className={s.dialogActions}>
        <button type="button" className={s.button.secondary} disabled={busy} onClick={() => ref.current?.close()}>
          {dismissLabel}
        </button>
        <button type="button" className={s.button.danger} disabled={busy} onClick={onConfirm}>
          {busy ? busyLabel : confirmLabel}
        </button>
      </div>
    </dialog>,
    document.body,
  );
}
