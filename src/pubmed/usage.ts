import { sql } from "kysely";
import type { Database } from "../db/database.ts";
import { fetchRecords, heldPmids, type FetchRecordsDeps } from "../../search/pubmed/fetch-records.ts";

/**
 * The per-user daily budgets of PubMed (pubmed_fetch_usage, one row per user and UTC day): records fetched, and
 * look-ups (esearch requests) sent. A fetch reserves what it may take before it asks NCBI and gives back what it did
 * not fetch, so concurrent reviews of one user can never pass the budget together: the reservation is one UPDATE on a
 * locked row. A look-up takes one unit of its budget in one statement before it is sent (issue 34: look-ups were not
 * counted, so a user past the records budget could still spend the deployment's requests with distinct topics).
 */

/** The UTC day of the database's clock, as the budget counts it. */
const TODAY = sql<string>`(now() AT TIME ZONE 'UTC')::date`;

/**
 * Reserves up to `wanted` records of the user's budget for today (`dailyLimit` records a day).
 * @returns the number reserved, 0..wanted (0 when the budget is spent).
 */
export async function reserveFetchBudget(
  db: Database,
  userId: string,
  wanted: number,
  dailyLimit: number,
): Promise<number> {
  if (wanted <= 0 || dailyLimit <= 0) return 0;
  return db.transaction().execute(async (trx) => {
    await sql`INSERT INTO pubmed_fetch_usage (user_id, day, records) VALUES (${userId}, ${TODAY}, 0) ON CONFLICT (user_id, day) DO NOTHING`.execute(
      trx,
    );
    const row = await sql<{ records: number }>`
      SELECT records FROM pubmed_fetch_usage WHERE user_id = ${userId} AND day = ${TODAY} FOR UPDATE`.execute(trx);
    const used = Number(row.rows[0]?.records ?? 0);
    const granted = Math.max(0, Math.min(wanted, dailyLimit - used));
    if (granted > 0)
      await sql`UPDATE pubmed_fetch_usage SET records = records + ${granted} WHERE user_id = ${userId} AND day = ${TODAY}`.execute(
        trx,
      );
    return granted;
  });
}

/**
 * Takes one look-up of the user's allowance for today (`dailyLimit` a day), in one atomic statement.
 * @returns whether it was granted (false once the allowance is spent, or when it is 0).
 */
export async function reserveSearch(db: Database, userId: string, dailyLimit: number): Promise<boolean> {
  if (dailyLimit <= 0) return false;
  const { rows } = await sql<{ searches: number }>`
    INSERT INTO pubmed_fetch_usage AS u (user_id, day, records, searches) VALUES (${userId}, ${TODAY}, 0, 1)
    ON CONFLICT (user_id, day) DO UPDATE SET searches = u.searches + 1 WHERE u.searches < ${dailyLimit}
    RETURNING searches`.execute(db);
  return rows.length > 0;
}

/** Look-ups sent to PubMed for the user today. */
export async function searchesToday(db: Database, userId: string): Promise<number> {
  const row = await sql<{
    searches: number;
  }>`SELECT searches FROM pubmed_fetch_usage WHERE user_id = ${userId} AND day = ${TODAY}`.execute(db);
  return Number(row.rows[0]?.searches ?? 0);
}

/** Gives back `unused` records of a reservation made today (a fetch that took fewer than it reserved). */
export async function releaseFetchBudget(db: Database, userId: string, unused: number): Promise<void> {
  if (unused <= 0) return;
  await sql`UPDATE pubmed_fetch_usage SET records = GREATEST(0, records - ${unused}) WHERE user_id = ${userId} AND day = ${TODAY}`.execute(
    db,
  );
}

/** Records the user's reviews fetched from PubMed today. */
export async function fetchedToday(db: Database, userId: string): Promise<number> {
  const row = await sql<{
    records: number;
  }>`SELECT records FROM pubmed_fetch_usage WHERE user_id = ${userId} AND day = ${TODAY}`.execute(db);
  return Number(row.rows[0]?.records ?? 0);
}

/** What fetchWithinAllowance did. */
export interface AllowedFetch {
  /** Records of `missing` the user's allowance let be fetched (the first ones). */
  granted: number;
  /** Records fetched and ingested (on a failure: those ingested before it, counted from `articles`). */
  fetched: number;
  /** Records of failed batches (fetched or read in vain). */
  failed: number;
  /** The failure that ended the fetch early (an EutilsError, the signal's abort), or null. */
  error: unknown;
}

/**
 * Fetches the first records of `missing` that the user's daily allowance grants (`dailyLimit` a day), and gives back
 * what was granted but not fetched. A failure of PubMed or the signal never throws: it ends the fetch, the batches
 * ingested before it stay, and `error` says what happened. `beforeFetch` is called with the number about to be
 * fetched (a progress line), only when there is something to fetch. @throws only database errors.
 */
export async function fetchWithinAllowance(
  deps: FetchRecordsDeps,
  userId: string,
  missing: readonly number[],
  dailyLimit: number,
  opts: { signal?: AbortSignal; log?: (line: string) => void; beforeFetch?: (count: number) => Promise<void> } = {},
): Promise<AllowedFetch> {
  const granted = await reserveFetchBudget(deps.db, userId, missing.length, dailyLimit);
  const toFetch = missing.slice(0, granted);
  const done: AllowedFetch = { granted, fetched: 0, failed: 0, error: null };
  try {
    if (toFetch.length === 0) return done;
    await opts.beforeFetch?.(toFetch.length);
    const result = await fetchRecords(deps, toFetch, { signal: opts.signal, log: opts.log });
    done.fetched = result.fetched;
    done.failed = result.failedBatches.reduce((n, b) => n + b.pmids.length, 0);
  } catch (err) {
    done.error = err;
    // Batches ingested before the failure stay: count them from the table, whatever the failure interrupted.
    done.fetched = (await heldPmids(deps.db, toFetch)).size;
  } finally {
    await releaseFetchBudget(deps.db, userId, granted - done.fetched);
  }
  return done;
}
