import { useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { api, errorMessage, logout } from "../lib/api.ts";
import { showError } from "../lib/toast.tsx";
import { setFlash } from "../lib/flash.ts";

/** Shown on the login page after the account was deleted. */
export const ACCOUNT_DELETED = "Your account and all of its data have been deleted.";
import { ConfirmDialog } from "./ConfirmDialog.tsx";
import * as s from "./settings.css.ts";

/**
 * The collapsible Danger Zone (docs/product.md §2): Delete Account behind a 'Confirmation Required' dialog. Deleting calls
 * DELETE /users/me (the server removes the account and everything it owns), then logs out: cached data and the
 * stored token go, and the browser lands on /login.
 */
export function DangerZone({ hydrated }: { hydrated: boolean }) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
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
      setConfirming(false);
    }
  };

  return (
    <details className={s.dangerZone}>
      <summary className={s.dangerSummary}>Danger Zone</summary>
      <div className={s.dangerBody}>
        <h2 className={s.dangerTitle}>Delete Account</h2>
        <p className={s.hint}>Permanently delete your account and all of its data.</p>
        <div className={s.actions}>
          <button type="button" className={s.button.danger} disabled={!hydrated} onClick={() => setConfirming(true)}>
            Delete Account
          </button>
        </div>
      </div>
      {confirming ? (
        <ConfirmDialog
          title="Confirmation Required"
          confirmLabel="Delete"
          busyLabel="Deleting…"
          busy={deleting}
          onConfirm={() => void deleteAccount()}
          onClose={() => setConfirming(false)}
        >
          <p>
            Are you sure you want to delete your account? All your data will be permanently deleted. This action cannot
            be undone.
          </p>
        </ConfirmDialog>
      ) : null}
    </details>
  );
}
