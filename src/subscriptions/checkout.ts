import type Stripe from "stripe";
import type { AppDeps } from "../deps.ts";
import type { CurrentUser } from "../auth/middleware.ts";
import { ApiError } from "../http/errors.ts";
import * as repo from "./repository.ts";
import { readSubscription, type SubscriptionRead } from "./service.ts";
import { sellablePrices } from "./prices.ts";
import { callStripe, requireStripe, type Interval, type Plan } from "./stripe.ts";
import { isLiveStripeRow, syncStripeSubscription } from "./sync.ts";

/**
 * Subscribing and cancelling (docs/product.md §4, §7). Both need STRIPE_SECRET_KEY (else 503). Neither writes what the
 * user asked for into our database: checkout returns Stripe's payment page, and the webhook records what Stripe then
 * says; after a cancel or plan switch the subscription is re-read from Stripe and mirrored (sync.ts).
 */

/** Plans that can be bought now (docs/product.md §1: Pro and Max cannot currently be purchased). */
export const PURCHASABLE_PLANS: readonly Plan[] = ["plus"];
/** docs/product.md §1, §7: billed annually only. */
export const PURCHASABLE_INTERVALS: readonly Interval[] = ["annual"];

export const PLAN_NOT_PURCHASABLE = "This plan cannot be purchased yet.";
export const INTERVAL_NOT_OFFERED = "Only annual billing is available.";
export const PRICE_MISSING = "This plan is not available for purchase right now. Please try again later.";
export const RETURN_URL_REFUSED = "success_url and cancel_url must be addresses of this site.";
export const ALREADY_SUBSCRIBED = "You are already subscribed to this plan.";
export const PLAN_GRANTED = "Your plan was set up by an administrator. Please contact support to change it.";
export const NOTHING_TO_CANCEL = "You have no paid subscription to cancel.";

/** What POST /subscriptions/checkout receives (docs/product.md §3). */
export interface CheckoutRequest {
  subscription_type: Plan;
  billing_interval: Interval;
  success_url: string;
  cancel_url: string;
}

/**
 * Refuses return addresses on another site: Stripe would send the user there after paying, so a link crafted
 * elsewhere could use our checkout as an open redirect.
 * @param siteOrigins the origins of this site (the request's own and PUBLIC_URL's).
 * @throws ApiError 400 RETURN_URL_REFUSED.
 */
export function checkReturnUrls(
  input: Pick<CheckoutRequest, "success_url" | "cancel_url">,
  siteOrigins: ReadonlySet<string>,
): void {
  for (const url of [input.success_url, input.cancel_url]) {
    let origin: string;
    try {
      origin = new URL(url).origin;
    } catch {
      throw new ApiError(400, RETURN_URL_REFUSED);
    }
    if (!siteOrigins.has(origin)) throw new ApiError(400, RETURN_URL_REFUSED);
  }
}

/**
 * The user's Stripe customer: the one recorded, else a new one, recorded. Created once per user: the create call
 * carries an idempotency key derived from the user id, so two checkouts racing for a first customer get the same
 * one from Stripe, and the table keeps the first recorded.
 */
export async function customerFor(
  deps: Pick<AppDeps, "db">,
  stripe: Stripe,
  user: Pick<CurrentUser, "id" | "email" | "full_name">,
): Promise<string> {
  const known = await repo.findStripeCustomerId(deps.db, user.id);
  if (known) return known;
  const customer = await callStripe("create customer", () =>
    stripe.customers.create(
      { email: user.email, ...(user.full_name ? { name: user.full_name } : {}), metadata: { user_id: user.id } },
      { idempotencyKey: `litreview-customer-${user.id}` },
    ),
  );
  return repo.saveStripeCustomer(deps.db, user.id, customer.id);
}

/**
 * POST /subscriptions/checkout. A user without a live paid subscription gets a Stripe Checkout session in
 * subscription mode for the plan's price (found by lookup key) and `checkout_url` is its payment page. A user who
 * already pays through Stripe for another plan or interval has that subscription switched to the new price (Stripe
 * prorates) instead of a second subscription, and `checkout_url` is `success_url`, since there is nothing to pay
 * on a page.
 * @throws ApiError 503 without Stripe; 400 for a plan or interval not on sale, foreign return URLs; 409 when the
 *   user already has this plan or an administrator's grant; 502 when Stripe fails.
 */
