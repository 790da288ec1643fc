/**
 * End-to-end ingest benchmark: PubMed XML file → `articles` + PostgreSQL full-text index, in a fresh database created
 * on a local PostgreSQL server (dropped at the end unless --keep).
 *
 *   bun scripts/bench/bench-ingest.ts [FILE] [--database-url postgres://postgres@127.0.0.1:5432/postgres]
 *        [--reingest] [--keep] [--batch 1000] [--concurrency 2] [--gc-every 1000] [--template DATABASE] [--digest]
 *
 * FILE defaults to bench-data/pubmed-30000.xml.gz (see generate-corpus.ts; 100000 and 1000000 are the other sizes).
 * Reports records/s of the whole run (parse + upsert + index + the final refresh, split out), the peak RSS of this
 * process (parser, reader thread and driver; the PostgreSQL server's own memory is not included), sampled every 100 ms,
 * and the CPU seconds of this process, of the server's processes for the run's connections, and of the server processes
 * that ended meanwhile, mostly the impact lists' parallel workers (Linux), which a shared machine blurs less than wall
 * time. Progress lines with the running rate and RSS go to stderr every 10 s, so a run
 * stopped early still shows where it got to.
 * --reingest runs the same file a second time (every record unchanged: nothing is written).
 * --template copies an existing database (e.g. lr_bench_search_100000_builtin, kept by bench-search.ts --keep) instead
 * of starting empty: the file's records then arrive in an index whose impact lists exist and are only maintained, as a
 * daily update file does (the generated files' PMIDs start at 90,000,000, above the search corpora's).
 * --digest prints an md5 of each table the ingest writes (articles, the index, tiers, statistics, impact lists), so
 *   that
 * two versions of the code can be shown to load the same content: run each on the same file and compare the lines.
 * A CHECKPOINT runs before the ingest (superuser or pg_checkpoint), so that WAL left by earlier runs does not force one
 * inside the measured run.
 * Targets: ≥ 3,000 records/s end to end; peak RSS < 300 MB at 1,000,000 records.
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { sql, type Kysely } from "kysely";
import postgres from "postgres";
import { openDatabase } from "../../src/db/database.ts";
import { migrateToLatest } from "../../src/db/migrator.ts";
import type { DB } from "../../src/db/types.ts";
import { ingestFiles, type IngestResult } from "../../search/ingest.ts";
import { PostgresSearchIndex } from "../../search/postgres-index.ts";

const ROOT = join(import.meta.dir, "..", "..");

/** Ingest options under test (see IngestOptions). */
interface Tuning {
  batchSize: number;
  concurrency: number;
  gcEveryRecords: number;
}

export interface IngestBenchRun {
  result: IngestResult;
  /** Highest RSS seen during the run, bytes. */
  peakRss: number;
  /** Seconds of the final `refresh()`, within result.seconds: the GIN merge, then the impact lists' builds. */
  refreshSeconds: number;
  listsSeconds: number;
  listsBuilt: number;
  /** CPU seconds of this process (user + system) during the run: the parser, the driver, the garbage collector. */
  cpuSeconds: number;
  /**
   * CPU seconds of the server processes of this run's connections (Linux /proc; null elsewhere): on a shared machine
   * the work done, which wall time is not.
   */
  serverCpuSeconds: number | null;
  /**
   * CPU seconds of server processes that ended during the run, counted by the postmaster that reaped them (Linux /proc;
   * null elsewhere): mostly the parallel workers of the impact lists' passes, which the connections' figure misses,
   * plus any autovacuum worker that ran meanwhile.
   */
  endedServerCpuSeconds: number | null;
}

/** The adapter, timing its `refresh()` and `refreshLists()` (which the refresh calls). */
class TimedIndex extends PostgresSearchIndex {
  refreshSeconds = 0;
  listsSeconds = 0;
  listsBuilt = 0;
  override async refresh(): Promise<void> {
    const start = performance.now();
    await super.refresh();
    this.refreshSeconds += (performance.now() - start) / 1000;
  }
  override async refreshLists(): Promise<number> {
    const start = performance.now();
    const built = await super.refreshLists();
    this.listsSeconds += (performance.now() - start) / 1000;
    this.listsBuilt += built;
    return built;
  }
}

/**
 * Ingests `file` into `databaseUrl` once, sampling RSS.
 * @param log receives a progress line every `everySeconds`.
 */
