import { sql } from "kysely";
import type { Database } from "../db/database.ts";

/**
 * The retention policy's clock (retention.ts): a login keeps the account. Kept apart from the retention job so that
 * the login path imports nothing of e-mail or jobs.
 */

/** A login: the account is active now, and any deletion notice no longer applies (one UPDATE by primary key). */
export async function recordActivity(db: Database, userId: string): Promise<void> {
  await db
    .updateTable("users")
    .set({ last_active_at: sql`now()`, retention_notice_at: null })
    .where("id", "=", userId)
    .execute();
}