export async function startCheckout(
  deps: AppDeps,
  user: CurrentUser,
  input: CheckoutRequest,
  siteOrigins: ReadonlySet<string>,
): Promise<{ checkout_url: string }> {
  const stripe = requireStripe(deps.config);
  checkReturnUrls(input, siteOrigins);
  if (!PURCHASABLE_PLANS.includes(input.subscription_type)) throw new ApiError(400, PLAN_NOT_PURCHASABLE);
  if (!PURCHASABLE_INTERVALS.includes(input.billing_interval)) throw new ApiError(400, INTERVAL_NOT_OFFERED);

  const row = await repo.findSubscriptionByUserId(deps.db, user.id);
  if (row?.source === "operator" && row.status === "active") throw new ApiError(409, PLAN_GRANTED);
  const price = (await sellablePrices(deps.config))[input.subscription_type][input.billing_interval];
  if (!price) throw new ApiError(503, PRICE_MISSING);

  if (isLiveStripeRow(row)) {
    if (row.subscription_type === input.subscription_type && row.billing_interval === input.billing_interval)
      throw new ApiError(409, ALREADY_SUBSCRIBED);
    await switchPrice(deps, stripe, row.stripe_subscription_id, price.id, user.id);
    return { checkout_url: input.success_url };
  }

  const customer = await customerFor(deps, stripe, user);
  const session = await callStripe("create checkout session", () =>
    stripe.checkout.sessions.create({
      mode: "subscription",
      customer,
      line_items: [{ price: price.id, quantity: 1 }],
      success_url: input.success_url,
      cancel_url: input.cancel_url,
      client_reference_id: user.id,
      metadata: { user_id: user.id },
      subscription_data: { metadata: { user_id: user.id } },
    }),
  );
  if (!session.url)
    throw new ApiError(502, "The payment provider did not return a checkout page. Please try again later.");
  return { checkout_url: session.url };
}

/** Moves a live Stripe subscription to another price (keeping it, with proration), then mirrors it. */
async function switchPrice(
  deps: AppDeps,
  stripe: Stripe,
  subscriptionId: string,
  priceId: string,
  userId: string,
): Promise<void> {
  const current = await callStripe("retrieve subscription", () => stripe.subscriptions.retrieve(subscriptionId));
  const item = current.items.data[0];
  if (!item)
    throw new ApiError(502, "The payment provider returned a subscription without a plan. Please contact support.");
  await callStripe("switch subscription price", () =>
    stripe.subscriptions.update(subscriptionId, {
      items: [{ id: item.id, price: priceId }],
      cancel_at_period_end: false,
      proration_behavior: "create_prorations",
    }),
  );
  await syncStripeSubscription(deps, stripe, { stripeSubscriptionId: subscriptionId, userIdHint: userId });
}

/**
 * POST /subscriptions/cancel: asks Stripe to end the user's paid subscription at the end of the current period
 * (never at once: it stays active until then), then mirrors the subscription. Asking again changes nothing.
 * @returns the subscription as it now reads.
 * @throws ApiError 503 without Stripe; 400 NOTHING_TO_CANCEL when the user pays for no live Stripe subscription (a
 *   trial, an administrator's grant, an ended plan); 502 when Stripe fails.
 */
export async function cancelAtPeriodEnd(deps: AppDeps, userId: string): Promise<SubscriptionRead> {
  const stripe = requireStripe(deps.config);
  const row = await repo.findSubscriptionByUserId(deps.db, userId);
  if (!isLiveStripeRow(row)) throw new ApiError(400, NOTHING_TO_CANCEL);
  const id = row.stripe_subscription_id;
  await callStripe("cancel at period end", () => stripe.subscriptions.update(id, { cancel_at_period_end: true }));
  await syncStripeSubscription(deps, stripe, { stripeSubscriptionId: id, userIdHint: userId });
  return readSubscription(deps.db, userId);
}
