/**
 * PubMed XML files → `articles` rows + search index.
 *
 * Each file is streamed through the parser (search/pubmed/parser.ts); articles are upserted in batches with
 * `INSERT … ON CONFLICT (pmid) DO UPDATE … WHERE content_hash IS DISTINCT FROM excluded.content_hash`, so a record
 * whose mapped fields did not change is not written at all and re-ingesting a file changes nothing. Only inserted and
 * changed PMIDs are passed to `search.index()`, which reads them back from `articles`. A DeleteCitation removes its
 * PMIDs from the index and from `articles`.
 *
 * Concurrency: while the parser reads the next batch, up to `concurrency` write jobs (batch upserts, and index calls
 * over chunks of changed PMIDs) run at once, each on its own connection when the database has a pool (PostgreSQL).
 * A batch sharing a PMID with one in flight waits for it, so a later version of a record always wins (see
 * WriteScheduler). Before a DeleteCitation is applied, every earlier batch is written and indexed. At the end the
 * search index is refreshed (`SearchIndex.refresh`).
 *
 * Failures: a malformed record is counted, reported through `onError` and skipped. A file that cannot be read (missing,
 * corrupt or truncated gzip, not PubMed XML) is reported and listed in `failedFiles`; the records read before the
 * failure are kept and the other files are still ingested. A database error aborts the run (it is thrown).
 */
import { sql } from "kysely";
import type { Database } from "../src/db/database.ts";
import type { SearchIndex } from "./search-index.ts";
import {
  parsePubmedFile,
  PubmedFileError,
  type ParsedArticle,
  type ParseEvent,
  type ParseFileOptions,
} from "./pubmed/parser.ts";
import { syntaxIndexOf, syntaxWordsSql } from "./pubmed/query-syntax/stored.ts";

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
  /** Articles per upsert statement (default 1,000). */
  batchSize?: number;
  /**
   * Write statements (upserts and index chunks) running at once, each on its own connection (default 2). PGlite has
   * one connection, so there they take turns; on a PostgreSQL server each uses a core.
   */
  concurrency?: number;
  /** Changed PMIDs passed to `search.index()` per call (default 5,000; see INDEX_CHUNK). */
  indexChunk?: number;
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
/**
 * Write statements running at once (each on its own connection). Measured on the 30,000-record benchmark file on a
 * 2-core machine (docs/benchmarks.md): 1 gives 1,700 records/s, 2 and 3 about the same best rate.
 */
const DEFAULT_CONCURRENCY = 2;
/**
 * Changed PMIDs indexed per job: the PostgreSQL adapter's statement size, where its statistics update is cheap per
 * record (see INDEX_BATCH in postgres/writer.ts). Only PMIDs wait, so a chunk costs no memory to speak of.
 */
const INDEX_CHUNK = 5_000;
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
export async function ingestFiles(
  deps: IngestDeps,
  files: string[],
  options: IngestOptions = {},
): Promise<IngestResult> {
  const run = new IngestRun(deps, options);
  try {
    for (const file of files) {
      run.startSource(file);
      try {
        for await (const event of parsePubmedFile(file, options.parse)) await run.add(event);
      } catch (error) {
        if (!(error instanceof PubmedFileError)) throw error;
        run.sourceFailed(file, error.message);
      }
      await run.endSource();
    }
    // Merge what the index deferred (and make every batch durable) before reporting the run as done.
    await deps.search.refresh();
  } finally {
    await run.settle();
  }
  return run.finish(files.length);
}

/**
 * Ingests records already parsed (events of search/pubmed/parser.ts, e.g. `parsePubmedXml` of an E-utilities answer)
 * through the same path as `ingestFiles`: upserts in batches keyed on the content hash (an unchanged record writes
 * nothing), the inserted and changed PMIDs indexed, a DeleteCitation applied after everything before it, the index
 * refreshed at the end, and a run that changed the corpus recorded in `ingest_runs` (with `files` 0).
 * @param events read once, in order. An async iterable may take its time between events (fetching the next batch from
 *   PubMed, say): the batches read so far are written meanwhile. An `error` event is counted and reported through
 *   `onError`, as a malformed record of a file is.
 * @param source names the records in progress reports (`IngestProgress.file`), e.g. "PubMed E-utilities".
 * @returns counts and timing; `failedFiles` is always empty.
 * @throws what the iterable or the database throws (the run stops; batches written before it stay written).
 */
