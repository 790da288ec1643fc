import { api } from "../lib/api.ts";
import type { PricesData, SubscriptionData } from "./subscription-query.ts";

// The part of the subscription that the settings page's first paint needs (the queries, the checkout flag) is in
// ./subscription-query.ts; this module, the plan rules, loads with the status card and plan chooser
// (docs/decisions/0043-first-paint-javascript.md).

/** The colours of the status badge. */
export type StatusColor = "blue" | "orange" | "green" | "red" | "grey";

/**
 * The status badge of docs/product.md §4: active with is_trial 'Active Trial' (blue), trial_expired 'Trial Expired'
 * (orange), active green, past_due orange, canceled red. A status docs/product.md does not colour is shown by name in
 * grey.
 */
export function subscriptionStatus(sub: Pick<SubscriptionData, "exists" | "status" | "is_trial">): {
  label: string;
  color: StatusColor;
} {
  if (!sub.exists || !sub.status) return { label: "No Subscription", color: "grey" };
  if ((sub.status === "active" || sub.status === "trialing") && sub.is_trial)
    return { label: "Active Trial", color: "blue" };
  switch (sub.status) {
    case "trial_expired":
      return { label: "Trial Expired", color: "orange" };
    case "active":
      return { label: "Active", color: "green" };
    case "past_due":
      return { label: "Past Due", color: "orange" };
    case "canceled":
      return { label: "Canceled", color: "red" };
    default:
      return { label: titleCase(sub.status), color: "grey" };
  }
}

/** "past_due" → "Past Due"; "plus" → "Plus". */
export function titleCase(value: string): string {
  return value
    .split(/[_\s]+/)
    .filter(Boolean)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(" ");
}

// ---- Plans and prices -------------------------------------------------------------------------------------------

/** The plans, in the order of docs/product.md §4 (plus < pro < max). */
export const PLANS = ["plus", "pro", "max"] as const;
export type Plan = (typeof PLANS)[number];

/** docs/product.md §9: the monthly price shown when a plan's price is missing. */
export const FALLBACK_MONTHLY: Readonly<Record<Plan, number>> = { plus: 7.99, pro: 15.99, max: 23.99 };

/** docs/product.md §9: the annual total shown when it is missing. */
export const MISSING_TOTAL = "$--";

/** "$7.49": dollars with two decimals (prices are in US dollars). */
export function dollars(amount: number): string {
  return `$${amount.toFixed(2)}`;
}

/**
 * The prices of a plan card (docs/product.md §9: billed annually only): the monthly display is the annual price divided
 * by 12; without an annual price (none configured, or the prices could not be loaded) it is the plan's fallback, and
 * the annual total reads '$--'.
 */
export function planPrice(plan: Plan, prices: PricesData | undefined): { monthly: string; annual: string } {
  const annual = prices?.individual?.[plan]?.annual?.unit_amount;
  if (typeof annual !== "number" || !Number.isFinite(annual))
    return { monthly: dollars(FALLBACK_MONTHLY[plan]), annual: MISSING_TOTAL };
  return { monthly: dollars(Math.round((annual / 12) * 100) / 100), annual: dollars(annual) };
}

/** The plan chooser's names and what each plan lists (docs/product.md §1, §9). */
export const PLAN_DETAILS: Readonly<
  Record<Plan, { name: string; features: { text: string; comingSoon?: boolean }[] }>
> = {
  plus: {
    name: "Plus",
    features: [
      { text: "Literature reviews with cited summaries" },
      { text: "Weekly personalized suggestions" },
      { text: "Dashboard of likes and shares" },
      { text: "Full-text search", comingSoon: true },
      { text: "Collaboration", comingSoon: true },
    ],
  },
  pro: { name: "Pro", features: [{ text: "Everything in Plus" }, { text: "To be announced..." }] },
  max: { name: "Max", features: [{ text: "Everything in Pro" }, { text: "To be announced..." }] },
};

/** Plans on sale (docs/product.md §1: Pro and Max cannot currently be purchased). */
export const PURCHASABLE: readonly Plan[] = ["plus"];

/** The one billing interval on sale (docs/product.md §1, §7: always annual). */
export const BILLING_INTERVAL = "annual";

