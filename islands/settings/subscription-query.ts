/**
 * What the settings page needs of the subscription before its status card and plan chooser load: the query keys,
 * cache times and fetchers of GET /subscriptions/me and /subscriptions/prices, whether a plan is paid (the page polls
 * after a checkout until it is). and the checkoutInProgress flag. The plan rules are in ./subscription.ts, which
 * loads with the card (docs/decisions/0043-first-paint-javascript.md).
 */
import { api } from "../lib/api.ts";
import type { components } from "../lib/api-types.gen.ts";

/** The subscription as GET /subscriptions/me returns it (docs/product.md §3); dates are ISO strings. */
export type SubscriptionData = components["schemas"]["SubscriptionRead"];

/** The query key of GET /subscriptions/me. */
export const SUBSCRIPTION_QUERY_KEY = ["subscriptions", "me"] as const;

/** docs/product.md §7: the subscription is cached for 60 s and refetched on mount and window focus. */
export const SUBSCRIPTION_STALE_MS = 60_000;

/** GET /subscriptions/me. */
export function fetchSubscription(): Promise<SubscriptionData> {
  return api("GET", "/subscriptions/me");
}

/**
 * GET /subscriptions/prices (docs/product.md §3): dollars; an annual price is the whole year's; null where missing;
 * `payments_available` false when the server has no payment provider (no checkout can start).
 */
export type PricesData = components["schemas"]["SubscriptionPrices"];

export const PRICES_QUERY_KEY = ["subscriptions", "prices"] as const;

/** docs/product.md §9: prices are cached one hour. */
export const PRICES_STALE_MS = 60 * 60 * 1000;

/** GET /subscriptions/prices. */
export function fetchPrices(): Promise<PricesData> {
  return api("GET", "/subscriptions/prices");
}

/** Whether the subscription is a paid plan in force (what a completed checkout leads to). */
export function isPaidPlan(sub: SubscriptionData | undefined): boolean {
  return Boolean(sub?.exists && !sub.is_trial && (sub.status === "active" || sub.status === "trialing"));
}

/** localStorage flag kept while the user is at the payment provider (docs/product.md §4); cleared on return. */
export const CHECKOUT_FLAG = "checkoutInProgress";

/** Sets or clears the checkoutInProgress flag; storage may be disabled, in which case there is nothing to keep. */
export function setCheckoutFlag(on: boolean): void {
  try {
    if (on) localStorage.setItem(CHECKOUT_FLAG, "true");
    else localStorage.removeItem(CHECKOUT_FLAG);
  } catch {
    // Storage disabled.
  }
}

/** Whether the checkoutInProgress flag is set. */
export function checkoutFlagSet(): boolean {
  try {
    return localStorage.getItem(CHECKOUT_FLAG) !== null;
  } catch {
    return false;
  }
}
