// The PostgreSQL adapter of SearchIndex (search-index.ts): full-text search with BM25F ranking on PGlite and
// PostgreSQL, the embedded default of the product. The class below chooses how each query is answered; the SQL of
// each step lives in search/postgres/.
import { sql, type Kysely } from "kysely";
import type { DB } from "../src/db/types.ts";
import { MAX_RESULT_WINDOW, type SearchIndex, type SearchOptions, type SearchResult } from "./search-index.ts";
import { planCandidates, tsqueryOf, parseQuery, type CandidateBranch, type QuerySegment } from "./query.ts";
import { analyse, type QueryAnalysis } from "./postgres/analysis.ts";
import { scoreBranches } from "./postgres/branches.ts";
import { buildImpactLists } from "./postgres/impact-lists.ts";
import { impactsApply, scoreImpacts } from "./postgres/impacts.ts";
import { num, text } from "./postgres/literals.ts";
import { deleteArticles, mergePendingLists, writeArticles } from "./postgres/writer.ts";

/**
 * Queries whose terms occur in at most this many documents in all (Σ df) are answered exactly: every
 * matching document is scored. Above it, candidates are drawn (see `planCandidates`).
 */
const CANDIDATE_BUDGET = 2_000;
/**
 * Candidates scored for a broad query (`target`): four times the deepest rank asked for (skip + limit),
 * at least MIN_TARGET, at most the budget (or the deepest rank itself, up to MAX_TARGET, for a deep page).
 * A branch is read only while the ones before it found fewer than `enough` documents: the deepest rank,
 * at least MIN_ENOUGH. Both stay constant for the first 250 ranks, so paging through them walks one
 * ranking. On the 100,000-record benchmark corpus (docs/benchmarks.md), against exhaustive BM25's
 * top 10: target 500 / enough 250 overlapped 0.75 at p95 14 ms; 1,000 / 250 0.84 at 17 ms; 1,000 / 500
 * 0.84 at 20 ms; 1,500 / 500 0.88 at 25 ms.
 */
const MIN_TARGET = 1_000;
const MIN_ENOUGH = 250;
const MAX_TARGET = 10_000;
/** Query terms scored per search (the highest-weighted); a typed topic or question rarely has more. */
const MAX_SEARCH_TERMS = 12;
/**
 * Profile terms used by `similar()`: the highest idf-weighted ones, as in "more like this" queries
 * (Lucene's default keeps 25). With so many terms a candidate costs more to score, so `similar()` scores
 * at most PROFILE_BUDGET of them.
 */
const MAX_PROFILE_TERMS = 20;
const PROFILE_BUDGET = 500;
/** Longest profile text read by `similar()`, in characters. */
const MAX_PROFILE_CHARS = 20_000;
/** A year range holding at most this many articles is ranked exhaustively (see `run`). */
const YEAR_FIRST_MAX = 5_000;
/**
 * Lexemes in more documents than this get an impact list (search/postgres/impact-lists.ts): the exact-scoring bound,
 * since a rarer term's documents are all read through the GIN index instead; LIST_CAPACITY documents per list.
 */
const LIST_MIN_DF = CANDIDATE_BUDGET;
const LIST_CAPACITY = 1_000;
/**
 * Transactions building impact lists at once, each for a share of the lexemes (see `buildImpactLists`). A build runs on
 * one core, and the first one after a load, at its end, left the server's other core idle. Two, the benchmark machine's
 * cores: each share reads every document again (more CPU in all), for a build that ends sooner when the lists to
 * build hold a large share of the postings, as after a first load; otherwise one transaction builds them (see
 * `sharesPay`; docs/benchmarks.md, "Ingest budget, issue 25"). On PGlite, one backend, one transaction builds them.
 */
const LIST_BUILDERS = 2;