async function run(
  databaseUrl: string,
  file: string,
  tuning: Tuning,
  log: (line: string) => void,
  everySeconds = 10,
): Promise<IngestBenchRun> {
  const handle = openDatabase({ databaseUrl, dataDir: "" });
  try {
    await migrateToLatest(handle.db);
    let peakRss = process.memoryUsage().rss;
    const sampler = setInterval(() => {
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
    }, 100);
    let lastLog = 0;
    const cpuBefore = process.cpuUsage();
    const endedBefore = await endedServerCpuSeconds(handle.db);
    try {
      const index = new TimedIndex(handle.db);
      const result = await ingestFiles({ db: handle.db, search: index }, [file], {
        batchSize: tuning.batchSize,
        concurrency: tuning.concurrency,
        gcEveryRecords: tuning.gcEveryRecords,
        progressIntervalMs: 1000,
        onProgress: (p) => {
          peakRss = Math.max(peakRss, process.memoryUsage().rss);
          if (p.file !== null && p.seconds - lastLog >= everySeconds) {
            lastLog = p.seconds;
            log(
              `  ${p.records} records in ${p.seconds.toFixed(0)} s: ${Math.round(p.recordsPerSecond)} records/s, RSS ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB (peak ${(peakRss / 1e6).toFixed(0)} MB)`,
            );
          }
        },
        onError: (m) => log(m),
      });
      const serverCpuSeconds = await backendCpuSeconds(handle.db);
      const endedAfter = await endedServerCpuSeconds(handle.db);
      return {
        result,
        peakRss: Math.max(peakRss, process.memoryUsage().rss),
        refreshSeconds: index.refreshSeconds,
        listsSeconds: index.listsSeconds,
        listsBuilt: index.listsBuilt,
        serverCpuSeconds,
        endedServerCpuSeconds: endedBefore === null || endedAfter === null ? null : endedAfter - endedBefore,
        cpuSeconds: ((cpu) => (cpu.user + cpu.system) / 1e6)(process.cpuUsage(cpuBefore)),
      };
    } finally {
      clearInterval(sampler);
    }
  } finally {
    await handle.close();
  }
}

/**
 * CPU seconds (user + system) the server's processes for this database's connections have used so far, from
 * /proc/PID/stat (clock ticks of 1/100 s); null when that cannot be read (another OS, a remote server).
 */
async function backendCpuSeconds(db: Kysely<DB>): Promise<number | null> {
  const { rows } = await sql<{ pid: number }>`
    SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND backend_type = 'client backend'`.execute(
    db,
  );
  let ticks = 0;
  for (const { pid } of rows) {
    try {
      const stat = await Bun.file(`/proc/${pid}/stat`).text();
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      return null;
    }
  }
  return ticks / 100;
}

/**
 * CPU seconds (user + system) of the server's processes that have ended and been reaped by the postmaster (its
 * children's times in /proc/PID/stat; the postmaster is a backend's parent); null when that cannot be read.
 */
async function endedServerCpuSeconds(db: Kysely<DB>): Promise<number | null> {
  const { rows } = await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(db);
  try {
    const fields = async (pid: number | string) => {
      const stat = await Bun.file(`/proc/${pid}/stat`).text();
      return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    };
    const postmaster = (await fields(Number(rows[0]?.pid)))[1] ?? "";
    const own = await fields(postmaster);
    return (Number(own[13]) + Number(own[14])) / 100;
  } catch {
    return null;
  }
}

/** Per table, string_agg's arguments: every column the ingest writes, in a fixed order (times of writing left out). */
const DIGESTS: Record<string, string> = {
  articles: `concat_ws(':', pmid, content_hash, md5(row(title, authors, abstract, abstract_sections, journal, publication_date,
    publication_year, doi, pmc_id, mesh_terms, keywords, reference_pmids, author_list)::text)), ',' ORDER BY pmid`,
  article_search: `concat_ws(':', pmid, md5(document::text), md5(title_document::text), doc_length, publication_year), ',' ORDER BY pmid`,
  article_search_tiers: `concat_ws(':', pmid, md5(tiers::text)), ',' ORDER BY pmid`,
  search_lexeme_stats: `concat_ws(':', lexeme, df, title_df), ',' ORDER BY lexeme`,
  search_term_lists: `concat_ws(':', lexeme, floor, avgdl, entries, capacity), ',' ORDER BY lexeme`,
  search_term_impacts: `concat_ws(':', lexeme, pmid, tf, doc_length), ',' ORDER BY lexeme, pmid`,
};

