import { sql, type Kysely } from "kysely";
import type { DB } from "../../src/db/types.ts";

// Writing the PostgreSQL index (table article_search and its impact tiers): articles in, articles out, and the GIN
// pending lists merged after a bulk load. The statistics and impact lists follow through triggers (migrations 0003
// and 2026_11_25_0101); the lists' builds are in impact-lists.ts.

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
export async function writeArticles(db: Kysely<DB>, pmids: number[]): Promise<void> {
  const ids = [...new Set(pmids.filter((p) => Number.isInteger(p)))].sort((a, b) => a - b);
  for (let i = 0; i < ids.length; i += INDEX_BATCH) {
    const slice = `{${ids.slice(i, i + INDEX_BATCH).join(",")}}`;
    const write = (target: Kysely<DB>) =>
      sql`
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
        RETURNING pmid, document, doc_length
      )
      -- The impact tiers of the rows written (migration 2026_11_25_0201); unchanged rows keep theirs. The foreign
      -- key to article_search is checked at the end of the statement, when the row above exists. From the rows the
      -- insert returns rather than a join with "vectors", which needs no plan: written with a PMID range above the
      -- statistics (estimated at 1 row), that join became a nested loop of 5,000 × 5,000, 2.2 s of a 4 s statement.
      INSERT INTO article_search_tiers (pmid, tiers)
      SELECT w.pmid, search_tiers(w.document, w.doc_length) FROM written w
      ON CONFLICT (pmid) DO UPDATE SET tiers = excluded.tiers`.execute(target);
    if (db.isTransaction) {
      await write(db);
    } else {
      await db.transaction().execute(async (trx) => {
        await sql`SELECT ${sql.raw(BULK_SETTINGS)}`.execute(trx);
        await write(trx);
      });
    }
  }
}

/**
 * Merges the GIN indexes' pending lists into the indexes (gin_clean_pending_list), which bulk indexing lets grow to
 * BULK_SETTINGS' limit. Until then every search also scans the pending entries. Its statements commit synchronously,
 * so they also make the batches' asynchronous commits durable.
 */
export async function mergePendingLists(db: Kysely<DB>): Promise<void> {
  // One statement per index, so that on a pool the two merges run at once.
  await Promise.all(
    ["article_search_document_idx", "article_search_title_idx"].map((index) =>
      sql`SELECT gin_clean_pending_list(${index}::regclass)`.execute(db),
    ),
  );
}

/** Removes these PMIDs from the index (statistics follow through the triggers); unknown PMIDs are ignored. */
export async function deleteArticles(db: Kysely<DB>, pmids: number[]): Promise<void> {
  const ids = [...new Set(pmids.filter((p) => Number.isInteger(p)))];
  if (ids.length === 0) return;
  await sql`DELETE FROM article_search WHERE pmid = ANY(${`{${ids.join(",")}}`}::integer[])`.execute(db);
}
