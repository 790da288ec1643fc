/**
 * PubMed XML files → `articles` rows + search index.
 *
 * Each file is streamed through the parser (search/pubmed/parser.ts); articles are upserted in batches with
 * `INSERT … ON CONFLICT (pmid) DO UPDATE … WHERE content_hash IS DISTINCT FROM excluded.content_hash`, so a record whose
 * mapped fields did not change is not written at all and re-ingesting a file changes nothing. Only inserted and
 * changed rows are passed to `search.index()`. A DeleteCitation removes its PMIDs from the index and from `articles`.
 *
 * Pipelining: while the parser reads batch N+2, batch N+1 is upserted and batch N indexed, on separate connections
 * when the database has a pool (PostgreSQL). Upserts run in file order, one at a time, and so do index calls, so a
 * later version of a record always wins. Before a DeleteCitation is applied, every earlier batch is written and indexed.
 *
 * Failures: a malformed record is counted, reported through `onError` and skipped. A file that cannot be read (missing,
 * corrupt or truncated gzip, not PubMed XML) is reported and listed in `failedFiles`; the records read before the
 * failure are kept and the other files are still ingested. A database error aborts the run (it is thrown).
 */
import { sql } from "kysely";
import type { Database } from "../src/db/database.ts";
import type { IndexableArticle, SearchIndex } from "./search-index.ts";
import { parsePubmedFile, PubmedFileError, type ParsedArticle, type ParseFileOptions } from "./pubmed/parser.ts";

export interface IngestDeps {
  db: Database;
  search: SearchIndex;
}

/** Reported about once a second and at the end of each file. */
export interface IngestProgress {
  /** File being read (null once all files are done). */
  file: string | null;
  /** Article records read so far, all files together. */
  records: number;
  /** Article records read so far from the current file. */
  fileRecords: number;
  /** Seconds since the start of the run. */
  seconds: number;
  /** `records / seconds`. */
  recordsPerSecond: number;
}

export interface IngestOptions {
  /** Articles per upsert statement (default 500). */
  batchSize?: number;
  onProgress?: (progress: IngestProgress) => void;
  /** Minimum milliseconds between two progress reports within a file (default 1000). */
  progressIntervalMs?: number;
  /** Called with each record-level and file-level error message as it happens. */
  onError?: (message: string) => void;
  /** Passed to the parser (reading on a worker thread or not). */
  parse?: ParseFileOptions;
  /**
   * Run a full garbage collection every this many records (default 1,000; 0 never). Each record leaves ~25 KB of
   * garbage behind (its decompressed XML, the JSON sent to the database, the driver's buffers); left to its own
   * heuristics the collector lets 100+ MB of it pile up before collecting. Measured on the 30,000-record benchmark
   * file: peak RSS ~270 MB without, ~165 MB with collections every 1,000 records.
   */
  gcEveryRecords?: number;
}

export interface IngestResult {
  /** Article records read and upserted (inserted + updated + unchanged). */
  ingested: number;
  inserted: number;
  updated: number;
  /** Records whose content hash matched the stored row: nothing written, nothing re-indexed. */
  unchanged: number;
  /** Rows removed from `articles` by DeleteCitation (PMIDs not present are not counted). */
  deleted: number;
  /** Malformed records skipped. */
  errors: number;
  /** Files that could not be read (or only partly), with the reason. */
  failedFiles: { file: string; message: string }[];
  seconds: number;
  /** `ingested / seconds`, rounded down. */
  recordsPerSecond: number;
}

const DEFAULT_BATCH = 1000;
/** PMIDs per DELETE statement: DeleteCitation lists in update files run to thousands. */
const DELETE_BATCH = 5_000;

interface BatchCounts {
  inserted: number;
  updated: number;
}

/**
 * Ingests PubMed XML files (.xml or .xml.gz) in the given order.
 * @param deps database and search index.
 * @param files paths; each is read as a stream, so file size does not matter.
 * @returns counts and timing; see IngestResult.
 * @throws a database or search-index error (the run stops; batches written before it stay written).
 */
