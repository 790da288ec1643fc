/**
 * Fills the index from PubMed's E-utilities (search/pubmed/fetch-records.ts): the records of a PubMed query, or of a
 * list of PMIDs, that are not held yet.
 *
 *   npm run pubmed:fetch -- --query "spine surgery" [--max N] [--mindate YYYY[/MM[/DD]]] [--maxdate YYYY[/MM[/DD]]]
 *   npm run pubmed:fetch -- --pmids FILE
 *
 * --query sends the query to NCBI as written (PubMed's automatic term mapping and search syntax apply); --mindate and
 * --maxdate limit the publication date ([dp]); --max takes the first N in PubMed's Best Match order. --pmids reads one
 * PMID per line, as PubMed's "Send to: File, Format: PMID" writes it; blank lines, "PMID: 123" and lists separated by
 * commas are read too.
 *
 * Resumable: records already in the database are never fetched again, so running an interrupted command again
 * (Ctrl-C stops it after the batch in hand, keeping what was fetched) fetches only the rest.
 * Configuration comes from the environment (src/config.ts): PUBMED_EUTILS_URL, NCBI_API_KEY (10 requests a second
 * instead of 3, shared with the running server through the database), NCBI_EMAIL, and the database as for
 * `npm run ingest` (with the embedded database, stop the server first). Progress goes to stderr (one line redrawn on a
 * terminal, plain lines otherwise); stdout gets one summary line:
 *   pubmed:fetch: 1,234 PMIDs matched, 1,200 fetched, 34 already held, 0 failed in 412 s
 * Exit code 0 when every batch was fetched, 1 when a batch failed (run the command again) or the run was
 * interrupted, 2 on a usage or configuration error.
 */
import { readFile } from "node:fs/promises";
import { loadConfig, type Config } from "../src/config.ts";
import { openDatabase } from "../src/db/database.ts";
import { migrateToLatest } from "../src/db/migrator.ts";
import { eutilsClientFor } from "../src/pubmed/client.ts";
import { openSearchIndex } from "../src/search/open-index.ts";
import { EutilsError } from "../search/pubmed/eutils.ts";
import { fetchQuery, fetchRecords, parseDay, type FetchRecordsResult } from "../search/pubmed/fetch-records.ts";

const USAGE = `usage: npm run pubmed:fetch -- --query "QUERY" [--max N] [--mindate YYYY[/MM[/DD]]] [--maxdate YYYY[/MM[/DD]]]
       npm run pubmed:fetch -- --pmids FILE`;

class UsageError extends Error {}

type Args =
  | { kind: "query"; term: string; max?: number; mindate?: string; maxdate?: string }
  | { kind: "pmids"; file: string };

/** Reads the command line. @throws UsageError. */
export function parseArgs(argv: string[]): Args {
  const args = argv.filter((a) => a !== "--");
  const values = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const eq = a.indexOf("=");
    const [name, inline] = a.startsWith("--") && eq > 0 ? [a.slice(0, eq), a.slice(eq + 1)] : [a, undefined];
    if (!["--query", "--max", "--mindate", "--maxdate", "--pmids"].includes(name))
      throw new UsageError(`unknown argument ${JSON.stringify(a)}`);
    const value = inline ?? args[++i];
    if (value === undefined || value === "") throw new UsageError(`${name} needs a value`);
    if (values.has(name)) throw new UsageError(`${name} given twice`);
    values.set(name, value);
  }
  const file = values.get("--pmids");
  const term = values.get("--query");
  if ((file === undefined) === (term === undefined)) throw new UsageError("give either --query or --pmids");
  if (file !== undefined) {
    if (values.size > 1) throw new UsageError("--max, --mindate and --maxdate go with --query");
    return { kind: "pmids", file };
  }
  const out: Args = { kind: "query", term: term!.trim() };
  if (out.term === "") throw new UsageError("--query is empty");
  const max = values.get("--max");
  if (max !== undefined) {
    if (!/^\d+$/.test(max) || Number(max) < 1)
      throw new UsageError(`--max must be a positive whole number, not ${JSON.stringify(max)}`);
    out.max = Number(max);
  }
  for (const key of ["mindate", "maxdate"] as const) {
    const v = values.get(`--${key}`);
    if (v === undefined) continue;
    try {
      parseDay(v, "start");
    } catch (error) {
      throw new UsageError(`--${key}: ${(error as Error).message}`);
    }
    out[key] = v.replaceAll("-", "/");
  }
  if (out.mindate && out.maxdate && parseDay(out.mindate, "start") > parseDay(out.maxdate, "end"))
    throw new UsageError("--mindate is after --maxdate");
  return out;
}

/**
 * The PMIDs of a file: one per line (PubMed's PMID export), blank lines skipped; "PMID: 123", "PMID- 123" and several
 * PMIDs on a line separated by commas, semicolons or spaces are read too. Repeats are dropped, order kept.
 * @throws UsageError naming the first line that holds something else.
 */
export function parsePmidList(text: string): number[] {
  const pmids = new Set<number>();
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n|\r/);
  for (const [i, raw] of lines.entries()) {
    const line = raw.replace(/\bPMID\s*[-:]?\s*/gi, " ").trim();
    if (line === "") continue;
    for (const token of line.split(/[\s,;]+/)) {
      if (token === "") continue;
      const n = Number(token);
      if (!/^\d+$/.test(token) || n < 1 || n > 2_147_483_647)
        throw new UsageError(`line ${i + 1}: ${JSON.stringify(raw.trim().slice(0, 60))} is not a PMID`);
      pmids.add(n);
    }
  }
  return [...pmids];
}

const fmt = (n: number) => n.toLocaleString("en-US");

