// Literature review latency, start to complete, through the real API and the in-process job worker.
//
//   bun scripts/bench/bench-review.ts --database-url postgres://postgres@127.0.0.1:5432/lr_bench_search_100000
// [--rounds 1]
//
// Uses a database that already holds a corpus (bench-search.ts --records N --keep loads one; the corpus is
// synthetic: real PubMed sentences recombined under new PMIDs). For each of the 50 fixed queries of
// bench-search.ts it creates a review (POST /literature_review/create), starts it (POST /start/{id}) and waits until
// the review reaches a terminal status, polling the database every 5 ms. The time measured runs from the start
// request to the stored terminal status: queueing, searching, re-ranking, storing the ranked list and summarizing.
// Reviews run one after another, so the numbers are latency without queueing behind other reviews.
// The user and its reviews are deleted at the end.

import { parseArgs } from "node:util";
import { loadConfig } from "../../src/config.ts";
import { openDatabase } from "../../src/db/database.ts";
import { migrateToLatest } from "../../src/db/migrator.ts";
import { createApp } from "../../src/app.ts";
import type { AppDeps } from "../../src/deps.ts";
import { PostgresSearchIndex } from "../../search/postgres-index.ts";
import { PgJobQueue } from "../../src/jobs/queue-pg.ts";
import { startWorker } from "../../src/jobs/worker.ts";
import { jobHandlers } from "../../src/job-registry.ts";
import { createAccessToken } from "../../src/auth/tokens.ts";
import { BENCH_QUERIES } from "./queries.ts";

const TERMINAL = new Set(["complete", "no_articles_found", "error", "canceled"]);

const { values } = parseArgs({
  options: {
    "database-url": { type: "string" },
    rounds: { type: "string", default: "1" },
  },
});
const databaseUrl = values["database-url"];
if (!databaseUrl) throw new Error("--database-url is required (a database loaded by bench-search.ts --keep)");
const rounds = Number(values.rounds);

const handle = openDatabase({ databaseUrl, dataDir: "", poolSize: 10 });
await migrateToLatest(handle.db);
const db = handle.db;
const articles = await db.selectFrom("articles").select(db.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
const config = loadConfig({ NODE_ENV: "production", SEED_SAMPLE: "false", LOG_LEVEL: "warn", PUBMED_ON_DEMAND: "off" });
const secretKey = crypto.getRandomValues(new Uint8Array(32));
const deps: AppDeps = { config, db, search: new PostgresSearchIndex(db), jobs: new PgJobQueue(db), secretKey };
const app = createApp(deps);
const worker = startWorker(deps, jobHandlers(deps), { concurrency: 1 });

const user = await db
  .insertInto("users")
  .values({ email: `bench-review-${Date.now()}@example.com`, full_name: "Bench", hashed_password: "x" })
  .returning(["id", "token_version"])
  .executeTakeFirstOrThrow();
await db
  .insertInto("subscriptions")
  .values({ user_id: user.id, status: "active", subscription_type: "plus", is_trial: false })
  .execute();
const token = await createAccessToken(secretKey, { sub: user.id, ver: user.token_version }, 60);
const auth = { authorization: `Bearer ${token}` };

async function timeOne(query: string): Promise<{ ms: number; status: string }> {
  const created = (await (
    await app.request("/api/v1/literature_review/create", { method: "POST", headers: auth })
  ).json()) as { id: string };
  const t0 = performance.now();
  const res = await app.request(
    `/api/v1/literature_review/start/${created.id}?user_query=${encodeURIComponent(query)}`,
    {
      method: "POST",
      headers: auth,
    },
  );
  if (!res.ok) throw new Error(`start failed: ${res.status} ${await res.text()}`);
  for (;;) {
    const row = await db
      .selectFrom("literature_reviews")
      .select("status")
      .where("id", "=", created.id)
      .executeTakeFirstOrThrow();
    if (TERMINAL.has(row.status)) return { ms: performance.now() - t0, status: row.status };
    await Bun.sleep(5);
  }
}

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

try {
  await timeOne(BENCH_QUERIES[0]!); // warm-up: first-call costs (JIT, connections) are not review latency
  const times: number[] = [];
  const statuses: Record<string, number> = {};
  for (let r = 0; r < rounds; r++)
    for (const q of BENCH_QUERIES) {
      const { ms, status } = await timeOne(q);
      times.push(ms);
      statuses[status] = (statuses[status] ?? 0) + 1;
    }
  times.sort((a, b) => a - b);
  console.log(`articles in corpus: ${articles.n}`);
  console.log(
    `reviews: ${times.length} (${Object.entries(statuses)
      .map(([s, n]) => `${s} ${n}`)
      .join(", ")})`,
  );
  console.log(
    `start→terminal ms: p50 ${pct(times, 50).toFixed(0)}  p95 ${pct(times, 95).toFixed(0)}  p99 ${pct(times, 99).toFixed(0)}  max ${times.at(-1)!.toFixed(0)}`,
  );
} finally {
  await worker.stop();
  await db.deleteFrom("users").where("id", "=", user.id).execute();
  await handle.close();
}
