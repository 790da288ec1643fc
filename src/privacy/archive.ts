import { sql } from "kysely";
import type { Database } from "../db/database.ts";
import type { ArchiveReason } from "../db/column-types.ts";
import { ARCHIVE_YEARS, addYears } from "./policy.ts";

/**
 * The archive the privacy policy keeps after an account is deleted: the data that proves a contract (billing). Only
 * an account that paid, or had a payment-provider customer, leaves one; a trial leaves nothing. The archive is read by
 * no page and no API; an operator answers an accounting or legal request from it. It is deleted ARCHIVE_YEARS later by
 * the retention job (retention.ts).
 */

/** Why an archive was written (the values of account_archives.reason). */
export type { ArchiveReason };

/**
 * Writes the archive of `userId`'s billing records, if any, before the account is deleted (call it in the deleting
 * transaction). @returns whether an archive was written.
 */
export async function archiveBilling(db: Database, userId: string, reason: ArchiveReason, now: Date): Promise<boolean> {
  const [user, subscriptions, customer] = await Promise.all([
    db.selectFrom("users").select(["email", "created_at"]).where("id", "=", userId).executeTakeFirst(),
    db
      .selectFrom("subscriptions")
      .select([
        "subscription_type",
        "billing_interval",
        "status",
        "source",
        "stripe_customer_id",
        "stripe_subscription_id",
        "current_period_end",
        "created_at",
        "updated_at",
      ])
      .where("user_id", "=", userId)
      .execute(),
    db.selectFrom("stripe_customers").select("customer_id").where("user_id", "=", userId).executeTakeFirst(),
  ]);
  if (!user) return false;
  const paid = subscriptions.filter((s) => s.source === "stripe" || s.stripe_subscription_id !== null);
  if (paid.length === 0 && !customer) return false;
  await db
    .insertInto("account_archives")
    .values({
      user_id: userId,
      email: user.email,
      reason,
      // Cast from text: a string parameter typed jsonb would be stored as one JSON string (postgres.js serialises it).
      record: sql`cast(cast(${JSON.stringify({ account_created_at: user.created_at, payment_customer_id: customer?.customer_id ?? null, subscriptions: paid })} as text) as jsonb)`,
      archived_at: now,
      delete_after: addYears(now, ARCHIVE_YEARS),
    })
    .execute();
  return true;
}
