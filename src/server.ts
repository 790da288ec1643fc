import { loadConfig } from "./config.ts";
import { resolveSecretKey } from "./auth/secret-key.ts";
import { openDatabase } from "./db/database.ts";
import { migrateToLatest } from "./db/migrator.ts";
import { createApp } from "./app.ts";
import type { AppDeps } from "./deps.ts";
import { openSearchIndex } from "./search/open-index.ts";
import { PgJobQueue } from "./jobs/queue-pg.ts";
import { startWorker } from "./jobs/worker.ts";
import { workerConcurrency } from "./reviews/llm/llm-summarizer.ts";
import { jobHandlers } from "./jobs/handlers.ts";
import { startSchedules } from "./jobs/schedule.ts";
import { applicationSchedules } from "./jobs/schedules.ts";
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
  // Setup (migrations, the first superuser, the sample) runs without statement time-outs: building an index may
  // take long. On PostgreSQL it gets its own short-lived connections; PGlite has one handle for everything.
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

  // Requests and jobs: every statement and connection within its time limits (src/db/database.ts).
  let handle = setup;
  if (setup.kind === "postgres") {
    await setup.close();
    handle = openDatabase({
      databaseUrl: config.DATABASE_URL,
      dataDir: config.DATA_DIR,
      timeouts: {
        connectSeconds: config.DATABASE_CONNECT_TIMEOUT_SECONDS,
        statementMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
        lockMs: config.DATABASE_LOCK_TIMEOUT_MS,
      },
    });
  }
  const search = await openSearchIndex(config, handle.db, { check: false });
  const deps: AppDeps = { config, db: handle.db, search, jobs: new PgJobQueue(handle.db), secretKey };
  // Review status changes between processes: LISTEN/NOTIFY on PostgreSQL, the in-process signal on the embedded one.
  const reviewFeed = await startReviewChangeFeed(config.DATABASE_URL);

  // A language model gets loops of its own, so that its calls never hold the ones reviews run on (ADR 0031).
  const concurrency = workerConcurrency(handle.kind === "pglite" ? 1 : 2, config);
  const worker = config.WORKER === "off" ? null : startWorker(deps, jobHandlers(deps), { concurrency });
  // Schedules only enqueue jobs, so they run where jobs run.
  const scheduler = config.WORKER === "off" ? null : startSchedules(deps, applicationSchedules(deps));
  // Rows ingested before the strategies' word index existed get it in the background, in small batches, so that the
  // first PubMed-syntax review does not have to (docs/decisions/0048-bounded-strategy-evaluation.md).
  let stopping = false;
  const stopFilling = new AbortController();
  const filling =
    config.WORKER === "off"
      ? Promise.resolve()
      : fillSyntaxIndex(handle.db, { signal: stopFilling.signal })
          .then((n) => {
            if (n > 0) console.error(`the search-strategy word index of ${n} older articles is filled`);
          })
          .catch((err) => {
            if (!stopping) console.error("filling the search-strategy word index stopped:", err);
          });
  const server =
    config.WORKER === "only"
      ? null
      : Bun.serve({
          port: config.PORT,
          fetch: createApp(deps).fetch,
          idleTimeout: 60,
          // Bodies are limited by the app (src/http/limits.ts), which answers in the API's {detail} shape; this is
          // only the parser's outer bound. Oversized bodies are refused by their Content-Length before being read.
          maxRequestBodySize: 1024 * 1024 * 1024,
        });
  const where = handle.kind === "pglite" ? `PGlite in ${config.DATA_DIR}` : "PostgreSQL";
  console.error(
    server
      ? `LitReview listening on http://localhost:${server.port} (${where}) in ${Math.round(performance.now() - started)} ms`
      : `LitReview worker running (${where})`,
  );

  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.error(`${signal}: shutting down…`);
    await server?.stop();
    scheduler?.stop();
    await worker?.stop();
    stopFilling.abort();
    await filling;
    await reviewFeed.close();
    await handle.close();
    releaseEmbedded();
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
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
