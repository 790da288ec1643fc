import { api } from "../lib/api.ts";

/** The subscription as GET /subscriptions/me returns it (spec §3); dates are ISO strings. */
export interface SubscriptionData {
  exists: boolean;
  status: string | null;
  subscription_type: string | null;
  billing_interval: string | null;
  is_trial: boolean | null;
  trial_ends_at: string | null;
  current_period_end: string | null;
  cancel_at_period_end: boolean | null;
}

/** The query key of GET /subscriptions/me. */
export const SUBSCRIPTION_QUERY_KEY = ["subscriptions", "me"] as const;

/** Spec §7: the subscription is cached for 60 s and refetched on mount and window focus. */
export const SUBSCRIPTION_STALE_MS = 60_000;

/** GET /subscriptions/me. */
export function fetchSubscription(): Promise<SubscriptionData> {
  return api<SubscriptionData>("GET", "/subscriptions/me");
}

/** The colours of the status badge. */
export type StatusColor = "blue" | "orange" | "green" | "red" | "grey";

/**
 * The status badge of spec §4: active with is_trial 'Active Trial' (blue), trial_expired 'Trial Expired' (orange),
 * active green, past_due orange, canceled red. A status the spec does not colour is shown by name in grey.
 */
export function subscriptionStatus(sub: Pick<SubscriptionData, "exists" | "status" | "is_trial">): { label: string; color: StatusColor } {
  if (!sub.exists || !sub.status) return { label: "No Subscription", color: "grey" };
  if ((sub.status === "active" || sub.status === "trialing") && sub.is_trial) return { label: "Active Trial", color: "blue" };
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
