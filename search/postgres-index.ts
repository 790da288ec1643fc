import { sql, type Kysely, type RawBuilder } from "kysely";
import type { DB } from "../src/db/types.ts";
import type { SearchHit, SearchIndex, SearchOptions, SearchResult } from "./search-index.ts";
import { MAX_TIER_TERMS, tierBoxes } from "./tiers.ts";
import {
  BM25,
  RANK_SCALE,
  RANK_WEIGHTS,
  MAX_SCANNED_ROWS,
  bm25Idf,
  parseQuery,
  planCandidates,
  queryTermWeight,
  tsqueryLexeme,
  tsqueryOf,
  type CandidateBranch,
  type QuerySegment,
  type WeightedTerm,
} from "./query.ts";

/**
 * Articles written per statement by `index()`. The statistics trigger upserts one row per distinct lexeme of a
 * statement, and 5,000 abstracts have far fewer than five times the distinct lexemes of 1,000: on 10,000 benchmark
 * records the trigger cost 0.67 s in statements of 5,000 against 1.5 s in statements of 1,000.
 */
const INDEX_BATCH = 5_000;
/**
 * Settings of an indexing transaction (set_config(…, true): they end with it). Measured on 10,000 benchmark
 * records written in batches of 1,000 (docs/decisions/0010-bulk-ingest.md):
 * - gin_pending_list_limit 64 MB (default 4 MB): new entries are appended to each GIN index's pending list
 *   and merged into the index in large sorted runs when the list is full (or at `refresh()`); merging 16 times
 *   fewer, larger runs cut the GIN cost from about 1.0 to 0.3 s;
 * - work_mem 64 MB: the merge and the statistics trigger's aggregation stay in memory;
 * - synchronous_commit off: a batch's commit does not wait for its WAL to reach the disk. A crash can lose
 *   the last few hundred milliseconds of batches but never corrupts anything, and ingest is idempotent: the
 *   same files ingested again restore them. `refresh()` commits synchronously, making all of them durable.
 */
const BULK_SETTINGS = `set_config('gin_pending_list_limit', '65536', true), set_config('work_mem', '65536', true),
  set_config('synchronous_commit', 'off', true)`;
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
 * Impact-ordered postings (docs/decisions/0022-impact-ordered-postings.md; V. N. Anh & A. Moffat, "Simplified
 * similarity scoring using term ranks", SIGIR 2005; R. Fagin, A. Lotem & M. Naor, "Optimal aggregation algorithms
 * for middleware", JCSS 66(4), 2003). Every lexeme in more than LIST_MIN_DF documents has a list of the LIST_CAPACITY
 * documents where its BM25 saturation tf·(k1+1)/(tf + k1·(1 − b + b·dl/avgdl)), its "impact", is highest, plus a
 * floor no other document's impact exceeds (tables search_term_lists and search_term_impacts, kept right by a
 * trigger under inserts, updates and deletes, built by `refresh()`). LIST_MIN_DF is the exact-scoring bound: a rarer
 * term's documents are all read through the GIN index instead.
 */
const LIST_MIN_DF = CANDIDATE_BUDGET;
const LIST_CAPACITY = 1_000;
/** Lists are rebuilt (re-ordered) when the mean document length has moved by more than this share since. */
const AVGDL_DRIFT = 0.1;
/**
 * A build of many lists reads every document once; it first estimates each lexeme's impact threshold on a sample of
 * about this many documents (a threshold about 1.25 × LIST_CAPACITY documents reach), so that only the documents above
 * it are sorted.
 */
const LIST_SAMPLE_DOCUMENTS = 50_000;
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
/** Advisory lock of the statistics and list triggers (migrations 0003 and 2026_11_25_0101). */
const STATS_LOCK = "8315159430931439468";

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

interface QueryAnalysis {
  terms: WeightedTerm[];
  /** Quoted phrases of two or more indexed words: a boost for documents containing them. */
  phrases: { query: string; weight: number; df: number }[];
  /** tsquery text every hit must match (the exclusions), or null. */
  filter: string | null;
  documents: number;
  avgLength: number;
  /** Impact lists of the query's lexemes that have one (see LIST_MIN_DF). */
  lists: Map<string, { floor: number; avgdl: number }>;
}

/**
 * PostgreSQL full-text search with BM25 ranking, on PGlite and PostgreSQL alike.
 *
 * Storage (table `article_search`, one row per article): `document`, a tsvector of title (weight A),
 * MeSH terms and keywords (B) and abstract (C) under the 'english' configuration; `title_document`, the
 * title and MeSH/keywords alone; `doc_length`, the field-weighted number of distinct lexemes; `publication_year`. Both vectors
 * have GIN indexes. `search_lexeme_stats` holds each lexeme's document frequency plus the document count
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
 * only those are scored, and the total is then a lower bound.
 */
