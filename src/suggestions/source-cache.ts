import { createHash } from "node:crypto";
import { sql } from "kysely";
import type { AppDeps } from "../deps.ts";

/**
 * Ranked candidates of suggestion sources, shared across users and weeks
 * (docs/decisions/0025-suggestion-source-cache.md).
 *
 * What the index answers to a source's text over any date does not depend on the user: an interest that a hundred
 * readers share, or an article that several of them liked, is the same query for all of them, and next week it is
 * the same query again. A week's run for 10,000 users asked the index about 80,000 such questions (8 per user, 25–40 ms
 * each at 1,000,000 records), most of them asked before. So the answers are kept in suggestion_source_cache for
 * SOURCE_CACHE_DAYS, keyed by the text; the user's exclusions (liked, recently suggested) are applied afterwards, which
 * is why CACHED_DEPTH exceeds what a source contributes. A daily job (jobs.ts PREPARE_RUN_JOB) computes what is missing
 * or about to expire, so that the weekly run mostly reads.
 *
 * What a cached answer misses: articles indexed after it was computed. The "new" sections are ranked live every week
 * (their year range is small), so only Pertinent For You and Potentially Disruptive can lag, by at most
 * SOURCE_CACHE_DAYS, for articles added with an older publication date.
 */

/** Days a cached answer is used. */
export const SOURCE_CACHE_DAYS = 28;
/** PMIDs kept per answer: a source contributes 100 (CANDIDATES_PER_SOURCE) after the user's exclusions. */
export const CACHED_DEPTH = 150;

/** The cache key of a source text: SHA-256 (hex) of the text with its white space collapsed. */
export function sourceKey(text: string): string {
  return createHash("sha256").update(text.trim().replace(/\s+/g, " ")).digest("hex");
}

/**
 * The ranked PMIDs (best first, at most CACHED_DEPTH, no exclusions) of each text over any date: from the cache when
 * computed after `now` − SOURCE_CACHE_DAYS (or `opts.maxAgeDays`), otherwise from the index's `similar()`, then stored.
 * @returns a map from each distinct text to its PMIDs.
 * @throws the database's or the index's error.
 */
export async function rankedSources(
  deps: Pick<AppDeps, "db" | "search">,
  texts: readonly string[],
  now: Date = new Date(),
  opts: { maxAgeDays?: number } = {},
): Promise<Map<string, number[]>> {
  const distinct = [...new Set(texts)];
  const out = new Map<string, number[]>();
  if (distinct.length === 0) return out;
  const keys = new Map(distinct.map((t) => [sourceKey(t), t]));
  const since = new Date(now.getTime() - (opts.maxAgeDays ?? SOURCE_CACHE_DAYS) * 86_400_000);
  const cached = await deps.db
    .selectFrom("suggestion_source_cache")
    .select(["key", "pmids"])
    .where("key", "in", [...keys.keys()])
    .where("computed_at", ">", since)
    .execute();
  for (const row of cached) out.set(keys.get(row.key)!, row.pmids.map(Number));
  // One source at a time: a user's job is one of many in the queue, and the index's connections are shared.
  for (const [key, text] of keys) {
    if (out.has(text)) continue;
    const pmids = (await deps.search.similar(text, { limit: CACHED_DEPTH })).hits.map((h) => h.pmid);
    await sql`
      INSERT INTO suggestion_source_cache (key, computed_at, pmids) VALUES (${key}, ${now}, ${`{${pmids.join(",")}}`}::integer[])
      ON CONFLICT (key) DO UPDATE SET computed_at = excluded.computed_at, pmids = excluded.pmids`.execute(deps.db);
    out.set(text, pmids);
  }
  return out;
}

/** Removes answers older than SOURCE_CACHE_DAYS before `now`. @returns how many. */
export async function pruneSourceCache(deps: Pick<AppDeps, "db">, now: Date = new Date()): Promise<number> {
  const since = new Date(now.getTime() - SOURCE_CACHE_DAYS * 86_400_000);
  const res = await deps.db.deleteFrom("suggestion_source_cache").where("computed_at", "<=", since).executeTakeFirst();
  return Number(res.numDeletedRows ?? 0);
}
