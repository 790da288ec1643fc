// Runs the browser tests end to end: checks Chromium, starts a local SMTP server that writes every message it
// receives to a folder and a local stand-in for Stripe's API (tests/support/stripe-stand-in.ts, which also sends the
// app signed webhook events), seeds the accounts of tests/e2e/accounts.ts into a fresh data directory, starts the app
// (`bun src/server.ts`) there on a free port with the PubMed sample, SMTP_URL and the Stripe settings pointing at
// those servers, waits until it answers, runs Playwright on tests/e2e/*.e2e.ts (which read the delivered mail, e.g.
// the password reset link, from E2E_MAIL_DIR, and the seeded accounts' tokens from E2E_FIXTURES_FILE), stops
// everything and exits with the tests' result. Usage: node scripts/run-e2e.mjs [playwright args…]
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { randomBytes } from "node:crypto";
import { SMTPServer } from "smtp-server";
import { ensureChromium } from "./chromium.mjs";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
// Seeding the sample on first start ingests a few thousand records: allow for a slow, shared machine.
const STARTUP_TIMEOUT_MS = Number(process.env.E2E_STARTUP_TIMEOUT_MS ?? 240_000);

function fail(message) {
  console.error(`e2e: ${message}`);
  process.exit(1);
}

/** A port that was free a moment ago (the OS picks it). */
function freePort() {
  return new Promise((resolvePort, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolvePort(port));
    });
  });
}

/** Polls `url` until it answers (any status below 500), the server exits, or the timeout passes. */
async function waitForServer(url, server) {
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) return false;
    try {
      const res = await fetch(url, { redirect: "manual", signal: AbortSignal.timeout(2000) });
      if (res.status < 500) return true;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return false;
}

const chromiumProblem = ensureChromium(CHROMIUM);
if (chromiumProblem) fail(chromiumProblem);
if (!existsSync(join(ROOT, "dist", "manifest.json"))) fail("dist/manifest.json is missing: run npm run build first.");

/**
 * Starts an SMTP server on a free loopback port that accepts every message (no authentication, no TLS: it only
 * ever talks to the app on this machine) and writes each one, raw, to `dir` as <time>-<n>.eml.
 */
async function startMailCatcher(dir) {
  let count = 0;
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["AUTH", "STARTTLS"],
    logger: false,
    onData(stream, _session, callback) {
      const chunks = [];
      stream.on("data", (c) => chunks.push(c));
      stream.on("end", () => {
        // Written whole through a temporary name, so a test never reads half a message.
        const file = join(dir, `${Date.now()}-${++count}.eml`);
        writeFileSync(`${file}.tmp`, Buffer.concat(chunks));
        renameSync(`${file}.tmp`, file);
        callback();
      });
    },
  });
  const smtpPort = await freePort();
  await new Promise((resolveListen, reject) => {
    smtp.once("error", reject);
    smtp.listen(smtpPort, "127.0.0.1", resolveListen);
  });
  return { url: `smtp://127.0.0.1:${smtpPort}`, close: () => new Promise((r) => smtp.close(r)) };
}

/**
 * Starts a stand-in of a third-party service (a Bun script under tests/support/) in its own process group, and resolves
 * with the settings it prints as its first JSON line (`{"ready": true, …settings}`), which point the app at it.
 */