export class PostgresSearchIndex implements SearchIndex {
  private readonly budget: number;
  private readonly lists: { minDf: number; capacity: number };

  /**
   * @param db the application database (or a transaction).
   * @param options.candidateBudget queries whose terms' document frequencies sum to at most this are
   *   answered exactly (default 2,000). Raising it trades latency for exactness: a budget above the corpus
   *   size makes every search exhaustive BM25 (used by the benchmark to measure the approximation).
   * @param options.listMinDf lexemes in more documents than this get an impact list at `refresh()` (default
   *   LIST_MIN_DF, 2,000); a search uses lists only when each of its terms above it has one.
   * @param options.listCapacity documents per impact list built (default LIST_CAPACITY, 1,000). Both exist so that
   *   tests can exercise lists on small corpora.
   */
  constructor(
    private readonly db: Kysely<DB>,
    options: { candidateBudget?: number; listMinDf?: number; listCapacity?: number } = {},
  ) {
    this.budget = options.candidateBudget ?? CANDIDATE_BUDGET;
    this.lists = { minDf: options.listMinDf ?? LIST_MIN_DF, capacity: options.listCapacity ?? LIST_CAPACITY };
  }

  /**
   * Adds or replaces articles in the index, reading title, abstract, MeSH terms, keywords and year from
   * `articles` (PMIDs not there are ignored). Vectors and lengths are computed in SQL; rows whose vectors and
   * year did not change are left alone, so re-indexing is cheap and does not disturb the statistics.
   *
   * Each statement covers up to INDEX_BATCH articles and runs in its own transaction tuned for bulk loading
   * (see BULK_SETTINGS): new GIN entries go to the indexes' pending lists, which are merged in large sorted
   * runs; call `refresh()` at the end of a load. Inside a caller's transaction the statements join it and its
   * settings are left alone.
   * @throws the database error; earlier statements stay written.
   */
  async index(pmids: number[]): Promise<void> {
    const ids = [...new Set(pmids.filter((p) => Number.isInteger(p)))].sort((a, b) => a - b);
    for (let i = 0; i < ids.length; i += INDEX_BATCH) {
      const slice = `{${ids.slice(i, i + INDEX_BATCH).join(",")}}`;
      const write = (db: Kysely<DB>) => sql`
        WITH fields AS MATERIALIZED (
          -- MATERIALIZED here and OFFSET 0 below: the vectors are used more than once, and PostgreSQL would
          -- otherwise inline the subqueries and repeat a to_tsvector call at every use of its vector (1.8 s more
          -- per 10,000 records on the benchmark corpus).
          SELECT pmid, publication_year AS year, t || m AS tm, a,
                 round(${sql.lit(3)} * length(t) + ${sql.lit(1.5)} * length(m) + length(a))::integer AS doc_length
          FROM (
            SELECT pmid, publication_year,
                   setweight(to_tsvector('english', coalesce(title, '')), 'A') AS t,
                   setweight(to_tsvector('english', array_to_string(mesh_terms || keywords, '; ')), 'B') AS m,
                   setweight(to_tsvector('english', coalesce(abstract, '')), 'C') AS a
            FROM articles WHERE pmid = ANY(${slice}::integer[])
            OFFSET 0
          ) f
        ), vectors AS (
          -- Length: the field-weighted number of distinct lexemes. length() of a tsvector is O(1), while counting
          -- every position (unnest of each vector) took about a fifth of the indexing time; BM25 only uses the
          -- ratio to the mean length, which distinct counts follow closely for abstracts.
          SELECT pmid, year, tm || a AS document, tm AS title_document, doc_length FROM fields
        ), written AS (
          INSERT INTO article_search (pmid, document, title_document, doc_length, publication_year)
          SELECT v.pmid, v.document, v.title_document, v.doc_length, v.year
          FROM vectors v
          ON CONFLICT (pmid) DO UPDATE SET
            document = excluded.document, title_document = excluded.title_document,
            doc_length = excluded.doc_length, publication_year = excluded.publication_year
          WHERE article_search.document IS DISTINCT FROM excluded.document
             OR article_search.title_document IS DISTINCT FROM excluded.title_document
             OR article_search.publication_year IS DISTINCT FROM excluded.publication_year
          RETURNING pmid
        )
        -- The impact tiers of the rows written (migration 2026_11_25_0201); unchanged rows keep theirs. The foreign
        -- key to article_search is checked at the end of the statement, when the row above exists.
        INSERT INTO article_search_tiers (pmid, tiers)
        SELECT v.pmid, search_tiers(v.document, v.doc_length) FROM vectors v JOIN written w ON w.pmid = v.pmid
        ON CONFLICT (pmid) DO UPDATE SET tiers = excluded.tiers`.execute(db);
      if (this.db.isTransaction) {
        await write(this.db);
      } else {
        await this.db.transaction().execute(async (trx) => {
          await sql`SELECT ${sql.raw(BULK_SETTINGS)}`.execute(trx);
          await write(trx);
        });
      }
    }
  }

