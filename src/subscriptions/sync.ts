import type Stripe from "stripe";
import type { Database } from "../db/database.ts";
import type { AppDeps } from "../deps.ts";
import { enqueueUserSuggestions } from "../suggestions/queueing.ts";
import { opensReviewAccess } from "./service.ts";
import { callStripe, isMissingObject, planOfLookupKey, type Interval, type Plan } from "./stripe.ts";
import * as repo from "./repository.ts";
import type { SubscriptionChange, SubscriptionRow, SubscriptionView } from "./repository.ts";

/**
 * Mirrors a Stripe subscription into our `subscriptions` row (docs/decisions/0018-billing-with-stripe.md). Every
 * path that learns something from Stripe ends here: the webhook, the cancel call, a plan switch. The row is
 * written only from an object Stripe returned, never from what a browser says.
 *
 * Order and concurrency: the row and its revision are read first, then the subscription is read from Stripe as it
 * is now (so an old event carries no old state), and the write is conditional on the revision being unchanged. A
 * writer that loses reads both again and retries, so the last write always holds a state read from Stripe after
 * every earlier write: deliveries in any order, or at the same time, converge on what Stripe says now.
 */

/** Our status of a Stripe subscription status, or null for one that never started (left out). */
function statusOf(stripeStatus: Stripe.Subscription.Status): "active" | "trialing" | "past_due" | "canceled" | null {
  switch (stripeStatus) {
    case "active":
      return "active";
    case "trialing":
      return "trialing";
    // Payment is owed: unpaid (retries exhausted) and paused (a trial ended without a payment method) alike.
    case "past_due":
    case "unpaid":
    case "paused":
      return "past_due";
    case "canceled":
      return "canceled";
    // incomplete: the first payment has not gone through (yet); incomplete_expired: it never did. Neither ever
    // gave access, and neither may replace a running trial.
    default:
      return null;
  }
}

/** Statuses of a Stripe subscription that still exists for billing (it may recover or renew). */
const LIVE = new Set(["active", "trialing", "past_due"]);

/** True when the row mirrors a Stripe subscription that is still live. */
export function isLiveStripeRow(
  row: SubscriptionRow | undefined,
): row is SubscriptionRow & { stripe_subscription_id: string } {
  return Boolean(row && row.source === "stripe" && row.stripe_subscription_id && LIVE.has(row.status));
}

/** Stripe's id of an expandable field (a string, or an object with an id). */
export function idOf(value: string | { id: string } | null | undefined): string | null {
  if (!value) return null;
  return typeof value === "string" ? value : value.id;
}

/** What the row should say for a Stripe subscription, or why it is left out. */
export type StripeState =
  | {
      kind: "state";
      stripeSubscriptionId: string;
      stripeCustomerId: string | null;
      live: boolean;
      change: SubscriptionChange & { status: string; subscription_type: Plan; billing_interval: Interval };
    }
  | { kind: "ignored"; reason: string };

/**
 * Reads our view of a Stripe subscription: plan and interval from its price's lookup key; status as statusOf;
 * the period end from its items (newer API versions keep it there) or, when a cancellation date is set, that date;
 * a Stripe-side trial as a trial with its end.
 */
export function stateOfStripeSubscription(sub: Stripe.Subscription): StripeState {
  const status = statusOf(sub.status);
  if (!status) return { kind: "ignored", reason: `status ${sub.status}` };
  const items = sub.items?.data ?? [];
  const plans = items.map((item) => planOfLookupKey(item.price?.lookup_key)).filter((p) => p !== null);
  if (plans.length === 0) return { kind: "ignored", reason: "no price with a LitReview lookup key" };
  // One plan per subscription is what checkout creates; with several, the highest one counts.
  const order: Plan[] = ["plus", "pro", "max"];
  const plan = plans.reduce((best, p) => (order.indexOf(p.plan) > order.indexOf(best.plan) ? p : best));
  const legacyPeriodEnd = (sub as unknown as { current_period_end?: number }).current_period_end;
  const periodEnds = items.map((i) => i.current_period_end).filter((t): t is number => typeof t === "number");
  const periodEnd = periodEnds.length ? Math.max(...periodEnds) : (legacyPeriodEnd ?? null);
  const cancelling = status !== "canceled" && (sub.cancel_at_period_end || sub.cancel_at !== null);
  const endsAt =
    cancelling && sub.cancel_at !== null
      ? sub.cancel_at
      : status === "canceled"
        ? (sub.ended_at ?? periodEnd)
        : periodEnd;
  const trialing = status === "trialing";
  return {
    kind: "state",
    stripeSubscriptionId: sub.id,
    stripeCustomerId: idOf(sub.customer),
    live: LIVE.has(status),
    change: {
      source: "stripe",
      status,
      subscription_type: plan.plan,
      billing_interval: plan.interval,
      is_trial: trialing,
      trial_ends_at: trialing && sub.trial_end ? new Date(sub.trial_end * 1000) : null,
      current_period_end: endsAt === null ? null : new Date(endsAt * 1000),
      cancel_at_period_end: cancelling,
      stripe_subscription_id: sub.id,
      stripe_customer_id: idOf(sub.customer),
    },
  };
}

