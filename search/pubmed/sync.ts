import { createHash } from "node:crypto";
import { createWriteStream, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { sql } from "kysely";
import type { Database } from "../../src/db/database.ts";
import { ingestFiles, type IngestDeps, type IngestOptions, type IngestResult } from "../ingest.ts";

/**
 * Keeps the corpus current from NLM's PubMed distribution (issue 12): the annual baseline and the daily update files,
 * gzipped PubmedArticleSet XML with an `.md5` beside each (https://ftp.ncbi.nlm.nih.gov/pubmed/updatefiles/, README
 * there). A run lists the directory, and for each file not yet ingested, in name order (NLM numbers them in the order
 * they must be applied): downloads it, verifies its MD5 (retrying a corrupt download; a file that stays corrupt is
 * recorded as failed, never ingested, and the run stops there, since later files may depend on it), ingests it with
 * the ordinary ingest (DeleteCitation included), and records its name, checksum and counts in pubmed_sync_files.
 * A file is claimed before it is ingested, so two runs never ingest the same file at once; a claim older than
 * STALE_CLAIM_MS (a run that crashed) is taken over. A file interrupted midway is ingested again whole: ingest
 * is idempotent (upserts by content hash, deletes of absent PMIDs do nothing).
 */

export type SyncKind = "update" | "baseline";

/** Attempts to download a file whose checksum does not match before it is recorded as failed. */
export const DOWNLOAD_ATTEMPTS = 3;
/** A claim ("ingesting") older than this belongs to a run that died; a new run takes the file over. */
export const STALE_CLAIM_MS = 60 * 60 * 1000;

/** The outcome of one file. */
export interface SyncedFile {
  name: string;
  status: "ingested" | "failed" | "skipped";
  records: number;
  inserted: number;
  updated: number;
  deleted: number;
  error?: string;
}

export interface SyncResult {
  /** Files listed at the URL. */
  listed: number;
  /** Files ingested before this run. */
  alreadyIngested: number;
  files: SyncedFile[];
  seconds: number;
}

export interface SyncOptions {
  kind?: SyncKind;
  /** Called with one line per step (listing, each download and ingest, retries). */
  onLog?: (line: string) => void;
  /** The ingest of one downloaded file (tests inject failures); default: ingestFiles. */
  ingest?: (deps: IngestDeps, files: string[], options?: IngestOptions) => Promise<IngestResult>;
  ingestOptions?: IngestOptions;
  /** fetch to use (default: global fetch). */
  fetch?: typeof fetch;
}

const FILE_NAME = /^pubmed\d{2}n\d{4}\.xml\.gz$/;

/**
 * The PubMed XML files of a directory listing (an HTML index of links, as NLM's server and any static file server
 * give), in name order. @throws Error when the listing cannot be read.
 */
export async function listPubmedFiles(url: string, fetcher: typeof fetch = fetch): Promise<string[]> {
  const res = await fetcher(url);
  if (!res.ok) throw new Error(`cannot list ${url}: HTTP ${res.status}`);
  const html = await res.text();
  const names = new Set<string>();
  for (const m of html.matchAll(/href="([^"]+)"/gi)) {
    const name = decodeURIComponent(m[1]!.split("/").pop() ?? "");
    if (FILE_NAME.test(name)) names.add(name);
  }
  return [...names].sort();
}

/** The checksum an `.md5` file states: NLM writes "MD5(name)= hex"; a bare "hex  name" (md5sum) is read too. */
export function parseMd5File(text: string): string | null {
  return /\b([0-9a-f]{32})\b/i.exec(text)?.[1]?.toLowerCase() ?? null;
}

/** Downloads `url` to `path` as a stream (memory stays flat) and returns its MD5, hex. */
async function download(url: string, path: string, fetcher: typeof fetch): Promise<string> {
  const res = await fetcher(url);
  if (!res.ok || !res.body) throw new Error(`cannot download ${url}: HTTP ${res.status}`);
  const hash = createHash("md5");
  const source = Readable.fromWeb(res.body as never);
  source.on("data", (chunk: Buffer) => hash.update(chunk));
  await pipeline(source, createWriteStream(path));
  return hash.digest("hex");
}

/** Claims `name` for this run; false when another live run has it or it is already ingested. */
async function claim(db: Database, name: string, kind: SyncKind): Promise<boolean> {
  const staleBefore = new Date(Date.now() - STALE_CLAIM_MS);
  const res = await sql<{ name: string }>`
    INSERT INTO pubmed_sync_files (name, kind, status) VALUES (${name}, ${kind}, 'ingesting')
    ON CONFLICT (name) DO UPDATE SET status = 'ingesting', started_at = now(), error = NULL, finished_at = NULL
      WHERE pubmed_sync_files.status = 'failed'
         OR (pubmed_sync_files.status = 'ingesting' AND pubmed_sync_files.started_at < ${staleBefore})
    RETURNING name`.execute(db);
  return res.rows.length > 0;
}

/** What the sync of one file needs: where the files are, how to fetch and ingest them, where to log. */
interface FileSyncContext {
  deps: IngestDeps;
  /** The directory URL, ending in "/". */
  base: string;
  fetcher: typeof fetch;
  ingest: NonNullable<SyncOptions["ingest"]>;
  ingestOptions: IngestOptions | undefined;
  log: (line: string) => void;
}

/**
 * Syncs the files listed at `url` into the index (see the module comment). Stops at the first file that fails.
 * @throws Error when the listing cannot be read.
 */
