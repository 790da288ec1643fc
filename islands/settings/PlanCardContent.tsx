import { PLAN_DETAILS, type Plan } from "./subscription.ts";
import { visuallyHidden } from "../lib/visually-hidden.css.ts";
import * as s from "./settings.css.ts";

/**
 * What a plan card shows (docs/product.md §4, §9), shared by the settings page's plan chooser and the public /pricing
 * page so that both show the same cards: the plan's name (with 'Your plan' when `current`), the monthly price, the
 * annual total ('Billed annually: …/year') and the feature list. `price` null means the prices are still loading.
 * @param headingLevel the name's heading level where the card sits (h4 under the settings sections, h2 on /pricing).
 */
export function PlanCardContent({
  plan,
  price,
  current = false,
  nameId,
  headingLevel = 4,
}: {
  plan: Plan;
  price: { monthly: string; annual: string } | null;
  current?: boolean;
  nameId: string;
  headingLevel?: 2 | 4;
}) {
  const details = PLAN_DETAILS[plan];
  const Heading = headingLevel === 2 ? "h2" : "h4";
  return (
    <>
      <Heading id={nameId} className={s.planName}>
        {details.name}
        {current ? <span className={s.badge.green}>Your plan</span> : null}
      </Heading>
      {/* data-toast-avoid: a toast (a checkout failure) never covers the prices (islands/lib/toast.tsx). */}
      <p className={s.planPrice} data-testid={`plan-${plan}-monthly`} data-toast-avoid="">
        {price ? (
          <>
            <span className={s.planAmount}>{price.monthly}</span>
            <span className={s.planPer}>/month</span>
          </>
        ) : (
          <span className={s.planAmount}>
            <span aria-hidden="true">…</span>
            <span className={visuallyHidden}>Loading price</span>
          </span>
        )}
      </p>
      <p className={s.hint} data-testid={`plan-${plan}-annual`} data-toast-avoid="">
        {price ? `Billed annually: ${price.annual}/year` : "\u00a0"}
      </p>
      <ul className={s.featureList}>
        {details.features.map((f) => (
          <li key={f.text} className={f.comingSoon ? s.featureSoon : s.feature}>
            <span aria-hidden="true" className={s.featureMark}>
              ✓
            </span>
            <span>
              {f.text}
              {f.comingSoon ? <span className={s.soonTag}>Coming Soon</span> : null}
            </span>
          </li>
        ))}
      </ul>
    </>
  );
}

/** The notice shown once above the plans when this server takes no payments (no payment provider configured). */
export function PaymentsUnavailableNotice() {
  return (
    <p className={`${s.notice.orange} ${s.paymentsNotice}`} role="note" data-testid="payments-unavailable">
      {PAYMENTS_UNAVAILABLE}
    </p>
  );
}

/** The text of that notice. */
export const PAYMENTS_UNAVAILABLE =
  "Online payment is not available on this server: plans cannot be bought here for now. " +
  "A trial or a plan you already hold keeps working.";
