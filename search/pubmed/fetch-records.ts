/**
 * PMIDs → records in `articles` and the search index, fetched from PubMed's E-utilities (eutils.ts) and ingested
 * through the same path as the PubMed files (search/ingest.ts `ingestParsed`: content hashes, batched upserts,
 * indexing of what changed, deletions, ingest_runs).
 *
 * PMIDs already in `articles` are skipped; the rest are efetched in batches of `batchSize` (default 200, POSTed).
 * Each batch's answer is parsed WHOLE (parser.ts `parsePubmedXml`) before anything of it is ingested: an answer that is
 * cut off or malformed, or holds one record the parser rejects, fails that batch, which is logged with its PMIDs and
 * listed in `failedBatches`, and none of its records is written; the other batches go on. While the next batch is
 * being fetched (it waits for the shared rate gate anyway), the previous one is written.
 *
 * Abort (`signal`): the fetch stops between requests; the batches already fetched are ingested and indexed, then the
 * abort is thrown (an EutilsError of kind "aborted"), so a caller knows the set is incomplete and may count what
 * arrived in `articles`.
 */
import { sql } from "kysely";
import type { Database } from "../../src/db/database.ts";
import type { SearchIndex } from "../search-index.ts";
import { ingestParsed } from "../ingest.ts";
import { EutilsError, type EfetchRequest, type EutilsClient } from "./eutils.ts";
import { parsePubmedXml, type ParseEvent } from "./parser.ts";

export interface FetchRecordsDeps {
  db: Database;
  search: SearchIndex;
  client: Pick<EutilsClient, "efetchXml">;
}

export interface FetchRecordsOptions {
  /** PMIDs per efetch request (default 200; at most 10,000, efetch's limit). */
  batchSize?: number;
  /** Stops the fetch between requests (see the module comment). */
  signal?: AbortSignal;
  /** After each batch: records received so far of `total` (the PMIDs to fetch). */
  onProgress?: (p: { fetched: number; total: number }) => void;
  /** One line per failed batch, per PMID PubMed did not return, and per malformed record. */
  log?: (line: string) => void;
  /**
   * An esearch result set on NCBI's history server (esearch usehistory=y) that holds `pmids`, in its order from
   * position `retstart` (default 0). Batches whose PMIDs are all to be fetched are then efetched by WebEnv/query_key
   * and retstart/retmax (NBK25499), the others by their missing PMIDs; if the server has forgotten the set, by PMIDs.
   */
  history?: { webenv: string; queryKey: string; pmids: number[]; retstart?: number };
}

export interface FetchRecordsResult {
  /** Distinct valid PMIDs asked for. */
  requested: number;
  /** Of those, already in `articles` (not fetched). */
  alreadyHeld: number;
  /** requested − alreadyHeld. */
  toFetch: number;
  /** Records received and ingested (PubMed may not hold every PMID asked for: see `missing`). */
  fetched: number;
  /** Rows added to `articles`. */
  inserted: number;
  /** Rows changed (a record held meanwhile by a concurrent fetch in an older version). */
  updated: number;
  /** PMIDs of batches that arrived whole but that PubMed did not return (deleted or unknown PMIDs). */
  missing: number[];
  /** Batches not ingested, with their PMIDs and why (the message names no API key). */
  failedBatches: { pmids: number[]; message: string }[];
}

const DEFAULT_BATCH = 200;
/** efetch returns at most 10,000 records a request (NBK25499, EFetch retmax). */
const MAX_BATCH = 10_000;

/** Name of the records' source in ingest progress and messages. */
export const EUTILS_SOURCE = "PubMed E-utilities";

/**
 * Fetches the records of `pmids` not yet held and ingests them (see the module comment).
 * @param pmids in any order, repeats and invalid values ignored (PMIDs are integers 1..2^31-1).
 * @returns counts; `failedBatches` lists what could not be fetched or read.
 * @throws EutilsError kind "aborted" after ingesting what was fetched, when `opts.signal` aborted; a database or
 *   search-index error (batches written before it stay written).
 */
