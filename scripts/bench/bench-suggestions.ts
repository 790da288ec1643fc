// Weekly suggestions benchmark on PostgreSQL (issue 11's numbers): the weekly run for U subscribers (each with two
// interests and five likes) worked by a worker of --workers loops in this process, in users per second and peak memory,
// and GET /suggestions/weekly/latest's p95 over HTTP. Results go to docs/benchmarks.md.
// As in operation, the daily preparation of the sources' answers runs before each weekly run (both timed); this
// week's run and next week's are timed (docs/decisions/0025-suggestion-source-cache.md). --cold times one run with no
// answer computed before and no preparation (the first run of a deployment, the old behaviour).
//
// Usage: npm run bench -- suggestions [--users 200] [--database-url URL] [--cold] [--workers 2] [--reuse-answers]
//   Without --database-url: a fresh database on BENCH_DATABASE_URL's server (default
//   postgres://postgres@127.0.0.1:5432/postgres) with the PubMed sample ingested, dropped at the end.
//   With it: an existing, already indexed database (e.g. the 1,000,000-record one that
//   `bun scripts/bench/bench-search.ts --records 1000000 --keep` leaves, lr_bench_search_1000000_builtin); its
//   users and suggestions are removed at the end, its articles kept.
// Needs `npm run build` first (the server is started for the HTTP part).
import { readdirSync, readFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { sql } from "kysely";
import { loadConfig } from "../../src/config.ts";
import { openDatabase } from "../../src/db/database.ts";
import { migrateToLatest } from "../../src/db/migrator.ts";
import { PgJobQueue } from "../../src/jobs/queue-pg.ts";
import { startWorker } from "../../src/jobs/worker.ts";
import type { JobHandlers, JobRunner } from "../../src/jobs/kinds.ts";
import { PostgresSearchIndex } from "../../search/postgres-index.ts";
import { ingestFiles } from "../../search/ingest.ts";
import type { AppDeps } from "../../src/deps.ts";
import { PREPARE_RUN_JOB, suggestionJobHandlers, WEEKLY_RUN_JOB } from "../../src/suggestions/jobs.ts";
import { emailJobHandlers } from "../../src/email/jobs.ts";
import { computeWeeklySuggestions } from "../../src/suggestions/service.ts";
import { isoWeek } from "../../src/suggestions/week.ts";
import { quantile } from "./bench-pages.ts";
import { createDatabase, startServer } from "./bench-accounts.ts";

const { values } = parseArgs({
  options: {
    users: { type: "string", default: "200" },
    "database-url": { type: "string" },
    requests: { type: "string", default: "300" },
    cold: { type: "boolean", default: false },
    workers: { type: "string", default: "2" },
    "reuse-answers": { type: "boolean", default: false },
  },
});
const COLD = values.cold;
const USERS = Number(values.users);
const REQUESTS = Number(values.requests);
/** Worker loops in this process (the server runs 2 on PostgreSQL). */
const WORKERS = Number(values.workers);
const SAMPLE = join(import.meta.dir, "..", "..", "sample", "pubmed");
const BENCH_DOMAIN = "suggestions-bench.test";

/** Seconds of CPU time spent by the whole machine since boot, all cores (Linux /proc/stat; 0 elsewhere). */
function machineBusySeconds(): number {
  try {
    const fields = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal: busy is all but idle and iowait.
    const busy = fields.slice(0, 8).reduce((a, b) => a + b, 0) - fields[3]! - fields[4]!;
    return busy / 100; // USER_HZ
  } catch {
    return 0;
  }
}

type Db = AppDeps["db"];

/**
 * USERS subscribers (Plus, active), each with two interests from real MeSH headings of the index and five liked
 * articles. @returns the headings (sorted) and the stamp of this run's e-mail addresses.
 */
async function createSubscribers(db: Db): Promise<{ headings: string[]; stamp: string }> {
  const headings = (
    await sql<{
      h: string;
    }>`SELECT h FROM (SELECT DISTINCT unnest(mesh_terms) AS h FROM (SELECT mesh_terms FROM articles LIMIT 20000) s) t ORDER BY h`.execute(
      db,
    )
  ).rows.map((r) => r.h);
  const likePool = (
    await sql<{ pmid: number }>`SELECT pmid FROM articles ORDER BY pmid LIMIT ${USERS * 5 * 3}`.execute(db)
  ).rows.map((r) => r.pmid);
  const stamp = Date.now().toString(36);
  // In statements of 2,000 rows: a statement takes at most 65,534 parameters.
  const chunks = <T>(xs: T[]): T[][] =>
    Array.from({ length: Math.ceil(xs.length / 2000) }, (_, k) => xs.slice(k * 2000, (k + 1) * 2000));
  const users: { id: string }[] = [];
  for (const part of chunks(Array.from({ length: USERS }, (_, i) => i)))
    users.push(
      ...(await db
        .insertInto("users")
        .values(
          part.map((i) => ({
            email: `u${i}-${stamp}@${BENCH_DOMAIN}`,
            full_name: `Bench ${i}`,
            hashed_password: "x",
            description: `${headings[(i * 7) % headings.length]}, ${headings[(i * 13 + 3) % headings.length]}`,
          })),
        )
        .returning("id")
        .execute()),
    );
  for (const part of chunks(users))
    await db
      .insertInto("subscriptions")
      .values(
        part.map((u) => ({
          user_id: u.id,
          status: "active",
          subscription_type: "plus",
          is_trial: false,
          billing_interval: "annual",
          current_period_end: new Date(Date.now() + 365 * 86_400_000),
        })) as never,
      )
      .execute();
  for (const part of chunks(
    users.flatMap((u, i) =>
      Array.from({ length: 5 }, (_, j) => ({
        user_id: u.id,
        article_pmid: likePool[(i * 5 + j * 17) % likePool.length]!,
      })),
    ),
  ))
    await db
      .insertInto("likes")
      .values(part)
      .onConflict((oc) => oc.doNothing())
      .execute();

  return { headings, stamp };
}

/**
 * A worker as the server starts it (WORKER=only): WORKERS loops that sleep when the queue is empty and wake when a
 * job is queued, until no job is left queued or running. (runJobsUntilIdle would not do: a loop that finds the
 * queue empty returns, so while one loop ran the weekly-run job that queues the users' jobs, the other had
 * already stopped, and every user was computed by one loop.) @returns the number of jobs run.
 */
async function workUntilIdle(deps: AppDeps, handlers: JobHandlers): Promise<number> {
  const db = deps.db;
  let ran = 0;
  const counted: JobHandlers = Object.fromEntries(
    Object.entries(handlers).map(([kind, h]) => {
      const run = typeof h === "function" ? h : h.run;
      const counting: JobRunner = async (payload, ctx) => {
        await run(payload, ctx);
        ran++;
      };
      return [kind, typeof h === "function" ? counting : { ...h, run: counting }];
    }),
  );
  const worker = startWorker(deps, counted, { concurrency: WORKERS, workerId: "bench", pollIntervalMs: 50 });
  await worker.ready;
  for (;;) {
    await Bun.sleep(20);
    const { rows } = await sql<{
      n: number;
    }>`SELECT count(*)::integer AS n FROM jobs WHERE status IN ('queued', 'running') AND run_at <= now()`.execute(db);
    if (rows[0]!.n === 0) break;
  }
  await worker.stop();
  return ran;
}

/**
 * This machine's PostgreSQL runs with autovacuum off: the tables a run churns (each job row is written three times)
 * are vacuumed between phases, as autovacuum would in operation. Without it, the second week's run was 1.5 times
 * slower than the first at 10,000 users (202,839 dead job rows).
 */
async function vacuumChurned(db: Db): Promise<void> {
  for (const table of ["jobs", "weekly_suggestions", "suggestion_articles", "suggestion_source_cache", "email_outbox"])
    await sql`VACUUM ANALYZE ${sql.table(table)}`.execute(db);
}

/** Where a phase's time goes, as shares of its wall time on one core. */
interface PhaseCpu {
  label: string;
  /** This process's CPU (the JavaScript of both workers, one thread). */
  processCores: number;
  /** The machine's (PostgreSQL's backends included). */
  machineCores: number;
}

/**
 * Runs phases (a vacuum first, then the work) and measures each: its peak RSS (sampled every 250 ms from the
 * creation of the meter until `stop`) and its CPU.
 */
function phaseMeter(db: Db) {
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 250);
  const rssBefore = process.memoryUsage().rss;
  const peaks: number[] = [];
  const cpu: PhaseCpu[] = [];
  const phase = async <T>(label: string, run: () => Promise<T>): Promise<T> => {
    await vacuumChurned(db);
    peakRss = process.memoryUsage().rss;
    const [cpu0, machine0, t0] = [process.cpuUsage(), machineBusySeconds(), performance.now()];
    const out = await run();
    const wall = (performance.now() - t0) / 1000;
    const used = process.cpuUsage(cpu0);
    cpu.push({
      label,
      processCores: (used.user + used.system) / 1e6 / wall,
      machineCores: (machineBusySeconds() - machine0) / wall,
    });
    peaks.push(peakRss);
    return out;
  };
  return { phase, stop: () => clearInterval(sampler), rssBefore, peaks, cpu };
}