  /**
   * Merges the GIN indexes' pending lists into the indexes (gin_clean_pending_list), which bulk indexing
   * lets grow to BULK_SETTINGS' limit. Until then every search also scans the pending entries.
   * Its statements commit synchronously, so they also make the batches' asynchronous commits durable.
   * Then brings the impact lists up to date (`refreshLists`).
   */
  async refresh(): Promise<void> {
    // One statement per index, so that on a pool the two merges run at once.
    await Promise.all(
      ["article_search_document_idx", "article_search_title_idx"].map((index) =>
        sql`SELECT gin_clean_pending_list(${index}::regclass)`.execute(this.db),
      ),
    );
    await this.refreshLists();
  }

  /**
   * Builds the impact lists (LIST_MIN_DF, docs/decisions/0022-impact-ordered-postings.md) that are missing or stale;
   * between builds the trigger of migration 2026_11_25_0101 keeps them right under every insert, update and delete.
   * A list is built for each lexeme now in more than LIST_MIN_DF documents without one, rebuilt when deletes left it
   * under half full while the lexeme still has more documents, or when the index's mean document length has moved by
   * more than AVGDL_DRIFT since it was ordered (the bound stays valid after a drift, only looser: see
   * `scoreImpacts`); lists of lexemes that have fallen to half the threshold or disappeared are dropped.
   *
   * A list keeps the LIST_CAPACITY documents of highest impact (Anh & Moffat 2005; the order does not depend on idf)
   * and as floor the highest impact it left out. A few lists are built from their lexemes' postings (GIN); many at
   * once, as after a first load, in one pass over the index that keeps only the impacts above a per-lexeme threshold
   * estimated on a sample of LIST_SAMPLE_DOCUMENTS documents (any document under it is under the floor, which is then
   * the threshold). Runs under the statistics trigger's advisory lock, so writers wait for it.
   * @returns the number of lists built.
   */
  async refreshLists(): Promise<number> {
    const build = async (db: Kysely<DB>): Promise<number> => {
      // unnest(tsvector) is estimated at 10 rows a document, 14 times too few: without these settings the planner sorts
      // millions of (document, lexeme) pairs for a merge join or a group aggregate, instead of hashing them (list_build
      // has no index for the same reason: a nested loop over it was chosen, a thousand times slower).
      await sql`SELECT pg_advisory_xact_lock(${sql.raw(STATS_LOCK)}), set_config('jit', 'off', true),
        set_config('work_mem', '262144', true), set_config('max_parallel_workers_per_gather', '0', true),
        set_config('enable_mergejoin', 'off', true), set_config('enable_sort', 'off', true)`.execute(db);
      const stats = await sql<{ documents: number | null; length: number | null }>`
        SELECT max(df) FILTER (WHERE lexeme = ' documents')::float8 AS documents, max(df) FILTER (WHERE lexeme = ' length')::float8 AS length
        FROM search_lexeme_stats WHERE lexeme IN (' documents', ' length')`.execute(db);
      const documents = Number(stats.rows[0]?.documents ?? 0);
      const avgdl = documents > 0 ? Math.max(Number(stats.rows[0]?.length ?? 0) / documents, 1) : 1;
      const dropped = await sql<{ lexeme: string }>`
        DELETE FROM search_term_lists l
        WHERE NOT EXISTS (SELECT 1 FROM search_lexeme_stats s WHERE s.lexeme = l.lexeme AND s.df * 2 > ${num(this.lists.minDf)})
        RETURNING l.lexeme`.execute(db);
      if (dropped.rows.length > 0)
        await sql`DELETE FROM search_term_impacts WHERE lexeme = ANY(${dropped.rows.map((r) => r.lexeme)}::text[])`.execute(db);
      const { rows } = await sql<{ lexeme: string; df: number }>`
        SELECT s.lexeme, s.df::float8 AS df FROM search_lexeme_stats s LEFT JOIN search_term_lists l ON l.lexeme = s.lexeme
        WHERE s.df > ${num(this.lists.minDf)} AND s.lexeme NOT LIKE ' %'
          AND (l.lexeme IS NULL OR (l.entries * 2 < l.capacity AND s.df > l.entries) OR abs(l.avgdl / ${num(avgdl)} - 1) > ${num(AVGDL_DRIFT)})
        ORDER BY s.lexeme`.execute(db);
      if (rows.length === 0) return 0;
      const lexemes = rows.map((r) => r.lexeme);
      await sql`DELETE FROM search_term_impacts WHERE lexeme = ANY(${lexemes}::text[])`.execute(db);
      await sql`DELETE FROM search_term_lists WHERE lexeme = ANY(${lexemes}::text[])`.execute(db);
      await sql`DROP TABLE IF EXISTS pg_temp.list_build, pg_temp.list_entries`.execute(db);
      await sql`CREATE TEMP TABLE list_build (lexeme text NOT NULL, query tsquery NOT NULL, tau float8 NOT NULL DEFAULT 0) ON COMMIT DROP`.execute(db);
      await sql`
        INSERT INTO list_build (lexeme, query)
        SELECT l, q::tsquery FROM unnest(${lexemes}::text[], ${lexemes.map(tsqueryLexeme)}::text[]) AS x(l, q)`.execute(db);
      await sql`ANALYZE list_build`.execute(db);
      const postings = rows.reduce((sum, r) => sum + Number(r.df), 0);
      if (postings * 4 <= documents) {
        // Few postings: read them through the GIN index.
        await sql`
          CREATE TEMP TABLE list_entries ON COMMIT DROP AS
          SELECT b.lexeme, a.pmid, search_tf(u.weights)::real AS tf, a.doc_length
          FROM list_build b JOIN article_search a ON a.document @@ b.query
          CROSS JOIN LATERAL unnest(a.document) u WHERE u.lexeme = b.lexeme`.execute(db);
      } else {
        // Many: one pass over the index, after a threshold per lexeme from a sample (every mod-th PMID).
        const mod = Math.max(1, Math.floor(documents / LIST_SAMPLE_DOCUMENTS));
        if (mod > 1) {
          const rank = Math.ceil((1.25 * this.lists.capacity) / mod);
          // A histogram of the sample's impacts per lexeme (hashed, not sorted: millions of rows), in steps of 1/1024;
          // the threshold is the lower edge of the highest step with `rank` sample impacts at or above it.
          await sql`
            UPDATE list_build b SET tau = x.tau FROM (
              SELECT lexeme, max(step) / 1024.0::float8 AS tau FROM (
                SELECT lexeme, step, sum(n) OVER (PARTITION BY lexeme ORDER BY step DESC) AS above FROM (
                  SELECT u.lexeme, floor(1024 * search_impact(search_tf(u.weights), a.doc_length, ${num(avgdl)}))::integer AS step, count(*) AS n
                  FROM article_search a CROSS JOIN LATERAL unnest(a.document) u JOIN list_build lb ON lb.lexeme = u.lexeme
                  WHERE a.pmid % ${num(mod)} = 0
                  GROUP BY 1, 2
                ) h
              ) c WHERE above >= ${num(rank)} GROUP BY lexeme
            ) x WHERE b.lexeme = x.lexeme`.execute(db);
        }
        await sql`
          CREATE TEMP TABLE list_entries ON COMMIT DROP AS
          SELECT u.lexeme, a.pmid, search_tf(u.weights)::real AS tf, a.doc_length
          FROM article_search a CROSS JOIN LATERAL unnest(a.document) u JOIN list_build b ON b.lexeme = u.lexeme
          WHERE b.tau = 0 OR search_impact_above(u.weights, a.doc_length, ${num(avgdl)}, b.tau - 1e-9)`.execute(db);
      }
      await sql`SELECT set_config('enable_sort', 'on', true)`.execute(db);
      await sql`ANALYZE list_entries`.execute(db);
      await sql`
        WITH ranked AS MATERIALIZED (
          SELECT lexeme, pmid, tf, doc_length, search_impact(tf, doc_length, ${num(avgdl)}) AS impact,
                 row_number() OVER (PARTITION BY lexeme ORDER BY search_impact(tf, doc_length, ${num(avgdl)}) DESC, pmid DESC) AS r
          FROM list_entries
        ), kept AS (
          INSERT INTO search_term_impacts (lexeme, pmid, tf, doc_length)
          SELECT lexeme, pmid, tf, doc_length FROM ranked WHERE r <= ${num(this.lists.capacity)}
        )
        INSERT INTO search_term_lists (lexeme, floor, avgdl, entries, capacity)
        SELECT b.lexeme, greatest(b.tau, coalesce(x.cut, 0)), ${num(avgdl)}, coalesce(x.n, 0), ${num(this.lists.capacity)}
        FROM list_build b LEFT JOIN (
          SELECT lexeme, count(*) FILTER (WHERE r <= ${num(this.lists.capacity)})::integer AS n,
                 max(impact) FILTER (WHERE r > ${num(this.lists.capacity)}) AS cut
          FROM ranked GROUP BY lexeme
        ) x ON x.lexeme = b.lexeme`.execute(db);
      return rows.length;
    };
    if (this.db.isTransaction) return build(this.db);
    return this.db.transaction().execute(build);
  }