export async function ingestFiles(deps: IngestDeps, files: string[], options: IngestOptions = {}): Promise<IngestResult> {
  const batchSize = Math.max(1, options.batchSize ?? DEFAULT_BATCH);
  const gcEvery = options.gcEveryRecords ?? 1_000;
  let nextGc = gcEvery;
  const progressInterval = options.progressIntervalMs ?? 1000;
  const started = performance.now();
  const elapsed = () => (performance.now() - started) / 1000;
  const result: IngestResult = {
    ingested: 0,
    inserted: 0,
    updated: 0,
    unchanged: 0,
    deleted: 0,
    errors: 0,
    failedFiles: [],
    seconds: 0,
    recordsPerSecond: 0,
  };
  const reportError = (message: string) => options.onError?.(message);

  // Batches in flight, oldest first: at most one being indexed and one being upserted while the parser fills the
  // next. Upserts run one after another, and so do index calls; a batch is indexed after its upsert.
  const stages: { upsert: Promise<IndexableArticle[]>; index: Promise<void> }[] = [];
  const counts: BatchCounts = { inserted: 0, updated: 0 };
  const submit = async (batch: ParsedArticle[]) => {
    while (stages.length >= 2) await stages.shift()!.index;
    const previous = stages.at(-1);
    const upsert = (previous ? previous.upsert : Promise.resolve()).then(() => upsertBatch(deps, batch, counts));
    const index = Promise.all([upsert, previous?.index]).then(([rows]) => indexRows(deps, rows));
    // Failures surface when `drain` awaits them; this only keeps them from counting as unhandled meanwhile.
    upsert.catch(() => {});
    index.catch(() => {});
    stages.push({ upsert, index });
  };
  // An index stage settles after its upsert and every earlier stage, so awaiting them in order sees every failure.
  const drain = async () => {
    while (stages.length) await stages.shift()!.index;
  };

  try {
    for (const file of files) {
      let batch: ParsedArticle[] = [];
      let fileRecords = 0;
      let lastReport = performance.now();
      const progress = (f: string | null) =>
        options.onProgress?.({
          file: f,
          records: result.ingested,
          fileRecords,
          seconds: elapsed(),
          recordsPerSecond: result.ingested / Math.max(elapsed(), 1e-9),
        });
      try {
        for await (const event of parsePubmedFile(file, options.parse)) {
          if (event.type === "article") {
            batch.push(event.article);
            result.ingested++;
            fileRecords++;
            if (batch.length >= batchSize) {
              await submit(batch);
              batch = [];
              if (gcEvery > 0 && result.ingested >= nextGc) {
                nextGc = result.ingested + gcEvery;
                Bun.gc(true);
              }
            }
            if (options.onProgress && performance.now() - lastReport >= progressInterval) {
              lastReport = performance.now();
              progress(file);
            }
          } else if (event.type === "delete") {
            // Deletions apply in file order: everything before them is written first.
            if (batch.length) await submit(batch);
            batch = [];
            await drain();
            result.deleted += await deleteArticles(deps, event.pmids);
          } else {
            result.errors++;
            reportError(event.message);
          }
        }
      } catch (error) {
        if (!(error instanceof PubmedFileError)) throw error;
        result.failedFiles.push({ file, message: error.message });
        reportError(error.message);
      }
      if (batch.length) await submit(batch);
      await drain();
      progress(file);
    }
  } finally {
    // Never leave a write running behind the caller's back, even when the run fails.
    await Promise.allSettled(stages.map((s) => s.index));
  }
  result.inserted = counts.inserted;
  result.updated = counts.updated;
  result.unchanged = result.ingested - result.inserted - result.updated;
  result.seconds = elapsed();
  result.recordsPerSecond = Math.floor(result.ingested / Math.max(result.seconds, 1e-9));
  options.onProgress?.({ file: null, records: result.ingested, fileRecords: 0, seconds: result.seconds, recordsPerSecond: result.recordsPerSecond });
  return result;
}

/** Column order of the upsert; also the JSON record type of its input. */
const COLUMNS = `
  pmid integer, title text, authors text, abstract text, abstract_sections jsonb, journal text,
  publication_date date, publication_year integer, doi text, pmc_id text, full_text_link text, pdf_free_link text,
  language text, publication_types text[], mesh_terms text[], keywords text[], content_hash text`;

