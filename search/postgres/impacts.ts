import { type Kysely, type RawBuilder, sql } from "kysely";
import type { DB } from "../../src/db/types.ts";
import type { SearchHit, SearchOptions } from "../search-index.ts";
import { BM25, RANK_SCALE, tsqueryOf, type CandidateBranch } from "../query.ts";
import { MAX_TIER_TERMS, tierBoxes } from "../tiers.ts";
import type { QueryAnalysis } from "./analysis.ts";
import { rankCandidates } from "./bm25f.ts";
import { branchQuery } from "./branches.ts";
import { num, text } from "./literals.ts";

/**
 * Most list documents scored per search (or twice the deepest rank asked for): among those the bounds cannot rule
 * out, the ones of highest expected score (see `scoreImpacts`). On the 100,000-record benchmark corpus, with the
 * conjunctions below, 300 gave a top-10 overlap with exhaustive BM25 of 0.956 (0.93 on the frequent-word queries),
 * 500 0.968 (0.97) at a higher p95 (see docs/benchmarks.md).
 */
const IMPACT_TARGET = 300;
/**
 * Documents drawn from each conjunction branch of a multi-word query (all its words in the title vector; anywhere),
 * as branch drawing reads them: they hold every word, possibly none heavily enough to be in a list. Without them,
 * topical questions lost up to 0.6 of their top-10 overlap on the benchmark corpus.
 */
const CONJUNCTION_TARGET = 150;
/**
 * Documents read from the impact tiers (docs/decisions/0024-impact-tiers.md) for a query of two to MAX_TIER_TERMS
 * frequent words: each box takes at most TIER_TARGET, and boxes are read, best first, until TIER_ENOUGH are found.
 */
const TIER_TARGET = 400;
const TIER_ENOUGH = 300;
/**
 * Most words of any query answered from the lists (three or four only when all are common: COMMON_SHARE). At 1,000,000
 * benchmark records the lists lifted one- and two-word queries from an overlap with exhaustive BM25 of 0.0–0.1 to
 * 1.0, but alone lost to branch drawing on questions of three or more frequent words (0.0–0.5 against 0.5–1.0): their
 * best articles hold every word, none heavily enough to be in its word's list. The impact tiers read those articles
 * (docs/decisions/0024-impact-tiers.md).
 */
const MAX_IMPACT_TERMS = 2;
/** Share of the documents a word must be in for a query of three or four such words to use the lists and tiers. */
const COMMON_SHARE = 0.05;
/**
 * Most documents of a query's unlisted (rarer) words, Σ df, for the lists to be used: they are all scored. Above it,
 * branch drawing, whose conjunctions find the few articles holding the rare words with the others, costs less.
 */
const RARE_BUDGET = 1_000;

/**
 * Whether `scoreImpacts` can answer this query: no year range and no exclusion (the lists hold the best documents
 * of the whole index, not of a subset), a page within the first half of a list, every term in more than
 * LIST_MIN_DF documents with a list (lists missing until the next `refresh()` after a term grew common), at least
 * one such term, and the rarer terms' documents few enough (Σ df ≤ `budget`) to read them all.
 */
export function impactsApply(
  analysis: QueryAnalysis,
  options: SearchOptions,
  depth: number,
  budget: number,
  lists: { minDf: number; capacity: number },
): boolean {
  if (options.fromYear !== undefined || options.toYear !== undefined || analysis.filter !== null) return false;
  if (depth > lists.capacity / 2 || analysis.terms.length > MAX_TIER_TERMS) return false;
  let listed = 0;
  let rare = 0;
  for (const t of analysis.terms) {
    if (analysis.lists.has(t.lexeme)) listed++;
    else if (t.df > lists.minDf) return false;
    else rare += t.df;
  }
  // Three or four words: only when every one is common (in COMMON_SHARE of the documents), read through the tiers;
  // otherwise their conjunction is selective, and branch drawing's conjunctions and coordination levels find the
  // articles about all of them (at 1,000,000 records, "hip fracture mortality elderly" and "anterior cruciate ligament
  // reconstruction" kept an overlap of 1.0 with branch drawing, 0.5–0.6 through the tiers).
  if (analysis.terms.length > MAX_IMPACT_TERMS && analysis.terms.some((t) => t.df < COMMON_SHARE * analysis.documents))
    return false;
  return listed > 0 && rare <= Math.min(budget, RARE_BUDGET);
}

