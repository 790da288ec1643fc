/**
 * Does a big likes export block the server? (issue 22, item 4). Ingests the real PubMed sample (2,869 records) and
 * copies of some of them under new PMIDs up to --likes articles (default 3,000), has one user like them all, serves
 * the application from this process (Bun.serve on a loopback port, as src/server.ts does) and measures:
 *  - one RIS export of all the likes: time to the last byte, size, the SHA-256 of the body (equal before and after a
 *    change of how the file is produced, so the bytes are the same), and the event loop's longest block;
 *  - 4 RIS exports at once while GET /api/v1/users/me is asked again and again (one at a time): each /users/me's time
 *    (p50, max) and the event loop's longest block.
 * The event loop's block is measured by a lag monitor: a 10 ms interval timer, whose lateness beyond 10 ms is time
 * the loop could not run anything else (the server's requests included).
 *
 *   bun scripts/bench/bench-export.ts [--backend pglite|postgres] [--likes 3000] [--format ris] [--rounds 3]
 *
 * postgres creates (and drops) a database on BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres).
 * Every request goes to a loopback address; every loop is bounded.
 */
import { createHash } from "node:crypto";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { sql } from "kysely";
import { ingestFiles } from "../../search/ingest.ts";
import { createTestApp } from "../../tests/support/app.ts";
import { lagMonitor } from "./event-loop-lag.ts";

const { values } = parseArgs({
  options: {
    backend: { type: "string", default: "postgres" },
    likes: { type: "string", default: "3000" },
    format: { type: "string", default: "ris" },
    rounds: { type: "string", default: "3" },
  },
});
const BACKEND = values.backend === "pglite" ? "pglite" : "postgres";
const LIKES = Number(values.likes);
const FORMAT = values.format!;
const ROUNDS = Number(values.rounds);
const PARALLEL = 4;
const TICK_MS = 10;
const SAMPLE = join(import.meta.dir, "..", "..", "sample", "pubmed");

if (BACKEND === "postgres") {
  process.env.TEST_DATABASE_URL ??= process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
const ms = (x: number) => `${x.toFixed(0)} ms`;

const t = await createTestApp(BACKEND);
const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: t.app.fetch, idleTimeout: 120 });
const base = `http://127.0.0.1:${server.port}`;
try {
  const started = performance.now();
  await ingestFiles(
    t.deps,
    readdirSync(SAMPLE)
      .filter((f) => f.endsWith(".xml.gz"))
      .map((f) => join(SAMPLE, f)),
  );
  const real = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM articles`.execute(t.db)).rows[0]!.n;
  // Copies of the first records under PMIDs no real record has, until there are LIKES articles.
  if (LIKES > real) {
    await t.db.transaction().execute(async (trx) => {
      const copies = LIKES - real;
      await sql`CREATE TEMP TABLE bench_copies ON COMMIT DROP AS SELECT * FROM articles ORDER BY pmid LIMIT ${copies}`.execute(
        trx,
      );
      await sql`UPDATE bench_copies SET pmid = pmid + 900000000`.execute(trx);
      await sql`INSERT INTO articles SELECT * FROM bench_copies`.execute(trx);
    });
  }
  const user = await t.signup();
  await sql`
    INSERT INTO likes (user_id, article_pmid, liked_at)
    SELECT ${user.user.id}::uuid, pmid,
           timestamptz '2026-01-01' + (row_number() OVER (ORDER BY pmid)) * interval '1 minute'
    FROM (SELECT pmid FROM articles ORDER BY pmid LIMIT ${LIKES}) a`.execute(t.db);
  const liked = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM likes`.execute(t.db)).rows[0]!.n;
  const setupSeconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`setup (${BACKEND}): ${real} sample records, ${liked} likes, ${setupSeconds} s`);

  const headers = { authorization: `Bearer ${user.token}` };
  const exportOnce = async () => {
    const res = await fetch(`${base}/api/v1/export/likes?format=${FORMAT}`, { headers });
    if (res.status !== 200) throw new Error(`export answered ${res.status}`);
    return new Uint8Array(await res.arrayBuffer());
  };
  const lag = lagMonitor(TICK_MS);
  await exportOnce(); // warm-up (compiles the writers' code paths)

  for (let round = 1; round <= ROUNDS; round++) {
    await Bun.sleep(100);
    lag.take();
    const t0 = performance.now();
    const body = await exportOnce();
    const took = performance.now() - t0;
    const block = lag.take();
    const sha = createHash("sha256").update(body).digest("hex").slice(0, 16);
    const size = `${(body.length / 1e6).toFixed(2)} MB`;
    console.log(`one ${FORMAT} export: ${ms(took)}, ${size}, sha256 ${sha}…, longest event-loop block ${ms(block)}`);
  }

  for (let round = 1; round <= ROUNDS; round++) {
    await Bun.sleep(100);
    lag.take();
    const t0 = performance.now();
    let done = false;
    const exports = Promise.all(Array.from({ length: PARALLEL }, exportOnce)).finally(() => (done = true));
    const me: number[] = [];
    // /users/me one at a time while the exports run (at most 10,000 requests).
    while (!done && me.length < 10_000) {
      const s = performance.now();
      const res = await fetch(`${base}/api/v1/users/me`, { headers });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`/users/me answered ${res.status}`);
      me.push(performance.now() - s);
    }
    await exports;
    const took = performance.now() - t0;
    const block = lag.take();
    me.sort((a, b) => a - b);
    console.log(
      `${PARALLEL} ${FORMAT} exports at once: all done in ${ms(took)}; /users/me meanwhile: ${me.length} requests, ` +
        `p50 ${ms(quantile(me, 0.5))}, max ${ms(me.at(-1) ?? NaN)}; longest event-loop block ${ms(block)}`,
    );
  }
  lag.stop();
} finally {
  server.stop(true);
  await t.close();
}
