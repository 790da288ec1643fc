// Fair claiming under a queue of heavy users (issue 22, item 5): 60 users each start 3 reviews at once; the workers
// (2 at a time, as the server runs them on PostgreSQL) take them; once `--arrive-after` reviews have started, a
// newcomer starts her first review. Prints how long her review waited in the queue (from her start to its claim).
//
// The reviews go through the real start (src/reviews/service.ts startReview: the per-user cap and the enqueue) and the
// real worker (src/jobs/worker.ts: claims, outcomes); only the review's work is a stand-in that takes `--review-ms`
// (0.2 s, what one review took alone in the probe), so that the number measures the order of claims, not the search.
//
// Usage: bun scripts/bench/bench-fairness.ts [--database-url postgres://postgres@127.0.0.1:5432/postgres]
//        [--users 60] [--reviews 3] [--review-ms 200] [--arrive-after 70] [--concurrency 2]
// Without --database-url, an in-memory embedded database. With one, a fresh database is created on that server
// and dropped at the end.
import { cpus, totalmem } from "node:os";
import { parseArgs } from "node:util";
import postgres from "postgres";
import { openDatabase, type DatabaseHandle } from "../../src/db/database.ts";
import { migrateToLatest } from "../../src/db/migrator.ts";
import { loadConfig } from "../../src/config.ts";
import type { AppDeps } from "../../src/deps.ts";
import { PgJobQueue } from "../../src/jobs/queue-pg.ts";
import { startWorker } from "../../src/jobs/worker.ts";
import { REVIEW_JOB_KIND } from "../../src/reviews/pipeline.ts";
import { insertReview } from "../../src/reviews/repository.ts";
import { startReview } from "../../src/reviews/service.ts";
import type { SearchIndex } from "../../search/search-index.ts";

const { values } = parseArgs({
  options: {
    "database-url": { type: "string" },
    users: { type: "string", default: "60" },
    reviews: { type: "string", default: "3" },
    "review-ms": { type: "string", default: "200" },
    "arrive-after": { type: "string", default: "70" },
    concurrency: { type: "string", default: "2" },
  },
});
const USERS = Number(values.users);
const REVIEWS = Number(values.reviews);
const REVIEW_MS = Number(values["review-ms"]);
const ARRIVE_AFTER = Number(values["arrive-after"]);
const CONCURRENCY = Number(values.concurrency);

/** Opens a fresh migrated database: in-memory PGlite, or a new database on the given server (dropped by close). */
async function freshDatabase(serverUrl?: string): Promise<DatabaseHandle> {
  if (!serverUrl) {
    const handle = openDatabase({ dataDir: "memory://" });
    await migrateToLatest(handle.db);
    return handle;
  }
  const name = `lr_bench_fair_${Date.now().toString(36)}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const handle = openDatabase({ databaseUrl: url.toString(), dataDir: "", poolSize: 4 });
  await migrateToLatest(handle.db);
  return {
    ...handle,
    async close() {
      await handle.close();
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

const unusedSearch: SearchIndex = {
  index: async () => {},
  delete: async () => {},
  refresh: async () => {},
  search: async () => ({ hits: [], total: 0, totalIsLowerBound: false }),
  similar: async () => ({ hits: [], total: 0, totalIsLowerBound: false }),
};

const handle = await freshDatabase(values["database-url"]);
const db = handle.db;
const jobs = new PgJobQueue(db);
const config = loadConfig({ DATABASE_URL: values["database-url"] });
const deps: AppDeps = { config, db, search: unusedSearch, jobs, secretKey: new Uint8Array(32) };

async function newUser(name: string): Promise<string> {
  const row = await db
    .insertInto("users")
    .values({ email: `${name}@fair-bench.test`, full_name: name, hashed_password: "x" })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}
async function startOne(userId: string): Promise<string> {
  const review = await insertReview(db, userId);
  await startReview(deps, userId, review.id, "spinal fusion");
  return review.id;
}

try {
  const users: string[] = [];
  for (let i = 0; i < USERS; i++) users.push(await newUser(`heavy-${i}`));
  const newcomer = await newUser("newcomer");
  // Each heavy user starts her reviews one after another, as a user clicking "start" three times would.
  for (const u of users) for (let r = 0; r < REVIEWS; r++) await startOne(u);

  let started = 0;
  let newcomerReview = "";
  let newcomerStartedAt = 0;
  let newcomerClaimedAt = 0;
  let arrival: Promise<void> | null = null;
  let finished = 0;
  const total = USERS * REVIEWS + 1;
  const allDone = Promise.withResolvers<void>();
  const handler = async (payload: Record<string, unknown>) => {
    if (payload.reviewId === newcomerReview) newcomerClaimedAt = performance.now();
    if (++started === ARRIVE_AFTER) {
      arrival = (async () => {
        newcomerStartedAt = performance.now();
        newcomerReview = "pending";
        newcomerReview = await startOne(newcomer);
      })();
    }
    await Bun.sleep(REVIEW_MS);
    if (++finished === total) allDone.resolve();
  };
  const t0 = performance.now();
  const worker = startWorker(
    deps,
    { [REVIEW_JOB_KIND]: handler },
    { concurrency: CONCURRENCY, pollIntervalMs: 50, collectGarbageAfterJob: false },
  );
  await allDone.promise;
  const seconds = (performance.now() - t0) / 1000;
  await arrival;
  await worker.stop();
  const wait = (newcomerClaimedAt - newcomerStartedAt) / 1000;
  console.log(
    `machine: ${cpus().length} × ${cpus()[0]?.model}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB; ` +
      `database: ${values["database-url"] ? "PostgreSQL" : "embedded (PGlite)"}; ` +
      `${USERS} users × ${REVIEWS} reviews of ${REVIEW_MS} ms, ` +
      `${CONCURRENCY} at a time; the newcomer arrives after ${ARRIVE_AFTER} have started`,
  );
  const waited = `the newcomer's first review waited ${wait.toFixed(2)} s`;
  console.log(`all ${total} reviews ran in ${seconds.toFixed(1)} s; ${waited}`);
} finally {
  await handle.close();
}