function runSummary(label: string, r: IngestBenchRun): string {
  const x = r.result;
  return (
    `${label}: ${x.ingested} records (${x.inserted} inserted, ${x.updated} updated, ${x.unchanged} unchanged, ${x.errors} errors) ` +
    `in ${x.seconds.toFixed(1)} s = ${x.recordsPerSecond} records/s; peak RSS ${(r.peakRss / 1e6).toFixed(0)} MB\n` +
    `  of which the final refresh ${r.refreshSeconds.toFixed(1)} s (GIN merge ${(r.refreshSeconds - r.listsSeconds).toFixed(1)} s, ` +
    `impact lists ${r.listsSeconds.toFixed(1)} s for ${r.listsBuilt} lists); before it ${Math.round(x.ingested / Math.max(x.seconds - r.refreshSeconds, 1e-9))} records/s; ` +
    `CPU: this process ${r.cpuSeconds.toFixed(1)} s, ` +
    `the server's connections ${r.serverCpuSeconds?.toFixed(1) ?? "?"} s, ` +
    `its parallel workers (and other processes that ended) ${r.endedServerCpuSeconds?.toFixed(1) ?? "?"} s`
  );
}

if (import.meta.main) {
  const { values, positionals } = parseArgs({
    args: process.argv.slice(2),
    options: {
      "database-url": {
        type: "string",
        default: process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres",
      },
      reingest: { type: "boolean", default: false },
      keep: { type: "boolean", default: false },
      batch: { type: "string", default: "1000" },
      concurrency: { type: "string", default: "2" },
      "gc-every": { type: "string", default: "1000" },
      template: { type: "string" },
      digest: { type: "boolean", default: false },
    },
    allowPositionals: true,
  });
  const file = positionals[0] ?? join(ROOT, "bench-data", "pubmed-30000.xml.gz");
  if (!(await Bun.file(file).exists())) {
    console.error(`${file} not found: run \`bun scripts/bench/generate-corpus.ts 30000\` first`);
    process.exit(2);
  }
  const adminUrl = values["database-url"]!;
  const name = `lr_bench_ingest_${Date.now().toString(36)}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(
    values.template ? `CREATE DATABASE ${name} TEMPLATE ${values.template}` : `CREATE DATABASE ${name}`,
  );
  // Start from a checkpoint, as pgbench does: otherwise whether the server's next forced checkpoint (every
  // max_wal_size of WAL, about three runs here) falls inside the measured run decides ±5 % of the result.
  await admin
    .unsafe("CHECKPOINT")
    .catch((error) => console.error(`no CHECKPOINT before the run (${error.message}); results vary more`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const log = (line: string) => console.error(line);
  try {
    const tuning: Tuning = {
      batchSize: Number(values.batch),
      concurrency: Number(values.concurrency),
      gcEveryRecords: Number(values["gc-every"]),
    };
    console.log(
      `file: ${file}; database: ${name} on ${url.host}${values.template ? ` (a copy of ${values.template})` : ""}; batch ${tuning.batchSize}, concurrency ${tuning.concurrency}, gc every ${tuning.gcEveryRecords} records`,
    );
    const first = await run(url.toString(), file, tuning, log);
    console.log(runSummary("ingest", first));
    if (values.reingest) console.log(runSummary("re-ingest", await run(url.toString(), file, tuning, log)));
    const rows = await admin.unsafe<{ size: string }[]>(`SELECT pg_size_pretty(pg_database_size('${name}')) AS size`);
    console.log(`database size: ${rows[0]?.size}`);
    if (values.digest) {
      const db = postgres(url.toString(), { max: 1, onnotice: () => {} });
      try {
        for (const [table, rows] of Object.entries(DIGESTS)) {
          const [d] = await db.unsafe<{ n: number; md5: string }[]>(
            `SELECT count(*)::integer AS n, md5(string_agg(${rows})) AS md5 FROM ${table}`,
          );
          console.log(`digest ${table}: ${d?.n} rows, ${d?.md5}`);
        }
      } finally {
        await db.end();
      }
    }
  } finally {
    if (!values.keep) await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}
