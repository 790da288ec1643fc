// Billing benchmark on PostgreSQL: Stripe webhook deliveries at a fixed rate (default 50 events/s, open loop: each
// event is sent on schedule whether or not the previous ones were answered), timed one by one; and
// GET /api/v1/subscriptions/me under 32 connections (autocannon). Results go to docs/benchmarks.md.
//
// Usage:
//   npx bun scripts/bench/bench-billing.ts     creates a fresh database on the PostgreSQL server of BENCH_DATABASE_URL
//                                              (default postgres://postgres@127.0.0.1:5432/postgres), starts the local
//                                              Stripe stand-in (tests/support/stripe-stand-in.ts) in this process and
//                                              `bun src/server.ts` on the database (production, no job worker) pointed
//                                              at it, measures, stops both and drops the database
// Options: --rate N events/s (default 50), --seconds S (default 30), --warmup S (default 5), --users N (default 500),
//          --duplicates F share of events sent twice (default 0.1), --connections N (default 32), --duration S (default
// 10).
//
// Each event is one of customer.subscription.updated (its subscription changed at the stand-in just before: half the
// time cancel_at_period_end flips), invoice.paid or a second delivery of an earlier event; every one makes the app
// verify the signature, re-read the subscription from the stand-in over HTTP and commit in PostgreSQL.
import { spawn } from "bun";
import { spawnSync } from "node:child_process";
import { cpus, loadavg, totalmem } from "node:os";
import { join, resolve } from "node:path";
import postgres from "postgres";
import { quantile } from "./bench-pages.ts";
import { startStripeStandIn } from "../../tests/support/stripe-stand-in.ts";
import { createAccessToken } from "../../src/auth/tokens.ts";

const ROOT = resolve(import.meta.dir, "..", "..");

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
}

const RATE = Number(arg("rate") ?? 50);
const SECONDS = Math.min(300, Number(arg("seconds") ?? 30));
const WARMUP_S = Number(arg("warmup") ?? 5);
const USERS = Number(arg("users") ?? 500);
const DUPLICATES = Number(arg("duplicates") ?? 0.1);
const CONNECTIONS = Number(arg("connections") ?? 32);
const DURATION_S = Math.min(60, Number(arg("duration") ?? 10));

/** Targets of issue 10. */
const TARGETS = { webhookP99Ms: 50, meRps: 5000 };

async function freePort(): Promise<number> {
  const s = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = s.port ?? 0;
  await s.stop(true);
  return port;
}

type StripeStandIn = ReturnType<typeof startStripeStandIn>;

/**
 * Starts `bun src/server.ts` on a free loopback port, on `databaseUrl` (production, no job worker), pointed at the
 * Stripe stand-in. @returns the process and the app's base URL (not yet answering: see `waitUntilUp`).
 */
async function startApp(databaseUrl: string, secretKey: string, stripe: StripeStandIn) {
  const port = await freePort();
  const appUrl = `http://127.0.0.1:${port}`;
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
      SECRET_KEY: secretKey,
      ...stripe.env,
    },
    stdout: "ignore",
    stderr: "inherit",
  });
  return { proc, appUrl };
}

