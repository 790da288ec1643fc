/**
 * The database outage test (issue 7): starts the app on a fresh database of the local PostgreSQL server, has four
 * clients use the API (sign in, create and start reviews, poll them, read their account) while the job worker runs
 * the reviews, stops PostgreSQL for a few seconds in the middle, starts it again, and checks what users would see:
 * no 401 (which would end their sessions), no 500, every review reaching a terminal status, and normal answers
 * soon after the database is back. Prints the recovery time and a summary; exits 1 on any failed check.
 *
 * It stops the machine's PostgreSQL server, so it is not part of `npm test`: run it on purpose, on a machine where
 * nothing else needs the server for a few seconds:  npm run test:faults
 * Options (environment): FAULT_OUTAGE_SECONDS (default 5), FAULT_TEST_SECONDS (client run time, default 30),
 * ADMIN_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres).
 */
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readdirSync } from "node:fs";
import { createServer } from "node:net";
import postgres from "postgres";

const ADMIN_URL = process.env.ADMIN_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const OUTAGE_SECONDS = Number(process.env.FAULT_OUTAGE_SECONDS ?? 5);
const RUN_SECONDS = Number(process.env.FAULT_TEST_SECONDS ?? 30);
const RECOVERY_LIMIT_MS = 5_000;
const CLUSTER = readdirSync("/etc/postgresql")[0]!;
const TERMINAL = new Set(["complete", "no_articles_found", "error", "canceled"]);
const TOPICS = [
  "nasopharyngeal carcinoma risk factors",
  "spinal fusion complications",
  "vertebral osteomyelitis",
  "metagenomic anomaly detection",
];

function pgctl(action: "start" | "stop"): void {
  const args = ["--skip-systemctl-redirect", CLUSTER, "main", action, ...(action === "stop" ? ["-m", "fast"] : [])];
  const r = spawnSync("pg_ctlcluster", args, { stdio: "inherit" });
  if (r.status !== 0) throw new Error(`pg_ctlcluster ${action} failed (${r.status})`);
}