/**
 * One page ranked from impact-ordered postings, in the manner of Fagin's threshold algorithm (R. Fagin, A. Lotem &
 * M. Naor, "Optimal aggregation algorithms for middleware", JCSS 66(4), 2003) over impact-ordered lists (V. N. Anh &
 * A. Moffat, "Simplified similarity scoring using term ranks", SIGIR 2005). Candidates:
 *  - the documents of the query's listed terms' lists. For each, the lists give the exact contribution of every term
 *    it is listed for (tf and length are stored; the mean length is today's), hence a lower bound `lb` of its score;
 *    a listed term it is not listed for adds at most w·floor (the floor scaled by max(1, avgdl now / avgdl at build):
 *    a longer mean length raises any impact by at most that ratio), hence an upper bound `ub`. θ, the depth-th largest
 *    `lb`, bounds the depth-th best score from below, so a document with ub < θ cannot reach the page and is dropped.
 *    Of the rest, the IMPACT_TARGET of highest expected score (`lb` plus, for each missing term, w·floor times the
 *    share of documents having the term) are kept;
 *  - every document containing one of the query's rarer (unlisted) terms, read through GIN (Σ df ≤ RARE_BUDGET);
 *  - CONJUNCTION_TARGET documents of each conjunction branch of the plan (`conjunctions`: all words in the title
 *    vector, all words anywhere), read as branch drawing reads them.
 * All are scored exactly, as any search (`rankCandidates`). A document outside all three scores at most Σ w·floor
 * (plus the phrases' most); the lists hold, for queries of frequent words, the documents where each word weighs most,
 * which is where exhaustive BM25's top documents are, where branch drawing only saw the newest of thousands of
 * near-ties.
 */
export async function scoreImpacts(
  db: Kysely<DB>,
  analysis: QueryAnalysis,
  skip: number,
  limit: number,
  excludePmids: number[],
  conjunctions: CandidateBranch[],
): Promise<{ hits: SearchHit[]; candidates: number }> {
  const { k1, b } = BM25;
  const depth = skip + limit;
  const listed = analysis.terms.filter((t) => analysis.lists.has(t.lexeme));
  const rare = analysis.terms.filter((t) => !analysis.lists.has(t.lexeme));
  const excluded =
    excludePmids.length > 0 ? sql`AND NOT (pmid = ANY(${text(`{${excludePmids.join(",")}}`)}::integer[]))` : sql``;
  const { termRows, cover, expected, phraseMost } = listBounds(analysis, listed);
  // Several frequent words: the documents holding them all heavily, from the impact tiers, best box first. They
  // replace the conjunction branches: for words this common, the conjunction's newest documents are a sample of
  // thousands of near-ties (and reading it cost 10–20 ms at 1,000,000 records).
  const boxes = tierBoxes(
    listed.map((t) => {
      const list = analysis.lists.get(t.lexeme)!;
      return { lexeme: t.lexeme, weight: t.weight, floor: list.floor, share: t.df / Math.max(analysis.documents, 1) };
    }),
  );
  if (boxes.length > 0) conjunctions = [];
  const rareCte =
    rare.length > 0
      ? sql`, rare AS MATERIALIZED (
          SELECT pmid FROM article_search WHERE document @@ ${text(
            tsqueryOf(
              rare.map((t) => t.lexeme),
              "|",
            ),
          )}::tsquery ${excluded})`
      : sql``;
  const ctes = sql`terms(lexeme, w, cover, expected) AS (VALUES ${termRows}),
    entries AS MATERIALIZED (
      SELECT i.pmid, t.w * i.tf / (i.tf + ${num(k1 * (1 - b))} + ${num((k1 * b) / analysis.avgLength)} * i.doc_length) AS part, t.cover, t.expected
      FROM terms t JOIN search_term_impacts i ON i.lexeme = t.lexeme
      WHERE true ${excluded}
    ), bounds AS MATERIALIZED (
      SELECT pmid, sum(part) AS lb, sum(part) + ${num(cover + phraseMost)} - sum(cover) AS ub,
             sum(part) + ${num(expected)} - sum(expected) AS est
      FROM entries GROUP BY pmid
    ), theta AS MATERIALIZED (
      SELECT coalesce((SELECT lb FROM bounds ORDER BY lb DESC LIMIT 1 OFFSET ${num(depth - 1)}), 0) AS lb
    ) ${rareCte} ${conjunctionCtes(conjunctions, depth, excluded)} ${tierCtes(boxes, depth, excluded)}, cand AS (
      (SELECT pmid FROM bounds WHERE ub >= (SELECT lb FROM theta) * (1 - 1e-6)
       ORDER BY est DESC, pmid DESC LIMIT ${num(Math.max(IMPACT_TARGET, 2 * depth))})
      ${rare.length > 0 ? sql`UNION SELECT pmid FROM rare` : sql``}
      ${sql.join(
        conjunctions.map((_, i) => sql`UNION SELECT pmid FROM ${sql.ref(`c${i}`)}`),
        sql` `,
      )}
      ${sql.join(
        boxes.map((_, i) => sql`UNION SELECT pmid FROM ${sql.ref(`t${i}`)}`),
        sql` `,
      )}
    )`;
  const counted =
    rare.length > 0
      ? sql`(SELECT count(*)::integer FROM (SELECT pmid FROM bounds UNION SELECT pmid FROM rare) u)`
      : sql`(SELECT count(*)::integer FROM bounds)`;
  const rows = await rankCandidates(db, analysis, ctes, counted, skip, limit);
  const candidates = Number(rows[0]?.candidates ?? 0);
  const hits = rows.filter((r) => r.pmid !== null).map((r) => ({ pmid: Number(r.pmid), score: Number(r.score) }));
  return { hits, candidates };
}

