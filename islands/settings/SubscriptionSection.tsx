import { useQuery } from "@tanstack/react-query";
import { errorMessage } from "../lib/api.ts";
import { formatDate } from "../lib/format.ts";
import { SUBSCRIPTION_QUERY_KEY, SUBSCRIPTION_STALE_MS, fetchSubscription, subscriptionStatus, titleCase } from "./subscription.ts";
import * as s from "./settings.css.ts";

/** id of the section's heading: `?tab=subscription` scrolls to it and focuses it. */
export const SUBSCRIPTION_HEADING_ID = "subscription-title";

/**
 * Subscription (spec §2, §4): the current-status card, read-only. Loaded in the browser (cached 60 s, refetched on
 * mount and window focus); 'Loading subscription details...' until then. Choosing or changing a plan comes with
 * billing, and the card says so.
 */
export function SubscriptionSection() {
  const query = useQuery({
    queryKey: SUBSCRIPTION_QUERY_KEY,
    queryFn: fetchSubscription,
    staleTime: SUBSCRIPTION_STALE_MS,
    refetchOnMount: true,
    refetchOnWindowFocus: true,
  });
  return (
    <section className={s.card} aria-labelledby={SUBSCRIPTION_HEADING_ID} id="subscription">
      <div className={s.cardHeader}>
        <h2 id={SUBSCRIPTION_HEADING_ID} className={s.cardTitle} tabIndex={-1}>
          Subscription
        </h2>
      </div>
      {query.isPending ? (
        <p role="status">Loading subscription details...</p>
      ) : query.isError ? (
        <p role="alert">{errorMessage(query.error)}</p>
      ) : (
        <SubscriptionStatus sub={query.data} />
      )}
      <p className={s.hint}>
        Choosing or changing your plan will be available here soon.
      </p>
    </section>
  );
}

function SubscriptionStatus({ sub }: { sub: Awaited<ReturnType<typeof fetchSubscription>> }) {
  const status = subscriptionStatus(sub);
  if (!sub.exists) {
    return (
      <div data-testid="subscription-status">
        <p>
          <span className={s.badge[status.color]}>{status.label}</span>
        </p>
        <p className={s.hint}>You have no subscription.</p>
      </div>
    );
  }
  const trial = Boolean(sub.is_trial);
  const trialEnd = formatDate(sub.trial_ends_at);
  const periodEnd = formatDate(sub.current_period_end);
  return (
    <div data-testid="subscription-status">
      <dl className={s.fieldList}>
        <dt>Status</dt>
        <dd>
          <span className={s.badge[status.color]}>{status.label}</span>
        </dd>
        <dt>Plan</dt>
        <dd>{sub.subscription_type ? titleCase(sub.subscription_type) : "N/A"}</dd>
        <dt>Billing</dt>
        <dd>{sub.billing_interval ? titleCase(sub.billing_interval) : "N/A"}</dd>
        {trial ? (
          <>
            <dt>Trial ends</dt>
            <dd>{trialEnd}</dd>
          </>
        ) : (
          <>
            <dt>Current period ends</dt>
            <dd>{periodEnd}</dd>
          </>
        )}
        <dt>Auto-renew</dt>
        {/* A trial never renews by itself (spec §4). */}
        <dd>{trial || sub.cancel_at_period_end ? "No" : "Yes"}</dd>
      </dl>
      {sub.status === "active" && trial ? <p className={s.notice.blue}>{`Your free trial ends on ${trialEnd}. Upgrade to a paid plan to keep using LitReview.`}</p> : null}
      {sub.status === "trial_expired" ? <p className={s.notice.orange}>Your free trial has ended. Upgrade to a paid plan to continue.</p> : null}
      {sub.cancel_at_period_end && !trial ? <p className={s.notice.red}>{`Your subscription will end on ${periodEnd}.`}</p> : null}
    </div>
  );
}
