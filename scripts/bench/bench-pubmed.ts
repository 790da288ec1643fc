// PubMed on demand (issue 19): reviews on topics the index lacks, against the E-utilities stand-in with added latency,
// at NCBI's rate; and the fetch and ingest of 200 records, in our own CPU time.
//
//   npm run bench -- pubmed [--database-url postgres://…] [--reviews 20] [--latency-ms 150] [--rate 3]
//
// The stand-in (tests/support/eutils-stand-in.ts) runs in its own process, serving the real sample records and the
// PubMedQA records the sample does not hold, with `--latency-ms` added to every answer. This process runs the app's
// review job (one worker) on a database that holds one small file of the sample, so each review's topic finds little
// locally and goes to PubMed. For each topic: create and start the review through the API, wait for its terminal
// status (polling the database every 5 ms), and record the time from the start request to it. Topics are distinct
// and each runs on a fresh database, so each review fetches what PubMed answers (up to 200 records).
//
// Then, on a fresh database, fetchRecords for 200 PMIDs the index lacks: the wall time, and this process's CPU time
// (user + system, process.cpuUsage): parsing, ingest and indexing, without the stand-in's work or the rate gate's
// waits, which are sleeps. The PostgreSQL database (default: PGlite in memory) is created fresh each time.

import { parseArgs } from "node:util";
import { sql } from "kysely";
import { join } from "node:path";
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
import { ingestFiles } from "../../search/ingest.ts";
import { fetchRecords } from "../../search/pubmed/fetch-records.ts";
import { eutilsClientFor } from "../../src/pubmed/client.ts";
import { PUBMEDQA_PMIDS } from "../../tests/support/pubmed-records.ts";
import { spawnEutilsStandIn } from "../../tests/support/eutils-stand-in.ts";

const ROOT = join(import.meta.dir, "..", "..");
const TERMINAL = new Set(["complete", "no_articles_found", "error", "canceled"]);
/**
 * Topics the stand-in's records answer with 50 to 780 matches (the sample's fields and PubMedQA's), so that most
 * reviews fetch PubMed's best 200: the worst case of a first topic.
 */
const TOPICS = [
  "cancer",
  "surgery",
  "children",
  "infection",
  "spinal fusion",
  "mortality",
  "scoliosis",
  "spine surgery",
  "chemotherapy",
  "nasopharyngeal carcinoma",
  "metagenomics",
  "pregnancy",
  "radiotherapy",
  "kyphosis",
  "tuberculosis",
  "diabetes",
  "vertebral fracture",
  "cervical spine",
  "osteomyelitis",
  "elderly",
];

const { values } = parseArgs({
  options: {
    "database-url": { type: "string" },
    reviews: { type: "string", default: "20" },
    "latency-ms": { type: "string", default: "150" },
    rate: { type: "string", default: "3" },
  },
});
const reviewsWanted = Math.min(TOPICS.length, Number(values.reviews));
const latencyMs = Number(values["latency-ms"]);
const apiKey = Number(values.rate) > 3 ? "bench-api-key" : undefined;