type Preparation = { seconds: number; jobs: number };
type WeeklyRun = { week: string; seconds: number; jobs: number; users: number; articles: number };

/**
 * The daily preparation (src/suggestions/jobs.ts) and the weekly run, as the schedule has them in operation: without
 * --cold, a preparation, this week's run, a preparation a week later and next week's run; with it, this week's run
 * alone.
 */
async function runWeeks(
  deps: AppDeps,
  phase: ReturnType<typeof phaseMeter>["phase"],
): Promise<{ preparations: Preparation[]; runs: WeeklyRun[] }> {
  const db = deps.db;
  const handlers = { ...suggestionJobHandlers(), ...emailJobHandlers() };
  const prepare = async () => {
    const t0 = performance.now();
    await deps.jobs.enqueue(PREPARE_RUN_JOB, {});
    const jobs = await workUntilIdle(deps, handlers);
    return { seconds: (performance.now() - t0) / 1000, jobs };
  };
  const preparations = COLD ? [] : [await phase("daily preparation", prepare)];
  // The weekly run: one run job, then the users' jobs, on two workers in this process (as a WORKER=only process);
  // without --cold, then the next week's run (every answer computed in the week before).
  const weeks = COLD ? [isoWeek(new Date())] : [isoWeek(new Date()), isoWeek(new Date(Date.now() + 7 * 86_400_000))];
  const runs: WeeklyRun[] = [];
  for (const week of weeks) {
    // A week later, the preparation runs again first: it finds the answers of a week ago still fresh.
    if (!COLD && runs.length > 0) preparations.push(await phase("daily preparation a week later", prepare));
    const { ran, seconds } = await phase(`weekly run ${week}`, async () => {
      const started = performance.now();
      await deps.jobs.enqueue(WEEKLY_RUN_JOB, { week });
      const ran = await workUntilIdle(deps, handlers);
      return { ran, seconds: (performance.now() - started) / 1000 };
    });
    const { rows: done } = await sql<{ n: number; articles: number }>`
      SELECT count(DISTINCT w.id)::integer AS n, count(sa.*)::integer AS articles FROM weekly_suggestions w
      JOIN users u ON u.id = w.user_id LEFT JOIN suggestion_articles sa ON sa.suggestion_id = w.id
      WHERE u.email LIKE ${`%@${BENCH_DOMAIN}`} AND w.week = ${week}`.execute(db);
    runs.push({ week, seconds, jobs: ran, users: done[0]!.n, articles: done[0]!.articles });
  }
  return { preparations, runs };
}

