import { useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { api, errorMessage, logout } from "../lib/api.ts";
import { showError } from "../lib/toast.tsx";
import { setFlash } from "../lib/flash.ts";
import { ConfirmDialog } from "./ConfirmDialog.tsx";

/** Shown on the login page after the account was deleted. */
export const ACCOUNT_DELETED = "Your account and all of its data have been deleted.";

/**
 * The Danger Zone's 'Confirmation Required' dialog (./DangerZone.tsx, loaded when Delete Account is pressed, with the
 * deletion itself: docs/decisions/0043-first-paint-javascript.md). Delete calls DELETE /users/me (the server removes
 * the account and everything it owns), then logs out: cached data and the stored token go, and the browser lands on
 * /login. On failure the error toast shows and the dialog closes (`onClose`).
 */
export function DeleteAccountDialog({ onClose }: { onClose: () => void }) {
  const queryClient = useQueryClient();
  const [deleting, setDeleting] = useState(false);

  const deleteAccount = async () => {
    setDeleting(true);
    try {
      await api("DELETE", "/users/me");
      queryClient.clear();
      // The login page says so: landing there without a word would look like a lost session.
      setFlash({ kind: "success", message: ACCOUNT_DELETED });
      await logout();
    } catch (err) {
      showError(errorMessage(err));
      setDeleting(false);
      onClose();
    }
  };

  return (
    <ConfirmDialog
      title="Confirmation Required"
      confirmLabel="Delete"
      busyLabel="Deleting…"
      busy={deleting}
      onConfirm={() => void deleteAccount()}
      onClose={onClose}
    >
      <p>
        Are you sure you want to delete your account? All your data will be permanently deleted. This action cannot be
        undone.
      </p>
    </ConfirmDialog>
  );
}