  /** Removes these PMIDs from the index (statistics follow through the triggers); unknown PMIDs are ignored. */
  async delete(pmids: number[]): Promise<void> {
    const ids = [...new Set(pmids.filter((p) => Number.isInteger(p)))];
    if (ids.length === 0) return;
    await sql`DELETE FROM article_search WHERE pmid = ANY(${`{${ids.join(",")}}`}::integer[])`.execute(this.db);
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
          const all = tsqueryOf(analysis.terms.map((t) => t.lexeme), "|");
          const { hits, candidates } = await score(db, analysis, [{ field: "document", query: all, access: "index" }], YEAR_FIRST_MAX, YEAR_FIRST_MAX, options, skip, limit, excludePmids);
          return { hits, total: candidates, totalIsLowerBound: false };
        }
      }
      const hasFilter =
        analysis.filter !== null || options.fromYear !== undefined || options.toYear !== undefined || excludePmids.length > 0;
      const bounded = Math.max(Math.min(budget, Math.max(MIN_TARGET, 4 * depth)), Math.min(MAX_TARGET, depth));
      const plan = planCandidates(analysis.terms, {
        documents: analysis.documents,
        budget,
        target: bounded,
        filtered: analysis.filter !== null || excludePmids.length > 0,
        yearRange: options.fromYear !== undefined || options.toYear !== undefined,
        phrases: analysis.phrases.map((p) => ({ query: p.query, df: p.df })),
      });
      const conjunction = tsqueryOf(analysis.terms.slice(0, 6).map((t) => t.lexeme), "&");
      const target = plan.complete ? budget : bounded;
      const enough = plan.complete ? budget : Math.min(target, Math.max(MIN_ENOUGH, depth));
      const { hits, candidates } =
        !plan.complete && impactsApply(analysis, options, depth, budget, this.lists)
          ? await scoreImpacts(db, analysis, skip, limit, excludePmids, plan.branches.filter((b) => b.query === conjunction))
          : await score(db, analysis, plan.branches, target, enough, options, skip, limit, excludePmids);
      if (plan.complete) return { hits, total: candidates, totalIsLowerBound: false };
      // Capped: every candidate matched, and without filters each term's df is itself a count of matches.
      const maxDf = hasFilter ? 0 : Math.max(...analysis.terms.map((t) => t.df));
      return { hits, total: Math.max(candidates, maxDf), totalIsLowerBound: !(analysis.terms.length === 1 && !hasFilter) };
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
      const { hits } = await score(db, analysis, branches, budget, budget, options, skip, limit, excludePmids);
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
    const { hits } = await score(db, analysis, plan.branches, bounded, enough, options, skip, limit, excludePmids, coverage);
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
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new RangeError(`limit must be an integer in 1..1000, got ${limit}`);
  for (const y of [options.fromYear, options.toYear])
    if (y !== undefined && !Number.isInteger(y)) throw new RangeError(`years must be integers, got ${y}`);
  return { skip, limit };
}

