import type { z } from "@hono/zod-openapi";
import type { Database } from "../db/database.ts";
import type { SubscriptionReadSchema } from "./schemas.ts";
import { expireTrialIfDue, findSubscriptionByUserId, insertSubscription, type SubscriptionView } from "./repository.ts";

/** Plans that open the literature review and weekly suggestions (docs/product.md §1, §6). */
export const PAID_PLANS = ["plus", "pro", "max"] as const;

/** Length of the free Plus trial every new account starts with (docs/product.md §9: one week). */
export const TRIAL_DAYS = 7;

/**
 * The subscription as GET /subscriptions/me returns it (docs/product.md §3). All fields but `exists` are null when
 * there is none.
 */
export type SubscriptionRead = z.infer<typeof SubscriptionReadSchema>;

const NO_SUBSCRIPTION: SubscriptionRead = {
  exists: false,
  status: null,
  subscription_type: null,
  billing_interval: null,
  is_trial: null,
  trial_ends_at: null,
  current_period_end: null,
  cancel_at_period_end: null,
};

/** The row as docs/product.md §3 shows it. */
export function toRead(row: SubscriptionView): SubscriptionRead {
  return {
    exists: true,
    status: row.status,
    subscription_type: row.subscription_type,
    billing_interval: row.billing_interval,
    is_trial: row.is_trial,
    trial_ends_at: row.trial_ends_at,
    current_period_end: row.current_period_end,
    cancel_at_period_end: row.cancel_at_period_end,
  };
}

/** True when the row is our free trial, recorded as active, whose end has passed (it reads as trial_expired). */
function isLapsedTrial(row: SubscriptionView, now: Date): boolean {
  return (
    row.status === "active" &&
    row.is_trial &&
    row.trial_ends_at !== null &&
    new Date(row.trial_ends_at).getTime() <= now.getTime()
  );
}

/**
 * THE access rule of the literature review and weekly suggestions (docs/product.md §1, §6), the only one: the
 * subscription is of type plus, pro or max and either
 * - active, and not our free trial whose end has passed: access stops at trial_ends_at to the millisecond,
 *   whether or not the trial sweep has marked it trial_expired yet; or
 * - trialing, a trial Stripe runs on a paid subscription (Stripe decides when it ends and tells us).
 * Pure: the caller reads the row at the moment of the request, so a change (a webhook, an operator's grant or
 * end) holds from the next request on, in every process; nothing is cached.
 */
export function grantsReviewAccess(row: SubscriptionView | undefined, now: Date): boolean {
  if (!row || !(PAID_PLANS as readonly string[]).includes(row.subscription_type)) return false;
  if (row.status === "trialing") return true;
  return row.status === "active" && !isLapsedTrial(row, now);
}

/**
 * Whether writing `change` over `before` (undefined: no row yet) opens access that was closed at `now`: a new
 * subscriber, whose first weekly suggestions should not wait for the next weekly run. Pure.
 */
export function opensReviewAccess(
  before: SubscriptionView | undefined,
  change: Partial<SubscriptionView>,
  now: Date,
): boolean {
  if (grantsReviewAccess(before, now)) return false;
  const after = {
    status: "",
    subscription_type: "",
    billing_interval: "",
    is_trial: false,
    trial_ends_at: null,
    current_period_end: null,
    cancel_at_period_end: false,
    ...before,
    ...change,
  };
  return grantsReviewAccess(after as SubscriptionView, now);
}

/**
 * Starts the one-week Plus trial of a new account (status active, annual, is_trial, period ending with the trial).
 * Call it inside the transaction that creates the user so that no account exists without its trial.
 */
export async function startTrial(db: Database, userId: string, now: Date = new Date()): Promise<SubscriptionRead> {
  const trialEndsAt = new Date(now.getTime() + TRIAL_DAYS * 24 * 60 * 60 * 1000);
  const row = await insertSubscription(db, {
    user_id: userId,
    status: "active",
    subscription_type: "plus",
    billing_interval: "annual",
    is_trial: true,
    trial_ends_at: trialEndsAt,
    current_period_end: trialEndsAt,
    source: "trial",
  });
  return toRead(row);
}

/**
 * The user's subscription for display. An active trial whose end has passed is returned as "trial_expired",
 * and that status is written back so that every other reader (the billing webhook, the trial e-mails) sees it too.
 */
export async function readSubscription(
  db: Database,
  userId: string,
  now: Date = new Date(),
  /** The row when the caller has just read it (null: the user has none); read here when undefined. */
  known?: SubscriptionView | null,
): Promise<SubscriptionRead> {
  const row = known === undefined ? await findSubscriptionByUserId(db, userId) : (known ?? undefined);
  if (!row) return NO_SUBSCRIPTION;
  if (isLapsedTrial(row, now)) {
    const updated = await expireTrialIfDue(db, userId, now);
    // Someone else may have changed the row meanwhile (e.g. the trial was converted): re-read it then.
    return toRead(updated ?? (await findSubscriptionByUserId(db, userId)) ?? row);
  }
  return toRead(row);
}

/**
 * Whether the user may use the literature review and weekly suggestions now (grantsReviewAccess on the row as
 * stored). One primary-key read per call, cheap enough for every guarded request.
 */
export async function hasActiveReviewAccess(db: Database, userId: string, now: Date = new Date()): Promise<boolean> {
  return grantsReviewAccess(await findSubscriptionByUserId(db, userId), now);
}
