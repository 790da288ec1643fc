import { sql } from "kysely";
import type { Database } from "../db/database.ts";

/**
 * The per-user daily budget of records fetched from PubMed (pubmed_fetch_usage, one row per user and UTC day).
 * A fetch reserves what it may take before it asks NCBI and gives back what it did not fetch, so concurrent reviews of
 * one user can never pass the budget together: the reservation is one UPDATE on a locked row.
 */

/** The UTC day of the database's clock, as the budget counts it. */
const TODAY = sql<string>`(now() AT TIME ZONE 'UTC')::date`;

/**
 * Reserves up to `wanted` records of the user's budget for today (`dailyLimit` records a day).
 * @returns the number reserved, 0..wanted (0 when the budget is spent).
 */
export async function reserveFetchBudget(db: Database, userId: string, wanted: number, dailyLimit: number): Promise<number> {
  if (wanted <= 0 || dailyLimit <= 0) return 0;
  return db.transaction().execute(async (trx) => {
    await sql`INSERT INTO pubmed_fetch_usage (user_id, day, records) VALUES (${userId}, ${TODAY}, 0) ON CONFLICT (user_id, day) DO NOTHING`.execute(trx);
    const row = await sql<{ records: number }>`
      SELECT records FROM pubmed_fetch_usage WHERE user_id = ${userId} AND day = ${TODAY} FOR UPDATE`.execute(trx);
    const used = Number(row.rows[0]?.records ?? 0);
    const granted = Math.max(0, Math.min(wanted, dailyLimit - used));
    if (granted > 0) await sql`UPDATE pubmed_fetch_usage SET records = records + ${granted} WHERE user_id = ${userId} AND day = ${TODAY}`.execute(trx);
    return granted;
  });
}

/** Gives back `unused` records of a reservation made today (a fetch that took fewer than it reserved). */
export async function releaseFetchBudget(db: Database, userId: string, unused: number): Promise<void> {
  if (unused <= 0) return;
  await sql`UPDATE pubmed_fetch_usage SET records = GREATEST(0, records - ${unused}) WHERE user_id = ${userId} AND day = ${TODAY}`.execute(db);
}

/** Records the user's reviews fetched from PubMed today. */
export async function fetchedToday(db: Database, userId: string): Promise<number> {
  const row = await sql<{ records: number }>`SELECT records FROM pubmed_fetch_usage WHERE user_id = ${userId} AND day = ${TODAY}`.execute(db);
  return Number(row.rows[0]?.records ?? 0);
}