/**
 * Turns segments into weighted lexemes (with df from the statistics), phrase boosts, the exclusion filter
 * and the corpus statistics, in one round trip. Also sets the transaction-local planner settings.
 */
async function analyse(db: Kysely<DB>, segments: QuerySegment[], maxTerms: number): Promise<QueryAnalysis> {
  const payload = JSON.stringify(segments);
  const { rows } = await sql<{
    seg: number;
    kind: string;
    lexeme: string | null;
    qtf: number | null;
    df: number | null;
    title_df: number | null;
    tsq: string | null;
    floor: number | null;
    list_avgdl: number | null;
  }>`
    WITH settings AS (
      SELECT set_config('jit', 'off', true), set_config('max_parallel_workers_per_gather', '0', true),
             set_config('enable_seqscan', 'off', true)
    ), seg AS (
      SELECT s.i::integer AS i, s.value->>'kind' AS kind, s.value->>'text' AS txt
      FROM jsonb_array_elements(${payload}::text::jsonb) WITH ORDINALITY AS s(value, i)
    )
    SELECT seg.i AS seg, seg.kind, u.lexeme, coalesce(array_length(u.positions, 1), 1) AS qtf,
           coalesce(st.df, 0)::float8 AS df, coalesce(st.title_df, 0)::float8 AS title_df, NULL::text AS tsq,
           tl.floor::float8 AS floor, tl.avgdl AS list_avgdl
    FROM seg CROSS JOIN LATERAL unnest(to_tsvector('english', seg.txt)) u
    LEFT JOIN search_lexeme_stats st ON st.lexeme = u.lexeme
    LEFT JOIN search_term_lists tl ON tl.lexeme = u.lexeme
    WHERE seg.kind <> 'exclude'
    UNION ALL
    SELECT seg.i, seg.kind, NULL, NULL, NULL, NULL, phraseto_tsquery('english', seg.txt)::text, NULL, NULL
    FROM seg WHERE seg.kind <> 'free' AND length(to_tsvector('english', seg.txt)) > 0
    UNION ALL
    SELECT 0, 'stats', lexeme, NULL, df::float8, NULL, NULL, NULL, NULL FROM search_lexeme_stats WHERE lexeme IN (' documents', ' length')
    UNION ALL
    SELECT 0, 'settings', NULL, NULL, NULL, NULL, NULL, NULL, NULL FROM settings`.execute(db);

  let documents = 0;
  let totalLength = 0;
  const qtf = new Map<string, { qtf: number; df: number; titleDf: number }>();
  const segLexemes = new Map<number, Set<string>>();
  const phraseQueries = new Map<number, string>();
  const excluded: string[] = [];
  const lists = new Map<string, { floor: number; avgdl: number }>();
  for (const r of rows) {
    if (r.kind === "settings") continue;
    if (r.kind === "stats") {
      if (r.lexeme === " documents") documents = Number(r.df);
      else totalLength = Number(r.df);
    } else if (r.tsq !== null) {
      if (r.kind === "exclude") excluded.push(r.tsq);
      else phraseQueries.set(r.seg, r.tsq);
    } else if (r.lexeme !== null) {
      const prev = qtf.get(r.lexeme);
      qtf.set(r.lexeme, { qtf: (prev?.qtf ?? 0) + Number(r.qtf ?? 1), df: Number(r.df ?? 0), titleDf: Number(r.title_df ?? 0) });
      segLexemes.set(r.seg, (segLexemes.get(r.seg) ?? new Set()).add(r.lexeme));
      if (r.floor !== null && r.list_avgdl !== null) lists.set(r.lexeme, { floor: Number(r.floor), avgdl: Number(r.list_avgdl) });
    }
  }
  const idf = (df: number) => bm25Idf(documents, df);
  const terms = [...qtf.entries()]
    .filter(([, s]) => s.df > 0)
    .map(([lexeme, s]) => ({ lexeme, df: s.df, titleDf: s.titleDf, weight: idf(s.df) * queryTermWeight(s.qtf) }))
    .sort((a, b) => b.weight - a.weight || a.lexeme.localeCompare(b.lexeme))
    .slice(0, maxTerms);
  // A phrase is scored as one more term found once, with the idf of its words summed (the idf of a
  // conjunction of independent terms); a phrase with an unindexed word cannot match and is dropped.
  const phrases: QueryAnalysis["phrases"] = [];
  for (const [seg, query] of phraseQueries) {
    const lexemes = [...(segLexemes.get(seg) ?? [])];
    if (lexemes.length < 2 || lexemes.some((l) => !(qtf.get(l)?.df ?? 0))) continue;
    const dfs = lexemes.map((l) => qtf.get(l)!.df);
    phrases.push({ query, weight: dfs.reduce((sum, df) => sum + idf(df), 0), df: Math.min(...dfs) });
  }
  return {
    terms,
    phrases,
    filter: excluded.length ? excluded.map((q) => `!(${q})`).join(" & ") : null,
    documents,
    avgLength: documents > 0 ? Math.max(totalLength / documents, 1) : 1,
    lists,
  };
}

