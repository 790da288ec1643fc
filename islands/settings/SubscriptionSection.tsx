import { useId, useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { errorMessage } from "../lib/api.ts";
import { formatDate } from "../lib/format.ts";
import { showError, showSuccess } from "../lib/toast.tsx";
import { ConfirmDialog } from "./ConfirmDialog.tsx";
import { PaymentsUnavailableNotice, PlanCardContent } from "./PlanCardContent.tsx";
import {
  CANCEL_REQUESTED,
  CHECKOUT_FAILED,
  PLANS,
  PRICES_QUERY_KEY,
  PRICES_STALE_MS,
  SUBSCRIPTION_QUERY_KEY,
  SUBSCRIPTION_STALE_MS,
  canCancel,
  cancelSubscription,
  fetchPrices,
  fetchSubscription,
  isCurrentPlan,
  isPaidPlan,
  planButton,
  withoutPayments,
  planPrice,
  setCheckoutFlag,
  startCheckout,
  subscriptionStatus,
  titleCase,
  type Plan,
  type PricesData,
  type SubscriptionData,
} from "./subscription.ts";
import * as s from "./settings.css.ts";

/** id of the section's heading: `?tab=subscription` scrolls to it and focuses it. */
export const SUBSCRIPTION_HEADING_ID = "subscription-title";

/** While a payment just made is not yet confirmed by Stripe's webhook, the subscription is re-read this often. */
const CONFIRMING_POLL_MS = 2000;

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
 */
export function SubscriptionSection({ confirmingCheckout = false }: { confirmingCheckout?: boolean }) {
  const query = useQuery({
    queryKey: SUBSCRIPTION_QUERY_KEY,
    queryFn: fetchSubscription,
    staleTime: SUBSCRIPTION_STALE_MS,
    refetchOnMount: true,
    refetchOnWindowFocus: true,
    refetchInterval: (q) => (confirmingCheckout && !isPaidPlan(q.state.data) ? CONFIRMING_POLL_MS : false),
  });
  const prices = useQuery({
    queryKey: PRICES_QUERY_KEY,
    queryFn: fetchPrices,
    staleTime: PRICES_STALE_MS,
    gcTime: PRICES_STALE_MS,
    retry: 1,
  });
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
      {query.isPending ? (
        <p role="status">Loading subscription details...</p>
      ) : query.isError ? (
        <p role="alert">{errorMessage(query.error)}</p>
      ) : (
        <div className={s.subscriptionBody}>
          <StatusCard sub={query.data} />
          {confirmingCheckout && !isPaidPlan(query.data) ? (
            <p role="status" className={s.hint} data-testid="checkout-confirming">
              Confirming your payment…
            </p>
          ) : null}
          <PlanChooser sub={query.data} prices={prices.data} pricesSettled={!prices.isPending} />
        </div>
      )}
    </section>
  );
}

/** The current-status card: badge, plan, billing, dates, auto-renew, the banners of docs/product.md §4, Cancel Subscription. */
function StatusCard({ sub }: { sub: SubscriptionData }) {
  const status = subscriptionStatus(sub);
  const headingId = useId();
  const trial = Boolean(sub.is_trial);
  const trialEnd = formatDate(sub.trial_ends_at);
  const periodEnd = formatDate(sub.current_period_end);
  return (
    <div className={s.statusCard} data-testid="subscription-status" aria-labelledby={headingId} role="group">
      <h3 id={headingId} className={s.subheading}>
        Current Status
      </h3>
      {!sub.exists ? (
        <>
          <p>
            <span className={s.badge[status.color]}>{status.label}</span>
          </p>
          <p className={s.hint}>
            You have no subscription. Choose a plan below to use literature reviews and weekly suggestions.
          </p>
        </>
      ) : (
        <>
          <dl className={s.fieldList}>
            <dt>Status</dt>
            <dd>
              <span className={s.badge[status.color]} data-testid="subscription-badge">
                {status.label}
              </span>
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
                <dt>{sub.status === "canceled" ? "Ended" : "Current period ends"}</dt>
                <dd>{periodEnd}</dd>
              </>
            )}
            <dt>Auto-renew</dt>
            {/* A trial never renews by itself (docs/product.md §4), nor does a plan set to end. */}
            <dd>{trial || sub.cancel_at_period_end || sub.status === "canceled" ? "No" : "Yes"}</dd>
          </dl>
          {(sub.status === "active" || sub.status === "trialing") && trial ? (
            <p
              className={s.notice.blue}
              data-testid="trial-banner"
            >{`Your free trial ends on ${trialEnd}. Upgrade to a paid plan to keep using literature reviews and weekly suggestions.`}</p>
          ) : null}
          {sub.status === "trial_expired" ? (
            <p className={s.notice.orange} data-testid="trial-expired-banner">
              Your free trial has ended. Upgrade to a paid plan to continue using literature reviews and weekly
              suggestions.
            </p>
          ) : null}
          {sub.cancel_at_period_end && !trial && sub.status !== "canceled" ? (
            <p
              className={s.notice.red}
              data-testid="cancel-banner"
            >{`Your subscription has been canceled and will end on ${periodEnd}.`}</p>
          ) : null}
          {canCancel(sub) ? <CancelSubscription sub={sub} /> : null}
        </>
      )}
    </div>
  );
}