/** Waits (at most 60 s) until the app at `appUrl` serves /landing. */
async function waitUntilUp(appUrl: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${appUrl}/landing`)).ok) break;
    } catch {}
    await Bun.sleep(200);
  }
}

/**
 * USERS users, each paying for Plus through a subscription the stand-in knows, mirrored in the database as the
 * webhook would have. @returns the stand-in's subscription ids.
 */
async function seedPayingUsers(db: postgres.Sql, stripe: StripeStandIn): Promise<string[]> {
  const plus = stripe.priceByLookupKey("litreview_plus_annual")!;
  const subs: string[] = [];
  for (let i = 0; i < USERS; i++) {
    const [user] =
      await db`INSERT INTO users (email, full_name, hashed_password) VALUES (${`bench-${i}@example.com`}, ${`Bench ${i}`}, 'x') RETURNING id`;
    const customer = stripe.addCustomer(`bench-${i}@example.com`, { user_id: user!.id });
    const sub = stripe.createSubscription(customer.id, plus.id, { metadata: { user_id: user!.id } });
    await db`INSERT INTO stripe_customers (user_id, customer_id) VALUES (${user!.id}, ${customer.id})`;
    await db`INSERT INTO subscriptions (user_id, status, subscription_type, billing_interval, is_trial, source, stripe_subscription_id, stripe_customer_id, current_period_end)
             VALUES (${user!.id}, 'active', 'plus', 'annual', false, 'stripe', ${sub.id}, ${customer.id}, ${new Date(sub.items.data[0].current_period_end * 1000)})`;
    subs.push(sub.id);
  }
  return subs;
}

/**
 * The next event to deliver: one of customer.subscription.updated (after changing the subscription at the stand-in),
 * invoice.paid, or (share DUPLICATES, once 20 are sent) an event sent before.
 */
function eventSource(stripe: StripeStandIn, subs: string[]): () => Record<string, unknown> {
  const sent: Record<string, unknown>[] = [];
  return (): Record<string, unknown> => {
    if (sent.length > 20 && Math.random() < DUPLICATES) return sent[Math.floor(Math.random() * sent.length)]!;
    const sub = stripe.subscriptions.get(subs[Math.floor(Math.random() * subs.length)]!)!;
    let event: Record<string, unknown>;
    if (Math.random() < 0.5) {
      const on = Math.random() < 0.5;
      stripe.updateSubscription(sub.id, {
        cancel_at_period_end: on,
        cancel_at: on ? sub.items.data[0].current_period_end : null,
      });
      event = stripe.event("customer.subscription.updated", sub);
    } else {
      event = stripe.event("invoice.paid", stripe.invoiceOf(sub, "paid"));
    }
    sent.push(event);
    return event;
  };
}

/**
 * Sends `count` events at RATE per second (open loop) to `webhookUrl`, signed by the stand-in.
 * @returns each one's time to its answer (ms, sorted), the statuses other than 200, and the rate achieved.
 */
async function sendEvents(
  stripe: StripeStandIn,
  nextEvent: () => Record<string, unknown>,
  webhookUrl: string,
  count: number,
): Promise<{ times: number[]; failures: string[]; rate: number }> {
  const times: number[] = [];
  const failures: string[] = [];
  const interval = 1000 / RATE;
  const start = performance.now();
  const inFlight: Promise<void>[] = [];
  for (let i = 0; i < count; i++) {
    const due = start + i * interval;
    const wait = due - performance.now();
    if (wait > 0) await Bun.sleep(wait);
    const { body, headers } = await stripe.signed(nextEvent());
    inFlight.push(
      (async () => {
        const t0 = performance.now();
        const res = await fetch(webhookUrl, { method: "POST", body, headers });
        await res.arrayBuffer();
        times.push(performance.now() - t0);
        if (res.status !== 200) failures.push(String(res.status));
      })(),
    );
  }
  await Promise.all(inFlight);
  const seconds = (performance.now() - start) / 1000;
  times.sort((a, b) => a - b);
  return { times, failures, rate: count / seconds };
}

/** The load of GET /subscriptions/me over CONNECTIONS connections for `seconds` (autocannon). */
interface MeRun {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; max: number };
  non2xx: number;
  errors: number;
}

/**
 * GET /api/v1/subscriptions/me with a token of the first user: a 2 s warm-up, then DURATION_S under CONNECTIONS
 * connections (autocannon). @throws Error when the endpoint does not answer 200 or autocannon fails.
 */
async function benchSubscriptionsMe(db: postgres.Sql, secretKey: string, appUrl: string): Promise<MeRun> {
  const [me] = await db`SELECT id, token_version FROM users WHERE email = 'bench-0@example.com'`;
  const token = await createAccessToken(
    new TextEncoder().encode(secretKey),
    { sub: me!.id, ver: me!.token_version },
    60,
  );
  const meUrl = `${appUrl}/api/v1/subscriptions/me`;
  const check = await fetch(meUrl, { headers: { authorization: `Bearer ${token}` } });
  if (check.status !== 200) throw new Error(`/subscriptions/me answered ${check.status}`);
  const autocannon = (seconds: number) => {
    const out = spawnSync(
      "node",
      [
        join(ROOT, "node_modules", "autocannon", "autocannon.js"),
        "-c",
        String(CONNECTIONS),
        "-d",
        String(seconds),
        "-H",
        `authorization=Bearer ${token}`,
        "--json",
        meUrl,
      ],
      { encoding: "utf8", maxBuffer: 64 * 1024 * 1024, timeout: (seconds + 30) * 1000 },
    );
    if (out.status !== 0) throw new Error(`autocannon failed: ${out.stderr}`);
    return JSON.parse(out.stdout) as MeRun;
  };
  autocannon(2); // warm-up
  return autocannon(DURATION_S);
}

/** What `main` measured, for `report`. */
interface Measured {
  version: string;
  measured: { times: number[]; failures: string[]; rate: number };
  meRun: MeRun;
  rereads: number;
  loads: { before: number[]; afterWebhook: number[]; after: number[] };
}

/** Prints the results and whether the targets were met. @returns true when they were. */
function report({ version, measured, meRun, rereads, loads }: Measured): boolean {
  const loadBefore = loads.before;
  const loadAfterWebhook = loads.afterWebhook;
  const loadAfter = loads.after;
  const ms = (v: number) => `${v.toFixed(1)} ms`;
  const t = measured.times;
  console.log(
    `machine: ${cpus().length} × ${cpus()[0]?.model ?? "cpu"}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB; bun ${Bun.version}; ${new Date().toISOString()}`,
  );
  console.log(`database: ${version.split(" on ")[0]}, fresh database on loopback; ${USERS} paying users`);
  console.log(
    `load average before: ${loadBefore.map((l) => l.toFixed(2)).join(" ")}; after the webhook run: ${loadAfterWebhook.map((l) => l.toFixed(2)).join(" ")}; at the end: ${loadAfter.map((l) => l.toFixed(2)).join(" ")}`,
  );
  console.log(
    `POST /api/v1/subscriptions/webhook, ${t.length} events at ${measured.rate.toFixed(1)}/s (after ${WARMUP_S} s warm-up), ${Math.round(DUPLICATES * 100)} % duplicates:`,
  );
  console.log(
    `  p50 ${ms(quantile(t, 0.5))}  p95 ${ms(quantile(t, 0.95))}  p99 ${ms(quantile(t, 0.99))}  max ${ms(t.at(-1) ?? 0)}; non-200: ${measured.failures.length}; subscription re-reads from Stripe (whole run): ${rereads}`,
  );
  console.log(`GET /api/v1/subscriptions/me, ${CONNECTIONS} connections, ${DURATION_S} s (autocannon):`);
  console.log(
    `  ${Math.round(meRun.requests.average)} requests/s (${meRun.requests.total} in total), latency p50 ${meRun.latency.p50} ms  p99 ${meRun.latency.p99} ms  max ${meRun.latency.max} ms; non-2xx ${meRun.non2xx}, errors ${meRun.errors}`,
  );
  const ok =
    quantile(t, 0.99) <= TARGETS.webhookP99Ms &&
    measured.failures.length === 0 &&
    meRun.requests.average >= TARGETS.meRps &&
    meRun.non2xx === 0 &&
    meRun.errors === 0;
  console.log(ok ? "targets met" : "TARGET MISSED");
  return ok;
}

async function main() {
  const adminUrl = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const name = `lr_bench_billing_${Date.now().toString(36)}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  const [{ version }] = (await admin`SELECT version()`) as unknown as [{ version: string }];
  const dbUrl = new URL(adminUrl);
  dbUrl.pathname = `/${name}`;
  const stripe = startStripeStandIn();
  const secretKey = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("hex");
  const { proc, appUrl } = await startApp(dbUrl.toString(), secretKey, stripe);
  const db = postgres(dbUrl.toString(), { max: 2, onnotice: () => {} });
  try {
    await waitUntilUp(appUrl);
    const webhookUrl = `${appUrl}/api/v1/subscriptions/webhook`;
    const subs = await seedPayingUsers(db, stripe);
    const nextEvent = eventSource(stripe, subs);
    const loadBefore = loadavg();
    await sendEvents(stripe, nextEvent, webhookUrl, Math.round(RATE * WARMUP_S));
    const measured = await sendEvents(stripe, nextEvent, webhookUrl, Math.round(RATE * SECONDS));
    const loadAfterWebhook = loadavg();
    const meRun = await benchSubscriptionsMe(db, secretKey, appUrl);
    const loads = { before: loadBefore, afterWebhook: loadAfterWebhook, after: loadavg() };
    const rereads = stripe.requests.filter((r) => r.method === "GET" && r.path.startsWith("/v1/subscriptions/")).length;
    const ok = report({ version, measured, meRun, rereads, loads });
    process.exitCode = ok ? 0 : 1;
  } finally {
    proc.kill("SIGTERM");
    await proc.exited;
    await stripe.stop();
    await db.end();
    await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

if (import.meta.main) await main();
