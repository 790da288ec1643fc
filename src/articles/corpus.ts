import { sql } from "kysely";
import type { Database } from "../db/database.ts";

/** What the reviews run on: how many PubMed records the index holds, and when it last changed. */
export interface CorpusStats {
  /** Records in `articles` (exact below COUNT_EXACT_BELOW, else the planner's estimate, rounded). */
  records: number;
  /** Whether `records` is an estimate. */
  approximate: boolean;
  /** The end of the last ingest that changed the corpus, or null when none is recorded. */
  lastUpdated: Date | null;
}

/** Up to this many rows the count is exact (a fraction of a second); above, the table's statistics are used. */
const COUNT_EXACT_BELOW = 2_000_000;
/** The figures change only with an ingest: kept this long per process. */
const CACHE_MS = 60_000;
let cached: { at: number; value: CorpusStats } | null = null;

/**
 * The corpus's size and last update (for the review page's empty state and "How this review was made"). Cached a
 * minute per process. At PubMed scale (tens of millions of rows) a count would take seconds, so the table's
 * statistics (pg_class.reltuples, kept by VACUUM/ANALYZE) give the figure.
 */
export async function corpusStats(db: Database): Promise<CorpusStats> {
  if (cached && Date.now() - cached.at < CACHE_MS) return cached.value;
  const estimate = await sql<{
    n: number;
  }>`SELECT greatest(reltuples, 0)::float8 AS n FROM pg_class WHERE oid = 'articles'::regclass`.execute(db);
  const estimated = Number(estimate.rows[0]?.n ?? 0);
  let records = estimated;
  const approximate = estimated >= COUNT_EXACT_BELOW;
  if (!approximate) {
    const exact = await db.selectFrom("articles").select(sql<number>`count(*)::int`.as("n")).executeTakeFirstOrThrow();
    records = Number(exact.n);
  }
  const last = await db
    .selectFrom("ingest_runs")
    .select("finished_at")
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  const value: CorpusStats = {
    records: Math.round(records),
    approximate,
    lastUpdated: last ? new Date(last.finished_at) : null,
  };
  cached = { at: Date.now(), value };
  return value;
}

/** Forgets the cached figures (after an ingest in this process, and in tests). */
export function forgetCorpusStats(): void {
  cached = null;
}

/**
 * Records past which docs/scaling.md ("When to leave the embedded default") advises moving from the embedded database
 * to a PostgreSQL server: ingest and search slow down and the process's memory grows with the corpus.
 */
export const EMBEDDED_RECORDS_LIMIT = 100_000;

/**
 * The operator's warning when the embedded database (no DATABASE_URL) holds more than EMBEDDED_RECORDS_LIMIT records,
 * else null. Shown to administrators on the settings page and logged after PubMed fetches grow the corpus.
 */
export function embeddedSizeWarning(usesEmbedded: boolean, stats: Pick<CorpusStats, "records">): string | null {
  if (!usesEmbedded || stats.records <= EMBEDDED_RECORDS_LIMIT) return null;
  return (
    `The embedded database holds ${stats.records.toLocaleString("en-US")} PubMed records, past the ` +
    `${EMBEDDED_RECORDS_LIMIT.toLocaleString("en-US")} at which docs/scaling.md advises moving to a PostgreSQL server (DATABASE_URL).`
  );
}
