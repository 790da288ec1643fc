import { sql } from "kysely";
import type { AppDeps } from "../deps.ts";
import type { SearchResult } from "../../search/search-index.ts";
import {
  checkStrategyLimits,
  fillSyntaxIndex,
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
 * any review. The Boolean match is exact over `articles` (whichever search adapter is configured), read from the
 * syntax index stored with each article; the ranking within the matched set is the index's BM25F score of the
 * strategy's positive words.
 *
 * Cost (issue 34, docs/decisions/0048-bounded-strategy-evaluation.md): a strategy within the limits of
 * search/pubmed/query-syntax/limits.ts costs, per article, a test of its words against the article's word set and, for
 * the articles holding them, one substring search per term and field. On PostgreSQL the match is one statement whose
 * candidate rows come from the GIN index of the word sets, under the connection's statement time-out. On the embedded
 * database, which has one connection and no statement time-out, the match walks `articles` in slices of consecutive
 * rows sized to take about SLICE_TARGET_MS each, one statement per slice, and lets the event loop turn between them, so
 * no statement of a review holds the connection for longer than a slice, and other users' requests are served in
 * between.
 */

/** Most matched articles a strategy's review reads (its `total` stays exact up to this many). */
export const MAX_SYNTAX_MATCHES = 10_000;

/**
 * The embedded walk's slices: the first reads FIRST_SLICE_ROWS rows of `articles`; each next one is sized from the
 * last one's time so that a statement takes about SLICE_TARGET_MS, between MIN_SLICE_ROWS and MAX_SLICE_ROWS rows. A
 * row costs at most a test of the strategy's words and, when it holds them, one substring search per term and field
 * (MAX_STRATEGY_TERMS terms at most): about 0.3 ms for the costliest strategy the limits allow on a record with a
 * 1,300-character abstract, against a few microseconds for a row that lacks the strategy's words
 * (docs/benchmarks.md, "Hardening, fourth round"). The sizes only decide how the work is cut, never what matches.
 */
export const SLICE_TARGET_MS = 20;
export const FIRST_SLICE_ROWS = 100;
export const MIN_SLICE_ROWS = 20;
export const MAX_SLICE_ROWS = 2_000;

/** The next slice's rows, from the last one's: scaled towards SLICE_TARGET_MS, at most doubled, within the bounds. */
export function nextSliceRows(rows: number, elapsedMs: number): number {
  const scaled = elapsedMs > 0 ? Math.floor((rows * SLICE_TARGET_MS) / elapsedMs) : rows * 2;
  return Math.max(MIN_SLICE_ROWS, Math.min(MAX_SLICE_ROWS, rows * 2, scaled));
}

/** How a strategy's matches are found: one statement on the word index (PostgreSQL) or slices (embedded). */
export type SyntaxSearchMode = "index" | "slices";

/** The mode of a deployment: slices on the embedded database (no DATABASE_URL), the index on PostgreSQL. */
export const syntaxSearchModeFor = (config: AppDeps["config"]): SyntaxSearchMode =>
  config.DATABASE_URL ? "index" : "slices";

/**
 * A topic's PubMed syntax tree, or null for a plain-language topic (or one whose syntax does not parse, or that is
 * beyond the limits of a strategy: a review stored before the limits existed is then read as plain words).
 */
export function pubmedSyntaxOf(topic: string): PubmedQueryNode | null {
  if (!isPubmedSyntax(topic)) return null;
  try {
    const node = parsePubmedQuery(topic);
    checkStrategyLimits(topic, node);
    return node;
  } catch {
    // A strategy that does not parse (unbalanced parentheses…) is read as plain words, as PubMed itself falls back.
    return null;
  }
}

/** The words a strategy ranks and summarises by (its positive terms), as one plain query. */
export function syntaxRankingQuery(node: PubmedQueryNode): string {
  return pubmedQueryWords(node).join(" ");
}

/** Lets the event loop turn (timers, sockets), so that requests waiting for the embedded connection get it. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The PMIDs matching, newest PMID first, at most `max`, in one statement (see the module comment). */
async function matchesByIndex(
  deps: Pick<AppDeps, "db">,
  node: PubmedQueryNode,
  years: { fromYear?: number; toYear?: number },
  max: number,
): Promise<number[]> {
  const rows = await deps.db
    .selectFrom("articles as a")
    .select("a.pmid")
    .where(pubmedQuerySql(node))
    .$if(years.fromYear !== undefined, (q) => q.where("a.publication_year", ">=", years.fromYear!))
    .$if(years.toYear !== undefined, (q) => q.where("a.publication_year", "<=", years.toYear!))
    .orderBy(sql`a.pmid`, "desc")
    .limit(max)
    .execute();
  return rows.map((r) => Number(r.pmid));
}

/**
 * The PMIDs matching, newest PMID first, at most `max`, walking `articles` in slices of consecutive primary-key rows
 * (see FIRST_SLICE_ROWS), one statement each, with a turn of the event loop between them.
 */
async function matchesBySlices(
  deps: Pick<AppDeps, "db">,
  node: PubmedQueryNode,
  years: { fromYear?: number; toYear?: number },
  max: number,
  now: () => number,
): Promise<number[]> {
  const condition = pubmedQuerySql(node);
  const from = years.fromYear === undefined ? sql`true` : sql`a.publication_year >= ${years.fromYear}`;
  const to = years.toYear === undefined ? sql`true` : sql`a.publication_year <= ${years.toYear}`;
  const matched: number[] = [];
  // PMIDs are positive integers (PostgreSQL integer): the walk starts at the largest.
  let cursor = 2_147_483_647;
  let rowsPerSlice = FIRST_SLICE_ROWS;
  while (matched.length < max) {
    // Consecutive rows of the primary key, whatever the filters, so that the statement's cost is bounded by their
    // number.
    const started = now();
    const { rows } = await sql<{ last: number | null; hits: number[] }>`
      WITH slice AS MATERIALIZED (
        SELECT pmid, syntax_sources, syntax_words, publication_date, publication_year FROM articles
        WHERE pmid <= ${cursor} ORDER BY pmid DESC LIMIT ${rowsPerSlice}
      )
      SELECT (SELECT min(pmid) FROM slice) AS last,
             ARRAY(SELECT a.pmid FROM slice AS a WHERE ${from} AND ${to} AND ${condition} ORDER BY a.pmid DESC) AS hits`.execute(
      deps.db,
    );
    const { last, hits } = rows[0] ?? { last: null, hits: [] };
    for (const pmid of hits ?? []) matched.push(Number(pmid));
    if (last === null || last === undefined) break;
    cursor = Number(last) - 1;
    rowsPerSlice = nextSliceRows(rowsPerSlice, now() - started);
    await nextTurn();
  }
  return matched.slice(0, max);
}

/**
 * The articles matching the strategy (within the year range), best first by the BM25F score of its words; articles the
 * word search does not reach score 0 and come last, newest PMID first. Articles whose syntax index is missing (written
 * other than by the ingest) get it first (search/pubmed/query-syntax/stored.ts `fillSyntaxIndex`).
 * @param opts.mode how matches are found (default: syntaxSearchModeFor the configuration; see the module comment).
 * @param opts.now the clock the embedded walk sizes its slices by (default performance.now, in milliseconds).
 * @returns at most `limit` hits; `total` is the exact number of matching articles up to MAX_SYNTAX_MATCHES, beyond
 *   which it is that number and `totalIsLowerBound` is set.
 * @throws database errors (on PostgreSQL a statement past its time-out: the review ends in error).
 */
export async function searchPubmedSyntax(
  deps: Pick<AppDeps, "db" | "search" | "config">,
  node: PubmedQueryNode,
  opts: { limit: number; fromYear?: number; toYear?: number; mode?: SyntaxSearchMode; now?: () => number },
): Promise<SearchResult> {
  await fillSyntaxIndex(deps.db);
  const years = { fromYear: opts.fromYear, toYear: opts.toYear };
  const mode = opts.mode ?? syntaxSearchModeFor(deps.config);
  const rows =
    mode === "index"
      ? await matchesByIndex(deps, node, years, MAX_SYNTAX_MATCHES + 1)
      : await matchesBySlices(deps, node, years, MAX_SYNTAX_MATCHES + 1, opts.now ?? (() => performance.now()));
  const matched = rows.slice(0, MAX_SYNTAX_MATCHES);
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