async function startStandIn(name, script, args) {
  const proc = spawn("npx", ["bun", script, ...args], {
    cwd: ROOT,
    detached: true,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const env = await new Promise((resolveEnv, reject) => {
    let out = "";
    proc.stdout.on("data", (d) => {
      out += d.toString();
      const line = out.split("\n").find((l) => l.startsWith("{"));
      if (line) resolveEnv(JSON.parse(line));
    });
    proc.once("exit", (code) => reject(new Error(`the ${name} stand-in exited with code ${code}`)));
  });
  const { ready: _ready, ...settings } = env;
  const stop = () => {
    try {
      process.kill(-proc.pid, "SIGTERM");
    } catch {
      // Already gone.
    }
  };
  return { env: settings, stop };
}

/**
 * The Stripe stand-in on a free port, delivering webhook events to `webhookUrl` half a second after the payment page
 * sends the browser back, as Stripe's own deliveries trail the redirect.
 */
async function startStripeStandIn(webhookUrl) {
  return startStandIn("Stripe", "tests/support/stripe-stand-in.ts", [
    "--port",
    String(await freePort()),
    "--webhook",
    webhookUrl,
    "--delay-ms",
    "500",
  ]);
}

/**
 * PubMed's E-utilities as the app sees them in the browser tests: the stand-in (real records of the sample and
 * PubMedQA's, NCBI's rate enforced), 150 ms added to each answer as from a distant server, so that a review's progress
 * line is on screen long enough to be seen.
 */
function startEutilsStandIn() {
  return startStandIn("E-utilities", "tests/support/eutils-stand-in.ts", ["--latency-ms", "150"]);
}

const port = await freePort();
const dataDir = mkdtempSync(join(tmpdir(), "litreview-e2e-"));
const mailDir = mkdtempSync(join(tmpdir(), "litreview-e2e-mail-"));
const fixturesFile = join(tmpdir(), `litreview-e2e-fixtures-${port}.json`);
const baseUrl = `http://127.0.0.1:${port}`;
const serverLog = [];
const mail = await startMailCatcher(mailDir);
const stripe = await startStripeStandIn(`${baseUrl}/api/v1/subscriptions/webhook`);
const eutils = await startEutilsStandIn();
const secretKey = randomBytes(32).toString("hex");

// The accounts in subscription states no test could reach in its own time, written before the app opens the folder.
const seeded = spawnSync("npx", ["bun", "tests/e2e/seed.ts"], {
  cwd: ROOT,
  env: { ...process.env, DATA_DIR: dataDir, SECRET_KEY: secretKey, E2E_FIXTURES_FILE: fixturesFile, LOG_LEVEL: "warn" },
  encoding: "utf8",
});
if (seeded.status !== 0) {
  stripe.stop();
  eutils.stop();
  fail(`seeding the test accounts failed:\n${seeded.stderr}`);
}

// E2E_SERVER lets a test run point at another entry (for example a build under investigation).
// The same HTTP parser allowance as `npm start` (see package.json and src/http/limits.ts).
const server = spawn("npx", ["bun", "--max-http-header-size=262144", process.env.E2E_SERVER ?? "src/server.ts"], {
  cwd: ROOT,
  env: {
    ...process.env,
    PORT: String(port),
    DATA_DIR: dataDir,
    SEED_SAMPLE: "true",
    SECRET_KEY: secretKey,
    SMTP_URL: mail.url,
    ...stripe.env,
    ...eutils.env,
    PUBMED_ON_DEMAND: "on",
    // Links in e-mails (the reset link) point at this run's server.
    PUBLIC_URL: baseUrl,
    NODE_ENV: "production",
    LOG_LEVEL: "warn",
    // Every browser test signs up its own accounts, all from this machine's address.
    SIGNUPS_PER_CLIENT_PER_HOUR: "10000",
    // Every browser test signs in from 127.0.0.1: the per-client login burst limit would refuse the suite's logins.
    LOGINS_PER_CLIENT_PER_MINUTE: "10000",
  },
  // Own process group, so that stopping it also stops bun under npx.
  detached: true,
  stdio: ["ignore", "pipe", "pipe"],
});
for (const stream of [server.stdout, server.stderr]) stream.on("data", (d) => serverLog.push(d.toString()));

let stopped = false;
/** Last resort (process exit, Ctrl-C): kills the app's process group at once and removes its data. */
function killServerNow() {
  if (stopped) return;
  stopped = true;
  try {
    process.kill(-server.pid, "SIGKILL");
  } catch {
    // Already gone.
  }
  stripe.stop();
  eutils.stop();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(mailDir, { recursive: true, force: true });
  rmSync(fixturesFile, { force: true });
}
/** Asks the app to shut down (it closes its database), waits up to 10 s, then removes its data directory. */
async function stopServer() {
  if (stopped) return;
  if (server.exitCode === null && server.signalCode === null) {
    const exited = new Promise((r) => server.once("exit", r));
    try {
      process.kill(-server.pid, "SIGTERM");
    } catch {
      // Already gone.
    }
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
  }
  killServerNow();
}
process.on("SIGINT", () => {
  killServerNow();
  process.exit(130);
});
process.on("exit", killServerNow);

console.log(`e2e: starting the app on ${baseUrl} (data in ${dataDir})…`);
const started = Date.now();
if (!(await waitForServer(`${baseUrl}/landing`, server))) {
  console.error(serverLog.join("").slice(-4000));
  await stopServer();
  fail(
    server.exitCode !== null
      ? `the app exited with code ${server.exitCode} before answering`
      : `the app did not answer within ${STARTUP_TIMEOUT_MS} ms`,
  );
}
console.log(`e2e: app ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);

const resultsFile = join(ROOT, "test-results", "e2e-results.json");
rmSync(resultsFile, { force: true }); // never report an older run's numbers
const runner = spawn(
  process.execPath,
  [
    join(ROOT, "node_modules", "@playwright", "test", "cli.js"),
    "test",
    "--config",
    join(ROOT, "playwright.config.ts"),
    ...process.argv.slice(2),
  ],
  {
    cwd: ROOT,
    env: {
      ...process.env,
      E2E_BASE_URL: baseUrl,
      E2E_MAIL_DIR: mailDir,
      E2E_FIXTURES_FILE: fixturesFile,
      CHROMIUM_PATH: CHROMIUM,
    },
    stdio: "inherit",
  },
);
const code = await new Promise((r) => runner.on("exit", (c, signal) => r(c ?? (signal ? 1 : 0))));
await stopServer();
await mail.close();

if (existsSync(resultsFile)) {
  const { stats } = JSON.parse(readFileSync(resultsFile, "utf8"));
  const failed = (stats.unexpected ?? 0) + (stats.flaky ?? 0);
  console.log(
    `e2e: ${stats.expected ?? 0} passed, ${failed} failed${stats.skipped ? `, ${stats.skipped} skipped` : ""}`,
  );
}
if (code !== 0) console.error(serverLog.join("").slice(-4000));
process.exit(code);