export async function ingestParsed(
  deps: IngestDeps,
  events: Iterable<ParseEvent> | AsyncIterable<ParseEvent>,
  source: string,
  options: Omit<IngestOptions, "parse"> = {},
): Promise<IngestResult> {
  const run = new IngestRun(deps, options);
  try {
    run.startSource(source);
    for await (const event of events) await run.add(event);
    await run.endSource();
    await deps.search.refresh();
  } finally {
    await run.settle();
  }
  return run.finish(0);
}

/**
 * One ingest run, whatever its records come from: batching, the concurrent upsert and index jobs, deletions in order,
 * progress, and the bookkeeping after a failure. Sources (files, or one stream of parsed events) are read one after
 * another: `startSource`, `add` per event, `endSource`; then the caller refreshes the index, and `settle` (always) and
 * `finish` (on success) end the run.
 */
class IngestRun {
  readonly result: IngestResult = {
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
  private readonly batchSize: number;
  private readonly concurrency: number;
  private readonly indexChunk: number;
  private readonly gcEvery: number;
  private nextGc: number;
  private readonly progressInterval: number;
  private readonly started = performance.now();
  // Upserts of 1,000-record batches and indexing of the changed PMIDs in larger chunks (a statement's statistics
  // update costs less per record the more records it covers) run as jobs on up to `concurrency` connections at once,
  // so the server's cores work while the parser reads the next batch.
  private readonly writes: WriteScheduler;
  private readonly counts: BatchCounts = { inserted: 0, updated: 0 };
  private toIndex: number[] = [];
  // Chunks handed to an index job and not indexed yet: if the run fails, they are marked for the next run.
  private readonly unindexed = new Set<number[]>();
  private batch: ParsedArticle[] = [];
  private source: string | null = null;
  private sourceRecords = 0;
  private lastReport = performance.now();

  constructor(
    private readonly deps: IngestDeps,
    private readonly options: Omit<IngestOptions, "parse">,
  ) {
    this.batchSize = Math.max(1, options.batchSize ?? DEFAULT_BATCH);
    this.concurrency = Math.max(1, options.concurrency ?? DEFAULT_CONCURRENCY);
    this.indexChunk = Math.max(1, options.indexChunk ?? INDEX_CHUNK);
    this.gcEvery = options.gcEveryRecords ?? 1_000;
    this.nextGc = this.gcEvery;
    this.progressInterval = options.progressIntervalMs ?? 1000;
    this.writes = new WriteScheduler(this.concurrency);
  }

  private elapsed(): number {
    return (performance.now() - this.started) / 1000;
  }

  private reportError(message: string): void {
    this.options.onError?.(message);
  }

  private progress(file: string | null): void {
    this.options.onProgress?.({
      file,
      records: this.result.ingested,
      fileRecords: this.sourceRecords,
      seconds: this.elapsed(),
      recordsPerSecond: this.result.ingested / Math.max(this.elapsed(), 1e-9),
    });
  }

  startSource(source: string): void {
    this.source = source;
    this.batch = [];
    this.sourceRecords = 0;
    this.lastReport = performance.now();
  }

  /** Takes one event of the current source. @throws the first failure of a write job. */
  async add(event: ParseEvent): Promise<void> {
    if (event.type === "article") {
      this.batch.push(event.article);
      this.result.ingested++;
      this.sourceRecords++;
      if (this.batch.length >= this.batchSize) {
        await this.submit(this.batch);
        this.batch = [];
        if (this.gcEvery > 0 && this.result.ingested >= this.nextGc) {
          this.nextGc = this.result.ingested + this.gcEvery;
          Bun.gc(true);
        }
      }
      if (this.options.onProgress && performance.now() - this.lastReport >= this.progressInterval) {
        this.lastReport = performance.now();
        this.progress(this.source);
      }
    } else if (event.type === "delete") {
      // Deletions apply in file order: everything before them is written first.
      if (this.batch.length) await this.submit(this.batch);
      this.batch = [];
      await this.drain();
      this.result.deleted += await deleteArticles(this.deps, event.pmids);
    } else {
      this.result.errors++;
      this.reportError(event.message);
    }
  }

  /** The current source could not be read (or only partly); the records read before the failure are kept. */
  sourceFailed(source: string, message: string): void {
    this.result.failedFiles.push({ file: source, message });
    this.reportError(message);
  }

  /** Writes and indexes what is left of the current source, then reports progress. */
  async endSource(): Promise<void> {
    if (this.batch.length) await this.submit(this.batch);
    this.batch = [];
    await this.drain();
    this.progress(this.source);
  }

  /** Waits for every write job, failed or not, and marks the rows written but not indexed (always call it). */
  async settle(): Promise<void> {
    // Never leave a write running behind the caller's back, even when the run fails.
    await this.writes.settle();
    // After a failure, rows may be written but not indexed. Clearing their hash makes the next ingest of the file see
    // them as changed and index them, instead of skipping them as unchanged forever.
    const pending = [...this.toIndex, ...[...this.unindexed].flat()];
    if (pending.length) {
      await sql`UPDATE articles SET content_hash = '' WHERE pmid = ANY(${`{${pending.join(",")}}`}::integer[])`
        .execute(this.deps.db)
        .catch((error) =>
          this.reportError(`could not mark ${pending.length} unindexed articles for the next run: ${error}`),
        );
    }
  }

  /** Completes the counts, records a run that changed the corpus, and reports the end. */
  async finish(files: number): Promise<IngestResult> {
    const result = this.result;
    result.inserted = this.counts.inserted;
    result.updated = this.counts.updated;
    result.unchanged = result.ingested - result.inserted - result.updated;
    // A run that changed the corpus is recorded: pages say when the index was last updated.
    if (result.inserted + result.updated + result.deleted > 0) {
      await this.deps.db
        .insertInto("ingest_runs")
        .values({ files, inserted: result.inserted, updated: result.updated, deleted: result.deleted })
        .execute();
    }
    result.seconds = this.elapsed();
    result.recordsPerSecond = Math.floor(result.ingested / Math.max(result.seconds, 1e-9));
    this.options.onProgress?.({
      file: null,
      records: result.ingested,
      fileRecords: 0,
      seconds: result.seconds,
      recordsPerSecond: result.recordsPerSecond,
    });
    return result;
  }

  // At the end of a file the last PMIDs are split over every connection: nothing else is left to run beside them.
  private async flushIndex(parts = 1): Promise<void> {
    if (this.toIndex.length === 0) return;
    const all = this.toIndex;
    this.toIndex = [];
    const size = Math.ceil(all.length / parts);
    for (let i = 0; i < all.length; i += size) await this.flushPart(all.slice(i, i + size));
  }

  private async flushPart(pmids: number[]): Promise<void> {
    this.unindexed.add(pmids);
    await this.writes.submit("index", pmids, async () => {
      await this.deps.search.index(pmids);
      this.unindexed.delete(pmids);
    });
  }

  private async submit(batch: ParsedArticle[]): Promise<void> {
    await this.writes.submit(
      "upsert",
      batch.map((a) => a.pmid),
      async () => {
        const changed = await upsertBatch(this.deps, batch, this.counts);
        // Not `this.toIndex.push(...(await …))`: that would take `toIndex` before the await, and push into an array
        // that a flush may have handed to an index job meanwhile.
        this.toIndex.push(...changed);
      },
    );
    if (this.toIndex.length >= this.indexChunk) await this.flushIndex();
  }

  // Every batch read so far is upserted and indexed.
  private async drain(): Promise<void> {
    for (;;) {
      await this.writes.drain();
      if (this.toIndex.length === 0) return;
      await this.flushIndex(this.concurrency);
    }
  }
}

/** Column order of the upsert; also the JSON record type of its input. */
const COLUMNS = `
  pmid integer, title text, authors text, abstract text, abstract_sections jsonb, journal text,
  publication_date date, publication_date_precision text, publication_year integer, doi text, pmc_id text, full_text_link text, pdf_free_link text,
  language text, publication_types text[], mesh_terms text[], keywords text[], retraction_notice_pmid integer, reference_pmids integer[],
  entrez_date date, mesh_major_terms text[], volume text, issue text, medline_pages text, start_page text, end_page text,
  elocation_pii text, journal_iso_abbreviation text, journal_medline_ta text, issn text, epub_date date, author_list jsonb,
  book_publisher text, book_publisher_place text, book_title text, record_kind text, content_hash text,
  syntax_sources text[], syntax_words text[]`;

/**
 * Upserts one batch; adds the inserted and updated rows to `counts`.
 * The batch travels as one JSON parameter (jsonb_to_recordset) rather than ~17 bind parameters per row: one value to
 * serialise instead of thousands, and no limit on parameters per statement.
 * @returns the PMIDs of the rows that were inserted or changed, to be indexed.
 */
async function upsertBatch(deps: IngestDeps, batch: ParsedArticle[], counts: BatchCounts): Promise<number[]> {
  // One statement cannot update a row twice: within a batch the last version of a PMID wins, as it would in sequence.
  const byPmid = new Map<number, ParsedArticle>();
  for (const a of batch) byPmid.set(a.pmid, a);
  // Each record travels with its syntax index (search/pubmed/query-syntax/stored.ts), computed here in JavaScript.
  const payload = JSON.stringify(
    [...byPmid.values()].map((a) => {
      const { sources, words } = syntaxIndexOf(a);
      return { ...a, syntax_sources: sources, syntax_words: words };
    }),
  );
  // The commit need not wait for the disk: a crash loses at most the last few batches, which ingesting the file again
  // restores, and the run ends with the index's synchronous refresh, which makes every earlier commit durable.
  const changed = await deps.db.transaction().execute(async (trx) => {
    await sql`SELECT set_config('synchronous_commit', 'off', true)`.execute(trx);
    return sql<{ pmid: number; inserted: boolean }>`
    WITH input AS (
      SELECT * FROM jsonb_to_recordset(${payload}::text::jsonb) AS x(${sql.raw(COLUMNS)})
    )
    INSERT INTO articles (pmid, title, authors, abstract, abstract_sections, journal, publication_date, publication_date_precision, publication_year,
                          doi, pmc_id, full_text_link, pdf_free_link, language, publication_types, mesh_terms, keywords,
                          retraction_notice_pmid, reference_pmids, entrez_date, mesh_major_terms, volume, issue, medline_pages,
                          start_page, end_page, elocation_pii, journal_iso_abbreviation, journal_medline_ta, issn, epub_date,
                          author_list, book_publisher, book_publisher_place, book_title, record_kind, content_hash,
                          syntax_sources, syntax_words)
    SELECT pmid, title, authors, abstract, coalesce(abstract_sections, '[]'::jsonb), journal, publication_date,
           publication_date_precision, publication_year, doi, pmc_id, full_text_link, pdf_free_link, language,
           coalesce(publication_types, '{}'), coalesce(mesh_terms, '{}'), coalesce(keywords, '{}'), retraction_notice_pmid,
           coalesce(reference_pmids, '{}'), entrez_date, coalesce(mesh_major_terms, '{}'), volume, issue, medline_pages,
           start_page, end_page, elocation_pii, journal_iso_abbreviation, journal_medline_ta, issn, epub_date,
           coalesce(author_list, '[]'::jsonb), book_publisher, book_publisher_place, book_title, coalesce(record_kind, 'article'),
           content_hash, syntax_sources, ${syntaxWordsSql(sql`syntax_sources`, sql`syntax_words`)}
    FROM input
    ON CONFLICT (pmid) DO UPDATE SET
      title = excluded.title, authors = excluded.authors, abstract = excluded.abstract,
      abstract_sections = excluded.abstract_sections, journal = excluded.journal,
      publication_date = excluded.publication_date, publication_date_precision = excluded.publication_date_precision,
      publication_year = excluded.publication_year,
      doi = excluded.doi, pmc_id = excluded.pmc_id, full_text_link = excluded.full_text_link,
      pdf_free_link = excluded.pdf_free_link, language = excluded.language,
      publication_types = excluded.publication_types, mesh_terms = excluded.mesh_terms, keywords = excluded.keywords,
      retraction_notice_pmid = excluded.retraction_notice_pmid, reference_pmids = excluded.reference_pmids,
      entrez_date = excluded.entrez_date, mesh_major_terms = excluded.mesh_major_terms,
      volume = excluded.volume, issue = excluded.issue, medline_pages = excluded.medline_pages,
      start_page = excluded.start_page, end_page = excluded.end_page, elocation_pii = excluded.elocation_pii,
      journal_iso_abbreviation = excluded.journal_iso_abbreviation, journal_medline_ta = excluded.journal_medline_ta,
      issn = excluded.issn, epub_date = excluded.epub_date, author_list = excluded.author_list,
      book_publisher = excluded.book_publisher, book_publisher_place = excluded.book_publisher_place,
      book_title = excluded.book_title, record_kind = excluded.record_kind,
      content_hash = excluded.content_hash, syntax_sources = excluded.syntax_sources,
      syntax_words = excluded.syntax_words, updated_at = now()
    WHERE articles.content_hash IS DISTINCT FROM excluded.content_hash
    RETURNING pmid, (xmax = 0) AS inserted`.execute(trx);
  });

  const changedPmids: number[] = [];
  for (const row of changed.rows) {
    if (row.inserted) counts.inserted++;
    else counts.updated++;
    changedPmids.push(Number(row.pmid));
  }
  return changedPmids;
}

type JobKind = "upsert" | "index";

/**
 * Runs the ingest's writes as jobs, at most `slots` at once (one connection each), started in submission order.
 * A job names the PMIDs it writes and its kind; it runs only after every earlier job of the same kind sharing a PMID
 * has finished, so the later version of a record always wins, and two index jobs never race on one row. (An index job
 * reads the rows as committed when it runs, and a PMID changed again is indexed again after that change.)
 * The first failure is kept: the jobs after it are skipped, and `submit` and `drain` throw it.
 */
class WriteScheduler {
  private readonly jobs = new Set<{ kind: JobKind; pmids: Set<number>; done: Promise<void> }>();
  private readonly waiting: (() => void)[] = [];
  private running = 0;
  private failure: { error: unknown } | null = null;