/** What the command was asked to do, read and checked before anything is opened. */
interface Input {
  args: Args;
  config: Config;
  /** The PMIDs of --pmids FILE (empty for --query). */
  listed: number[];
}

/**
 * Reads the command line, the configuration and the PMID file.
 * @returns the input, or the exit code (2) after printing the usage or configuration error.
 */
async function readInput(argv: string[]): Promise<Input | number> {
  try {
    const args = parseArgs(argv);
    const config = loadConfig(process.env, { role: "cli" });
    if (args.kind !== "pmids") return { args, config, listed: [] };
    let text: string;
    try {
      text = await readFile(args.file, "utf8");
    } catch (error) {
      throw new UsageError(
        `cannot read ${args.file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      );
    }
    return { args, config, listed: parsePmidList(text) };
  } catch (error) {
    console.error((error as Error).message);
    if (error instanceof UsageError) console.error(USAGE);
    return 2;
  }
}

/** Progress output on stderr: plain lines (`log`), and a progress line redrawn in place on a terminal (`progress`). */
interface Output {
  log: (line: string) => void;
  progress: (p: { fetched: number; total: number }) => void;
  /** Erases the progress line, if one is drawn. */
  clear: () => void;
}

/** The stderr output of a run that started at `started` (performance.now()). */
function stderrOutput(started: number): Output {
  const tty = process.stderr.isTTY === true;
  let drawn = false;
  let lastLine = 0;
  const clear = () => {
    if (drawn) process.stderr.write("\r\x1b[K");
    drawn = false;
  };
  const log = (line: string) => {
    clear();
    process.stderr.write(`${line}\n`);
  };
  // A bar redrawn in place on a terminal; in a log, a line at most every 5 seconds and at the end.
  const progress = (p: { fetched: number; total: number }) => {
    const seconds = (performance.now() - started) / 1000;
    const share = p.total > 0 ? p.fetched / p.total : 1;
    if (tty) {
      const width = 30;
      const full = Math.round(share * width);
      process.stderr.write(
        `\r\x1b[K[${"#".repeat(full)}${"-".repeat(width - full)}] ${fmt(p.fetched)}/${fmt(p.total)} records  ${seconds.toFixed(0)} s`,
      );
      drawn = true;
    } else if (performance.now() - lastLine >= 5000 || p.fetched >= p.total) {
      lastLine = performance.now();
      process.stderr.write(`${fmt(p.fetched)} of ${fmt(p.total)} records fetched (${seconds.toFixed(0)} s)\n`);
    }
  };
  return { log, progress, clear };
}

/** What a fetch ended with: its result (null when interrupted before one), and the PMIDs the query matched. */
interface FetchOutcome {
  result: FetchRecordsResult | null;
  matched: number;
  interrupted: boolean;
}

/**
 * Opens the database and the search index, and fetches the query's or the list's records.
 * @returns the outcome, or null after printing why the fetch failed (other than by an interruption).
 */
async function runFetch(input: Input, output: Output, signal: AbortSignal): Promise<FetchOutcome | null> {
  const { args, config, listed } = input;
  const { log, progress, clear } = output;
  const handle = openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  const outcome: FetchOutcome = { result: null, matched: listed.length, interrupted: false };
  try {
    await migrateToLatest(handle.db);
    const deps = {
      db: handle.db,
      search: await openSearchIndex(config, handle.db),
      client: eutilsClientFor(config, handle.db, { log }),
    };
    const opts = { signal, onProgress: progress, log };
    if (args.kind === "query") {
      log(
        `asking PubMed for ${JSON.stringify(args.term)}${args.mindate || args.maxdate ? ` published ${args.mindate ?? "…"}–${args.maxdate ?? "…"}` : ""}`,
      );
      const r = await fetchQuery(deps, args, opts);
      outcome.matched = r.matched;
      if (r.queryTranslation) log(`PubMed read it as: ${r.queryTranslation}`);
      outcome.result = r;
    } else {
      outcome.result = await fetchRecords(deps, listed, opts);
    }
  } catch (error) {
    clear();
    if (error instanceof EutilsError && error.kind === "aborted") outcome.interrupted = true;
    else {
      console.error(`pubmed:fetch failed: ${error instanceof Error ? error.message : String(error)}`);
      return null;
    }
  } finally {
    clear();
    await handle.close();
  }
  return outcome;
}

async function main(argv: string[]): Promise<number> {
  if (argv.some((a) => a === "-h" || a === "--help")) {
    console.error(USAGE);
    return 0;
  }
  const input = await readInput(argv);
  if (typeof input === "number") return input;

  const started = performance.now();
  const output = stderrOutput(started);
  const controller = new AbortController();
  const onSignal = () => {
    output.log("stopping after the batch in hand (what was fetched is kept; run the command again to go on)");
    controller.abort();
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  let outcome: FetchOutcome | null;
  try {
    outcome = await runFetch(input, output, controller.signal);
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
  if (!outcome) return 1;
  const { result, matched, interrupted } = outcome;
  const seconds = Math.round((performance.now() - started) / 1000);
  if (!result) {
    console.log(`pubmed:fetch: interrupted in ${fmt(seconds)} s; run the command again to go on`);
    return 1;
  }
  const failed = result.failedBatches.reduce((n, b) => n + b.pmids.length, 0);
  const missing = result.missing.length > 0 ? `, ${fmt(result.missing.length)} not in PubMed` : "";
  console.log(
    `pubmed:fetch: ${fmt(matched)} PMIDs matched, ${fmt(result.fetched)} fetched, ${fmt(result.alreadyHeld)} already held, ${fmt(failed)} failed${missing} in ${fmt(seconds)} s`,
  );
  return failed > 0 || interrupted ? 1 : 0;
}

if (import.meta.main) process.exitCode = await main(process.argv.slice(2));