/*
 * The search statement is written with literals, not parameters. Its text differs from query to query
 * (terms, weights, branches), and the PostgreSQL driver prepares every statement that has parameters:
 * each search would leave one more prepared statement on its connection. Without parameters it is sent
 * unprepared. The fixed statements (query analysis, index, delete) keep their parameters.
 */

/** A finite number as SQL literal text. */
function num(x: number): RawBuilder<unknown> {
  if (!Number.isFinite(x)) throw new Error(`not a finite number: ${x}`);
  return sql.raw(String(x));
}

/** A string as an SQL literal (quotes doubled; standard_conforming_strings keeps backslashes literal). */
function text(value: string): RawBuilder<unknown> {
  if (value.includes("\0")) throw new Error("a NUL character cannot be sent to PostgreSQL");
  return sql.lit(value);
}

/**
 * Draws candidates from the branches, scores at most `target` of them with BM25F and returns one page,
 * plus the number of candidates.
 *
 * Each branch is a materialised CTE read the way the plan says (see CandidateBranch) and takes at most
 * `target` rows. A branch runs only while the branches before it have found fewer than `enough`
 * distinct documents: the test is a one-time filter (an InitPlan), so a branch that is not needed is
 * never started. Everything, from drawing to the page, is one statement.
 */
async function score(
  db: Kysely<DB>,
  analysis: QueryAnalysis,
  branches: CandidateBranch[],
  target: number,
  enough: number,
  options: SearchOptions,
  skip: number,
  limit: number,
  excludePmids: number[],
  coverage?: string,
): Promise<{ hits: SearchHit[]; candidates: number }> {
  const filters: RawBuilder<unknown>[] = [];
  if (coverage !== undefined) filters.push(sql`AND ts_match_vq(document, ${text(coverage)}::tsquery)`);
  // The function form of @@ keeps the planner from using the GIN index for a query of negations only.
  if (analysis.filter !== null) filters.push(sql`AND ts_match_vq(document, ${text(analysis.filter)}::tsquery)`);
  if (options.fromYear !== undefined) filters.push(sql`AND publication_year >= ${num(options.fromYear)}`);
  if (options.toYear !== undefined) filters.push(sql`AND publication_year <= ${num(options.toYear)}`);
  if (excludePmids.length > 0) filters.push(sql`AND NOT (pmid = ANY(${text(`{${excludePmids.join(",")}}`)}::integer[]))`);
  const filterSql = sql.join(filters, sql` `);
  const name = (i: number) => sql.ref(`b${i}`);
  const previous = (i: number) => sql.join(Array.from({ length: i }, (_, j) => sql`SELECT pmid FROM ${name(j)}`), sql` UNION ALL `);
  const branchCtes = sql.join(
    branches.map((b, i) => {
      const gate = i === 0 ? sql`` : sql`AND (SELECT count(DISTINCT pmid) FROM (${previous(i)}) p) < ${num(enough)}`;
      return sql`${name(i)} AS MATERIALIZED (${branchQuery(b, target, sql`${filterSql} ${gate}`)})`;
    }),
    sql`, `,
  );
  const drawn = sql.join(
    branches.map((_, i) => sql`SELECT pmid, ${num(i)} AS o FROM ${name(i)}`),
    sql` UNION ALL `,
  );

  // Distinct candidates keep their best branch; the last branch that ran may overshoot the target, and
  // its oldest documents are the ones left out.
  const ctes = sql`${branchCtes}, cand AS (
      SELECT pmid FROM (${drawn}) d GROUP BY pmid ORDER BY min(o), pmid DESC LIMIT ${num(target)}
    )`;
  const rows = await rankCandidates(db, analysis, ctes, sql`(SELECT count(*)::integer FROM cand)`, skip, limit);
  const candidates = Number(rows[0]?.candidates ?? 0);
  const hits = rows.filter((r) => r.pmid !== null).map((r) => ({ pmid: Number(r.pmid), score: Number(r.score) }));
  return { hits, candidates };
}