export async function fetchRecords(
  deps: FetchRecordsDeps,
  pmids: number[],
  opts: FetchRecordsOptions = {},
): Promise<FetchRecordsResult> {
  const batchSize = Math.min(MAX_BATCH, Math.max(1, Math.floor(opts.batchSize ?? DEFAULT_BATCH)));
  const wanted = [...new Set(pmids.filter((p) => Number.isInteger(p) && p > 0 && p <= 2_147_483_647))];
  const held = await heldPmids(deps.db, wanted);
  const toFetch = wanted.filter((p) => !held.has(p));
  const result: FetchRecordsResult = {
    requested: wanted.length,
    alreadyHeld: held.size,
    toFetch: toFetch.length,
    fetched: 0,
    inserted: 0,
    updated: 0,
    missing: [],
    failedBatches: [],
  };
  if (toFetch.length === 0) return result;

  const run: FetchRun = { deps, opts, log: opts.log ?? (() => {}), toFetch, batchSize, result, abort: null };
  const ingested = await ingestParsed({ db: deps.db, search: deps.search }, fetchedBatches(run), EUTILS_SOURCE, {
    // Each fetched batch is written as it arrives, not gathered into the files' larger batches.
    batchSize,
    onError: run.log,
  });
  result.inserted = ingested.inserted;
  result.updated = ingested.updated;
  if (run.abort) throw run.abort;
  return result;
}

/** One `fetchRecords` call: what it fetches, and what its batches have done so far. */
interface FetchRun {
  deps: FetchRecordsDeps;
  opts: FetchRecordsOptions;
  log: (line: string) => void;
  /** The PMIDs to fetch (valid, distinct, not held). */
  toFetch: number[];
  batchSize: number;
  /** Filled in as batches arrive (fetched, missing, failedBatches). */
  result: FetchRecordsResult;
  /** Set when the fetch was aborted: thrown once what was fetched is ingested. */
  abort: EutilsError | null;
}

/**
 * Batch after batch: fetched, parsed whole, and only then handed to the ingest (which writes the previous batch
 * while this generator waits for the next answer). Stops at an abort, recording it in `run.abort`.
 * @throws what efetch throws other than an EutilsError (a bug, not a failed batch).
 */
async function* fetchedBatches(run: FetchRun): AsyncGenerator<ParseEvent> {
  const { opts, result } = run;
  for (const { pmids: batch, request } of planBatches(run.toFetch, run.batchSize, opts.history)) {
    let xml: string;
    try {
      xml = await efetchBatch(run, batch, request);
    } catch (error) {
      if (opts.signal?.aborted || (error instanceof EutilsError && error.kind === "aborted")) {
        run.abort =
          error instanceof EutilsError ? error : new EutilsError(`efetch: aborted`, null, "aborted", { cause: error });
        return;
      }
      if (!(error instanceof EutilsError)) throw error;
      failBatch(run, batch, error.message);
      continue;
    }
    const articles = readBatch(run, batch, xml);
    if (!articles) continue;
    result.fetched += articles.length;
    opts.onProgress?.({ fetched: result.fetched, total: run.toFetch.length });
    yield* articles;
    if (opts.signal?.aborted) {
      run.abort = new EutilsError("efetch: aborted", null, "aborted", { cause: opts.signal.reason });
      return;
    }
  }
}

/**
 * The efetch answer (XML text) for one batch. A history set expires on NCBI's side after a while: when the server
 * no longer knows it, the same records are fetched by their PMIDs.
 * @throws EutilsError as efetch does (including kind "aborted").
 */
async function efetchBatch(run: FetchRun, batch: number[], request: EfetchRequest): Promise<string> {
  try {
    return await run.deps.client.efetchXml(request, run.opts.signal);
  } catch (error) {
    if (!(error instanceof EutilsError && error.kind === "bad_request" && "webenv" in request)) throw error;
    run.log(`${error.message}; fetching the batch by its PMIDs instead`);
    return await run.deps.client.efetchXml({ pmids: batch }, run.opts.signal);
  }
}

