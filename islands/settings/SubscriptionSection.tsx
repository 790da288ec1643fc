import { Suspense, lazy } from "react";
import * as s from "./settings.css.ts";

// The section's body, its queries included, loads after hydration: the server and the first paint say 'Loading…'
// (docs/decisions/0043-first-paint-javascript.md).
const SubscriptionStatus = lazy(() =>
  import("./SubscriptionStatus.tsx").then((m) => ({ default: m.SubscriptionStatus })),
);
const LOADING = <p role="status">Loading subscription details...</p>;

/** id of the section's heading: `?tab=subscription` scrolls to it and focuses it. */
export const SUBSCRIPTION_HEADING_ID = "subscription-title";

/**
 * Subscription (docs/product.md §2, §4): the current-status card and the plan chooser, loaded in the browser
 * ('Loading subscription details...' until then; the subscription cached 60 s and refetched on mount and window
 * focus, the prices cached an hour).
 * - A plan's button starts a Stripe checkout: the checkoutInProgress flag is set and the browser goes to Stripe's
 *   page, which sends it back to /settings?tab=subscription&subscription_checkout=success|cancel (SettingsPanel
 *   shows the toast). A failure shows 'Something went wrong. Please try again later'.
 * - Cancel Subscription asks for confirmation, then sets cancel at period end.
 * @param confirmingCheckout the user just came back from a successful checkout: until the subscription reads as a
 *   paid plan (Stripe's webhook may arrive a moment after the browser), it is re-read every 2 s.
 * @param hydrated the island has hydrated: the body (./SubscriptionStatus.tsx) is rendered from then on, so that the
 *   server's HTML and the hydrating render are the same 'Loading…'.
 */
export function SubscriptionSection({
  confirmingCheckout = false,
  hydrated,
}: {
  confirmingCheckout?: boolean;
  hydrated: boolean;
}) {
  return (
    <section
      className={s.card}
      aria-labelledby={SUBSCRIPTION_HEADING_ID}
      id="subscription"
      data-testid="subscription-section"
    >
      <div className={s.cardHeader}>
        <h2 id={SUBSCRIPTION_HEADING_ID} className={s.cardTitle} tabIndex={-1}>
          Subscription
        </h2>
      </div>
      {hydrated ? (
        <Suspense fallback={LOADING}>
          <SubscriptionStatus confirmingCheckout={confirmingCheckout} loading={LOADING} />
        </Suspense>
      ) : (
        LOADING
      )}
    </section>
  );
}