/**
 * GET /suggestions/weekly/latest over HTTP, REQUESTS times in sequence after 30 of warm-up, for a reader signed up
 * at `serverUrl` with two of `headings` as interests. @returns the times (ms, sorted).
 * @throws Error when the signup fails or an answer is not 200.
 */
async function timeLatest(deps: AppDeps, serverUrl: string, headings: string[], stamp: string): Promise<number[]> {
  const db = deps.db;
  const email = `reader-${stamp}@${BENCH_DOMAIN}`;
  const signup = await fetch(`${serverUrl}/api/v1/users/signup`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, full_name: "Reader", password: "bench-password-123" }),
  });
  if (!signup.ok) throw new Error(`signup ${signup.status}`);
  const reader = (await signup.json()) as { id: string };
  await db
    .updateTable("users")
    .set({ description: `${headings[1]}, ${headings[2]}` })
    .where("id", "=", reader.id)
    .execute();
  await computeWeeklySuggestions(deps, reader.id, { sendDigest: false });
  const login = await fetch(`${serverUrl}/api/v1/login/access-token`, {
    method: "POST",
    body: new URLSearchParams({ username: email, password: "bench-password-123" }),
  });
  const token = ((await login.json()) as { access_token: string }).access_token;
  const times: number[] = [];
  for (let i = 0; i < REQUESTS + 30; i++) {
    const t0 = performance.now();
    const res = await fetch(`${serverUrl}/api/v1/suggestions/weekly/latest`, {
      headers: { authorization: `Bearer ${token}` },
    });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`latest answered ${res.status}`);
    if (i >= 30) times.push(performance.now() - t0); // the first 30 warm up
  }
  times.sort((a, b) => a - b);
  return times;
}

/** What `main` measured, for `report`. */
interface Measured {
  records: number;
  preparations: Preparation[];
  runs: WeeklyRun[];
  meter: ReturnType<typeof phaseMeter>;
  times: number[];
}

