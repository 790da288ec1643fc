import type { AppDeps } from "../deps.ts";
import * as repo from "./repository.ts";
import { opensReviewAccess, toRead, type SubscriptionRead } from "./service.ts";
import { enqueueUserSuggestions } from "../suggestions/queueing.ts";
import { findUserByEmail } from "../users/repository.ts";
import { callStripe, stripeClient, type Interval, type Plan } from "./stripe.ts";
import { isLiveStripeRow, syncStripeSubscription } from "./sync.ts";

/**
 * What an operator does from the command line (`npm run subscription -- …`, scripts/subscription.ts): grant a plan
 * without payment, or end one. The change is one database write; every process reads the row on each request,
 * so it holds at once everywhere.
 */

/** A refusal the operator can act on (printed as is). */
export class OperatorError extends Error {}

type Deps = Pick<AppDeps, "config" | "db" | "jobs">;

async function userByEmail(deps: Deps, email: string): Promise<{ id: string; email: string }> {
  const user = await findUserByEmail(deps.db, email);
  if (!user) throw new OperatorError(`No account has the address ${email}.`);
  return user;
}

/** The subscription of the account with this address. @throws OperatorError when there is no such account. */
export async function showPlan(
  deps: Deps,
  email: string,
): Promise<{ email: string; subscription: SubscriptionRead | null; source: string | null }> {
  const user = await userByEmail(deps, email);
  const row = await repo.findSubscriptionByUserId(deps.db, user.id);
  return { email: user.email, subscription: row ? toRead(row) : null, source: row?.source ?? null };
}

/**
 * Gives the account `plan` without payment: active, not a trial, no end date, until an operator ends it. Stripe
 * events do not change an active granted plan (ADR 0018).
 * @throws OperatorError when there is no such account, or it pays for a live Stripe subscription (end that first,
 *   so that nobody is billed for a plan they were given).
 */
export async function grantPlan(
  deps: Deps,
  email: string,
  plan: Plan,
  interval: Interval = "annual",
): Promise<SubscriptionRead> {
  const user = await userByEmail(deps, email);
  const row = await repo.findSubscriptionByUserId(deps.db, user.id);
  if (isLiveStripeRow(row)) {
    throw new OperatorError(
      `${user.email} pays for the Stripe subscription ${row.stripe_subscription_id} (${row.status}). End it first: npm run subscription -- end ${user.email}`,
    );
  }
  const change = {
    source: "operator",
    status: "active",
    subscription_type: plan,
    billing_interval: interval,
    is_trial: false,
    current_period_end: null,
    cancel_at_period_end: false,
    stripe_subscription_id: null,
  } as const;
  const written = row
    ? (await repo.overwriteSubscription(deps.db, user.id, change))!
    : await repo.insertSubscription(deps.db, { ...change, user_id: user.id });
  // A new subscriber gets this week's suggestions now, not at the next weekly run.
  if (opensReviewAccess(row, change, new Date())) await enqueueUserSuggestions(deps, user.id);
  return toRead(written);
}

/**
 * Ends the account's plan now: status canceled, access closed from the next request. A live Stripe subscription is
 * canceled at Stripe (immediately, not at the period end) when STRIPE_SECRET_KEY is set, and the row then
 * mirrors it; without the key the row is ended here and `warning` says that Stripe still bills.
 * @throws OperatorError when there is no such account or it has no subscription.
 */
export async function endPlan(
  deps: Deps,
  email: string,
): Promise<{ subscription: SubscriptionRead; warning?: string }> {
  const user = await userByEmail(deps, email);
  const row = await repo.findSubscriptionByUserId(deps.db, user.id);
  if (!row) throw new OperatorError(`${user.email} has no subscription.`);
  let warning: string | undefined;
  if (isLiveStripeRow(row)) {
    const stripe = stripeClient(deps.config);
    if (stripe) {
      const id = row.stripe_subscription_id;
      await callStripe("cancel subscription", () => stripe.subscriptions.cancel(id));
      await syncStripeSubscription(deps, stripe, { stripeSubscriptionId: id });
      return { subscription: toRead((await repo.findSubscriptionByUserId(deps.db, user.id))!) };
    }
    warning = `STRIPE_SECRET_KEY is not set: the Stripe subscription ${row.stripe_subscription_id} still bills ${user.email}. Cancel it in the Stripe dashboard.`;
  }
  const ended = await repo.overwriteSubscription(deps.db, user.id, {
    source: "operator",
    status: "canceled",
    is_trial: false,
    cancel_at_period_end: false,
    current_period_end: new Date(),
  });
  return { subscription: toRead(ended!), ...(warning ? { warning } : {}) };
}
