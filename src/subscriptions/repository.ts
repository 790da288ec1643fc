import { sql, type Insertable, type Selectable } from "kysely";
import type { Database } from "../db/database.ts";
import type { SubscriptionsTable } from "../db/types.ts";

// All SQL about subscriptions. Functions take a Database, which may also be an open transaction.

export type SubscriptionRow = Selectable<SubscriptionsTable>;

/** The subscription of a user, or undefined (a user has at most one: user_id is unique). */
export function findSubscriptionByUserId(db: Database, userId: string): Promise<SubscriptionRow | undefined> {
  return db.selectFrom("subscriptions").selectAll().where("user_id", "=", userId).executeTakeFirst();
}

/** Inserts a subscription row and returns it. */
export function insertSubscription(db: Database, values: Insertable<SubscriptionsTable>): Promise<SubscriptionRow> {
  return db.insertInto("subscriptions").values(values).returningAll().executeTakeFirstOrThrow();
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
    .set({ status: "trial_expired", updated_at: sql`now()` })
    .where("user_id", "=", userId)
    .where("status", "=", "active")
    .where("is_trial", "=", true)
    .where("trial_ends_at", "<=", now)
    .returningAll()
    .executeTakeFirst();
}