/**
 * One batch's answer parsed whole. Logs (and records in `run.result.missing`) the PMIDs PubMed did not return, and
 * logs records it returned that were not asked for (they are kept).
 * @returns the batch's article events, or null when any record could not be read (the batch is then recorded as
 *   failed and none of it is ingested).
 */
function readBatch(run: FetchRun, batch: number[], xml: string): ParseEvent[] | null {
  const events = parsePubmedXml(xml, `efetch of PMIDs ${batch[0]}…${batch.at(-1)}`);
  const errors = events.filter((e) => e.type === "error");
  if (errors.length > 0) {
    failBatch(
      run,
      batch,
      `${errors.length} record${errors.length === 1 ? "" : "s"} could not be read (${errors[0]!.message})`,
    );
    return null;
  }
  const asked = new Set(batch);
  const got = new Set<number>();
  const articles: ParseEvent[] = [];
  for (const e of events) {
    if (e.type !== "article") continue;
    articles.push(e);
    got.add(e.article.pmid);
  }
  const missing = batch.filter((p) => !got.has(p));
  if (missing.length > 0) {
    run.result.missing.push(...missing);
    run.log(
      `PubMed returned no record for ${missing.length} PMID${missing.length === 1 ? "" : "s"}: ${missing.join(",")}`,
    );
  }
  const extra = [...got].filter((p) => !asked.has(p));
  if (extra.length > 0) run.log(`PubMed returned records not asked for (kept): ${extra.join(",")}`);
  return articles;
}

/** Records a batch as not ingested, with its PMIDs and why, and logs it. */
function failBatch(run: FetchRun, batch: number[], message: string): void {
  run.result.failedBatches.push({ pmids: batch, message });
  run.log(`batch of ${batch.length} PMIDs not ingested: ${message}; PMIDs ${batch.join(",")}`);
}

/**
 * The efetch requests for `toFetch`: slices of the history set where a whole slice is to be fetched, else the PMIDs
 * themselves, `batchSize` at a time, in the history set's order, then any PMID the set does not hold.
 */
function planBatches(
  toFetch: number[],
  batchSize: number,
  history: FetchRecordsOptions["history"],
): { pmids: number[]; request: EfetchRequest }[] {
  const plan: { pmids: number[]; request: EfetchRequest }[] = [];
  const byIds = (ids: number[]) => {
    for (let i = 0; i < ids.length; i += batchSize) {
      const pmids = ids.slice(i, i + batchSize);
      plan.push({ pmids, request: { pmids } });
    }
  };
  if (!history) {
    byIds(toFetch);
    return plan;
  }
  const wanted = new Set(toFetch);
  const partial: number[] = [];
  for (let j = 0; j < history.pmids.length; j += batchSize) {
    const slice = history.pmids.slice(j, j + batchSize);
    const need = slice.filter((p) => wanted.has(p));
    for (const p of need) wanted.delete(p);
    if (need.length === 0) continue;
    if (need.length === slice.length) {
      plan.push({
        pmids: need,
        request: {
          webenv: history.webenv,
          queryKey: history.queryKey,
          retstart: (history.retstart ?? 0) + j,
          retmax: slice.length,
        },
      });
    } else partial.push(...need);
  }
  byIds([...partial, ...wanted]);
  return plan;
}

/**
 * The PMIDs of `pmids` that are in `articles` (10,000 per statement). Used by every caller that fetches only what the
 * index lacks (reviews, the weekly run, the CLI).
 */
export async function heldPmids(db: Database, pmids: readonly number[]): Promise<Set<number>> {
  const held = new Set<number>();
  for (let i = 0; i < pmids.length; i += 10_000) {
    const chunk = pmids.slice(i, i + 10_000);
    const { rows } = await sql<{
      pmid: number;
    }>`SELECT pmid FROM articles WHERE pmid = ANY(${`{${chunk.join(",")}}`}::integer[])`.execute(db);
    for (const r of rows) held.add(Number(r.pmid));
  }
  return held;
}

