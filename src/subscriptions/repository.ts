import { sql, type Insertable, type Selectable, type Updateable } from "kysely";
import type { Database } from "../db/database.ts";
import { findUserById } from "../users/repository.ts";
import type { SubscriptionsTable } from "../db/types.ts";
import type { UserLookup } from "../auth/middleware.ts";

// All SQL about subscriptions, Stripe customers and Stripe events. Functions take a Database, which may also be
// an open transaction. Every write to a subscription bumps its revision (see writeIfRevision).

export type SubscriptionRow = Selectable<SubscriptionsTable>;

/** The columns a billing change may set (never the user, the id or the bookkeeping columns). */
export type SubscriptionChange = Omit<
  Updateable<SubscriptionsTable>,
  "id" | "user_id" | "revision" | "created_at" | "updated_at"
>;

/** The subscription of a user, or undefined (a user has at most one: user_id is unique). */
export function findSubscriptionByUserId(db: Database, userId: string): Promise<SubscriptionRow | undefined> {
  return db.selectFrom("subscriptions").selectAll().where("user_id", "=", userId).executeTakeFirst();
}

/** The subscription linked to a Stripe subscription id (sub_…), or undefined. */
export function findSubscriptionByStripeId(
  db: Database,
  stripeSubscriptionId: string,
): Promise<SubscriptionRow | undefined> {
  return db
    .selectFrom("subscriptions")
    .selectAll()
    .where("stripe_subscription_id", "=", stripeSubscriptionId)
    .executeTakeFirst();
}

/** The columns of a subscription that showing it and checking access need. */
export type SubscriptionView = Pick<
  SubscriptionRow,
  | "status"
  | "subscription_type"
  | "billing_interval"
  | "is_trial"
  | "trial_ends_at"
  | "current_period_end"
  | "cancel_at_period_end"
>;

/**
 * Adds the user's subscription to the signed-in user's lookup (src/auth/middleware.ts, resolveUserWith), so that
 * GET /subscriptions/me reads both in one statement. Columns are prefixed `sub_`; all null when there is none.
 */
export function joinSubscription(lookup: UserLookup) {
  return lookup
    .leftJoin("subscriptions", "subscriptions.user_id", "users.id")
    .select([
      "subscriptions.status as sub_status",
      "subscriptions.subscription_type as sub_subscription_type",
      "subscriptions.billing_interval as sub_billing_interval",
      "subscriptions.is_trial as sub_is_trial",
      "subscriptions.trial_ends_at as sub_trial_ends_at",
      "subscriptions.current_period_end as sub_current_period_end",
      "subscriptions.cancel_at_period_end as sub_cancel_at_period_end",
    ]);
}

/** The subscription of a joinSubscription row, or null when the user has none. */
export function subscriptionOfJoin(
  row: Awaited<ReturnType<ReturnType<typeof joinSubscription>["executeTakeFirstOrThrow"]>>,
): SubscriptionView | null {
  if (row.sub_status === null || row.sub_subscription_type === null) return null;
  return {
    status: row.sub_status,
    subscription_type: row.sub_subscription_type,
    billing_interval: row.sub_billing_interval!,
    is_trial: row.sub_is_trial!,
    trial_ends_at: row.sub_trial_ends_at,
    current_period_end: row.sub_current_period_end,
    cancel_at_period_end: row.sub_cancel_at_period_end!,
  };
}

/** Inserts a subscription row and returns it. */
export function insertSubscription(db: Database, values: Insertable<SubscriptionsTable>): Promise<SubscriptionRow> {
  return db.insertInto("subscriptions").values(values).returningAll().executeTakeFirstOrThrow();
}

/**
 * Applies `change` to the user's row only if its revision is still `revision` (optimistic concurrency: the caller
 * read the row, then asked Stripe; a write that happened meanwhile makes this one lose).
 * @returns true when the row was written.
 */
