// Accounts benchmark on PostgreSQL: login latency and logins per second (argon2id hashing dominates, by design),
// GET /api/v1/users/me under 32 connections for 10 s (autocannon), and the time to first byte of /landing.
// Results go to docs/benchmarks.md.
//
// Usage:
//   npx bun scripts/bench/bench-accounts.ts        creates a fresh database on the PostgreSQL server of
// BENCH_DATABASE_URL                                                  (default
// postgres://postgres@127.0.0.1:5432/postgres), starts                                                  `bun
// src/server.ts` on it (production, no job worker), measures,                                                  stops it
// and drops the database   npx bun scripts/bench/bench-accounts.ts --url http://127.0.0.1:3000     measures a running
// server (loopback only) Options: --logins N (default 60), --login-concurrency N (default 2), --connections N (default
// 32),          --duration S (default 10), --ttfb-requests N (default 300).
// Needs `npm run build` first. Every request goes to a loopback address; every loop is bounded.
import { spawn } from "bun";
import { spawnSync } from "node:child_process";
import http from "node:http";
import { cpus, totalmem } from "node:os";
import { join, resolve } from "node:path";
import postgres from "postgres";
import { quantile } from "./bench-pages.ts";

const ROOT = resolve(import.meta.dir, "..", "..");

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
}

const LOGINS = Number(arg("logins") ?? 60);
const LOGIN_CONCURRENCY = Math.max(1, Number(arg("login-concurrency") ?? 2));
const CONNECTIONS = Number(arg("connections") ?? 32);
const DURATION_S = Math.min(60, Number(arg("duration") ?? 10));
const TTFB_REQUESTS = Number(arg("ttfb-requests") ?? 300);
const PASSWORD = "bench-password-123";

/** Targets of the accounts issue: GET /users/me and /landing. Logins are reported, not judged. */
const TARGETS = { meRps: 5000, meP99Ms: 20, landingTtfbP95Ms: 20 };

async function freePort(): Promise<number> {
  const s = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = s.port ?? 0;
  await s.stop(true);
  return port;
}