/** The fields of a change that differ from the row (dates compared by instant). */
function differs(row: SubscriptionRow, change: SubscriptionChange): boolean {
  for (const [key, value] of Object.entries(change)) {
    const current = row[key as keyof SubscriptionRow];
    if (value instanceof Date || current instanceof Date) {
      const a = value === null || value === undefined ? null : new Date(value as Date).getTime();
      const b = current === null || current === undefined ? null : new Date(current as Date).getTime();
      if (a !== b) return true;
    } else if (current !== value) return true;
  }
  return false;
}

/**
 * Whether a Stripe state may replace the row (the rules of the ADR):
 * - an active plan an operator granted is changed only by the operator;
 * - a row linked to another Stripe subscription is replaced only by a live one, and only when its own is not
 *   live (a second, older or ended subscription never overwrites the current one);
 * - otherwise (a trial, an ended plan, no row, the same subscription) Stripe's state applies.
 */
export function mayApply(row: SubscriptionRow | undefined, state: Extract<StripeState, { kind: "state" }>): boolean {
  if (!row) return state.live;
  if (row.stripe_subscription_id === state.stripeSubscriptionId) return true;
  if (row.source === "operator" && row.status === "active") return false;
  if (!state.live) return false;
  return !isLiveStripeRow(row);
}

/** Where a Stripe subscription comes from, to find its user. */
export interface SyncTarget {
  stripeSubscriptionId: string;
  /** The customer named by the event, if any. */
  customerId?: string | null;
  /** Our user id as the event or subscription metadata names it (checked against the users table). */
  userIdHint?: string | null;
}

/** A webhook event, recorded in the transaction of its effect. */
export interface EventRecord {
  id: string;
  type: string;
  created: Date;
}

export type SyncOutcome = "applied" | "unchanged" | "ignored" | "duplicate";

class RevisionConflict extends Error {}

/** Writes that may lose to concurrent ones before giving up (each loss means someone else just synced). */
const MAX_ATTEMPTS = 8;

/** Syncs of one Stripe subscription through one database handle (one process), chained one after the other. */
const chains = new WeakMap<Database, Map<string, Promise<unknown>>>();

/**
 * Runs `work` after every earlier sync of the same Stripe subscription in this process has finished. Deliveries of
 * several events of one subscription at once then do not keep invalidating each other's revision here; across
 * processes the revision check (with retries after a short random pause) keeps them correct.
 */
async function oneAtATime<T>(db: Database, key: string, work: () => Promise<T>): Promise<T> {
  let inProcess = chains.get(db);
  if (!inProcess) chains.set(db, (inProcess = new Map()));
  const before = inProcess.get(key) ?? Promise.resolve();
  const mine = before.catch(() => undefined).then(work);
  const tail = mine.catch(() => undefined);
  inProcess.set(key, tail);
  try {
    return await mine;
  } finally {
    if (inProcess!.get(key) === tail) inProcess!.delete(key);
  }
}

async function findUser(
  db: Database,
  target: SyncTarget,
  sub: Stripe.Subscription | null,
): Promise<string | undefined> {
  const linked = await repo.findSubscriptionByStripeId(db, target.stripeSubscriptionId);
  if (linked) return linked.user_id;
  for (const customer of [target.customerId, sub ? idOf(sub.customer) : null]) {
    if (!customer) continue;
    const user = await repo.findUserIdByStripeCustomer(db, customer);
    if (user) return user;
  }
  for (const hint of [target.userIdHint, sub?.metadata?.user_id]) {
    if (hint && (await repo.userExists(db, hint))) return hint;
  }
  return undefined;
}

/**
 * Brings the row of the user of `target` in line with the Stripe subscription: reads the row (and its revision),
 * THEN retrieves the subscription from Stripe, and writes if the rules allow and something differs, on condition
 * that the revision is still the one read. With `event`, the event id is recorded in the same transaction: a second
 * delivery changes nothing. Callers that have just changed the subscription at Stripe call this afterwards: the
 * subscription is read again rather than taken from their answer, so that it is never older than the row.
 * @returns what happened: applied, unchanged (Stripe agrees with the row), ignored (no user of ours, a price
 *   without our lookup key, a subscription that never started or that may not replace the row), duplicate.
 * @throws ApiError 502 when Stripe cannot be reached (the webhook then answers 502 and Stripe delivers again).
 */