export async function syncPubmed(deps: IngestDeps, url: string, options: SyncOptions = {}): Promise<SyncResult> {
  const started = performance.now();
  const kind = options.kind ?? "update";
  const log = options.onLog ?? (() => {});
  const fetcher = options.fetch ?? fetch;
  const base = url.endsWith("/") ? url : `${url}/`;
  const context: FileSyncContext = {
    deps,
    base,
    fetcher,
    ingest: options.ingest ?? ingestFiles,
    ingestOptions: options.ingestOptions,
    log,
  };
  const listed = await listPubmedFiles(base, fetcher);
  const done = new Set(
    (await deps.db.selectFrom("pubmed_sync_files").select("name").where("status", "=", "ingested").execute()).map(
      (r) => r.name,
    ),
  );
  const todo = listed.filter((n) => !done.has(n));
  log(`${listed.length} files listed at ${base}; ${todo.length} not yet ingested`);
  const files: SyncedFile[] = [];
  const dir = mkdtempSync(join(tmpdir(), "pubmed-sync-"));
  try {
    for (const name of todo) {
      if (!(await claim(deps.db, name, kind))) {
        log(`${name}: being ingested by another run; stopping here`);
        files.push(noCounts(name, "skipped"));
        break;
      }
      const file = await syncClaimedFile(context, name, join(dir, name));
      files.push(file);
      // Later files may depend on this one (NLM numbers them in the order they must be applied).
      if (file.status !== "ingested") break;
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { listed: listed.length, alreadyIngested: done.size, files, seconds: (performance.now() - started) / 1000 };
}

/**
 * Downloads `name` to `path` until its MD5 matches its `.md5` file, at most DOWNLOAD_ATTEMPTS times.
 * @returns the verified checksum (hex) and a null error, or a null checksum and the last attempt's error.
 */
async function downloadVerified(
  context: FileSyncContext,
  name: string,
  path: string,
): Promise<{ md5: string | null; error: string | null }> {
  const { base, fetcher, log } = context;
  let error: string | null = null;
  for (let attempt = 1; attempt <= DOWNLOAD_ATTEMPTS; attempt++) {
    try {
      const expected = parseMd5File(await (await fetcher(`${base}${name}.md5`)).text());
      if (!expected) throw new Error(`${name}.md5 holds no checksum`);
      const actual = await download(`${base}${name}`, path, fetcher);
      if (actual === expected) return { md5: actual, error: null };
      error = `checksum mismatch (expected ${expected}, got ${actual})`;
    } catch (err) {
      error = err instanceof Error ? err.message : String(err);
    }
    log(`${name}: download attempt ${attempt} of ${DOWNLOAD_ATTEMPTS} failed: ${error}`);
  }
  return { md5: null, error };
}

/**
 * Downloads, verifies and ingests one claimed file, and records the outcome in pubmed_sync_files.
 * @param path where to download it (removed once ingested or failed).
 * @returns the file's outcome: "ingested", or "failed" with the reason (the caller stops there).
 */
async function syncClaimedFile(context: FileSyncContext, name: string, path: string): Promise<SyncedFile> {
  const { deps, log } = context;
  const { md5, error } = await downloadVerified(context, name, path);
  if (!md5) {
    await deps.db
      .updateTable("pubmed_sync_files")
      .set({ status: "failed", error, finished_at: new Date() })
      .where("name", "=", name)
      .execute();
    log(`${name}: not ingested (${error}); later files wait for it`);
    return { ...noCounts(name, "failed"), error: error ?? "download failed" };
  }
  log(`${name}: downloaded, checksum ${md5} verified; ingesting`);
  let result: IngestResult;
  try {
    result = await context.ingest(deps, [path], context.ingestOptions);
  } catch (err) {
    // The ingest stopped midway (the database went away, a bug): the file is retried whole by the next run.
    const message = err instanceof Error ? err.message : String(err);
    await deps.db
      .updateTable("pubmed_sync_files")
      .set({ status: "failed", md5, error: message, finished_at: new Date() })
      .where("name", "=", name)
      .execute()
      .catch(() => {});
    log(`${name}: ingest failed (${message}); the next run retries it`);
    return { ...noCounts(name, "failed"), error: message };
  } finally {
    rmSync(path, { force: true });
  }
  const counts = {
    records: result.ingested,
    inserted: result.inserted,
    updated: result.updated,
    deleted: result.deleted,
  };
  if (result.failedFiles.length > 0) {
    const message = result.failedFiles.map((f) => f.message).join("; ");
    await deps.db
      .updateTable("pubmed_sync_files")
      .set({ status: "failed", md5, error: message, finished_at: new Date() })
      .where("name", "=", name)
      .execute();
    log(`${name}: could not be read whole (${message}); later files wait for it`);
    return { name, status: "failed", ...counts, error: message };
  }
  await deps.db
    .updateTable("pubmed_sync_files")
    .set({ status: "ingested", md5, ...counts, error: null, finished_at: new Date() })
    .where("name", "=", name)
    .execute();
  log(
    `${name}: ${result.ingested} records (${result.inserted} new, ${result.updated} updated, ${result.deleted} deleted) in ${result.seconds.toFixed(1)} s`,
  );
  return { name, status: "ingested", ...counts };
}

/** The outcome of a file nothing was ingested from. */
function noCounts(name: string, status: SyncedFile["status"]): SyncedFile {
  return { name, status, records: 0, inserted: 0, updated: 0, deleted: 0 };
}
