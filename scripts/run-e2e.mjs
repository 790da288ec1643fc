// Runs the browser tests end to end: checks Chromium, starts a local SMTP server that writes every message it
// receives to a folder and a local stand-in for Stripe's API (tests/support/stripe-stand-in.ts, which also sends the
// app signed webhook events), makes a fresh data directory holding the ingested PubMed sample (a copy of a snapshot,
// see sampleSnapshot below), seeds the accounts of tests/e2e/accounts.ts into it, starts the app (`bun src/server.ts`)
// there on a free port, SMTP_URL and the Stripe settings pointing at those servers, waits until it answers, runs
// Playwright on tests/e2e/*.e2e.ts (which read the delivered mail, e.g. the password reset link, from E2E_MAIL_DIR,
// and the seeded accounts' tokens from E2E_FIXTURES_FILE), stops everything and exits with the tests' result.
// Usage: node scripts/run-e2e.mjs [playwright args…]; E2E_WORKERS sets Playwright's workers (playwright.config.ts),
// E2E_FRESH_DATA=1 ingests the sample anew instead of copying the snapshot, E2E_TRACE=1 records traces
// (playwright.config.ts). Each run writes its failures' screenshots and traces to test-results/e2e-<port> and its
// results to test-results/e2e-results.json.
import { spawn, spawnSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { SMTPServer } from "smtp-server";
import { ensureChromium } from "./chromium.mjs";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
// Seeding the sample on first start ingests a few thousand records: allow for a slow, shared machine.
const STARTUP_TIMEOUT_MS = Number(process.env.E2E_STARTUP_TIMEOUT_MS ?? 240_000);
// Bun itself rather than `npx bun`: npx costs a Node start-up (about half a second of CPU) for each of the five
// processes started here.
const LOCAL_BUN = join(ROOT, "node_modules", ".bin", "bun");
const [BUN, ...BUN_ARGS] = existsSync(LOCAL_BUN) ? [LOCAL_BUN] : ["npx", "bun"];
/** Starts `bun args…` from the repository's root. */
function spawnBun(args, options) {
  return spawn(BUN, [...BUN_ARGS, ...args], { cwd: ROOT, ...options });
}

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
  const proc = spawnBun([script, ...args], { detached: true, stdio: ["ignore", "pipe", "inherit"] });
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

/**
 * What the sample's snapshot is made of: the migrations, the sample, the code that ingests and indexes it (search/,
 * src/search, src/db), the server's start-up (src/server.ts, src/seed.ts, src/config.ts), the locked dependencies,
 * and Bun's version. A change to any of them makes a new snapshot.
 */
const SNAPSHOT_INPUTS = [
  "migrations",
  "sample",
  "search",
  "src/search",
  "src/db",
  "src/server.ts",
  "src/seed.ts",
  "src/config.ts",
  "package-lock.json",
];

/** The files under `path` (a file or folder, relative to ROOT), unit tests left out, sorted. */
function inputFiles(path) {
  if (!existsSync(join(ROOT, path))) return [];
  if (!statSync(join(ROOT, path)).isDirectory()) return [path];
  return readdirSync(join(ROOT, path), { recursive: true })
    .map((f) => join(path, String(f)))
    .filter((f) => !/\.test\.ts$/.test(f) && statSync(join(ROOT, f)).isFile())
    .sort();
}

/** A SHA-256 of SNAPSHOT_INPUTS (names and contents) and Bun's version: 16 hex digits. */
function snapshotKey() {
  const hash = createHash("sha256");
  hash.update(spawnSync(BUN, [...BUN_ARGS, "--version"], { encoding: "utf8" }).stdout ?? "");
  for (const file of SNAPSHOT_INPUTS.flatMap(inputFiles)) {
    hash.update(`\0${relative(ROOT, join(ROOT, file))}\0`);
    hash.update(readFileSync(join(ROOT, file)));
  }
  return hash.digest("hex").slice(0, 16);
}

/**
 * A data folder in which the app has applied its migrations and ingested the PubMed sample, and nothing else, for
 * each run to copy: ingesting the sample is most of a fresh start-up (about 17 s of CPU, against 2 s for a start on
 * an ingested folder). Kept under node_modules/.cache/litreview-e2e/sample-<key> (snapshotKey); made, when missing, by
 * starting the app there with WORKER=off (no job or schedule runs, so no job is left behind) and stopping it cleanly,
 * then renamed into place whole. Older snapshots are removed.
 * @returns the folder, or null (with the reason on stderr) when none could be made: the run then ingests anew.
 */
async function sampleSnapshot() {
  const cache = join(ROOT, "node_modules", ".cache", "litreview-e2e");
  const snapshot = join(cache, `sample-${snapshotKey()}`);
  if (existsSync(snapshot)) return snapshot;
  mkdirSync(cache, { recursive: true });
  for (const old of readdirSync(cache)) {
    if (old.startsWith("sample-")) rmSync(join(cache, old), { recursive: true, force: true });
  }
  const building = mkdtempSync(join(cache, "building-"));
  const port = await freePort();
  const log = [];
  const proc = spawnBun(["src/server.ts"], {
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: building,
      SEED_SAMPLE: "true",
      SECRET_KEY: randomBytes(32).toString("hex"),
      WORKER: "off",
      PUBMED_ON_DEMAND: "off",
      NODE_ENV: "production",
      LOG_LEVEL: "warn",
    },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  for (const stream of [proc.stdout, proc.stderr]) stream.on("data", (d) => log.push(d.toString()));
  const exited = new Promise((r) => proc.once("exit", (code) => r(code)));
  const answered = await waitForServer(`http://127.0.0.1:${port}/landing`, proc);
  try {
    process.kill(-proc.pid, answered ? "SIGTERM" : "SIGKILL");
  } catch {
    // Already gone.
  }
  const code = await exited;
  if (!answered || code !== 0) {
    rmSync(building, { recursive: true, force: true });
    console.error(`e2e: no snapshot of the sample (the app exited with ${code}); ingesting it in this run's folder`);
    console.error(log.join("").slice(-2000));
    return null;
  }
  try {
    renameSync(building, snapshot);
  } catch {
    // Another run made it meanwhile.
    rmSync(building, { recursive: true, force: true });
  }
  return snapshot;
}

const port = await freePort();
const dataDir = mkdtempSync(join(tmpdir(), "litreview-e2e-"));
const mailDir = mkdtempSync(join(tmpdir(), "litreview-e2e-mail-"));
const fixturesFile = join(tmpdir(), `litreview-e2e-fixtures-${port}.json`);
const baseUrl = `http://127.0.0.1:${port}`;
const serverLog = [];
const setupStarted = Date.now();
// A snapshot is of the embedded database only; with DATABASE_URL or ELASTICSEARCH_URL in the environment the app
// keeps its data elsewhere, and seeds it itself.
const useSnapshot = !process.env.E2E_FRESH_DATA && !process.env.DATABASE_URL && !process.env.ELASTICSEARCH_URL;
const [mail, stripe, eutils, snapshot] = await Promise.all([
  startMailCatcher(mailDir),
  startStripeStandIn(`${baseUrl}/api/v1/subscriptions/webhook`),
  startEutilsStandIn(),
  useSnapshot ? sampleSnapshot() : null,
]);
if (snapshot) cpSync(snapshot, dataDir, { recursive: true });
const secretKey = randomBytes(32).toString("hex");

// The accounts in subscription states no test could reach in its own time, written before the app opens the folder.
const seeded = spawnSync(BUN, [...BUN_ARGS, "tests/e2e/seed.ts"], {
  cwd: ROOT,
  env: { ...process.env, DATA_DIR: dataDir, SECRET_KEY: secretKey, E2E_FIXTURES_FILE: fixturesFile, LOG_LEVEL: "warn" },
  encoding: "utf8",
});
if (seeded.status !== 0) {
  stripe.stop();
  eutils.stop();
  fail(`seeding the test accounts failed:\n${seeded.stderr}`);
}
console.log(
  `e2e: data folder ready in ${((Date.now() - setupStarted) / 1000).toFixed(1)} s (${snapshot ? "the sample's snapshot copied" : "the sample is ingested at start-up"})`,
);

// E2E_SERVER lets a test run point at another entry (for example a build under investigation).
// The same HTTP parser allowance as `npm start` (see package.json and src/http/limits.ts).
const server = spawnBun(["--max-http-header-size=262144", process.env.E2E_SERVER ?? "src/server.ts"], {
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
  // Own process group, so that stopping it also stops what it started (and bun under npx, when npx runs it).
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

// This run's own output folder and results file (playwright.config.ts): a run started meanwhile would otherwise empty
// test-results/e2e under this one. The results are copied to test-results/e2e-results.json at the end.
const outputDir = process.env.E2E_OUTPUT_DIR ?? join(ROOT, "test-results", `e2e-${port}`);
const resultsFile = join(ROOT, "test-results", `e2e-results-${port}.json`);
const lastResultsFile = join(ROOT, "test-results", "e2e-results.json");
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
      E2E_OUTPUT_DIR: outputDir,
      E2E_RESULTS_FILE: resultsFile,
      CHROMIUM_PATH: CHROMIUM,
    },
    stdio: "inherit",
  },
);
const code = await new Promise((r) => runner.on("exit", (c, signal) => r(c ?? (signal ? 1 : 0))));
await stopServer();
await mail.close();

// A passing run keeps nothing there (Playwright's .last-run.json only); a failing one, the failed tests' traces.
if (code === 0) rmSync(outputDir, { recursive: true, force: true });
if (existsSync(resultsFile)) {
  renameSync(resultsFile, lastResultsFile);
  const { stats } = JSON.parse(readFileSync(lastResultsFile, "utf8"));
  const failed = (stats.unexpected ?? 0) + (stats.flaky ?? 0);
  console.log(
    `e2e: ${stats.expected ?? 0} passed, ${failed} failed${stats.skipped ? `, ${stats.skipped} skipped` : ""}`,
  );
}
if (code !== 0) {
  console.error(serverLog.join("").slice(-4000));
  if (existsSync(outputDir)) console.error(`e2e: the failed tests' traces and screenshots are in ${outputDir}`);
}
process.exit(code);
