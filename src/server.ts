import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig, type Config } from "./config.ts";
import { openDatabase } from "./db/database.ts";
import { migrateToLatest } from "./db/migrator.ts";
import { createApp } from "./app.ts";
import type { AppDeps } from "./deps.ts";
import { PostgresSearchIndex } from "../search/postgres-index.ts";
import { NOT_IMPLEMENTED as ELASTICSEARCH_NOT_IMPLEMENTED } from "../search/elasticsearch-index.ts";
import { PgJobQueue } from "./jobs/queue-pg.ts";
import { startWorker } from "./jobs/worker.ts";
import { jobHandlers } from "./jobs/handlers.ts";
import { startSchedules } from "./jobs/schedule.ts";
import { applicationSchedules } from "./jobs/schedules.ts";
import { seedSampleIfEmpty } from "./seed.ts";
import { ensureFirstSuperuser } from "./users/service.ts";
import { settleBackgroundEmail } from "./email/service.ts";

/**
 * The token signing key: SECRET_KEY when set; otherwise a random key kept in DATA_DIR so that sessions
 * survive restarts of an embedded install. Production deployments set SECRET_KEY.
 */
function resolveSecretKey(config: Config): Uint8Array {
  if (config.SECRET_KEY) return new TextEncoder().encode(config.SECRET_KEY);
  const dir = config.DATABASE_URL ? join(process.cwd(), "data") : config.DATA_DIR;
  const file = join(dir, ".secret-key");
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(file, randomBytes(48).toString("base64url"), { mode: 0o600 });
  }
  return new TextEncoder().encode(readFileSync(file, "utf8").trim());
}

async function main() {
  const config = loadConfig();
  // Fail before touching any data rather than on the first search: the adapter's interface exists, not its body.
  if (config.ELASTICSEARCH_URL) throw new Error(ELASTICSEARCH_NOT_IMPLEMENTED);
  if (config.STRIPE_SECRET_KEY && !config.STRIPE_WEBHOOK_SECRET) {
    console.warn("STRIPE_SECRET_KEY is set without STRIPE_WEBHOOK_SECRET: checkout works, but Stripe's webhook deliveries will be refused, so payments will not be recorded");
  }
  const started = performance.now();
  const handle = openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  const applied = await migrateToLatest(handle.db);
  if (applied.length) console.error(`applied migrations: ${applied.join(", ")}`);

  const search = new PostgresSearchIndex(handle.db);
  const deps: AppDeps = { config, db: handle.db, search, jobs: new PgJobQueue(handle.db), secretKey: resolveSecretKey(config) };

  await ensureFirstSuperuser(deps);
  if (config.SEED_SAMPLE) await seedSampleIfEmpty(deps);

  const worker = config.WORKER === "off" ? null : startWorker(deps, jobHandlers(deps), { concurrency: handle.kind === "pglite" ? 1 : 2 });
  // Schedules only enqueue jobs, so they run where jobs run.
  const scheduler = config.WORKER === "off" ? null : startSchedules(deps, applicationSchedules(deps));
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

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.error(`${signal}: shutting down…`);
    await server?.stop();
    scheduler?.stop();
    await worker?.stop();
    await settleBackgroundEmail();
    await handle.close();
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
}

await main();
