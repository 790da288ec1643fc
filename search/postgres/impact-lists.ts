import { sql, type Kysely, type RawBuilder } from "kysely";
import type { DB } from "../../src/db/types.ts";
import { tsqueryLexeme } from "../query.ts";
import { num } from "./literals.ts";

/**
 * Impact-ordered postings (docs/decisions/0022-impact-ordered-postings.md; V. N. Anh & A. Moffat, "Simplified
 * similarity scoring using term ranks", SIGIR 2005; R. Fagin, A. Lotem & M. Naor, "Optimal aggregation algorithms
 * for middleware", JCSS 66(4), 2003). Every lexeme in more than LIST_MIN_DF documents has a list of the LIST_CAPACITY
 * documents where its BM25 saturation tf·(k1+1)/(tf + k1·(1 − b + b·dl/avgdl)), its "impact", is highest, plus a
 * floor no other document's impact exceeds (tables search_term_lists and search_term_impacts, kept right by a
 * trigger under inserts, updates and deletes, built here). LIST_MIN_DF (postgres-index.ts) is the exact-scoring bound:
 * a rarer term's documents are all read through the GIN index instead. Queries read the lists in impacts.ts.
 */

/** Lists are rebuilt (re-ordered) when the mean document length has moved by more than this share since. */
const AVGDL_DRIFT = 0.1;
/**
 * A build of many lists reads every document once; it first estimates each lexeme's impact threshold on a sample, every
 * mod-th document, mod = min(SAMPLE_MAX_MOD, documents / SAMPLE_MIN_DOCUMENTS), as the impact that SAMPLE_MARGIN ×
 * LIST_CAPACITY documents reach, so that only the documents above it are kept and sorted. A lexeme with a list is in
 * more than 2,000 documents, about 100 of a 1-in-20 sample, and its threshold is its 75th sample impact: at 130,000
 * records every list came out full and equal to the lists of an exact build (a margin of 1.25 left 55 of 1,612 short).
 */
const SAMPLE_MIN_DOCUMENTS = 5_000;
const SAMPLE_MAX_MOD = 20;
const SAMPLE_MARGIN = 1.5;
/** Advisory lock of the statistics and list triggers (migrations 0003 and 2026_11_25_0101). */
const STATS_LOCK = "8315159430931439468";
/**
 * Lists are built in shares (`buildImpactLists`) only when their lexemes hold at least this share of all postings: each
 * share reads and hashes every posting, and only the work on its own lexemes' postings is divided.
 */
const SHARES_MIN_POSTINGS = 0.25;
/** First key of the two-key advisory locks of the shares of a parallel build (the second key is the share). */
const SHARE_LOCK = "1936025449";
/**
 * Runs one of the two passes over every document (the sample and the entries) as a parallel query, then puts the build
 * back on one process: the table's workers each unnest a part of the documents and filter their postings, and the
 * leader gathers the few that pass. article_search's heap is small (the vectors live in its TOAST table), so without
 * min_parallel_table_scan_size 0 and the costs at 0 the planner keeps the pass on one core. Into a 100,000-record
 * index, 348 new lists took 5.0–5.4 s on one core and 3.3–3.5 s this way (docs/benchmarks.md, "Ingest budget, issue
 * 25"). The workers come from the server's max_parallel_workers (default 8); where there are none (PGlite, or a busy
 * server) the leader does it all. The other statements read temporary tables, which parallel workers cannot.
 */