/**
 * What bounds a list document's score (see `scoreImpacts`): per listed term, the SQL row (lexeme, w·(k1+1), w·floor,
 * w·floor·share) of the `terms` CTE, where floor is the list's floor scaled by max(1, avgdl now / avgdl at build) and
 * share the fraction of documents having the term; `cover` = Σ w·floor over the listed terms, `expected` =
 * Σ w·floor·share, and `phraseMost` the most the query's phrases can add to any score.
 */
function listBounds(
  analysis: QueryAnalysis,
  listed: QueryAnalysis["terms"],
): { termRows: RawBuilder<unknown>; cover: number; expected: number; phraseMost: number } {
  const { k1, b } = BM25;
  const termRows = sql.join(
    listed.map((t) => {
      const list = analysis.lists.get(t.lexeme)!;
      const floor = list.floor * Math.max(1, analysis.avgLength / list.avgdl);
      const share = Math.min(1, t.df / Math.max(analysis.documents, 1));
      return sql`(${text(t.lexeme)}, ${num(t.weight * (k1 + 1))}::float8, ${num(t.weight * floor)}::float8, ${num(t.weight * floor * share)}::float8)`;
    }),
    sql`, `,
  );
  const cover = listed.reduce((sum, t) => {
    const list = analysis.lists.get(t.lexeme)!;
    return sum + t.weight * list.floor * Math.max(1, analysis.avgLength / list.avgdl);
  }, 0);
  const expected = listed.reduce((sum, t) => {
    const list = analysis.lists.get(t.lexeme)!;
    return (
      sum +
      t.weight *
        list.floor *
        Math.max(1, analysis.avgLength / list.avgdl) *
        Math.min(1, t.df / Math.max(analysis.documents, 1))
    );
  }, 0);
  // A phrase adds at most weight·(k1+1)·f/(f + k1·(1 − b)/3) with f = 1/3 (its length term at its least).
  const phraseMost = analysis.phrases.reduce(
    (sum, p) => sum + (p.weight * (k1 + 1) * (1 / RANK_SCALE)) / (1 / RANK_SCALE + (k1 * (1 - b)) / RANK_SCALE),
    0,
  );
  return { termRows, cover, expected, phraseMost };
}

/** The CTEs c0, c1… of the conjunction branches, each read as branch drawing reads it (at least `depth` rows). */
function conjunctionCtes(conjunctions: CandidateBranch[], depth: number, excluded: RawBuilder<unknown>) {
  return sql.join(
    conjunctions.map(
      (c, i) =>
        sql`, ${sql.ref(`c${i}`)} AS MATERIALIZED (${branchQuery(c, Math.max(CONJUNCTION_TARGET, depth), excluded)})`,
    ),
    sql``,
  );
}

/**
 * The CTEs t0, t1… of the impact-tier boxes (tsquery texts, best first), each taking at most
 * max(TIER_TARGET, depth) documents.
 */
function tierCtes(boxes: string[], depth: number, excluded: RawBuilder<unknown>) {
  return sql.join(
    // Box i runs only while the boxes before it found fewer than TIER_ENOUGH documents (a one-time filter); boxes
    // nest, so each reads only the documents the ones before it did not.
    boxes.map((box, i) => {
      const before = sql.join(
        boxes.slice(0, i).map((_, j) => sql`SELECT pmid FROM ${sql.ref(`t${j}`)}`),
        sql` UNION ALL `,
      );
      const gate =
        i === 0
          ? sql``
          : sql`AND (SELECT count(*) FROM (${before}) p) < ${num(TIER_ENOUGH)} AND pmid NOT IN (${before})`;
      return sql`, ${sql.ref(`t${i}`)} AS MATERIALIZED (
          SELECT pmid FROM article_search_tiers WHERE tiers @@ ${text(box)}::tsquery ${excluded} ${gate} LIMIT ${num(Math.max(TIER_TARGET, depth))})`;
    }),
    sql``,
  );
}