/** The SELECT of one candidate branch (see CandidateBranch): at most `target` PMIDs, rows filtered by `filters`. */
function branchQuery(b: CandidateBranch, target: number, filters: RawBuilder<unknown>): RawBuilder<unknown> {
  const field = sql.ref(b.field === "title" ? "title_document" : "document");
  if (b.access === "scan")
    // Newest rows first through the primary key, at most MAX_SCANNED_ROWS of them; ts_match_vq (the
    // function behind @@) is not indexable, so the planner cannot turn this into an index read.
    return sql`
      SELECT pmid FROM (
        SELECT pmid, document, title_document, publication_year FROM article_search
        ORDER BY pmid DESC LIMIT ${num(MAX_SCANNED_ROWS)}
      ) s
      WHERE ts_match_vq(${field}, ${text(b.query)}::tsquery) ${filters}
      LIMIT ${num(target)}`;
  // "index": all matches through the GIN index, then the newest (pmid + 0 keeps the planner off the
  // primary key); "index-first": the first matches the bitmap scan meets.
  const order = b.access === "index" ? sql`ORDER BY pmid + 0 DESC` : sql``;
  return sql`
    SELECT pmid FROM article_search
    WHERE ${field} @@ ${text(b.query)}::tsquery ${filters}
    ${order} LIMIT ${num(target)}`;
}

/**
 * BM25F over the candidates of `ctes` (SQL of common table expressions, the last named `cand`, one `pmid` column):
 * one page of hits plus `counted`, an SQL expression evaluated once (the number of candidates).
 */
async function rankCandidates(
  db: Kysely<DB>,
  analysis: QueryAnalysis,
  ctes: RawBuilder<unknown>,
  counted: RawBuilder<unknown>,
  skip: number,
  limit: number,
): Promise<{ candidates: number; pmid: number | null; score: number | null }[]> {
  // BM25F: score = Σ_t idf_t·qw_t·(k1+1)·tf / (tf + k1·(1 − b + b·dl/avgdl)), tf = RANK_SCALE·f with f
  // the ts_rank_cd value; dividing through by RANK_SCALE keeps f as is.
  const { k1, b } = BM25;
  const kdConst = (k1 * (1 - b)) / RANK_SCALE;
  const kdPerLength = (k1 * b) / analysis.avgLength / RANK_SCALE;
  const weights = sql.raw(`'${RANK_WEIGHTS}'::float4[]`);
  const tfColumns = sql.join(
    // A candidate usually holds only some of the terms; the @@ test is several times cheaper than the
    // ranking function, which is then called only for the terms present.
    analysis.terms.map((t, i) => {
      const q = sql`${text(tsqueryLexeme(t.lexeme))}::tsquery`;
      return sql`CASE WHEN a.document @@ ${q} THEN ts_rank_cd(${weights}, a.document, ${q})::float8 ELSE 0 END AS ${sql.ref(`f${i}`)}`;
    }),
    sql`, `,
  );
  const phraseColumns = analysis.phrases.map(
    (p, i) => sql`, CASE WHEN a.document @@ ${text(p.query)}::tsquery THEN ${num(1 / RANK_SCALE)} ELSE 0 END AS ${sql.ref(`p${i}`)}`,
  );
  const scoreExpr = sql.join(
    [
      ...analysis.terms.map((t, i) => ({ column: `f${i}`, weight: t.weight })),
      ...analysis.phrases.map((p, i) => ({ column: `p${i}`, weight: p.weight })),
    ].map(({ column, weight }) => {
      const f = sql.ref(column);
      return sql`${num(weight * (k1 + 1))} * ${f} / (${f} + kd)`;
    }),
    sql` + `,
  );
  const { rows } = await sql<{ candidates: number; pmid: number | null; score: number | null }>`
    WITH ${ctes}, tf AS (
      SELECT a.pmid, ${num(kdConst)} + ${num(kdPerLength)} * a.doc_length AS kd, ${tfColumns} ${sql.join(phraseColumns, sql``)}
      FROM cand c JOIN article_search a ON a.pmid = c.pmid
      OFFSET 0
    ), scored AS (
      SELECT pmid, (${scoreExpr}) AS score FROM tf
    )
    SELECT n.candidates, h.pmid, h.score
    FROM (SELECT ${counted} AS candidates) n
    LEFT JOIN LATERAL (
      SELECT pmid, score FROM scored ORDER BY score DESC, pmid DESC LIMIT ${num(limit)} OFFSET ${num(skip)}
    ) h ON true`.execute(db);
  return rows;
}