function pgReady(): boolean {
  return spawnSync("pg_isready", ["-h", "127.0.0.1", "-p", "5432", "-q"]).status === 0;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

const statuses = new Map<string, number>();
const count = (what: string) => statuses.set(what, (statuses.get(what) ?? 0) + 1);
const failures: string[] = [];

const name = `lr_fault_${Date.now().toString(36)}`;
const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
await admin.unsafe(`CREATE DATABASE ${name}`);
await admin.end();
const dbUrl = new URL(ADMIN_URL);
dbUrl.pathname = `/${name}`;
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const log: string[] = [];
const server = spawn("npx", ["bun", "--max-http-header-size=262144", "src/server.ts"], {
  env: {
    ...process.env,
    PORT: String(port),
    DATABASE_URL: dbUrl.toString(),
    SECRET_KEY: randomBytes(32).toString("hex"),
    SEED_SAMPLE: "true",
    LOG_LEVEL: "warn",
    NODE_ENV: "production",
  },
  detached: true,
  stdio: ["ignore", "pipe", "pipe"],
});
for (const s of [server.stdout!, server.stderr!]) s.on("data", (d) => log.push(String(d)));

let pgDown = false;
async function cleanup(): Promise<void> {
  if (pgDown || !pgReady()) {
    try {
      pgctl("start");
    } catch (err) {
      console.error(err);
    }
  }
  try {
    process.kill(-server.pid!, "SIGTERM");
  } catch {}
  await Bun.sleep(1500);
  const a = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  await a.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
  await a.end();
}
process.on("SIGINT", () => void cleanup().then(() => process.exit(130)));

try {
  // Wait for the server (migrations and the PubMed sample take a few seconds).
  for (let i = 0; ; i++) {
    if (i > 240) throw new Error(`the server did not start:\n${log.join("").slice(-2000)}`);
    try {
      if ((await fetch(`${base}/landing`)).status === 200) break;
    } catch {}
    await Bun.sleep(500);
  }

  const clients = await Promise.all(
    Array.from({ length: 4 }, async (_, i) => {
      const email = `fault-${i}-${Date.now()}@example.org`;
      await fetch(`${base}/api/v1/users/signup`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email, full_name: `Fault Client ${i}`, password: "long-enough-1" }),
      });
      const r = await fetch(`${base}/api/v1/login/access-token`, {
        method: "POST",
        body: new URLSearchParams({ username: email, password: "long-enough-1" }),
      });
      return { authorization: `Bearer ${((await r.json()) as { access_token: string }).access_token}` };
    }),
  );

  const reviews: { id: string; headers: Record<string, string> }[] = [];
  let stop = false;
  async function call(method: string, path: string, headers: Record<string, string>): Promise<Response | null> {
    try {
      const res = await fetch(`${base}/api/v1${path}`, { method, headers, signal: AbortSignal.timeout(20_000) });
      count(String(res.status));
      if (res.status === 401) failures.push(`401 on ${method} ${path}`);
      if (res.status >= 500 && res.status !== 503)
        failures.push(`${res.status} on ${method} ${path}: ${(await res.clone().text()).slice(0, 200)}`);
      return res;
    } catch (err) {
      count("no answer");
      failures.push(`no answer to ${method} ${path}: ${err instanceof Error ? err.message : err}`);
      return null;
    }
  }
  const loops = clients.map(async (headers, i) => {
    let n = 0;
    while (!stop) {
      await call("GET", "/users/me", headers);
      if (n % 4 === 0) {
        const created = await call("POST", "/literature_review/create", headers);
        if (created?.status === 200) {
          const { id } = (await created.json()) as { id: string };
          const started = await call(
            "POST",
            `/literature_review/start/${id}?user_query=${encodeURIComponent(TOPICS[(i + n) % TOPICS.length]!)}`,
            headers,
          );
          if (started?.status === 200) reviews.push({ id, headers });
        }
      }
      await call("GET", "/literature_review/history?limit=5", headers);
      n++;
      await Bun.sleep(200);
    }
  });

  await Bun.sleep(8_000);
  console.log(`stopping PostgreSQL for ${OUTAGE_SECONDS} s…`);
  pgDown = true;
  pgctl("stop");
  await Bun.sleep(OUTAGE_SECONDS * 1000);
  pgctl("start");
  while (!pgReady()) await Bun.sleep(100);
  pgDown = false;
  const backAt = performance.now();
  // Recovery: time from the database accepting connections to the first normal answer.
  let recoveryMs = Number.NaN;
  while (performance.now() - backAt < 30_000) {
    const res = await fetch(`${base}/api/v1/users/me`, { headers: clients[0]! }).catch(() => null);
    if (res?.status === 200) {
      recoveryMs = performance.now() - backAt;
      break;
    }
    await Bun.sleep(50);
  }
  console.log(`PostgreSQL back; first normal answer after ${recoveryMs.toFixed(0)} ms`);
  await Bun.sleep(Math.max(0, RUN_SECONDS * 1000 - 8_000 - OUTAGE_SECONDS * 1000));
  stop = true;
  await Promise.all(loops);

  // Every review reaches a terminal status (the worker takes back what the outage interrupted).
  const deadline = performance.now() + 90_000;
  let pending = reviews;
  const outcome = new Map<string, number>();
  while (pending.length && performance.now() < deadline) {
    const next: typeof reviews = [];
    for (const r of pending) {
      const res = await fetch(`${base}/api/v1/literature_review/status/${r.id}`, { headers: r.headers });
      const { status } = (await res.json()) as { status: string };
      if (TERMINAL.has(status)) outcome.set(status, (outcome.get(status) ?? 0) + 1);
      else next.push(r);
    }
    pending = next;
    if (pending.length) await Bun.sleep(1000);
  }
  if (pending.length) failures.push(`${pending.length} review(s) not terminal after 90 s`);
  if (!(recoveryMs <= RECOVERY_LIMIT_MS))
    failures.push(`recovery took ${recoveryMs} ms (limit ${RECOVERY_LIMIT_MS} ms)`);

  console.log(`answers by status: ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`);
  console.log(`reviews started: ${reviews.length}; terminal: ${JSON.stringify(Object.fromEntries(outcome))}`);
  console.log(`outage ${OUTAGE_SECONDS} s; recovery ${recoveryMs.toFixed(0)} ms after PostgreSQL accepted connections`);
  if (failures.length) {
    console.error(`FAILED:\n  ${[...new Set(failures)].slice(0, 20).join("\n  ")}`);
    process.exitCode = 1;
  } else console.log("ok: no 401, no 500, every review terminal");
} catch (err) {
  console.error(err);
  process.exitCode = 1;
} finally {
  await cleanup();
}