/** A plan card's button: its label, whether it can be clicked (it starts a checkout when it can). */
export interface PlanButton {
  label: "Coming Soon" | "Subscribe" | "Upgrade to Paid" | "Current Plan" | "Switch Billing" | "Upgrade" | "Downgrade";
  disabled: boolean;
}

/**
 * The button of a plan card (docs/product.md §4): Pro and Max 'Coming Soon', disabled. No subscription: 'Subscribe'. A
 * trial (running or expired): 'Upgrade to Paid'. Same plan and billing: 'Current Plan', disabled. Same plan, other
 * billing: 'Switch Billing'. Otherwise 'Upgrade' to a higher plan (plus < pro < max), else 'Downgrade'.
 * A canceled subscription counts as none: its holder subscribes again.
 */
export function planButton(plan: Plan, sub: SubscriptionData | undefined): PlanButton {
  if (!PURCHASABLE.includes(plan)) return { label: "Coming Soon", disabled: true };
  if (!sub?.exists || !sub.status || sub.status === "canceled") return { label: "Subscribe", disabled: false };
  if (sub.is_trial || sub.status === "trial_expired") return { label: "Upgrade to Paid", disabled: false };
  if (sub.subscription_type === plan) {
    return sub.billing_interval === BILLING_INTERVAL
      ? { label: "Current Plan", disabled: true }
      : { label: "Switch Billing", disabled: false };
  }
  const current = PLANS.indexOf(sub.subscription_type as Plan);
  return { label: PLANS.indexOf(plan) > current ? "Upgrade" : "Downgrade", disabled: false };
}

/**
 * The button as it shows when `paymentsOff` (the server takes no payments): every button that would start a
 * checkout is disabled, its label kept so the card still says what it would do; others are unchanged.
 */
export function withoutPayments(button: PlanButton, paymentsOff: boolean): PlanButton {
  return paymentsOff && !button.disabled ? { ...button, disabled: true } : button;
}

/**
 * Whether the Cancel Subscription button shows (docs/product.md §4): the subscription exists, is not set to cancel, is
 * not a trial and is not trial_expired; and, since there is nothing left to cancel, is not canceled already.
 */
export function canCancel(sub: SubscriptionData | undefined): boolean {
  return Boolean(
    sub?.exists &&
      !sub.cancel_at_period_end &&
      !sub.is_trial &&
      sub.status !== "trial_expired" &&
      sub.status !== "canceled",
  );
}

/** Whether `plan` is the user's plan in force (marked 'Your plan' in the chooser): paid, not ended, not a trial. */
export function isCurrentPlan(plan: Plan, sub: SubscriptionData | undefined): boolean {
  return Boolean(
    sub?.exists &&
      !sub.is_trial &&
      sub.subscription_type === plan &&
      sub.status !== "canceled" &&
      sub.status !== "trial_expired",
  );
}

// ---- Checkout ---------------------------------------------------------------------------------------------------

/** docs/product.md §8: the toast of a failed checkout. */
export const CHECKOUT_FAILED = "Something went wrong. Please try again later";

/** docs/product.md §8: the toast of a cancel request. */
export const CANCEL_REQUESTED =
  "Subscription cancellation requested. It will remain active until the end of the current period.";

/**
 * The return addresses of docs/product.md §7: /settings?tab=subscription with subscription_checkout=success or cancel.
 */
export function checkoutReturnUrls(origin: string): { success_url: string; cancel_url: string } {
  const back = (outcome: "success" | "cancel") =>
    `${origin}/settings?tab=subscription&subscription_checkout=${outcome}`;
  return { success_url: back("success"), cancel_url: back("cancel") };
}

/** POST /subscriptions/checkout for `plan`, billed annually. @returns where to send the browser. */
export async function startCheckout(plan: Plan, origin: string): Promise<string> {
  const { checkout_url } = await api("POST", "/subscriptions/checkout", {
    body: { subscription_type: plan, billing_interval: BILLING_INTERVAL, ...checkoutReturnUrls(origin) },
  });
  return checkout_url;
}

/** POST /subscriptions/cancel. @returns the subscription as it now reads. */
export function cancelSubscription(): Promise<SubscriptionData> {
  return api("POST", "/subscriptions/cancel");
}