/** A PubMed query to fetch the records of (`npm run pubmed:fetch -- --query`). */
export interface FetchQuery {
  /** The query as typed in PubMed. */
  term: string;
  /** Fetch at most this many of the matches, in PubMed's Best Match order (default: every match). */
  max?: number;
  /** Publication-date range (PubMed's [dp]; "YYYY", "YYYY/MM" or "YYYY/MM/DD"); either end may be left open. */
  mindate?: string;
  maxdate?: string;
}

export interface FetchQueryResult extends FetchRecordsResult {
  /** Records PubMed matched (esearch count). */
  matched: number;
  /** How PubMed read the query. */
  queryTranslation: string | null;
  /** esearch requests made (more than one when the matches had to be split by date, see `fetchQuery`). */
  searches: number;
}

/**
 * Most PMIDs one esearch can give for PubMed (NBK25499, ESearch retmax: "For PubMed, ESearch can only retrieve the
 * first 10,000 records matching the query"; in practice retstart stops at 9,998 and a set at 9,999).
 */
export const PUBMED_SEARCH_LIMIT = 9_999;
/** The open ends of a publication-date range. */
const EARLIEST = "1700/01/01";
const latest = () => `${new Date().getUTCFullYear() + 2}/12/31`;

/**
 * Searches PubMed and fetches the matches not held yet (see `fetchRecords`): one esearch with usehistory=y, then
 * efetch by WebEnv/query_key in batches, skipping held PMIDs. A rerun skips what the last one fetched, so an
 * interrupted run is resumed by running it again.
 *
 * More matches than one esearch can list (PUBMED_SEARCH_LIMIT) are split by publication date, as NCBI's EDirect does:
 * the date range is halved until each part holds at most the limit, and the parts are fetched newest first (with
 * `max`, until `max` records are taken; the Best Match order only applies within one esearch). A single day holding
 * more than the limit keeps its first PUBMED_SEARCH_LIMIT records (logged).
 * @param opts.perSearch the limit per esearch (default PUBMED_SEARCH_LIMIT; tests lower it).
 * @throws as `fetchRecords`, and an EutilsError from esearch (an unreadable query is "bad_request").
 */
