import { createHash } from "node:crypto";
import { sql } from "kysely";
import type { Database } from "../db/database.ts";
import type { EsearchResult, EutilsClient } from "../../search/pubmed/eutils.ts";

/**
 * esearch answers kept in pubmed_search_cache, so that a question PubMed was asked a moment ago (the same topic
 * reviewed twice, the same interest in many users' profiles in one weekly run) is not asked again. Every process of a
 * deployment shares the table, so the saving holds across web and worker processes. Only what a caller needs to
 * fetch records is kept: the PMIDs in PubMed's order, the total count and PubMed's translation of the query.
 */

/** An esearch answer as kept. */
export interface CachedSearch {
  pmids: number[];
  total: number;
  queryTranslation: string | null;
  /** When PubMed was asked (ISO 8601). */
  searchedAt: string;
  /** Whether the answer came from the cache rather than from PubMed now. */
  cached: boolean;
}

/** A look-up refused because the requester's allowance of look-ups is spent (the `reserve` of cachedEsearch). */
export class SearchAllowanceSpent extends Error {
  constructor() {
    super("the daily allowance of PubMed look-ups is used up");
    this.name = "SearchAllowanceSpent";
  }
}

/** The cache key of an esearch: a purpose ("review", "weekly:2026-W48"…) and the request's parameters. */
export function searchCacheKey(purpose: string, params: Record<string, unknown>): string {
  const sorted = Object.keys(params)
    .sort()
    .map((k) => [k, params[k]]);
  return `${purpose}:${createHash("sha256").update(JSON.stringify(sorted)).digest("hex").slice(0, 32)}`;
}

/**
 * The answer of `client.esearch(params)`, from the cache when one younger than `maxAgeMs` is there under `key`.
 * A fresh answer replaces the cached one. Before asking PubMed (never for a cached answer), `reserve` is called, when
 * given: the requester's allowance of look-ups (src/pubmed/usage.ts reserveSearch).
 * @throws SearchAllowanceSpent when `reserve` refuses; what esearch throws (EutilsError, an abort).
 */
export async function cachedEsearch(
  db: Database,
  client: Pick<EutilsClient, "esearch">,
  key: string,
  maxAgeMs: number,
  params: Parameters<EutilsClient["esearch"]>[0],
  signal?: AbortSignal,
  reserve?: () => Promise<boolean>,
): Promise<CachedSearch> {
  const hit = await db
    .selectFrom("pubmed_search_cache")
    .select(["pmids", "total", "query_translation", "searched_at"])
    .where("key", "=", key)
    .where(sql<boolean>`searched_at > now() - make_interval(secs => ${maxAgeMs / 1000})`)
    .executeTakeFirst();
  if (hit) {
    return {
      pmids: hit.pmids.map(Number),
      total: Number(hit.total),
      queryTranslation: hit.query_translation,
      searchedAt: new Date(hit.searched_at).toISOString(),
      cached: true,
    };
  }
  if (reserve && !(await reserve())) throw new SearchAllowanceSpent();
  const answer: EsearchResult = await client.esearch(params, signal);
  const row = await db
    .insertInto("pubmed_search_cache")
    .values({ key, pmids: answer.pmids, total: answer.count, query_translation: answer.queryTranslation })
    .onConflict((oc) =>
      oc.column("key").doUpdateSet({
        pmids: answer.pmids,
        total: answer.count,
        query_translation: answer.queryTranslation,
        searched_at: sql`now()`,
      }),
    )
    .returning("searched_at")
    .executeTakeFirstOrThrow();
  return {
    pmids: answer.pmids,
    total: answer.count,
    queryTranslation: answer.queryTranslation,
    searchedAt: new Date(row.searched_at).toISOString(),
    cached: false,
  };
}

/** Removes answers older than `maxAgeMs` (the daily maintenance calls it). @returns rows removed. */
export async function pruneSearchCache(db: Database, maxAgeMs: number): Promise<number> {
  const r = await db
    .deleteFrom("pubmed_search_cache")
    .where(sql<boolean>`searched_at < now() - make_interval(secs => ${maxAgeMs / 1000})`)
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}