async function parallelPass(trx: Kysely<DB>, statement: RawBuilder<unknown>): Promise<void> {
  await sql`SELECT set_config('max_parallel_workers_per_gather', '2', true),
    set_config('parallel_setup_cost', '0', true), set_config('parallel_tuple_cost', '0', true),
    set_config('min_parallel_table_scan_size', '0', true)`.execute(trx);
  await statement.execute(trx);
  await sql`SELECT set_config('max_parallel_workers_per_gather', '0', true)`.execute(trx);
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
 * estimated on a sample (SAMPLE_MAX_MOD; any document under it is under the floor, which is then the threshold), or,
 * without a sample, from the exact histogram of the postings read. Runs under the statistics trigger's advisory lock,
 * so writers wait for it.
 * @param lists.minDf lexemes in more documents than this get a list; lists.capacity documents per list;
 *   lists.sampleMinDocuments replaces SAMPLE_MIN_DOCUMENTS (tests sample small corpora with it); lists.builders splits
 *   the lexemes into that many shares built at once, each in its own transaction (default 1; see `buildPart`). Inside a
 *   caller's transaction everything is built in it.
 * @returns the number of lists built.
 */
export async function buildImpactLists(
  db: Kysely<DB>,
  lists: { minDf: number; capacity: number; sampleMinDocuments?: number; builders?: number },
): Promise<number> {
  const builders = Math.max(1, Math.floor(lists.builders ?? 1));
  // Inside a caller's transaction there is one connection: one build of every list, as before.
  if (db.isTransaction) return buildPart(db, lists, null);
  if (builders === 1 || !(await sharesPay(db, lists.minDf)))
    return db.transaction().execute((trx) => buildPart(trx, lists, null));
  // One transaction per share of the lexemes, each on its own pooled connection. A list depends only on its lexeme's
  // postings, so the lists are those of one build.
  const built = await Promise.all(
    Array.from({ length: builders }, (_, k) =>
      db.transaction().execute((trx) => buildPart(trx, lists, { k, of: builders })),
    ),
  );
  return built.reduce((sum, n) => sum + n, 0);
}

/**
 * Whether a build in shares ends sooner than one build: each share hashes every posting of the index against its own
 * lexemes, and only the postings of those lexemes are then split. After a first load they were 42 % of all postings
 * (30,000 records, 403 lists) and two shares ended sooner; 348 new lists in an index of 130,000 records held about 5 %,
 * and two shares took longer (docs/benchmarks.md, "Ingest budget, issue 25"). Read without the lock: it only chooses
 * how to build. Lists due for a rebuild after a drift of the mean length are not counted (their build then runs as
 * one).
 */
async function sharesPay(db: Kysely<DB>, minDf: number): Promise<boolean> {
  // PGlite (PostgreSQL compiled to WebAssembly, "wasm32" in its version) has one backend: the shares would run one
  // after the other, each reading every posting.
  const { rows } = await sql<{ build: number | null; total: number | null; single: boolean }>`
    SELECT version() LIKE '%wasm32%' AS single, sum(s.df) FILTER (WHERE s.df > ${num(minDf)} AND (l.lexeme IS NULL OR (l.entries * 2 < l.capacity AND s.df > l.entries)))::float8 AS build,
           sum(s.df)::float8 AS total
    FROM search_lexeme_stats s LEFT JOIN search_term_lists l ON l.lexeme = s.lexeme
    WHERE s.lexeme NOT LIKE ' %'`.execute(db);
  return !rows[0]?.single && Number(rows[0]?.build ?? 0) >= SHARES_MIN_POSTINGS * Number(rows[0]?.total ?? 0);
}

/**
 * The build of `buildImpactLists` for the lexemes of one share (`part`: those whose hashtext() is k modulo `of`), or
 * of all of them (null). A share's build holds the statistics lock shared, so that the shares' builds run at once
 * while writers (whose triggers take it exclusively) wait, and its own share's lock exclusively, so that two refreshes
 * never build the same lists at once. A build of every list takes the statistics lock exclusively.
 */
async function buildPart(
  trx: Kysely<DB>,
  lists: ListSettings,
  part: { k: number; of: number } | null,
): Promise<number> {
  await lockAndTune(trx, part);
  const { documents, avgdl } = await corpusStats(trx);
  const { postings, lexemes } = await lexemesToBuild(trx, lists, part, avgdl);
  if (lexemes.length === 0) return 0;
  await sql`DELETE FROM search_term_impacts WHERE lexeme = ANY(${lexemes}::text[])`.execute(trx);
  await sql`DELETE FROM search_term_lists WHERE lexeme = ANY(${lexemes}::text[])`.execute(trx);
  await sql`DROP TABLE IF EXISTS pg_temp.list_build, pg_temp.list_sample, pg_temp.list_entries`.execute(trx);
  await sql`CREATE TEMP TABLE list_build (lexeme text NOT NULL, query tsquery NOT NULL, tau float8 NOT NULL DEFAULT 0) ON COMMIT DROP`.execute(
    trx,
  );
  await sql`
    INSERT INTO list_build (lexeme, query)
    SELECT l, q::tsquery FROM unnest(${lexemes}::text[], ${lexemes.map(tsqueryLexeme)}::text[]) AS x(l, q)`.execute(
    trx,
  );
  await sql`ANALYZE list_build`.execute(trx);
  const sampled = await readEntries(trx, lists, lexemes, { postings, documents, avgdl });
  await writeLists(trx, lists, avgdl, sampled);
  return lexemes.length;
}

/** What a build needs of `buildImpactLists`' options. */
interface ListSettings {
  minDf: number;
  capacity: number;
  sampleMinDocuments?: number;
}

/** Takes the build's locks (see `buildPart`) and sets the planner for it, for the rest of the transaction. */
async function lockAndTune(trx: Kysely<DB>, part: { k: number; of: number } | null): Promise<void> {
  // unnest(tsvector) is estimated at 10 rows a document, 14 times too few: without these settings the planner sorts
  // millions of (document, lexeme) pairs for a merge join or a group aggregate, instead of hashing them (list_build
  // has no index for the same reason: a nested loop over it was chosen, a thousand times slower). One process, except
  // in the passes over every document (`parallelPass`).
  const lock =
    part === null
      ? sql`pg_advisory_xact_lock(${sql.raw(STATS_LOCK)})`
      : sql`pg_advisory_xact_lock(${sql.raw(SHARE_LOCK)}, ${num(part.k)}), pg_advisory_xact_lock_shared(${sql.raw(STATS_LOCK)})`;
  await sql`SELECT ${lock}, set_config('jit', 'off', true),
    set_config('work_mem', '262144', true), set_config('max_parallel_workers_per_gather', '0', true),
    set_config('enable_mergejoin', 'off', true), set_config('enable_sort', 'off', true)`.execute(trx);
}

/** The index's document count and mean document length (at least 1), from search_lexeme_stats. */
async function corpusStats(trx: Kysely<DB>): Promise<{ documents: number; avgdl: number }> {
  const stats = await sql<{ documents: number | null; length: number | null }>`
    SELECT max(df) FILTER (WHERE lexeme = ' documents')::float8 AS documents, max(df) FILTER (WHERE lexeme = ' length')::float8 AS length
    FROM search_lexeme_stats WHERE lexeme IN (' documents', ' length')`.execute(trx);
  const documents = Number(stats.rows[0]?.documents ?? 0);
  const avgdl = documents > 0 ? Math.max(Number(stats.rows[0]?.length ?? 0) / documents, 1) : 1;
  return { documents, avgdl };
}

/**
 * Drops the share's lists of lexemes no longer common enough, and picks the lexemes whose list is to be built: new
 * ones, lists short of capacity whose lexeme has grown, and lists built at a mean length that has drifted.
 * @returns the share's lexemes, in order, and `postings`, Σ df over the lexemes to build of every share.
 */
async function lexemesToBuild(
  trx: Kysely<DB>,
  lists: ListSettings,
  part: { k: number; of: number } | null,
  avgdl: number,
): Promise<{ postings: number; lexemes: string[] }> {
  const inPart = (column: RawBuilder<unknown>) =>
    part === null ? sql`true` : sql`mod(abs(hashtext(${column})::bigint), ${num(part.of)}) = ${num(part.k)}`;
  const dropped = await sql<{ lexeme: string }>`
    DELETE FROM search_term_lists l
    WHERE NOT EXISTS (SELECT 1 FROM search_lexeme_stats s WHERE s.lexeme = l.lexeme AND s.df * 2 > ${num(lists.minDf)})
      AND ${inPart(sql.ref("l.lexeme"))}
    RETURNING l.lexeme`.execute(trx);
  if (dropped.rows.length > 0)
    await sql`DELETE FROM search_term_impacts WHERE lexeme = ANY(${dropped.rows.map((r) => r.lexeme)}::text[])`.execute(
      trx,
    );
  const selected = await sql<{ lexeme: string; df: number; mine: boolean }>`
    SELECT s.lexeme, s.df::float8 AS df, ${inPart(sql.ref("s.lexeme"))} AS mine FROM search_lexeme_stats s LEFT JOIN search_term_lists l ON l.lexeme = s.lexeme
    WHERE s.df > ${num(lists.minDf)} AND s.lexeme NOT LIKE ' %'
      AND (l.lexeme IS NULL OR (l.entries * 2 < l.capacity AND s.df > l.entries) OR abs(l.avgdl / ${num(avgdl)} - 1) > ${num(AVGDL_DRIFT)})
    ORDER BY s.lexeme`.execute(trx);
  // Which way the lists are built depends on all of them (every share sees the same), so that they come out the same.
  const postings = selected.rows.reduce((sum, r) => sum + Number(r.df), 0);
  return { postings, lexemes: selected.rows.filter((r) => r.mine).map((r) => r.lexeme) };
}

/**
 * Fills the temporary table list_entries (lexeme, pmid, tf, doc_length) with the postings of list_build's lexemes
 * that may enter their lists: all of them through the GIN index when there are few, else those above a threshold
 * per lexeme, in one pass over the index.
 * @returns whether the thresholds came from a sample (then list_entries is already about SAMPLE_MARGIN × capacity
 *   per lexeme).
 */
async function readEntries(
  trx: Kysely<DB>,
  lists: ListSettings,
  lexemes: string[],
  { postings, documents, avgdl }: { postings: number; documents: number; avgdl: number },
): Promise<boolean> {
  let sampled = false;
  if (postings * 4 <= documents) {
    // Few postings: read them through the GIN index.
    await sql`
      CREATE TEMP TABLE list_entries ON COMMIT DROP AS
      SELECT b.lexeme, a.pmid, search_tf(u.weights)::real AS tf, a.doc_length
      FROM list_build b JOIN article_search a ON a.document @@ b.query
      CROSS JOIN LATERAL unnest(a.document) u WHERE u.lexeme = b.lexeme`.execute(trx);
  } else {
    // Many: one pass over the index, after a threshold per lexeme from a sample (every mod-th PMID).
    // Both statements below keep search_tf(weights) to one use per row: search_impact(search_tf(…), …) is not
    // inlined (its tf is used twice) and ran as a function call per posting, which doubled the pass (30,000
    // records: 3.4 s against 1.5 s). Hence the subquery below, and the filter solved for tf:
    // impact = 2.2·tf / (tf + K) > τ  ⇔  tf > τ·K / (2.2 − τ), with K = 0.3 + 0.9·dl/avgdl and τ < 2.2.
    const mod = Math.max(
      1,
      Math.min(SAMPLE_MAX_MOD, Math.floor(documents / (lists.sampleMinDocuments ?? SAMPLE_MIN_DOCUMENTS))),
    );
    if (mod > 1) {
      // The lexemes as an array, not list_build: a temporary table keeps a query out of the parallel workers.
      await parallelPass(
        trx,
        sql`
        CREATE TEMP TABLE list_sample ON COMMIT DROP AS
        SELECT lexeme, floor(1024 * search_impact(tf, doc_length, ${num(avgdl)}))::integer AS step, count(*) AS n
        FROM (
          SELECT u.lexeme, search_tf(u.weights) AS tf, a.doc_length
          FROM article_search a CROSS JOIN LATERAL unnest(a.document) u
          JOIN unnest(${lexemes}::text[]) lb(lexeme) ON lb.lexeme = u.lexeme
          WHERE a.pmid % ${num(mod)} = 0
          OFFSET 0
        ) s
        GROUP BY 1, 2`,
      );
      await setThresholds(
        trx,
        sql`SELECT lexeme, step, n FROM list_sample`,
        Math.ceil((SAMPLE_MARGIN * lists.capacity) / mod),
      );
      sampled = true;
    }
    // The thresholds travel as array literals (float8 prints exactly since PostgreSQL 12), for the same reason.
    const build = await sql<{ lexemes: string; taus: string }>`
      SELECT array_agg(lexeme ORDER BY lexeme)::text AS lexemes, array_agg(tau ORDER BY lexeme)::text AS taus
      FROM list_build`.execute(trx);
    const { lexemes: listed, taus } = build.rows[0] ?? { lexemes: "{}", taus: "{}" };
    await parallelPass(
      trx,
      sql`
      CREATE TEMP TABLE list_entries ON COMMIT DROP AS
      SELECT u.lexeme, a.pmid, search_tf(u.weights)::real AS tf, a.doc_length
      FROM article_search a CROSS JOIN LATERAL unnest(a.document) u
      JOIN unnest(${listed}::text[], ${taus}::float8[]) b(lexeme, tau) ON b.lexeme = u.lexeme
      WHERE b.tau = 0
         OR search_tf(u.weights) > (b.tau - 1e-9) * (0.3::float8 + 0.9::float8 * a.doc_length / ${num(avgdl)})
                                   / (2.2::float8 - (b.tau - 1e-9))`,
    );
  }
  return sampled;
}

/**
 * Writes the lists of list_build's lexemes from list_entries: each lexeme's `capacity` entries of highest impact to
 * search_term_impacts, and its floor (the best impact left out, at least its threshold) to search_term_lists.
 */
async function writeLists(trx: Kysely<DB>, lists: ListSettings, avgdl: number, sampled: boolean): Promise<void> {
  // Without a sample every posting of the lexemes was read, yet only a lexeme's capacity + 1 best entries decide its
  // list and floor: the exact histogram of the entries gives the threshold at rank capacity + 1, and only the entries
  // above it are sorted. The same lists and floors, from a sort of 0.4 instead of 1.7 million entries at 30,000
  // records (docs/benchmarks.md, "Ingest: the first build of the impact lists"). After a sample the entries are
  // already about SAMPLE_MARGIN × capacity per lexeme, and a second histogram cost more than it saved.
  let entries = sql`list_entries`;
  if (!sampled) {
    await setThresholds(
      trx,
      sql`SELECT lexeme, floor(1024 * search_impact(tf, doc_length, ${num(avgdl)}))::integer AS step, count(*) AS n
          FROM list_entries GROUP BY 1, 2`,
      lists.capacity + 1,
    );
    entries = sql`(SELECT e.* FROM list_entries e JOIN list_build b ON b.lexeme = e.lexeme
      WHERE search_impact(e.tf, e.doc_length, ${num(avgdl)}) >= b.tau - 1e-9)`;
  }
  await sql`SELECT set_config('enable_sort', 'on', true)`.execute(trx);
  await sql`
    WITH ranked AS MATERIALIZED (
      SELECT lexeme, pmid, tf, doc_length, search_impact(tf, doc_length, ${num(avgdl)}) AS impact,
             row_number() OVER (PARTITION BY lexeme COLLATE "C"
                                ORDER BY search_impact(tf, doc_length, ${num(avgdl)}) DESC, pmid DESC) AS r
      FROM ${entries} e
    ), kept AS (
      INSERT INTO search_term_impacts (lexeme, pmid, tf, doc_length)
      SELECT lexeme, pmid, tf, doc_length FROM ranked WHERE r <= ${num(lists.capacity)}
    )
    INSERT INTO search_term_lists (lexeme, floor, avgdl, entries, capacity)
    SELECT b.lexeme, greatest(b.tau, coalesce(x.cut, 0)), ${num(avgdl)}, coalesce(x.n, 0), ${num(lists.capacity)}
    FROM list_build b LEFT JOIN (
      SELECT lexeme, count(*) FILTER (WHERE r <= ${num(lists.capacity)})::integer AS n,
             max(impact) FILTER (WHERE r > ${num(lists.capacity)}) AS cut
      FROM ranked GROUP BY lexeme
    ) x ON x.lexeme = b.lexeme`.execute(trx);
}

/**
 * Sets list_build.tau of each lexeme to the lower edge of the highest impact step that holds at least `rank` of the
 * `histogram`'s entries at or above it. `histogram` is SQL of rows (lexeme, step, n): n entries of the lexeme whose
 * impact lies in [step/1024, (step+1)/1024), hashed rather than sorted (millions of rows). A lexeme with fewer entries
 * keeps its tau (0: every entry is read).
 */
async function setThresholds(trx: Kysely<DB>, histogram: RawBuilder<unknown>, rank: number): Promise<void> {
  await sql`
    UPDATE list_build b SET tau = x.tau FROM (
      SELECT lexeme, max(step) / 1024.0::float8 AS tau FROM (
        SELECT lexeme, step, sum(n) OVER (PARTITION BY lexeme COLLATE "C" ORDER BY step DESC) AS above
        FROM (${histogram}) h
      ) c WHERE above >= ${num(rank)} GROUP BY lexeme
    ) x WHERE b.lexeme = x.lexeme`.execute(trx);
}