  constructor(private readonly slots: number) {}

  /**
   * Queues `work`; resolves once it has a slot (so a caller producing jobs faster than they run waits), not when it
   * ends.
   * @throws the first failure of an earlier job.
   */
  async submit(kind: JobKind, pmids: number[], work: () => Promise<void>): Promise<void> {
    if (this.failure) throw this.failure.error;
    const ids = new Set(pmids);
    const earlier = [...this.jobs]
      .filter((j) => j.kind === kind && pmids.some((p) => j.pmids.has(p)))
      .map((j) => j.done);
    const slot = this.acquire();
    const job = {
      kind,
      pmids: ids,
      // Never rejects: the failure is kept for `submit` and `drain`.
      done: slot.then(async () => {
        try {
          await Promise.all(earlier);
          if (!this.failure) await work();
        } catch (error) {
          this.failure ??= { error };
        } finally {
          this.release();
          this.jobs.delete(job);
        }
      }),
    };
    this.jobs.add(job);
    await slot;
  }

  /** Waits for every job. @throws the first failure. */
  async drain(): Promise<void> {
    await this.settle();
    if (this.failure) throw this.failure.error;
  }

  /** Waits for every job, failed or not. */
  async settle(): Promise<void> {
    while (this.jobs.size) await Promise.all([...this.jobs].map((j) => j.done));
  }

  // Slots are handed out first come, first served.
  private acquire(): Promise<void> {
    if (this.running < this.slots) {
      this.running++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running--;
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