/** The Cancel Subscription button and its confirmation dialog. */
function CancelSubscription({ sub }: { sub: SubscriptionData }) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const cancel = useMutation({
    mutationFn: cancelSubscription,
    onSuccess: (updated) => {
      queryClient.setQueryData(SUBSCRIPTION_QUERY_KEY, updated);
      showSuccess(CANCEL_REQUESTED);
    },
    // docs/product.md §8: the common error toast, and the dialog closes.
    onError: (err) => showError(errorMessage(err)),
    onSettled: () => setConfirming(false),
  });
  const plan = sub.subscription_type ? titleCase(sub.subscription_type) : "current";
  return (
    <div className={s.actions}>
      <button type="button" className={s.button.dangerOutline} onClick={() => setConfirming(true)}>
        Cancel Subscription
      </button>
      {confirming ? (
        <ConfirmDialog
          title="Cancel Subscription"
          confirmLabel="Cancel Subscription"
          dismissLabel="Keep Subscription"
          busyLabel="Cancelling…"
          busy={cancel.isPending}
          onConfirm={() => cancel.mutate()}
          onClose={() => setConfirming(false)}
        >
          <p>{`Your ${plan} plan will stay active until ${formatDate(sub.current_period_end)}, the end of the current period, and will not renew. You can subscribe again at any time.`}</p>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}

/** The plan chooser (docs/product.md §4, §9): Plus, Pro and Max, billed annually. */
function PlanChooser({
  sub,
  prices,
  pricesSettled,
}: {
  sub: SubscriptionData;
  prices: PricesData | undefined;
  pricesSettled: boolean;
}) {
  const headingId = useId();
  // Only an explicit "false" from the server: prices still loading or failing to load leave the buttons as they are.
  const paymentsOff = prices?.payments_available === false;
  const [redirecting, setRedirecting] = useState<Plan | null>(null);
  const checkout = useMutation({
    mutationFn: (plan: Plan) => startCheckout(plan, window.location.origin),
    onMutate: (plan) => setRedirecting(plan),
    onSuccess: (url) => {
      setCheckoutFlag(true);
      window.location.assign(url);
    },
    onError: () => {
      setRedirecting(null);
      showError(CHECKOUT_FAILED);
    },
  });
  return (
    <div role="group" aria-labelledby={headingId}>
      <h3 id={headingId} className={s.subheading}>
        Choose Your Plan
      </h3>
      {paymentsOff ? <PaymentsUnavailableNotice /> : null}
      <p className={s.hint}>All plans are billed annually.</p>
      <ul className={s.planGrid}>
        {PLANS.map((plan) => {
          // Without a payment provider, a button that would start a checkout is disabled (its label is kept).
          const button = withoutPayments(planButton(plan, sub), paymentsOff);
          const current = isCurrentPlan(plan, sub);
          return (
            <PlanCard
              key={plan}
              plan={plan}
              price={pricesSettled ? planPrice(plan, prices) : null}
              current={current}
              button={button}
              busy={redirecting === plan}
              anyBusy={redirecting !== null}
              onChoose={() => checkout.mutate(plan)}
            />
          );
        })}
      </ul>
    </div>
  );
}

function PlanCard({
  plan,
  price,
  current,
  button,
  busy,
  anyBusy,
  onChoose,
}: {
  plan: Plan;
  price: { monthly: string; annual: string } | null;
  current: boolean;
  button: ReturnType<typeof planButton>;
  busy: boolean;
  anyBusy: boolean;
  onChoose: () => void;
}) {
  const nameId = useId();
  return (
    <li className={current ? s.planCardCurrent : s.planCard} aria-labelledby={nameId} data-testid={`plan-${plan}`}>
      <PlanCardContent plan={plan} price={price} current={current} nameId={nameId} />
      <button
        type="button"
        className={button.label === "Current Plan" || button.disabled ? s.button.secondary : s.button.primary}
        disabled={button.disabled || anyBusy}
        aria-describedby={nameId}
        onClick={onChoose}
      >
        {busy ? "Redirecting…" : button.label}
      </button>
    </li>
  );
}