/** A new empty database on the server of `adminUrl`; `drop` removes it. */
export async function createDatabase(
  adminUrl: string,
): Promise<{ url: string; version: string; drop: () => Promise<void> }> {
  const name = `lr_bench_${Date.now().toString(36)}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  const [{ version }] = (await admin`SELECT version()`) as unknown as [{ version: string }];
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    version,
    drop: async () => {
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

/** Starts the app on `databaseUrl` (production React, no in-process jobs); resolves once it answers. */
export async function startServer(databaseUrl: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const proc = spawn([process.execPath, "src/server.ts"], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      SEED_SAMPLE: "false",
      WORKER: "off",
      NODE_ENV: "production",
      LOG_LEVEL: "warn",
      SECRET_KEY: Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("hex"),
    },
    stdout: "ignore",
    stderr: "inherit",
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    proc.kill("SIGTERM");
    await proc.exited;
  };
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline && proc.exitCode === null) {
    try {
      if ((await fetch(`${url}/landing`, { signal: AbortSignal.timeout(2000) })).ok) return { url, stop };
    } catch {
      // not listening yet
    }
    await Bun.sleep(200);
  }
  await stop();
  throw new Error("the server did not start");
}

/**
 * One login (the login form's request) from the loopback address `localAddress`, timed to the end of the answer.
 * Logins are limited to 30 a minute per client address (src/auth/rate-limit.ts), so the benchmark spreads its
 * logins over several 127.0.0.x addresses instead of weakening the limit.
 */
function timedLogin(url: string, email: string, localAddress: string): Promise<{ ms: number; status: number }> {
  const target = new URL("/api/v1/login/access-token", url);
  const body = new URLSearchParams({ username: email, password: PASSWORD }).toString();
  return new Promise((resolveLogin, reject) => {
    const start = performance.now();
    const req = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: "POST",
        localAddress,
        headers: { "content-type": "application/x-www-form-urlencoded", "content-length": Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolveLogin({ ms: performance.now() - start, status: res.statusCode ?? 0 }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** Runs `count` logins with `concurrency` clients; returns each one's time, sorted, and the logins per second. */
async function loginRun(url: string, email: string, count: number, concurrency: number, firstAddress: { n: number }) {
  const times: number[] = [];
  let left = count;
  const start = performance.now();
  const client = async () => {
    while (left-- > 0) {
      // 25 logins per source address keeps each address under the limit of 30 a minute.
      const address = `127.0.0.${10 + Math.floor(firstAddress.n++ / 25)}`;
      const r = await timedLogin(url, email, address);
      if (r.status !== 200) throw new Error(`login answered ${r.status}`);
      times.push(r.ms);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, client));
  const seconds = (performance.now() - start) / 1000;
  times.sort((a, b) => a - b);
  return { times, perSecond: count / seconds };
}

export interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p97_5: number; p99: number; max: number; average: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}

/** autocannon (run under Node, its home) against `url` with a bearer token; returns its JSON summary. */
export function autocannon(url: string, token: string, connections: number, seconds: number): AutocannonResult {
  const out = spawnSync(
    "node",
    [
      join(ROOT, "node_modules", "autocannon", "autocannon.js"),
      "-c",
      String(connections),
      "-d",
      String(seconds),
      "-H",
      `authorization=Bearer ${token}`,
      "--json",
      url,
    ],
    { encoding: "utf8", maxBuffer: 64 * 1024 * 1024, timeout: (seconds + 30) * 1000 },
  );
  if (out.status !== 0) throw new Error(`autocannon failed: ${out.stderr}`);
  return JSON.parse(out.stdout) as AutocannonResult;
}

/** Milliseconds to the first body byte of GET `url`. */
export async function ttfb(url: string): Promise<number> {
  const start = performance.now();
  const res = await fetch(url, { redirect: "manual" });
  const reader = res.body?.getReader();
  await reader?.read();
  const first = performance.now() - start;
  if (reader) while (!(await reader.read()).done) {}
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
  return first;
}

async function main() {
  const given = arg("url");
  if (given && !/^http:\/\/(127\.\d+\.\d+\.\d+|localhost)(:\d+)?$/.test(given))
    throw new Error("--url must be a loopback address");
  const adminUrl = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const database = given ? null : await createDatabase(adminUrl);
  const server = given ? { url: given, stop: async () => {} } : await startServer(database!.url);
  try {
    const email = `bench-${Date.now().toString(36)}@example.com`;
    const signup = await fetch(`${server.url}/api/v1/users/signup`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email, full_name: "Bench User", password: PASSWORD }),
    });
    if (!signup.ok) throw new Error(`signup failed: ${signup.status} ${await signup.text()}`);

    const address = { n: 0 };
    await loginRun(server.url, email, 3, 1, address); // warm-up
    const sequential = await loginRun(server.url, email, Math.ceil(LOGINS / 2), 1, address);
    const parallel = await loginRun(server.url, email, Math.floor(LOGINS / 2), LOGIN_CONCURRENCY, address);

    const login = await fetch(`${server.url}/api/v1/login/access-token`, {
      method: "POST",
      body: new URLSearchParams({ username: email, password: PASSWORD }),
    });
    const { access_token: token } = (await login.json()) as { access_token: string };
    const meUrl = `${server.url}/api/v1/users/me`;
    if ((await fetch(meUrl, { headers: { authorization: `Bearer ${token}` } })).status !== 200)
      throw new Error("/users/me refused the token");
    autocannon(meUrl, token, CONNECTIONS, 2); // warm-up: connections, prepared statements, JIT
    const me = autocannon(meUrl, token, CONNECTIONS, DURATION_S);

    const landingUrl = `${server.url}/landing`;
    for (let i = 0; i < 20; i++) await ttfb(landingUrl);
    const landing: number[] = [];
    for (let i = 0; i < TTFB_REQUESTS; i++) landing.push(await ttfb(landingUrl));
    landing.sort((a, b) => a - b);

    const ms = (v: number) => `${v.toFixed(1)} ms`;
    console.log(
      `machine: ${cpus().length} × ${cpus()[0]?.model ?? "cpu"}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB; bun ${Bun.version}; ${new Date().toISOString()}`,
    );
    if (database) console.log(`database: ${database.version.split(" on ")[0]}, fresh database on loopback`);
    console.log(`login (POST /api/v1/login/access-token, argon2id m=19 MiB t=2):`);
    console.log(
      `  1 client, ${sequential.times.length} logins: p50 ${ms(quantile(sequential.times, 0.5))}  p95 ${ms(quantile(sequential.times, 0.95))}  max ${ms(sequential.times.at(-1) ?? 0)}  → ${sequential.perSecond.toFixed(1)} logins/s`,
    );
    console.log(
      `  ${LOGIN_CONCURRENCY} clients, ${parallel.times.length} logins: p50 ${ms(quantile(parallel.times, 0.5))}  p95 ${ms(quantile(parallel.times, 0.95))}  → ${parallel.perSecond.toFixed(1)} logins/s`,
    );
    console.log(`GET /api/v1/users/me, ${CONNECTIONS} connections, ${DURATION_S} s (autocannon):`);
    console.log(
      `  ${Math.round(me.requests.average)} requests/s (${me.requests.total} in total), latency p50 ${me.latency.p50} ms  p97.5 ${me.latency.p97_5} ms  p99 ${me.latency.p99} ms  max ${me.latency.max} ms; non-2xx ${me.non2xx}, errors ${me.errors}, timeouts ${me.timeouts}`,
    );
    console.log(
      `/landing, 1 client, ${TTFB_REQUESTS} requests: TTFB p50 ${ms(quantile(landing, 0.5))}  p95 ${ms(quantile(landing, 0.95))}  p99 ${ms(quantile(landing, 0.99))}`,
    );
    const ok =
      me.requests.average >= TARGETS.meRps &&
      me.latency.p99 <= TARGETS.meP99Ms &&
      me.non2xx === 0 &&
      me.errors === 0 &&
      quantile(landing, 0.95) <= TARGETS.landingTtfbP95Ms;
    console.log(ok ? "targets met" : "TARGET MISSED");
    process.exitCode = ok ? 0 : 1;
  } finally {
    await server.stop();
    await database?.drop();
  }
}

if (import.meta.main) await main();
