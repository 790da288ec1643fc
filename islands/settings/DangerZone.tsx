import { Suspense, lazy, useState } from "react";
import * as s from "./settings.css.ts";

// Drawn only once Delete Account is pressed, so it loads then, with the deletion (docs/decisions/0043).
const DeleteAccountDialog = lazy(() =>
  import("./DeleteAccountDialog.tsx").then((m) => ({ default: m.DeleteAccountDialog })),
);

/**
 * The collapsible Danger Zone (docs/product.md §2): Delete Account behind a 'Confirmation Required' dialog
 * (./DeleteAccountDialog.tsx, which deletes the account and logs out).
 */
export function DangerZone({ hydrated }: { hydrated: boolean }) {
  const [confirming, setConfirming] = useState(false);
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
        <Suspense fallback={null}>
          <DeleteAccountDialog onClose={() => setConfirming(false)} />
        </Suspense>
      ) : null}
    </details>
  );
}
