/**
 * How big the embedded default (PGlite) grows under a burst of reviews (issue 7, item 4): starts the server on a
 * fresh data folder (the PubMed sample, or a corpus ingested first with --corpus FILE), has 200 reviews started at
 * once by 67 users (3 each, the per-user limit), waits until all are finished, and reports the data folder's size
 * (and its WAL) and the server's resident memory before and after.
 *
 *   bun scripts/bench/bench-embedded.ts [--reviews 200] [--corpus bench-data/pubmed-100000.xml.gz]
 */
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const args = process.argv.slice(2);
const opt = (name: string, fallback?: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const REVIEWS = Number(opt("reviews", "200"));
const CORPUS = opt("corpus");
const PER_USER = 3;
const TOPICS = [
  "nasopharyngeal carcinoma risk factors",
  "spinal fusion outcomes",
  "vertebral osteomyelitis antibiotic",
  "metagenomics anomaly detection",
  "breast cancer screening",
];

const dataDir = mkdtempSync(join(tmpdir(), "litreview-embedded-"));
const duMb = (path: string) => Number(spawnSync("du", ["-sm", path]).stdout.toString().split("\t")[0]);
const rssMb = (pid: number) =>
  Number(
    spawnSync("ps", ["-o", "rss=", "-p", String(pid)])
      .stdout.toString()
      .trim(),
  ) / 1024;

if (CORPUS) {
  const t0 = performance.now();
  const r = spawnSync("npx", ["bun", "scripts/ingest-pubmed.ts", CORPUS], {
    env: { ...process.env, DATA_DIR: dataDir },
    stdio: ["ignore", "ignore", "inherit"],
  });
  if (r.status !== 0) throw new Error("ingest failed");
  console.log(
    `ingested ${CORPUS} in ${((performance.now() - t0) / 1000).toFixed(1)} s: data ${duMb(dataDir)} MB (WAL ${duMb(join(dataDir, "pg_wal"))} MB)`,
  );
}

const port = 20000 + Math.floor(Math.random() * 20000);
const base = `http://127.0.0.1:${port}`;
const server = spawn(
  "npx",
  ["bun", ...(process.env.BUN_FLAGS ? process.env.BUN_FLAGS.split(" ") : []), "src/server.ts"],
  {
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      SECRET_KEY: randomBytes(32).toString("hex"),
      TRUST_PROXY: "1",
      LOG_LEVEL: "warn",
      NODE_ENV: "production",
    },
    stdio: ["ignore", "inherit", "inherit"],
    detached: true,
  },
);
try {
  for (let i = 0; ; i++) {
    if (i > 600) throw new Error("server did not start");
    if (
      await fetch(`${base}/landing`)
        .then((r) => r.ok)
        .catch(() => false)
    )
      break;
    await Bun.sleep(200);
  }
  const pid = Number(
    spawnSync("sh", ["-c", `ss -ltnp | grep ':${port} ' | grep -o 'pid=[0-9]*' | head -1 | cut -d= -f2`])
      .stdout.toString()
      .trim(),
  );
  const before = { data: duMb(dataDir), wal: duMb(join(dataDir, "pg_wal")), rss: rssMb(pid) };

  const users = await Promise.all(
    Array.from({ length: Math.ceil(REVIEWS / PER_USER) }, async (_, u) => {
      const client = { "x-forwarded-for": `10.9.${u >> 8}.${u & 255}` };
      const email = `embedded-${u}-${Date.now()}@example.org`;
      await fetch(`${base}/api/v1/users/signup`, {
        method: "POST",
        headers: { ...client, "content-type": "application/json" },
        body: JSON.stringify({ email, full_name: "Embedded Bench", password: "long-enough-1" }),
      });
      const res = await fetch(`${base}/api/v1/login/access-token`, {
        method: "POST",
        headers: client,
        body: new URLSearchParams({ username: email, password: "long-enough-1" }),
      });
      return { ...client, authorization: `Bearer ${((await res.json()) as { access_token: string }).access_token}` };
    }),
  );
  let peakRss = before.rss;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, rssMb(pid));
    if (process.env.TRACE)
      console.log(`t=${((performance.now() - started) / 1000).toFixed(1)} rss=${rssMb(pid).toFixed(0)}`);
  }, 500);
  const started = performance.now();
  const ids = await Promise.all(
    Array.from({ length: REVIEWS }, async (_, i) => {
      const headers = users[Math.floor(i / PER_USER)]!;
      const { id } = (await (
        await fetch(`${base}/api/v1/literature_review/create`, { method: "POST", headers })
      ).json()) as { id: string };
      const res = await fetch(
        `${base}/api/v1/literature_review/start/${id}?user_query=${encodeURIComponent(TOPICS[i % TOPICS.length]!)}`,
        { method: "POST", headers },
      );
      if (res.status !== 200) throw new Error(`start answered ${res.status}`);
      return { id, headers };
    }),
  );
  if (process.env.TRACE) console.log(`all started at t=${((performance.now() - started) / 1000).toFixed(1)}`);
  for (const { id, headers } of ids) {
    for (;;) {
      const { status } = (await (await fetch(`${base}/api/v1/literature_review/status/${id}`, { headers })).json()) as {
        status: string;
      };
      if (!["initial", "searching", "sorting", "summarizing"].includes(status)) break;
      await Bun.sleep(200);
    }
  }
  clearInterval(sampler);
  const after = { data: duMb(dataDir), wal: duMb(join(dataDir, "pg_wal")), rss: rssMb(pid) };
  console.log(`${REVIEWS} reviews finished in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  console.log(`data folder: ${before.data} MB → ${after.data} MB (WAL ${before.wal} → ${after.wal} MB)`);
  console.log(`server RSS: ${before.rss.toFixed(0)} MB → ${after.rss.toFixed(0)} MB (peak ${peakRss.toFixed(0)} MB)`);
} finally {
  try {
    process.kill(-server.pid!, "SIGTERM");
  } catch {}
  await Bun.sleep(2000);
  rmSync(dataDir, { recursive: true, force: true });
}