export async function syncStripeSubscription(
  deps: Pick<AppDeps, "db" | "jobs">,
  stripe: Stripe,
  target: SyncTarget,
  opts: { event?: EventRecord } = {},
): Promise<SyncOutcome> {
  if (opts.event && (await repo.stripeEventSeen(deps.db, opts.event.id))) return "duplicate";
  return oneAtATime(deps.db, target.stripeSubscriptionId, () => syncOnce(deps, stripe, target, opts.event));
}

async function syncOnce(
  deps: Pick<AppDeps, "db" | "jobs">,
  stripe: Stripe,
  target: SyncTarget,
  event: EventRecord | undefined,
): Promise<SyncOutcome> {
  const db = deps.db;
  // A user found only through the subscription's own customer or metadata is known from the next attempt on.
  let foundThroughStripe: string | undefined;
  for (let attempt = 1; ; attempt++) {
    if (event && (await repo.stripeEventSeen(db, event.id))) return "duplicate";
    // The row, and its revision, before Stripe is asked: see the comment at the top of this file.
    let userId = foundThroughStripe ?? (await findUser(db, target, null));
    const row = userId ? await repo.findSubscriptionByUserId(db, userId) : undefined;
    const sub = await retrieveSubscription(stripe, target.stripeSubscriptionId);
    if (!userId && sub) {
      userId = await findUser(db, target, sub);
      if (userId && attempt < MAX_ATTEMPTS) {
        foundThroughStripe = userId;
        continue;
      }
    }
    const state: StripeState = sub
      ? stateOfStripeSubscription(sub)
      : { kind: "ignored", reason: "no such subscription in this Stripe account" };
    let outcome: SyncOutcome;
    let change: Extract<StripeState, { kind: "state" }>["change"] | null = null;
    if (!userId) {
      console.warn(`stripe: subscription ${target.stripeSubscriptionId} belongs to no user of this server; left out`);
      outcome = "ignored";
    } else if (state.kind === "ignored") {
      outcome = "ignored";
    } else if (!mayApply(row, state)) {
      if (state.live && isLiveStripeRow(row)) {
        console.warn(
          `stripe: user ${userId} has a second live subscription ${state.stripeSubscriptionId} besides ${row.stripe_subscription_id}; only the first is mirrored`,
        );
      }
      outcome = "ignored";
    } else if (row && !differs(row, state.change)) {
      outcome = "unchanged";
    } else {
      outcome = "applied";
      change = state.change;
    }
    // Even a decision to change nothing is committed against the revision it was made on: a concurrent writer
    // holding an older Stripe state then loses and re-reads, instead of writing that older state afterwards.
    const write = async (trx: Database): Promise<boolean> => {
      if (!userId) return true;
      if (!row) return change ? repo.insertIfAbsent(trx, userId, change) : true;
      return change
        ? repo.writeIfRevision(trx, userId, row.revision, change)
        : repo.touchIfRevision(trx, userId, row.revision);
    };
    // A subscriber whose access starts here (a first payment, a return after the trial ended) gets this week's
    // suggestions now, in the same transaction: not at the next weekly run.
    const opens = Boolean(userId && change && opensReviewAccess(row, change as Partial<SubscriptionView>, new Date()));
    try {
      const result = await db.transaction().execute(async (trx) => {
        if (event && !(await repo.recordStripeEvent(trx, event))) return "duplicate";
        if (!(await write(trx))) throw new RevisionConflict();
        if (opens) await enqueueUserSuggestions(deps, userId!, { db: trx });
        return outcome;
      });
      if (opens && result === "applied") deps.jobs.wake?.();
      return result;
    } catch (err) {
      if (!(err instanceof RevisionConflict) || attempt >= MAX_ATTEMPTS) throw err;
      // Another process wrote meanwhile: pause a little, at random, so that two of them do not collide again.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt));
    }
  }
}

/**
 * The subscription as Stripe has it now, or null when Stripe does not know it (a test-mode event sent to a live
 * endpoint, a deleted test clock): nothing to mirror then.
 * @throws ApiError 502 for any other failure, which Stripe's redelivery of the event will retry.
 */
async function retrieveSubscription(stripe: Stripe, id: string): Promise<Stripe.Subscription | null> {
  return callStripe("retrieve subscription", async () => {
    try {
      return await stripe.subscriptions.retrieve(id);
    } catch (err) {
      if (isMissingObject(err)) return null;
      throw err;
    }
  });
}
