import { useId, useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { errorMessage } from "../lib/api.ts";
import { formatDate } from "../lib/format.ts";
import { showError, showSuccess } from "../lib/toast.tsx";
import { ConfirmDialog } from "./ConfirmDialog.tsx";
import { PaymentsUnavailableNotice, PlanCardContent } from "./PlanCardContent.tsx";
import {
  CANCEL_REQUESTED,
  CHECKOUT_FAILED,
  PLANS,
  canCancel,
  cancelSubscription,
  isCurrentPlan,
  planButton,
  withoutPayments,
  planPrice,
  startCheckout,
  subscriptionStatus,
  titleCase,
  type Plan,
} from "./subscription.ts";
import {
  SUBSCRIPTION_QUERY_KEY,
  isPaidPlan,
  setCheckoutFlag,
  type PricesData,
  type SubscriptionData,
} from "./subscription-query.ts";
import * as s from "./settings.css.ts";

/**
 * The loaded Subscription area (./SubscriptionSection.tsx): the current-status card, 'Confirming your payment…'
 * while a payment just made awaits Stripe's confirmation, and the plan chooser. Loaded once the subscription has
 * arrived (issue 25: the first paint shows only 'Loading subscription details...', docs/decisions/0043).
 */
export function SubscriptionDetails({
  sub,
  confirmingCheckout,
  prices,
  pricesSettled,
}: {
  sub: SubscriptionData;
  confirmingCheckout: boolean;
  prices: PricesData | undefined;
  pricesSettled: boolean;
}) {
  return (
    <div className={s.subscriptionBody}>
      <StatusCard sub={sub} />
      {confirmingCheckout && !isPaidPlan(sub) ? (
        <p role="status" className={s.hint} data-testid="checkout-confirming">
          Confirming your payment…
        </p>
      ) : null}
      <PlanChooser sub={sub} prices={prices} pricesSettled={pricesSettled} />
    </div>
  );
}

/**
 * The current-status card: badge, plan, billing, dates, auto-renew, the banners of docs/product.md §4, Cancel
 * Subscription.
 */
function StatusCard({ sub }: { sub: SubscriptionData }) {
  const status = subscriptionStatus(sub);
  const headingId = useId();
  const trial = Boolean(sub.is_trial);
  const trialEnd = formatDate(sub.trial_ends_at);
  const periodEnd = formatDate(sub.current_period_end);
  return (
    // biome-ignore lint/a11y/useSemanticElements: facts, not form controls: no fieldset
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
    // biome-ignore lint/a11y/useSemanticElements: plan cards, not form controls: no fieldset
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
