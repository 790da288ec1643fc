import { type Config, loadConfig } from "./config.ts";
import { resolveSecretKey } from "./auth/secret-key.ts";
import { type DatabaseHandle, openDatabase } from "./db/database.ts";
import { migrateToLatest } from "./db/migrator.ts";
import { createApp } from "./app.ts";
import type { AppDeps } from "./deps.ts";
import { openSearchIndex } from "./search/open-index.ts";
import { PgJobQueue } from "./jobs/queue-pg.ts";
import { startWorker } from "./jobs/worker.ts";
import { workerConcurrency } from "./reviews/llm/llm-summarizer.ts";
import { applicationSchedules, jobHandlers } from "./job-registry.ts";
import { startSchedules } from "./jobs/schedule.ts";
import { seedSampleIfEmpty } from "./seed.ts";
import { startReviewChangeFeed } from "./reviews/events.ts";
import { ensureFirstSuperuser } from "./users/service.ts";
import { claimEmbeddedLock } from "./db/embedded-lock.ts";
import { fillSyntaxIndex } from "../search/pubmed/query-syntax.ts";

async function main() {
  // The server's start-up rules (SECRET_KEY with DATABASE_URL, PUBLIC_URL, the Stripe webhook secret…) are the
  // schema's: src/config.ts CONFIG_RULES, docs/decisions/0046-config-rules.md.
  const config = loadConfig(process.env, { role: "server" });
  const started = performance.now();
  const secretKey = resolveSecretKey(config);
  const { setup, releaseEmbedded } = await setUpDatabase(config, secretKey);

  // Requests and jobs: every statement and connection within its time limits (src/db/database.ts).
  const handle = setup.kind === "postgres" ? await reopenWithTimeouts(config, setup) : setup;
  const search = await openSearchIndex(config, handle.db, { check: false });
  const deps: AppDeps = { config, db: handle.db, search, jobs: new PgJobQueue(handle.db), secretKey };
  // Review status changes between processes: LISTEN/NOTIFY on PostgreSQL, the in-process signal on the embedded one.
  const reviewFeed = await startReviewChangeFeed(config.DATABASE_URL);

  const jobs = config.WORKER === "off" ? null : startJobs(deps, handle.kind);
  const server = config.WORKER === "only" ? null : serve(deps);
  const where = handle.kind === "pglite" ? `PGlite in ${config.DATA_DIR}` : "PostgreSQL";
  console.error(
    server
      ? `LitReview listening on http://localhost:${server.port} (${where}) in ${Math.round(performance.now() - started)} ms`
      : `LitReview worker running (${where})`,
  );

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.error(`${signal}: shutting down…`);
    await server?.stop();
    await jobs?.stop();
    await reviewFeed.close();
    await handle.close();
    releaseEmbedded();
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
}

/**
 * Opens the database for setup and prepares it: migrations, the embedded database's lock, the first superuser and,
 * when asked, the sample. Setup runs without statement time-outs: building an index may take long. On PostgreSQL it
 * gets its own short-lived connections (closed by reopenWithTimeouts); PGlite has one handle for everything.
 * @returns the setup handle, and the release of the embedded lock (a no-op on PostgreSQL).
 */
async function setUpDatabase(
  config: Config,
  secretKey: Uint8Array,
): Promise<{ setup: DatabaseHandle; releaseEmbedded: () => void }> {
  const setup = openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  const applied = await migrateToLatest(setup.db);
  // The embedded database is this process's alone while it runs: tools such as `npm run outbox` look for this record.
  // Written once PGlite has set up its folder (a new folder must be empty when it does).
  const releaseEmbedded = setup.kind === "pglite" ? claimEmbeddedLock(config.DATA_DIR) : () => {};
  if (applied.length) console.error(`applied migrations: ${applied.join(", ")}`);
  // With ELASTICSEARCH_URL: the cluster, the alias and the mapping version are checked here, before serving.
  const setupDeps: AppDeps = {
    config,
    db: setup.db,
    search: await openSearchIndex(config, setup.db),
    jobs: new PgJobQueue(setup.db),
    secretKey,
  };
  await ensureFirstSuperuser(setupDeps);
  if (config.SEED_SAMPLE) await seedSampleIfEmpty(setupDeps);
  return { setup, releaseEmbedded };
}

/** Closes the setup connections to a PostgreSQL server and opens the serving ones, with the configured time limits. */
async function reopenWithTimeouts(config: Config, setup: DatabaseHandle): Promise<DatabaseHandle> {
  await setup.close();
  return openDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    timeouts: {
      connectSeconds: config.DATABASE_CONNECT_TIMEOUT_SECONDS,
      statementMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
      lockMs: config.DATABASE_LOCK_TIMEOUT_MS,
    },
  });
}

/**
 * Starts what a process that runs jobs runs: the worker with every job kind (src/job-registry.ts), the schedules, and
 * the background filling of the search-strategy word index.
 * @returns stop(): stops the schedules, then waits for the running jobs and the filling to end.
 */
function startJobs(deps: AppDeps, kind: DatabaseHandle["kind"]): { stop(): Promise<void> } {
  // A language model gets loops of its own, so that its calls never hold the ones reviews run on (ADR 0031).
  const concurrency = workerConcurrency(kind === "pglite" ? 1 : 2, deps.config);
  const worker = startWorker(deps, jobHandlers(deps), { concurrency });
  // Schedules only enqueue jobs, so they run where jobs run.
  const scheduler = startSchedules(deps, applicationSchedules(deps));
  // Rows ingested before the strategies' word index existed get it in the background, in small batches, so that the
  // first PubMed-syntax review does not have to (docs/decisions/0048-bounded-strategy-evaluation.md).
  const stopFilling = new AbortController();
  const filling = fillSyntaxIndex(deps.db, { signal: stopFilling.signal })
    .then((n) => {
      if (n > 0) console.error(`the search-strategy word index of ${n} older articles is filled`);
    })
    .catch((err) => {
      // Stopping cuts the filling short: that is no failure worth reporting.
      if (!stopFilling.signal.aborted) console.error("filling the search-strategy word index stopped:", err);
    });
  return {
    async stop() {
      scheduler.stop();
      await worker.stop();
      stopFilling.abort();
      await filling;
    },
  };
}

/** Serves the web app (API and pages) on the configured port. */
function serve(deps: AppDeps) {
  return Bun.serve({
    port: deps.config.PORT,
    fetch: createApp(deps).fetch,
    idleTimeout: 60,
    // Bodies are limited by the app (src/http/limits.ts), which answers in the API's {detail} shape; this is
    // only the parser's outer bound. Oversized bodies are refused by their Content-Length before being read.
    maxRequestBodySize: 1024 * 1024 * 1024,
  });
}

if (import.meta.main) {
  try {
    await main();
  } catch (err) {
    // A configuration or start-up problem: one clear line, not a stack trace.
    console.error(`LitReview cannot start: ${err instanceof Error ? err.message : err}`);
    process.exit(1);
  }
}