/** How many indexed articles fall in the options' year range, counting at most `cap` (an index range scan). */
async function countInYearRange(db: Kysely<DB>, options: SearchOptions, cap: number): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    SELECT count(*)::integer AS n FROM (
      SELECT 1 FROM article_search
      WHERE publication_year IS NOT NULL
        ${options.fromYear !== undefined ? sql`AND publication_year >= ${num(options.fromYear)}` : sql``}
        ${options.toYear !== undefined ? sql`AND publication_year <= ${num(options.toYear)}` : sql``}
      LIMIT ${num(cap)}) r`.execute(db);
  return rows[0]?.n ?? 0;
}

/**
 * PostgreSQL full-text search with BM25 ranking, on PGlite and PostgreSQL alike.
 *
 * Storage (table `article_search`, one row per article): `document`, a tsvector of title (weight A),
 * MeSH terms and keywords (B) and abstract (C) under the 'english' configuration; `title_document`, the
 * title and MeSH/keywords alone; `doc_length`, the field-weighted number of distinct lexemes; `publication_year`. Both
 * vectors have GIN indexes. `search_lexeme_stats` holds each lexeme's document frequency plus the document count
 * and total length, maintained exactly by triggers on `article_search` (see the initial migration), so idf
 * and the mean length are read with a few primary-key lookups instead of a scan.
 *
 * Ranking is BM25F (Robertson & Zaragoza 2009; k1 = 1.2, b = 0.75; see `query.ts`): for each query term,
 * `ts_rank_cd` on that single lexeme with weights {C: 1/3, B: 1/2, A: 1} returns the sum of the weights of
 * its occurrences, i.e. the field-weighted term frequency; SQL combines it with idf and the length.
 *
 * Cost is bounded whatever the query. When the query terms occur in at most `candidateBudget` documents
 * in all, every match is scored (exact BM25, exact total). Otherwise candidates are drawn in order of the
 * query weight they can carry (all terms in the title, all terms, coordination levels over the rarer
 * terms, then any term; see `planCandidates`), each branch read through the GIN index or, for terms in a
 * large share of the corpus, by a bounded walk over the newest rows, until about a thousand are found;
 * only those are scored, and the total is then a lower bound. Queries of frequent words are answered from
 * impact-ordered lists and tiers instead (ADRs 0022 and 0024).
 *
 * This class decides which path answers a query; the SQL of each step is in `search/postgres/`: `writer.ts`
 * (index, delete, GIN merge), `impact-lists.ts` (list builds), `analysis.ts` (a query's lexemes and statistics),
 * `branches.ts` (branch drawing), `impacts.ts` (lists and tiers), `bm25f.ts` (the scoring of every path).
 */
export class PostgresSearchIndex implements SearchIndex {
  private readonly budget: number;
  private readonly lists: { minDf: number; capacity: number; sampleMinDocuments?: number; builders: number };

  /**
   * @param db the application database (or a transaction).
   * @param options.candidateBudget queries whose terms' document frequencies sum to at most this are
   *   answered exactly (default 2,000). Raising it trades latency for exactness: a budget above the corpus
   *   size makes every search exhaustive BM25 (used by the benchmark to measure the approximation).
   * @param options.listMinDf lexemes in more documents than this get an impact list at `refresh()` (default
   *   LIST_MIN_DF, 2,000); a search uses lists only when each of its terms above it has one.
   * @param options.listCapacity documents per impact list built (default LIST_CAPACITY, 1,000).
   * @param options.listSampleMinDocuments a build of many lists samples one document in min(20, documents / this)
   *   (default 5,000; see search/postgres/impact-lists.ts). The three list options exist so that tests can exercise
   *   lists, and their sampled build, on small corpora.
   * @param options.listBuilders transactions building lists at once, each for a share of the lexemes (default
   *   LIST_BUILDERS, 2); 1 builds them all in one.
   */
  constructor(
    private readonly db: Kysely<DB>,
    options: {
      candidateBudget?: number;
      listMinDf?: number;
      listCapacity?: number;
      listSampleMinDocuments?: number;
      listBuilders?: number;
    } = {},
  ) {
    this.budget = options.candidateBudget ?? CANDIDATE_BUDGET;
    this.lists = {
      minDf: options.listMinDf ?? LIST_MIN_DF,
      capacity: options.listCapacity ?? LIST_CAPACITY,
      sampleMinDocuments: options.listSampleMinDocuments,
      builders: options.listBuilders ?? LIST_BUILDERS,
    };
  }

  /**
   * Adds or replaces articles in the index from the `articles` table (PMIDs not there are ignored); unchanged rows are
   * left alone. Bulk-load settings per statement: call `refresh()` at the end of a load (see `writeArticles`).
   * @throws the database error; earlier statements stay written.
   */
  async index(pmids: number[]): Promise<void> {
    await writeArticles(this.db, pmids);
  }

  /**
   * Merges the GIN indexes' pending lists, which makes the bulk load's asynchronous commits durable too
   * (`mergePendingLists`), then brings the impact lists up to date (`refreshLists`).
   */
  async refresh(): Promise<void> {
    await mergePendingLists(this.db);
    await this.refreshLists();
  }

  /**
   * Builds the impact lists that are missing or stale (docs/decisions/0022-impact-ordered-postings.md; see
   * `buildImpactLists`); between builds a trigger keeps them right. Writers wait for it (advisory lock).
   * @returns the number of lists built.
   */
  async refreshLists(): Promise<number> {
    return buildImpactLists(this.db, this.lists);
  }

  /** Removes these PMIDs from the index (statistics follow through the triggers); unknown PMIDs are ignored. */
  async delete(pmids: number[]): Promise<void> {
    await deleteArticles(this.db, pmids);
  }

  /**
   * Ranked PMIDs for a free-text query with OR semantics: an article matches if it contains any query
   * term; BM25F orders them, so articles with more, rarer and title-placed terms come first. Stop words
   * and punctuation are ignored; an article containing a `"quoted phrase"` ranks above one with its words
   * apart (quotes in typed questions are often emphasis, so they do not filter); `-word` and `-"phrase"`
   * exclude.
   * @param options skip ≥ 0, limit 1..1000 (default 10), inclusive year range.
   * @returns hits with BM25 scores (higher is better) and the number of matching articles; the number is
   *   exact when every match was scored, else a lower bound (`totalIsLowerBound`).
   * @throws RangeError on an invalid skip, limit or year.
   */
  async search(query: string, options: SearchOptions = {}): Promise<SearchResult> {
    const { skip, limit } = checkPaging(options);
    const segments = parseQuery(query);
    // Under coverage, an article may cover a concept through an alternative the query does not contain (a synonym,
    // an abbreviation's long form): those words are scored too, so such an article is not ranked at 0.
    const extra = (options.requireAll ?? []).flatMap((c) => c.alternatives.slice(1));
    if (extra.length > 0) segments.push({ kind: "free", text: extra.join(" ; ") });
    return this.run(segments, MAX_SEARCH_TERMS + extra.length, options, skip, limit, this.budget, []);
  }

  /**
   * Articles most similar to a profile text (interests, liked abstracts): the profile's terms weighted by
   * idf and by their frequency in the profile (k3 saturation), the top 20 kept ("more like this"), then
   * the same candidate generation and BM25F scoring as `search` (a short profile of frequent words, such as an
   * interest, is answered from the impact lists and tiers as a query is). Quotes and minus signs in the profile
   * are plain text here.
   * @throws RangeError on an invalid skip, limit or year.
   */
  async similar(profileText: string, options: SearchOptions & { excludePmids?: number[] } = {}): Promise<SearchResult> {
    const { skip, limit } = checkPaging(options);
    const text = profileText.slice(0, MAX_PROFILE_CHARS).trim();
    const segments: QuerySegment[] = text ? [{ kind: "free", text }] : [];
    const exclude = (options.excludePmids ?? []).filter((p) => Number.isInteger(p));
    return this.run(segments, MAX_PROFILE_TERMS, options, skip, limit, Math.min(this.budget, PROFILE_BUDGET), exclude);
  }

  private async run(
    segments: QuerySegment[],
    maxTerms: number,
    options: SearchOptions,
    skip: number,
    limit: number,
    baseBudget: number,
    excludePmids: number[],
  ): Promise<SearchResult> {
    const empty: SearchResult = { hits: [], total: 0, totalIsLowerBound: false };
    if (segments.length === 0) return empty;
    const execute = async (db: Kysely<DB>): Promise<SearchResult> => {
      const analysis = await analyse(db, segments, maxTerms);
      if (analysis.terms.length === 0 || analysis.documents === 0) return empty;
      if (options.requireAll?.length) {
        const covered = await this.covering(db, analysis, options, skip, limit, baseBudget, excludePmids);
        // null: no concept has an indexable word, which restricts nothing.
        if (covered) return covered;
      }
      const depth = skip + limit;
      const budget = Math.max(baseBudget, Math.min(MAX_TARGET, depth));
      // A year range that holds few articles (this year, early in a small corpus): drawing candidates from the terms'
      // postings would read them all to find the few in range (seconds at 1M records). Counting the range first,
      // along article_search_year_idx, tells: empty → nothing to do; small → every article in range that matches
      // any term is a candidate (an exact ranking).
      if (options.fromYear !== undefined || options.toYear !== undefined) {
        const inRange = await countInYearRange(db, options, YEAR_FIRST_MAX + 1);
        if (inRange === 0) return empty;
        if (inRange <= YEAR_FIRST_MAX) {
          const all = tsqueryOf(
            analysis.terms.map((t) => t.lexeme),
            "|",
          );
          const { hits, candidates } = await scoreBranches(
            db,
            analysis,
            [{ field: "document", query: all, access: "index" }],
            YEAR_FIRST_MAX,
            YEAR_FIRST_MAX,
            options,
            skip,
            limit,
            excludePmids,
          );
          return { hits, total: candidates, totalIsLowerBound: false };
        }
      }
      const hasFilter =
        analysis.filter !== null ||
        options.fromYear !== undefined ||
        options.toYear !== undefined ||
        excludePmids.length > 0;
      const bounded = Math.max(Math.min(budget, Math.max(MIN_TARGET, 4 * depth)), Math.min(MAX_TARGET, depth));
      const plan = planCandidates(analysis.terms, {
        documents: analysis.documents,
        budget,
        target: bounded,
        filtered: analysis.filter !== null || excludePmids.length > 0,
        yearRange: options.fromYear !== undefined || options.toYear !== undefined,
        phrases: analysis.phrases.map((p) => ({ query: p.query, df: p.df })),
      });
      const conjunction = tsqueryOf(
        analysis.terms.slice(0, 6).map((t) => t.lexeme),
        "&",
      );
      const target = plan.complete ? budget : bounded;
      const enough = plan.complete ? budget : Math.min(target, Math.max(MIN_ENOUGH, depth));
      const { hits, candidates } =
        !plan.complete && impactsApply(analysis, options, depth, budget, this.lists)
          ? await scoreImpacts(
              db,
              analysis,
              skip,
              limit,
              excludePmids,
              plan.branches.filter((b) => b.query === conjunction),
            )
          : await scoreBranches(db, analysis, plan.branches, target, enough, options, skip, limit, excludePmids);
      if (plan.complete) return { hits, total: candidates, totalIsLowerBound: false };
      // Capped: every candidate matched, and without filters each term's df is itself a count of matches.
      const maxDf = hasFilter ? 0 : Math.max(...analysis.terms.map((t) => t.df));
      return {
        hits,
        total: Math.max(candidates, maxDf),
        totalIsLowerBound: !(analysis.terms.length === 1 && !hasFilter),
      };
    };
    // Transaction-local settings: JIT compilation (PostgreSQL's default above a plan cost these queries can
    // reach on a large corpus) costs tens of milliseconds; parallel workers cost more to start than they
    // save on a bounded candidate set; and with a LIMIT on a frequent term the planner may pick a
    // sequential scan that evaluates the tsquery row by row, far slower than the GIN bitmap.
    if (this.db.isTransaction) return execute(this.db);
    return this.db.transaction().execute(execute);
  }

  /**
   * `search` under coverage (SearchOptions.requireAll): the concepts become one tsquery, an AND of each concept's
   * alternatives ORed (each alternative a phrase under the 'english' configuration), counted exactly with the GIN
   * index. When at most `budget` articles cover the topic, every one is scored (exact BM25F ranking); otherwise
   * candidates are drawn as for any broad query, with coverage as a filter every branch applies.
   * @returns null when no concept has an indexable word (the caller then searches without restriction).
   */
  private async covering(
    db: Kysely<DB>,
    analysis: QueryAnalysis,
    options: SearchOptions,
    skip: number,
    limit: number,
    baseBudget: number,
    excludePmids: number[],
  ): Promise<SearchResult | null> {
    const empty: SearchResult = { hits: [], total: 0, totalIsLowerBound: false };
    const concepts = (options.requireAll ?? []).map((c) => c.alternatives.filter((a) => a.trim() && !a.includes("\0")));
    const { rows } = await sql<{ i: number; tsq: string | null }>`
      SELECT c.i::integer AS i,
        (SELECT string_agg('(' || q::text || ')', ' | ')
         FROM (SELECT phraseto_tsquery('english', a) AS q FROM jsonb_array_elements_text(c.alts) AS a) x
         WHERE numnode(q) > 0) AS tsq
      FROM jsonb_array_elements(${JSON.stringify(concepts)}::text::jsonb) WITH ORDINALITY AS c(alts, i)`.execute(db);
    const conceptQueries = rows.map((r) => r.tsq).filter((q): q is string => q !== null);
    if (conceptQueries.length === 0) return null;
    const coverage = coverageQuery(conceptQueries);
    const yearFilter = [
      options.fromYear !== undefined ? sql`AND publication_year >= ${num(options.fromYear)}` : sql``,
      options.toYear !== undefined ? sql`AND publication_year <= ${num(options.toYear)}` : sql``,
      analysis.filter !== null ? sql`AND ts_match_vq(document, ${text(analysis.filter)}::tsquery)` : sql``,
      excludePmids.length > 0 ? sql`AND NOT (pmid = ANY(${text(`{${excludePmids.join(",")}}`)}::integer[]))` : sql``,
    ];
    const counted = await sql<{ n: number }>`
      SELECT count(*)::integer AS n FROM article_search
      WHERE document @@ ${text(coverage)}::tsquery ${sql.join(yearFilter, sql` `)}`.execute(db);
    const total = Number(counted.rows[0]?.n ?? 0);
    if (total === 0) return empty;
    const depth = skip + limit;
    const budget = Math.max(baseBudget, Math.min(MAX_TARGET, depth));
    if (total <= budget) {
      const branches: CandidateBranch[] = [{ field: "document", query: coverage, access: "index" }];
      const { hits } = await scoreBranches(db, analysis, branches, budget, budget, options, skip, limit, excludePmids);
      return { hits, total, totalIsLowerBound: false };
    }
    const bounded = Math.max(Math.min(budget, Math.max(MIN_TARGET, 4 * depth)), Math.min(MAX_TARGET, depth));
    const plan = planCandidates(analysis.terms, {
      documents: analysis.documents,
      budget: 0,
      target: bounded,
      filtered: true,
      yearRange: options.fromYear !== undefined || options.toYear !== undefined,
      phrases: analysis.phrases.map((p) => ({ query: p.query, df: p.df })),
    });
    const enough = Math.min(bounded, Math.max(MIN_ENOUGH, depth));
    const { hits } = await scoreBranches(
      db,
      analysis,
      plan.branches,
      bounded,
      enough,
      options,
      skip,
      limit,
      excludePmids,
      coverage,
    );
    return { hits, total, totalIsLowerBound: false };
  }
}

/** Escapes nothing: tsquery text built by PostgreSQL itself (phraseto_tsquery(...)::text) is already quoted. */
function coverageQuery(conceptQueries: string[]): string {
  return conceptQueries.map((q) => `(${q})`).join(" & ");
}

function checkPaging(options: SearchOptions): { skip: number; limit: number } {
  const skip = options.skip ?? 0;
  const limit = options.limit ?? 10;
  if (!Number.isInteger(skip) || skip < 0) throw new RangeError(`skip must be an integer ≥ 0, got ${skip}`);
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
    throw new RangeError(`limit must be an integer in 1..1000, got ${limit}`);
  if (skip + limit > MAX_RESULT_WINDOW)
    throw new RangeError(`skip + limit must be at most ${MAX_RESULT_WINDOW} (the result window), got ${skip + limit}`);
  for (const y of [options.fromYear, options.toYear])
    if (y !== undefined && !Number.isInteger(y)) throw new RangeError(`years must be integers, got ${y}`);
  return { skip, limit };
}