/**
 * Whether `scoreImpacts` can answer this query: no year range and no exclusion (the lists hold the best documents
 * of the whole index, not of a subset), a page within the first half of a list, every term in more than
 * LIST_MIN_DF documents with a list (lists missing until the next `refresh()` after a term grew common), at least
 * one such term, and the rarer terms' documents few enough (Σ df ≤ `budget`) to read them all.
 */
function impactsApply(
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
  if (analysis.terms.length > MAX_IMPACT_TERMS && analysis.terms.some((t) => t.df < COMMON_SHARE * analysis.documents)) return false;
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
async function scoreImpacts(
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
  const excluded = excludePmids.length > 0 ? sql`AND NOT (pmid = ANY(${text(`{${excludePmids.join(",")}}`)}::integer[]))` : sql``;
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
    return sum + t.weight * list.floor * Math.max(1, analysis.avgLength / list.avgdl) * Math.min(1, t.df / Math.max(analysis.documents, 1));
  }, 0);
  // A phrase adds at most weight·(k1+1)·f/(f + k1·(1 − b)/3) with f = 1/3 (its length term at its least).
  const phraseMost = analysis.phrases.reduce((sum, p) => sum + (p.weight * (k1 + 1) * (1 / RANK_SCALE)) / (1 / RANK_SCALE + (k1 * (1 - b)) / RANK_SCALE), 0);
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
          SELECT pmid FROM article_search WHERE document @@ ${text(tsqueryOf(rare.map((t) => t.lexeme), "|"))}::tsquery ${excluded})`
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
    ) ${rareCte} ${sql.join(
      conjunctions.map((c, i) => sql`, ${sql.ref(`c${i}`)} AS MATERIALIZED (${branchQuery(c, Math.max(CONJUNCTION_TARGET, depth), excluded)})`),
      sql``,
    )} ${sql.join(
      // Box i runs only while the boxes before it found fewer than TIER_ENOUGH documents (a one-time filter); boxes
      // nest, so each reads only the documents the ones before it did not.
      boxes.map((box, i) => {
        const before = sql.join(boxes.slice(0, i).map((_, j) => sql`SELECT pmid FROM ${sql.ref(`t${j}`)}`), sql` UNION ALL `);
        const gate = i === 0 ? sql`` : sql`AND (SELECT count(*) FROM (${before}) p) < ${num(TIER_ENOUGH)} AND pmid NOT IN (${before})`;
        return sql`, ${sql.ref(`t${i}`)} AS MATERIALIZED (
          SELECT pmid FROM article_search_tiers WHERE tiers @@ ${text(box)}::tsquery ${excluded} ${gate} LIMIT ${num(Math.max(TIER_TARGET, depth))})`;
      }),
      sql``,
    )}, cand AS (
      (SELECT pmid FROM bounds WHERE ub >= (SELECT lb FROM theta) * (1 - 1e-6)
       ORDER BY est DESC, pmid DESC LIMIT ${num(Math.max(IMPACT_TARGET, 2 * depth))})
      ${rare.length > 0 ? sql`UNION SELECT pmid FROM rare` : sql``}
      ${sql.join(conjunctions.map((_, i) => sql`UNION SELECT pmid FROM ${sql.ref(`c${i}`)}`), sql` `)}
      ${sql.join(boxes.map((_, i) => sql`UNION SELECT pmid FROM ${sql.ref(`t${i}`)}`), sql` `)}
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