async function freshDeps(url: string): Promise<{ deps: AppDeps; close: () => Promise<void> }> {
  let databaseUrl = values["database-url"];
  let dropDb: (() => Promise<void>) | null = null;
  if (databaseUrl) {
    // A fresh database per run on the server, so that nothing fetched by a previous run is already held.
    const name = `lr_bench_pubmed_${Date.now()}`;
    const admin = openDatabase({ databaseUrl, dataDir: "", poolSize: 1 });
    await sql.raw(`CREATE DATABASE ${name}`).execute(admin.db);
    await admin.close();
    const base = databaseUrl;
    databaseUrl = base.replace(/\/[^/]*$/, `/${name}`);
    dropDb = async () => {
      const again = openDatabase({ databaseUrl: base, dataDir: "", poolSize: 1 });
      await sql.raw(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).execute(again.db);
      await again.close();
    };
  }
  const handle = openDatabase({ databaseUrl, dataDir: "memory://", poolSize: 10 });
  await migrateToLatest(handle.db);
  const config = loadConfig({
    NODE_ENV: "production",
    SEED_SAMPLE: "false",
    LOG_LEVEL: "warn",
    PUBMED_ON_DEMAND: "on",
    PUBMED_EUTILS_URL: url,
    ...(apiKey ? { NCBI_API_KEY: apiKey } : {}),
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });
  const deps: AppDeps = {
    config,
    db: handle.db,
    search: new PostgresSearchIndex(handle.db),
    jobs: new PgJobQueue(handle.db),
    secretKey: crypto.getRandomValues(new Uint8Array(32)),
  };
  await ingestFiles(deps, [join(ROOT, "sample", "pubmed", "pubmedxml_piratevax_pubmed_result.xml.gz")]);
  return {
    deps,
    close: async () => {
      await handle.close();
      await dropDb?.();
    },
  };
}

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
const standIn = await spawnEutilsStandIn(latencyMs);
try {
  // 1. Reviews on topics the index lacks, each on a fresh database (nothing fetched by an earlier review is held).
  const rows: { topic: string; ms: number; status: string; fetched: number }[] = [];
  for (const topic of TOPICS.slice(0, reviewsWanted)) {
    const { deps, close } = await freshDeps(standIn.url);
    const app = createApp(deps);
    const worker = startWorker(deps, jobHandlers(deps), { concurrency: 1, pollIntervalMs: 5 });
    const user = await deps.db
      .insertInto("users")
      .values({ email: `bench-pubmed-${Date.now()}@example.com`, full_name: "Bench", hashed_password: "x" })
      .returning(["id", "token_version"])
      .executeTakeFirstOrThrow();
    await deps.db
      .insertInto("subscriptions")
      .values({ user_id: user.id, status: "active", subscription_type: "plus", is_trial: false })
      .execute();
    const token = await createAccessToken(deps.secretKey, { sub: user.id, ver: user.token_version }, 60);
    const auth = { authorization: `Bearer ${token}` };
    const { id } = (await (
      await app.request("/api/v1/literature_review/create", { method: "POST", headers: auth })
    ).json()) as { id: string };
    const t0 = performance.now();
    const res = await app.request(`/api/v1/literature_review/start/${id}?user_query=${encodeURIComponent(topic)}`, {
      method: "POST",
      headers: auth,
    });
    if (!res.ok) throw new Error(`start failed: ${res.status} ${await res.text()}`);
    for (;;) {
      const row = await deps.db
        .selectFrom("literature_reviews")
        .select(["status", "search_report"])
        .where("id", "=", id)
        .executeTakeFirstOrThrow();
      if (TERMINAL.has(row.status)) {
        const report = (typeof row.search_report === "string" ? JSON.parse(row.search_report) : row.search_report) as {
          pubmed?: { fetched: number } | null;
        } | null;
        rows.push({ topic, ms: performance.now() - t0, status: row.status, fetched: report?.pubmed?.fetched ?? 0 });
        break;
      }
      await Bun.sleep(5);
    }
    await worker.stop();
    await close();
  }
  const times = rows.map((r) => r.ms).sort((a, b) => a - b);
  for (const r of rows)
    console.log(
      `  ${r.status.padEnd(17)} ${(r.ms / 1000).toFixed(2).padStart(6)} s  fetched ${String(r.fetched).padStart(3)}  ${r.topic}`,
    );
  console.log(
    `reviews on topics the index lacks (${rows.length}, stand-in +${latencyMs} ms per request, ${apiKey ? 10 : 3} requests/s): ` +
      `p50 ${(pct(times, 50) / 1000).toFixed(2)} s, p95 ${(pct(times, 95) / 1000).toFixed(2)} s, max ${(times.at(-1)! / 1000).toFixed(2)} s; ` +
      `records fetched per review: median ${rows.map((r) => r.fetched).sort((a, b) => a - b)[rows.length >> 1]}`,
  );

  // 2. Fetch and ingest of 200 records, our own CPU time.
  const fresh = await freshDeps(standIn.url);
  const client = eutilsClientFor(fresh.deps.config, fresh.deps.db);
  const pmids = [...PUBMEDQA_PMIDS].slice(0, 200);
  const cpu0 = process.cpuUsage();
  const w0 = performance.now();
  const result = await fetchRecords({ db: fresh.deps.db, search: fresh.deps.search, client }, pmids);
  const wall = performance.now() - w0;
  const cpu = process.cpuUsage(cpu0);
  await fresh.close();
  console.log(
    `fetch and ingest of ${result.fetched} records (one efetch of 200): ${(wall / 1000).toFixed(2)} s wall, ` +
      `${((cpu.user + cpu.system) / 1e6).toFixed(2)} s of this process's CPU (user ${(cpu.user / 1e6).toFixed(2)}, system ${(cpu.system / 1e6).toFixed(2)})`,
  );
} finally {
  standIn.stop();
}