/** Prints the results: the preparations, the weekly runs, CPU and memory per phase, and the endpoint's latency. */
async function report(db: Db, { records, preparations, runs, meter, times }: Measured): Promise<void> {
  const phaseCpu = meter.cpu;
  const phasePeaks = meter.peaks;
  const rssBefore = meter.rssBefore;
  console.log(
    `machine: ${cpus().length} × ${cpus()[0]?.model}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB; index: ${records} records`,
  );
  const { rows: cached } = await sql<{
    n: number;
  }>`SELECT count(*)::integer AS n FROM suggestion_source_cache`.execute(db);
  for (const [i, p] of preparations.entries()) {
    const which =
      i > 0
        ? "daily preparation a week later"
        : values["reuse-answers"]
          ? "daily preparation, the answers of an earlier run kept"
          : "daily preparation, nothing cached";
    const perUser = ((1000 * p.seconds) / Math.max(1, USERS)).toFixed(0);
    console.log(
      `${which}: ${p.jobs} jobs in ${p.seconds.toFixed(1)} s by ${WORKERS} workers (${perUser} ms per user); ` +
        `${cached[0]!.n} answers cached`,
    );
  }
  runs.forEach((r, i) => {
    const perUser = r.seconds / Math.max(1, r.users);
    const label = COLD
      ? "weekly run, no answer computed before"
      : i === 0
        ? "weekly run after the preparation"
        : "next week's run, after its preparation";
    console.log(
      `${label} (${r.week}): ${r.users} of ${USERS} users computed (${r.articles} suggested articles) in ${r.seconds.toFixed(1)} s by ${WORKERS} workers (${r.jobs} jobs incl. digests): ${(r.users / r.seconds).toFixed(2)} users/s, ${(perUser * 1000).toFixed(0)} ms per user; 10,000 users at this rate: ${((10_000 * perUser) / 60).toFixed(1)} min`,
    );
  });
  for (const c of phaseCpu)
    console.log(
      `cpu, ${c.label}: this process ${c.processCores.toFixed(2)} cores, the whole machine ${c.machineCores.toFixed(2)} of ${cpus().length}`,
    );
  console.log(
    `memory: RSS ${(rssBefore / 2 ** 20).toFixed(0)} MB before; peak per phase, in order: ${phasePeaks.map((p) => `${(p / 2 ** 20).toFixed(0)} MB`).join(", ")}`,
  );
  console.log(
    `GET /suggestions/weekly/latest, ${REQUESTS} sequential: p50 ${quantile(times, 0.5).toFixed(1)} ms, p95 ${quantile(times, 0.95).toFixed(1)} ms (target ≤ 30)`,
  );
}

async function main() {
  const adminUrl = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const fresh = values["database-url"] ? null : await createDatabase(adminUrl);
  const databaseUrl = values["database-url"] ?? fresh!.url;
  const handle = openDatabase({ databaseUrl, dataDir: "", poolSize: Math.max(4, WORKERS + 2) });
  const config = loadConfig({
    NODE_ENV: "production",
    LOG_LEVEL: "warn",
    PUBLIC_URL: "http://localhost:3000",
    DATABASE_URL: databaseUrl,
    PUBMED_ON_DEMAND: "off",
  });
  const deps: AppDeps = {
    config,
    db: handle.db,
    search: new PostgresSearchIndex(handle.db),
    jobs: new PgJobQueue(handle.db),
    secretKey: new TextEncoder().encode("b".repeat(48)),
  };
  const db = handle.db;
  let server: Awaited<ReturnType<typeof startServer>> | null = null;
  try {
    await migrateToLatest(db);
    if (fresh)
      await ingestFiles(
        deps,
        readdirSync(SAMPLE)
          .filter((f) => f.endsWith(".xml.gz"))
          .map((f) => join(SAMPLE, f)),
      );
    const { rows: countRows } = await sql<{ n: number }>`SELECT count(*)::integer AS n FROM articles`.execute(db);
    const records = countRows[0]!.n;
    const { headings, stamp } = await createSubscribers(db);
    // No answer computed before this run (--cold), or none for this run's texts: each measure starts from the same
    // state.
    // --reuse-answers keeps the answers a previous run on this database stored (the same users' texts): the first
    // preparation then only checks them, as on any day after the first (it saves the 20-minute cold preparation when
    // only the weekly run is being measured).
    if (!values["reuse-answers"]) await db.deleteFrom("suggestion_source_cache").execute();
    const meter = phaseMeter(db);
    const { preparations, runs } = await runWeeks(deps, meter.phase);
    meter.stop();

    // GET /suggestions/weekly/latest over HTTP for one of them.
    // Repeated runs on one database would meet the signup rate limit of the runs before.
    await db.deleteFrom("rate_limits").execute();
    server = await startServer(databaseUrl);
    const times = await timeLatest(deps, server.url, headings, stamp);
    await report(db, { records, preparations, runs, meter, times });
  } finally {
    await server?.stop();
    if (!fresh) {
      // Leave the shared corpus as it was: only this run's users (their likes and suggestions cascade) go.
      await db.deleteFrom("users").where("email", "like", `%@${BENCH_DOMAIN}`).execute();
      await db.deleteFrom("jobs").execute();
    }
    await handle.close();
    await fresh?.drop();
  }
}

await main();