export async function fetchQuery(
  deps: Omit<FetchRecordsDeps, "client"> & { client: Pick<EutilsClient, "esearch" | "efetchXml"> },
  q: FetchQuery,
  opts: Omit<FetchRecordsOptions, "history"> & { perSearch?: number } = {},
): Promise<FetchQueryResult> {
  const log = opts.log ?? (() => {});
  const perSearch = Math.max(1, Math.min(PUBMED_SEARCH_LIMIT, Math.floor(opts.perSearch ?? PUBMED_SEARCH_LIMIT)));
  const max = q.max === undefined ? Infinity : Math.max(0, Math.floor(q.max));
  const ranged = q.mindate !== undefined || q.maxdate !== undefined;
  const range = { from: q.mindate ?? EARLIEST, to: q.maxdate ?? latest() };
  const dates = (from: string, to: string) => ({ datetype: "pdat" as const, mindate: from, maxdate: to });

  const total: FetchQueryResult = {
    matched: 0,
    queryTranslation: null,
    searches: 0,
    requested: 0,
    alreadyHeld: 0,
    toFetch: 0,
    fetched: 0,
    inserted: 0,
    updated: 0,
    missing: [],
    failedBatches: [],
  };
  const search = async (p: Parameters<EutilsClient["esearch"]>[0]) => {
    total.searches++;
    return deps.client.esearch(p, opts.signal);
  };
  let taken = 0;
  const fetchSet = async (answer: Awaited<ReturnType<EutilsClient["esearch"]>>) => {
    const pmids = answer.pmids.slice(0, max - taken);
    taken += pmids.length;
    const before = { fetched: total.fetched, toFetch: total.toFetch };
    const r = await fetchRecords(deps, pmids, {
      ...opts,
      onProgress:
        opts.onProgress &&
        ((p) => opts.onProgress!({ fetched: before.fetched + p.fetched, total: before.toFetch + p.total })),
      history:
        answer.webenv && answer.queryKey
          ? { webenv: answer.webenv, queryKey: answer.queryKey, pmids: answer.pmids, retstart: answer.retstart }
          : undefined,
    });
    total.requested += r.requested;
    total.alreadyHeld += r.alreadyHeld;
    total.toFetch += r.toFetch;
    total.fetched += r.fetched;
    total.inserted += r.inserted;
    total.updated += r.updated;
    total.missing.push(...r.missing);
    total.failedBatches.push(...r.failedBatches);
  };

  const first = await search({
    term: q.term,
    retmax: Math.min(max, perSearch),
    usehistory: true,
    sort: "relevance",
    ...(ranged ? dates(range.from, range.to) : {}),
  });
  total.matched = first.count;
  total.queryTranslation = first.queryTranslation;
  for (const w of first.warnings) log(`PubMed: ${w}`);
  if (first.count <= perSearch || max <= perSearch) {
    await fetchSet(first);
    return total;
  }

  // Too many for one esearch: publication-date windows of at most `perSearch` matches, newest first.
  const windows = async function* (from: Day, to: Day): AsyncGenerator<Awaited<ReturnType<EutilsClient["esearch"]>>> {
    const counted = await search({ term: q.term, retmax: 0, ...dates(formatDay(from), formatDay(to)) });
    if (counted.count === 0) return;
    if (counted.count <= perSearch || from === to) {
      if (counted.count > perSearch)
        log(`${counted.count} matches on ${formatDay(from)} alone: only the first ${perSearch} are fetched`);
      yield await search({
        term: q.term,
        retmax: perSearch,
        usehistory: true,
        sort: "pub_date",
        ...dates(formatDay(from), formatDay(to)),
      });
      return;
    }
    const mid = Math.floor((from + to) / 2);
    yield* windows(mid + 1, to);
    yield* windows(from, mid);
  };
  for await (const answer of windows(parseDay(range.from, "start"), parseDay(range.to, "end"))) {
    await fetchSet(answer);
    if (taken >= max) break;
  }
  return total;
}

/** Days since 1970-01-01 (UTC). */
type Day = number;
const DAY_MS = 86_400_000;

/**
 * "YYYY", "YYYY/MM" or "YYYY/MM/DD" (or with "-") as a day: the first day of the period for `start`, the last for
 * `end`.
 * @throws RangeError for anything else.
 */
export function parseDay(text: string, end: "start" | "end"): Day {
  const m = /^(\d{4})(?:[/-](\d{1,2})(?:[/-](\d{1,2}))?)?$/.exec(text.trim());
  if (!m) throw new RangeError(`"${text}" is not a date (YYYY, YYYY/MM or YYYY/MM/DD)`);
  const y = Number(m[1]);
  const mo = m[2] === undefined ? null : Number(m[2]);
  const d = m[3] === undefined ? null : Number(m[3]);
  if ((mo !== null && (mo < 1 || mo > 12)) || (d !== null && (d < 1 || d > 31)))
    throw new RangeError(`"${text}" is not a date`);
  if (end === "start") return Date.UTC(y, (mo ?? 1) - 1, d ?? 1) / DAY_MS;
  if (d !== null) return Date.UTC(y, mo! - 1, d) / DAY_MS;
  // The day before the first day of the next month (or year).
  return Date.UTC(mo === null ? y + 1 : y, mo === null ? 0 : mo, 1) / DAY_MS - 1;
}

/** A day as E-utilities write dates: YYYY/MM/DD. */
export function formatDay(day: Day): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10).replaceAll("-", "/");
}