export async function writeIfRevision(
  db: Database,
  userId: string,
  revision: number,
  change: SubscriptionChange,
): Promise<boolean> {
  const result = await db
    .updateTable("subscriptions")
    .set({ ...change, revision: sql`revision + 1`, updated_at: sql`now()` })
    .where("user_id", "=", userId)
    .where("revision", "=", revision)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Bumps the revision only (nothing visible changes) if it is still `revision`: commits a decision to change
 * nothing against the state it was made on. @returns true when the revision was current.
 */
export async function touchIfRevision(db: Database, userId: string, revision: number): Promise<boolean> {
  const result = await db
    .updateTable("subscriptions")
    .set({ revision: sql`revision + 1` })
    .where("user_id", "=", userId)
    .where("revision", "=", revision)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Inserts the user's row unless one exists already (created meanwhile by a concurrent writer).
 * @returns true when inserted.
 */
export async function insertIfAbsent(
  db: Database,
  userId: string,
  values: SubscriptionChange & Pick<Insertable<SubscriptionsTable>, "status" | "subscription_type">,
): Promise<boolean> {
  const rows = await db
    .insertInto("subscriptions")
    .values({ ...values, user_id: userId })
    .onConflict((oc) => oc.column("user_id").doNothing())
    .returning("id")
    .execute();
  return rows.length === 1;
}

/** Sets `change` on the user's row whatever its revision (operator commands). @returns the row, or undefined. */
export function overwriteSubscription(
  db: Database,
  userId: string,
  change: SubscriptionChange,
): Promise<SubscriptionRow | undefined> {
  return db
    .updateTable("subscriptions")
    .set({ ...change, revision: sql`revision + 1`, updated_at: sql`now()` })
    .where("user_id", "=", userId)
    .returningAll()
    .executeTakeFirst();
}

/**
 * Marks the user's trial as expired if it is still recorded as active but its end has passed.
 * The WHERE clause repeats the checks so that concurrent readers, or a webhook that just converted the
 * trial into a paid plan, are never overwritten.
 * @returns the updated row, or undefined when nothing needed to change.
 */
export function expireTrialIfDue(db: Database, userId: string, now: Date): Promise<SubscriptionRow | undefined> {
  return db
    .updateTable("subscriptions")
    .set({ status: "trial_expired", revision: sql`revision + 1`, updated_at: sql`now()` })
    .where("user_id", "=", userId)
    .where("status", "=", "active")
    .where("is_trial", "=", true)
    .where("trial_ends_at", "<=", now)
    .returningAll()
    .executeTakeFirst();
}

/** A trial e-mail to queue: whose trial, ending when, and whether the account may still be written to. */
export interface TrialNotice {
  user_id: string;
  trial_ends_at: Date;
  is_active: boolean;
}

/** Every active trial whose end has passed becomes trial_expired. @returns how many. */
export async function expireDueTrials(db: Database, now: Date): Promise<number> {
  const result = await db
    .updateTable("subscriptions")
    .set({ status: "trial_expired", revision: sql`revision + 1`, updated_at: sql`now()` })
    .where("is_trial", "=", true)
    .where("status", "=", "active")
    .where("trial_ends_at", "<=", now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Claims the trials that are due their "ends in two days" e-mail: running, ending within `within` ms of `now`,
 * reminder not yet claimed. Claiming sets trial_reminder_sent_at, so each trial is returned once, ever.
 */
export async function claimTrialReminders(db: Database, now: Date, withinMs: number): Promise<TrialNotice[]> {
  const { rows } = await sql<TrialNotice>`
    UPDATE subscriptions s SET trial_reminder_sent_at = ${now}
    FROM users u
    WHERE u.id = s.user_id
      AND s.is_trial AND s.status = 'active'
      AND s.trial_reminder_sent_at IS NULL AND s.trial_ended_notice_at IS NULL
      AND s.trial_ends_at > ${now} AND s.trial_ends_at <= ${new Date(now.getTime() + withinMs)}
    RETURNING s.user_id, s.trial_ends_at, u.is_active`.execute(db);
  return rows;
}

/** Claims the expired trials that are due their "your trial has ended" e-mail (each returned once, ever). */
export async function claimTrialEndNotices(db: Database, now: Date): Promise<TrialNotice[]> {
  const { rows } = await sql<TrialNotice>`
    UPDATE subscriptions s SET trial_ended_notice_at = ${now}
    FROM users u
    WHERE u.id = s.user_id
      AND s.is_trial AND s.status = 'trial_expired'
      AND s.trial_ended_notice_at IS NULL
      AND s.trial_ends_at <= ${now}
    RETURNING s.user_id, s.trial_ends_at, u.is_active`.execute(db);
  return rows;
}

// ---- Stripe customers ----------------------------------------------------------------------------------------

/** The Stripe customer id of a user, or undefined. */
export async function findStripeCustomerId(db: Database, userId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom("stripe_customers")
    .select("customer_id")
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return row?.customer_id;
}

/** The user of a Stripe customer id, or undefined. */
export async function findUserIdByStripeCustomer(db: Database, customerId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom("stripe_customers")
    .select("user_id")
    .where("customer_id", "=", customerId)
    .executeTakeFirst();
  return row?.user_id;
}

/** Records the user's Stripe customer unless one is recorded already. @returns the customer id now recorded. */
export async function saveStripeCustomer(db: Database, userId: string, customerId: string): Promise<string> {
  await db
    .insertInto("stripe_customers")
    .values({ user_id: userId, customer_id: customerId })
    .onConflict((oc) => oc.column("user_id").doNothing())
    .execute();
  return (await findStripeCustomerId(db, userId)) ?? customerId;
}

/** True when a user with this id exists (the id need not be a well-formed uuid). */
export async function userExists(db: Database, userId: string): Promise<boolean> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(userId)) return false;
  return (await findUserById(db, userId)) !== undefined;
}

// ---- Stripe events -----------------------------------------------------------------------------------------

/** True when the webhook event with this id was applied already. */
export async function stripeEventSeen(db: Database, eventId: string): Promise<boolean> {
  const row = await db.selectFrom("stripe_events").select("id").where("id", "=", eventId).executeTakeFirst();
  return row !== undefined;
}

/**
 * Records a webhook event as applied. Inside the transaction of its effect: a concurrent delivery of the same
 * event waits on the primary key until this one commits, then finds it there.
 * @returns false when the event was recorded already (nothing to do).
 */
export async function recordStripeEvent(
  db: Database,
  event: { id: string; type: string; created: Date },
): Promise<boolean> {
  const rows = await db
    .insertInto("stripe_events")
    .values({ id: event.id, type: event.type, stripe_created_at: event.created })
    .onConflict((oc) => oc.column("id").doNothing())
    .returning("id")
    .execute();
  return rows.length === 1;
}

/** Deletes the records of events received before `before`. @returns how many. */
export async function pruneStripeEvents(db: Database, before: Date): Promise<number> {
  const result = await db.deleteFrom("stripe_events").where("received_at", "<", before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
