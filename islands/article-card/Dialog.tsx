/**
 * A modal dialog on the browser's own `<dialog>` element, opened with `showModal()`. The platform gives the
 * behaviour a dialog library would add: the page behind becomes inert (focus stays inside), Escape closes,
 * the dialog is announced with its role and name, and it sits in the top layer above everything. This keeps
 * the page within its JavaScript budget; see the note at the top of ReviewWorkspace.tsx.
 */
import { useId, type ReactNode } from "react";
import { createPortal } from "react-dom";
import { useModalDialog } from "../lib/modal-dialog.ts";
import { Icon } from "./icons.tsx";
import * as css from "./ArticleCard.css.ts";

/** Props of {@link Dialog}. Render the component only while the dialog is open. */
export interface DialogProps {
  /** Shown as the heading and used as the dialog's accessible name. */
  title: ReactNode;
  /** Called once the dialog has closed (close button, Escape or a click on the backdrop). */
  onClose: () => void;
  children: ReactNode;
  testId?: string;
}

/**
 * A modal dialog that opens when mounted and reports closing through `onClose`; the parent then unmounts it.
 * Focus goes back to the element that had it before the dialog opened. The dialog is rendered into <body> so
 * that it inherits nothing from where it was opened (a summary paragraph, a list item). Client-only: it is
 * only ever rendered after a user action.
 */
export function Dialog({ title, onClose, children, testId = "dialog" }: DialogProps) {
  const titleId = useId();
  const { ref, handleClose } = useModalDialog(onClose);

  return createPortal(
    // biome-ignore lint/a11y/useKeyWithClickEvents: a backdrop click closes, as Escape does
    <dialog
      ref={ref}
      className={css.dialog}
      aria-labelledby={titleId}
      data-testid={testId}
      onClose={handleClose}
      onClick={(e) => {
        // The dialog element itself is only hit on its backdrop: its content fills it edge to edge.
        if (e.target === ref.current) ref.current?.close();
      }}
    >
      <div className={css.dialogInner}>
        <div className={css.dialogHeader}>
          <h2 id={titleId} className={css.dialogTitle}>
            {title}
          </h2>
          <button type="button" className={css.closeButton} aria-label="Close" onClick={() => ref.current?.close()}>
            <Icon name="close" />
          </button>
        </div>
        {children}
      </div>
    </dialog>,
    document.body,
  );
}
