/**
 * Parse-only throughput of the PubMed XML parser (no database): records/s and MB/s of XML, best of 3 runs.
 *
 *   bun scripts/bench/bench-parse.ts [FILE] [--runs 3] [--inline]
 *
 * FILE defaults to bench-data/pubmed-30000.xml.gz (make it with `bun scripts/bench/generate-corpus.ts 30000`).
 * MB/s counts uncompressed XML (10^6 bytes). Each run consumes every event from `parsePubmedFile`, as ingest does,
 * including gunzip (on the reader thread unless --inline) and the mapping of each record to an `articles` row.
 * Target: ≥ 10,000 records/s on a 30,000-record, ~12 KB/record file.
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { parsePubmedFile } from "../../search/pubmed/parser.ts";

const ROOT = join(import.meta.dir, "..", "..");

/** Uncompressed size, by streaming the file once (not timed). */
async function xmlBytes(file: string): Promise<number> {
  let n = 0;
  let stream: ReadableStream<Uint8Array> = Bun.file(file).stream();
  if (file.endsWith(".gz"))
    stream = stream.pipeThrough(new DecompressionStream("gzip") as unknown as TransformStream<Uint8Array, Uint8Array>);
  for await (const chunk of stream) n += chunk.byteLength;
  return n;
}

export interface ParseRun {
  records: number;
  errors: number;
  seconds: number;
  recordsPerSecond: number;
  mbPerSecond: number;
}

/**
 * Parses `file` `runs` times.
 * @returns every run, and the best (highest records/s).
 */
export async function benchParse(
  file: string,
  runs = 3,
  readInWorker = true,
): Promise<{ runs: ParseRun[]; best: ParseRun; xmlBytes: number }> {
  const bytes = await xmlBytes(file);
  const results: ParseRun[] = [];
  for (let i = 0; i < runs; i++) {
    Bun.gc(true);
    const t0 = performance.now();
    let records = 0;
    let errors = 0;
    for await (const event of parsePubmedFile(file, { readInWorker })) {
      if (event.type === "article") records++;
      else if (event.type === "error") errors++;
    }
    const seconds = (performance.now() - t0) / 1000;
    results.push({ records, errors, seconds, recordsPerSecond: records / seconds, mbPerSecond: bytes / 1e6 / seconds });
  }
  const best = results.reduce((a, b) => (b.recordsPerSecond > a.recordsPerSecond ? b : a));
  return { runs: results, best, xmlBytes: bytes };
}

if (import.meta.main) {
  const { values, positionals } = parseArgs({
    args: process.argv.slice(2),
    options: { runs: { type: "string", default: "3" }, inline: { type: "boolean", default: false } },
    allowPositionals: true,
  });
  const file = positionals[0] ?? join(ROOT, "bench-data", "pubmed-30000.xml.gz");
  if (!(await Bun.file(file).exists())) {
    console.error(`${file} not found: run \`bun scripts/bench/generate-corpus.ts 30000\` first`);
    process.exit(2);
  }
  const { runs, best, xmlBytes: bytes } = await benchParse(file, Number(values.runs), !values.inline);
  console.log(`file: ${file} (${(bytes / 1e6).toFixed(0)} MB of XML)`);
  for (const [i, r] of runs.entries()) {
    const rate = `${Math.round(r.recordsPerSecond)} records/s, ${r.mbPerSecond.toFixed(0)} MB/s`;
    console.log(`run ${i + 1}: ${r.records} records, ${r.errors} errors, ${r.seconds.toFixed(2)} s, ${rate}`);
  }
  console.log(
    `best: ${Math.round(best.recordsPerSecond)} records/s, ${best.mbPerSecond.toFixed(0)} MB/s; peak RSS ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB`,
  );
}
