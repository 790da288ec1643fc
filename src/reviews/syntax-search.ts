import { sql } from "kysely";
import type { AppDeps } from "../deps.ts";
import type { SearchResult } from "../../search/search-index.ts";
import {
  isPubmedSyntax,
  parsePubmedQuery,
  pubmedQuerySql,
  pubmedQueryWords,
  type PubmedQueryNode,
} from "../../search/pubmed/query-syntax.ts";

/**
 * Topics written in PubMed's search syntax (issue 19): a researcher's pasted search strategy is evaluated on the local
 * index with PubMed's meaning (field tags, Boolean operators left to right, phrases, truncation;
 * search/pubmed/query-syntax.ts), so the review reads like PubMed's result set for it, then ranked and summarised as
 * any review. The Boolean match is exact over `articles` (whichever search adapter is configured); the ranking within
 * the matched set is the index's BM25F score of the strategy's positive words.
 */

/** Most matched articles a strategy's review reads (its `total` stays exact). */
export const MAX_SYNTAX_MATCHES = 10_000;

/** A topic's PubMed syntax tree, or null for a plain-language topic (or one whose syntax does not parse). */
export function pubmedSyntaxOf(topic: string): PubmedQueryNode | null {
  if (!isPubmedSyntax(topic)) return null;
  try {
    return parsePubmedQuery(topic);
  } catch {
    // A strategy that does not parse (unbalanced parentheses…) is read as plain words, as PubMed itself falls back.
    return null;
  }
}

/** The words a strategy ranks and summarises by (its positive terms), as one plain query. */
export function syntaxRankingQuery(node: PubmedQueryNode): string {
  return pubmedQueryWords(node).join(" ");
}

/**
 * The articles matching the strategy (within the year range), best first by the BM25F score of its words; articles the
 * word search does not reach score 0 and come last, newest PMID first.
 * @returns at most `limit` hits; `total` is the exact number of matching articles.
 */
export async function searchPubmedSyntax(
  deps: Pick<AppDeps, "db" | "search">,
  node: PubmedQueryNode,
  opts: { limit: number; fromYear?: number; toYear?: number },
): Promise<SearchResult> {
  const rows = await deps.db
    .selectFrom("articles as a")
    .select("a.pmid")
    .where(pubmedQuerySql(node))
    .$if(opts.fromYear !== undefined, (q) => q.where("a.publication_year", ">=", opts.fromYear!))
    .$if(opts.toYear !== undefined, (q) => q.where("a.publication_year", "<=", opts.toYear!))
    .orderBy(sql`a.pmid`, "desc")
    .limit(MAX_SYNTAX_MATCHES + 1)
    .execute();
  const matched = rows.slice(0, MAX_SYNTAX_MATCHES).map((r) => Number(r.pmid));
  const words = syntaxRankingQuery(node);
  const scored = words
    ? await deps.search.search(words, { limit: 1000, fromYear: opts.fromYear, toYear: opts.toYear })
    : { hits: [] };
  const score = new Map(scored.hits.map((h) => [h.pmid, h.score]));
  const hits = matched
    .map((pmid) => ({ pmid, score: score.get(pmid) ?? 0 }))
    .sort((x, y) => y.score - x.score || y.pmid - x.pmid)
    .slice(0, opts.limit);
  return {
    hits,
    total: Math.min(rows.length, MAX_SYNTAX_MATCHES),
    totalIsLowerBound: rows.length > MAX_SYNTAX_MATCHES,
  };
}
