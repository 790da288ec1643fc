// Review throughput with one and with two worker processes (issue 12): on an existing, indexed PostgreSQL database
// (the 1,000,000-record one that `bun scripts/bench/bench-search.ts --records 1000000 --keep` leaves), N reviews of
// 20 users on the 50 fixed queries are queued at once, then worked by K `bun src/server.ts` processes with
// WORKER=only (each runs 2 jobs at a time, as the server does on PostgreSQL). Reports reviews per second (wall time
// from the queueing to the last terminal status) and the p95 of each review's time from queueing to its terminal
// status. The bench's users and reviews are removed at the end; the articles stay.
//
// Usage: npm run bench -- workers --database-url postgres://postgres@127.0.0.1:5432/lr_bench_search_1000000_builtin
//        [--reviews 200] [--processes 1,2]
import { cpus, totalmem } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { sql } from "kysely";
import { openDatabase } from "../../src/db/database.ts";
import { migrateToLatest } from "../../src/db/migrator.ts";
import { PgJobQueue } from "../../src/jobs/queue-pg.ts";
import { REVIEW_JOB_KIND } from "../../src/reviews/pipeline.ts";
import { startUserReview } from "../../src/reviews/repository.ts";
import { quantile } from "./bench-pages.ts";
import { BENCH_QUERIES } from "./queries.ts";

const { values } = parseArgs({
  options: {
    "database-url": { type: "string" },
    reviews: { type: "string", default: "200" },
    processes: { type: "string", default: "1,2" },
  },
});
const databaseUrl = values["database-url"];
if (!databaseUrl) throw new Error("--database-url is required (an indexed corpus)");
const REVIEWS = Number(values.reviews);
const TERMINAL = ["complete", "no_articles_found", "error", "canceled"];
const DOMAIN = "workers-bench.test";

const handle = openDatabase({ databaseUrl, dataDir: "", poolSize: 2 });
const db = handle.db;
const jobs = new PgJobQueue(db);

async function run(processes: number) {
  const stamp = Date.now().toString(36);
  const users = await db
    .insertInto("users")
    .values(
      Array.from({ length: 20 }, (_, i) => ({
        email: `w${i}-${stamp}@${DOMAIN}`,
        full_name: `W ${i}`,
        hashed_password: "x",
      })),
    )
    .returning("id")
    .execute();
  const workers = Array.from({ length: processes }, (_, n) =>
    Bun.spawn([process.execPath, "src/server.ts"], {
      cwd: join(import.meta.dir, "..", ".."),
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl!,
        SECRET_KEY: "b".repeat(40),
        WORKER: "only",
        SEED_SAMPLE: "false",
        LOG_LEVEL: "warn",
        NODE_ENV: "production",
        WORKER_ID: `bench-${n}`,
      },
      stdout: "ignore",
      stderr: "ignore",
    }),
  );
  await Bun.sleep(3000); // started and polling
  const ids: string[] = [];
  const queuedAt = new Date();
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < REVIEWS; i++) {
      const userId = users[i % users.length]!.id;
      const review = await trx
        .insertInto("literature_reviews")
        .values({ user_id: userId })
        .returning("id")
        .executeTakeFirstOrThrow();
      await startUserReview(trx, userId, review.id, BENCH_QUERIES[i % BENCH_QUERIES.length]!);
      await jobs.enqueue(REVIEW_JOB_KIND, { reviewId: review.id }, { db: trx, fairnessKey: userId });
      ids.push(review.id);
    }
  });
  const started = performance.now();
  const deadline = Date.now() + 30 * 60_000;
  let done = 0;
  while (Date.now() < deadline) {
    done = Number(
      (
        await sql<{
          n: number;
        }>`SELECT count(*)::integer AS n FROM literature_reviews WHERE id = ANY(${ids}::uuid[]) AND status = ANY(${TERMINAL})`.execute(
          db,
        )
      ).rows[0]!.n,
    );
    if (done === ids.length) break;
    await Bun.sleep(100);
  }
  const seconds = (performance.now() - started) / 1000;
  for (const w of workers) w.kill("SIGTERM");
  await Promise.all(workers.map((w) => w.exited));
  const rows = await db
    .selectFrom("literature_reviews")
    .select(["status", "updated_at"])
    .where("id", "in", ids)
    .execute();
  const latencies = rows.map((r) => new Date(r.updated_at).getTime() - queuedAt.getTime()).sort((a, b) => a - b);
  const errors = rows.filter((r) => r.status === "error").length;
  await db.deleteFrom("jobs").where("kind", "=", REVIEW_JOB_KIND).execute();
  await db.deleteFrom("users").where("email", "like", `%@${DOMAIN}`).execute();
  return {
    processes,
    done,
    seconds,
    perSecond: done / seconds,
    p50: quantile(latencies, 0.5),
    p95: quantile(latencies, 0.95),
    errors,
  };
}

try {
  await migrateToLatest(db);
  const { rows } = await sql<{ n: number }>`SELECT count(*)::integer AS n FROM articles`.execute(db);
  console.log(
    `machine: ${cpus().length} × ${cpus()[0]?.model}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB; index: ${rows[0]!.n} records; ${REVIEWS} reviews of 20 users, the 50 fixed queries`,
  );
  const results = [];
  for (const k of values.processes!.split(",").map(Number)) {
    const r = await run(k);
    results.push(r);
    console.log(
      `${k} worker process(es): ${r.done}/${REVIEWS} terminal (${r.errors} error) in ${r.seconds.toFixed(1)} s: ${r.perSecond.toFixed(2)} reviews/s; queue to terminal p50 ${(r.p50 / 1000).toFixed(1)} s, p95 ${(r.p95 / 1000).toFixed(1)} s`,
    );
  }
  if (results.length === 2)
    console.log(`two processes / one: ${(results[1]!.perSecond / results[0]!.perSecond).toFixed(2)}×`);
} finally {
  await handle.close();
}
