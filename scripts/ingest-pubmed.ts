/**
 * Ingests PubMed XML files into the configured database and search index.
 *
 *   npm run ingest -- FILE.xml.gz [FILE.xml …]
 *
 * Configuration comes from the environment (src/config.ts): DATABASE_URL selects a PostgreSQL server, else the embedded
 * PGlite database in DATA_DIR. Migrations are applied first.
 * Progress (records, rate) and record/file errors go to stderr; stdout gets exactly one summary line:
 *   ingested N records (D deleted) in S s (R records/s)
 * Exit code: 0 when every file was read to its end, 1 when any file could not be read (the others are still ingested),
 * 2 on a usage or configuration error.
 */
import { loadConfig, type Config } from "../src/config.ts";
import { openDatabase } from "../src/db/database.ts";
import { migrateToLatest } from "../src/db/migrator.ts";
import { ingestFiles, type IngestProgress } from "../search/ingest.ts";
import { openSearchIndex } from "../src/search/open-index.ts";

const USAGE = "usage: npm run ingest -- FILE.xml[.gz] [FILE…]";

async function main(argv: string[]): Promise<number> {
  const files = argv.filter((a) => a !== "--");
  if (files.length === 0 || files.some((f) => f === "-h" || f === "--help")) {
    console.error(USAGE);
    return 2;
  }
  let config: Config;
  try {
    config = loadConfig(process.env, { role: "cli" });
  } catch (error) {
    console.error((error as Error).message);
    return 2;
  }

  const handle = openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  const tty = process.stderr.isTTY === true;
  let progressShown = false;
  // On a terminal one line is rewritten in place; in a log, one line per report.
  const showProgress = (p: IngestProgress) => {
    if (p.file === null) return;
    const line = `${p.records} records, ${Math.round(p.recordsPerSecond)} records/s (${p.file}: ${p.fileRecords})`;
    if (tty) {
      process.stderr.write(`\r\x1b[K${line}`);
      progressShown = true;
    } else {
      process.stderr.write(`${line}\n`);
    }
  };
  const showError = (message: string) => {
    if (progressShown) process.stderr.write("\r\x1b[K");
    process.stderr.write(`${message}\n`);
  };

  try {
    await migrateToLatest(handle.db);
    const result = await ingestFiles({ db: handle.db, search: await openSearchIndex(config, handle.db) }, files, {
      onProgress: showProgress,
      onError: showError,
    });
    if (progressShown) process.stderr.write("\r\x1b[K");
    if (result.errors > 0) console.error(`${result.errors} malformed record(s) skipped`);
    for (const failed of result.failedFiles) console.error(`failed: ${failed.file}`);
    console.log(
      `ingested ${result.ingested} records (${result.deleted} deleted) in ${result.seconds.toFixed(1)} s (${result.recordsPerSecond} records/s)`,
    );
    return result.failedFiles.length > 0 ? 1 : 0;
  } finally {
    await handle.close();
  }
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  // A database or index failure: the batches written before it stay written.
  console.error(`ingest failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exitCode = 1;
}