/**
 * Upserts one batch; adds the inserted and updated rows to `counts`.
 * The batch travels as one JSON parameter (jsonb_to_recordset) rather than ~17 bind parameters per row: one value to
 * serialise instead of thousands, and no limit on parameters per statement.
 * @returns the rows that were inserted or changed, to be indexed.
 */
async function upsertBatch(deps: IngestDeps, batch: ParsedArticle[], counts: BatchCounts): Promise<IndexableArticle[]> {
  // One statement cannot update a row twice: within a batch the last version of a PMID wins, as it would in sequence.
  const byPmid = new Map<number, ParsedArticle>();
  for (const a of batch) byPmid.set(a.pmid, a);
  const payload = JSON.stringify([...byPmid.values()]);
  const changed = await sql<{ pmid: number; inserted: boolean }>`
    WITH input AS (
      SELECT * FROM jsonb_to_recordset(${payload}::text::jsonb) AS x(${sql.raw(COLUMNS)})
    )
    INSERT INTO articles (pmid, title, authors, abstract, abstract_sections, journal, publication_date, publication_year,
                          doi, pmc_id, full_text_link, pdf_free_link, language, publication_types, mesh_terms, keywords,
                          content_hash)
    SELECT pmid, title, authors, abstract, coalesce(abstract_sections, '[]'::jsonb), journal, publication_date,
           publication_year, doi, pmc_id, full_text_link, pdf_free_link, language,
           coalesce(publication_types, '{}'), coalesce(mesh_terms, '{}'), coalesce(keywords, '{}'), content_hash
    FROM input
    ON CONFLICT (pmid) DO UPDATE SET
      title = excluded.title, authors = excluded.authors, abstract = excluded.abstract,
      abstract_sections = excluded.abstract_sections, journal = excluded.journal,
      publication_date = excluded.publication_date, publication_year = excluded.publication_year,
      doi = excluded.doi, pmc_id = excluded.pmc_id, full_text_link = excluded.full_text_link,
      pdf_free_link = excluded.pdf_free_link, language = excluded.language,
      publication_types = excluded.publication_types, mesh_terms = excluded.mesh_terms, keywords = excluded.keywords,
      content_hash = excluded.content_hash, updated_at = now()
    WHERE articles.content_hash IS DISTINCT FROM excluded.content_hash
    RETURNING pmid, (xmax = 0) AS inserted`.execute(deps.db);

  const toIndex: IndexableArticle[] = [];
  for (const row of changed.rows) {
    if (row.inserted) counts.inserted++;
    else counts.updated++;
    const a = byPmid.get(Number(row.pmid))!;
    toIndex.push({
      pmid: a.pmid,
      title: a.title,
      abstract: a.abstract,
      mesh_terms: a.mesh_terms,
      keywords: a.keywords,
      publication_year: a.publication_year,
    });
  }
  return toIndex;
}

/** Indexes upserted rows; on failure marks them so that the next ingest indexes them again. */
async function indexRows(deps: IngestDeps, rows: IndexableArticle[]): Promise<void> {
  if (rows.length === 0) return;
  try {
    await deps.search.index(rows);
  } catch (error) {
    // The rows are written but not indexed. Clearing their hash makes the next ingest of the file see them as changed
    // and index them again, instead of skipping them as unchanged forever.
    await sql`UPDATE articles SET content_hash = '' WHERE pmid = ANY(${`{${rows.map((a) => a.pmid).join(",")}}`}::integer[])`
      .execute(deps.db)
      .catch(() => {});
    throw error;
  }
}

/**
 * Removes PMIDs from the search index, then from `articles` (rows referencing them go with them: ON DELETE CASCADE).
 * @returns number of articles removed.
 */
async function deleteArticles(deps: IngestDeps, pmids: number[]): Promise<number> {
  let removed = 0;
  const unique = [...new Set(pmids)];
  for (let i = 0; i < unique.length; i += DELETE_BATCH) {
    const ids = unique.slice(i, i + DELETE_BATCH);
    await deps.search.delete(ids);
    const res = await sql`DELETE FROM articles WHERE pmid = ANY(${`{${ids.join(",")}}`}::integer[])`.execute(deps.db);
    removed += Number(res.numAffectedRows ?? 0);
  }
  return removed;
}
