/**
 * One user's PubMed-syntax review against everyone else's requests (issue 34). The application is wired as
 * src/server.ts wires the default install: an embedded database in a data folder on disk (or a PostgreSQL server), the
 * sample records ingested, the job worker in the same process (1 loop on the embedded database, 2 on PostgreSQL),
 * Bun.serve on a loopback port. For each strategy, user A starts a review on it while user B asks
 * GET /api/v1/users/me again and again, one request at a time; the script prints:
 *  - the start's answer (200, or 422 with the first validation message), the review's final status and its time from
 *    the start's answer to the status write that ended it (the review row's `updated_at`), and its error if any;
 *  - B's requests while A's review ran: count, p50, p99 and max, and the event loop's longest block (a 10 ms interval
 *    timer's lateness);
 *  - before the first strategy, the same for B alone (2 s), as the baseline.
 *
 * Strategies (--strategy, comma-separated, default all):
 *  - typical: a strategy of the kind systematic reviews use (trials on spinal surgery, animals excluded);
 *  - issue-400: the issue's first probe, one word of 400 distinct letters that need case folding (accented Latin,
 *    Greek, Cyrillic), then `[tiab] OR q0 … OR q9` (466 characters);
 *  - issue-exit: the issue's second probe, 473 such letters and 180 OR terms (1,809 characters);
 *  - worst: the costliest strategy the limits of search/pubmed/query-syntax/limits.ts allow, when that module exists
 *    (see worstStrategy below); skipped before it.
 *
 *   bun scripts/bench/bench-syntax-load.ts [--backend pglite|postgres] [--strategy typical,issue-400,issue-exit,worst]
 *     [--rounds 1] [--corpus FILE.xml.gz …] [--timeout-s 120] [--print]
 *
 * --print prints the strategies and stops.
 *
 * postgres creates (and drops) a database on BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres).
 * Every request goes to a loopback address; every loop is bounded (a review not finished after --timeout-s is reported
 * as such).
 */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { cpus, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import postgres from "postgres";
import { sql } from "kysely";
import { createApp } from "../../src/app.ts";
import { loadConfig } from "../../src/config.ts";
import type { AppDeps } from "../../src/deps.ts";
import { openDatabase, type DatabaseHandle } from "../../src/db/database.ts";
import { migrateToLatest } from "../../src/db/migrator.ts";
import { PgJobQueue } from "../../src/jobs/queue-pg.ts";
import { startWorker } from "../../src/jobs/worker.ts";
import { jobHandlers } from "../../src/job-registry.ts";
import { issueAccessToken } from "../../src/auth/session.ts";
import { ingestFiles } from "../../search/ingest.ts";
import { PostgresSearchIndex } from "../../search/postgres-index.ts";
import { lagMonitor } from "./event-loop-lag.ts";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    backend: { type: "string", default: "pglite" },
    strategy: { type: "string", default: "typical,issue-400,issue-exit,worst" },
    rounds: { type: "string", default: "1" },
    "timeout-s": { type: "string", default: "120" },
    corpus: { type: "string", multiple: true },
    print: { type: "boolean", default: false },
  },
});
const BACKEND = values.backend === "postgres" ? "postgres" : "pglite";
const ROUNDS = Number(values.rounds);
const TIMEOUT_MS = Number(values["timeout-s"]) * 1000;
const TICK_MS = 10;
const SAMPLE = join(import.meta.dir, "..", "..", "sample", "pubmed");
const corpusFiles =
  values.corpus && values.corpus.length > 0
    ? [...values.corpus, ...positionals]
    : readdirSync(SAMPLE)
        .filter((f) => f.endsWith(".xml.gz"))
        .map((f) => join(SAMPLE, f));

// ---------------------------------------------------------------------------------------------------------------------
// Strategies

/** Lower-case letters outside ASCII whose upper case is one other character, in code point order (U+00DF on). */
function foldingLetters(count: number): string[] {
  const out: string[] = [];
  for (let cp = 0xdf; out.length < count && cp < 0x2000; cp++) {
    const ch = String.fromCodePoint(cp);
    const upper = ch.toUpperCase();
    if (/\p{Ll}/u.test(ch) && upper !== ch && [...upper].length === 1) out.push(ch);
  }
  if (out.length < count) throw new Error(`only ${out.length} folding letters below U+2000`);
  return out;
}

/** One word of `letters` distinct folding letters, tagged [tiab], OR `terms` short words q0, q1… */
function issueStrategy(letters: number, terms: number): string {
  const or = Array.from({ length: terms }, (_, i) => ` OR q${i}`).join("");
  return `${foldingLetters(letters).join("")}[tiab]${or}`;
}

/**
 * The costliest strategy the limits allow (search/pubmed/query-syntax/limits.ts, after issue 34; null before it):
 * common words OR'd, which nearly every record holds, so every record is a candidate; then NOT an OR of as many
 * all-fields phrases of common words as the limits leave room for, in orders no text has ("of of", "the and"…): each
 * record holds their words, so each one is searched for in every field of every candidate, and none ends the OR early;
 * at the bottom, groups nested as deep as allowed around a word of distinct folding letters, up to the limit of
 * distinct characters. The strategy is checked against the limits before it is used.
 */
async function worstStrategy(): Promise<string | null> {
  let limits: typeof import("../../search/pubmed/query-syntax/limits.ts");
  let parse: typeof import("../../search/pubmed/query-syntax/parse.ts");
  try {
    limits = await import("../../search/pubmed/query-syntax/limits.ts");
    parse = await import("../../search/pubmed/query-syntax/parse.ts");
  } catch {
    return null;
  }
  const MAX_LENGTH = 2000;
  const include = "(the OR of OR and OR in OR journal article[pt])";
  // Pairs no English text writes: a word twice, or an article or preposition before "the", "of", "and"…
  const common = ["the", "of", "and", "in", "to", "with", "for", "was", "were", "is", "on", "by", "at", "or"];
  const phrases: string[] = [];
  for (const x of common) phrases.push(`"${x} ${x}"[all]`);
  for (const x of ["the", "a", "of", "to", "with", "for"])
    for (const y of common) if (x !== y) phrases.push(`"${x} ${y}"[all]`);
  const build = (letterCount: number) => {
    const letters = `${foldingLetters(letterCount).join("")}[tiab]`;
    // Nested groups at the bottom: the root NOT and the OR take two levels; AND and OR alternate below.
    let nested = letters;
    const left = [...phrases];
    let nestedTerms = 0;
    for (let level = limits.MAX_STRATEGY_DEPTH - 2; level >= 2; level--) {
      nested = `(${left.pop()!} ${level % 2 === 0 ? "AND" : "OR"} ${nested})`;
      nestedTerms++;
    }
    const flat: string[] = [];
    const room = limits.MAX_STRATEGY_TERMS - 5 - nestedTerms - 1;
    for (const p of left) {
      if (flat.length >= room) break;
      if (`${include} NOT (${[...flat, p].join(" OR ")} OR ${nested})`.length > MAX_LENGTH) break;
      flat.push(p);
    }
    return `${include} NOT (${flat.join(" OR ")} OR ${nested})`;
  };
  // As many distinct folding letters as the limit of distinct characters leaves room for.
  let strategy = build(1);
  for (let n = limits.MAX_STRATEGY_DISTINCT_CHARACTERS; n > 1; n--) {
    const s = build(n);
    if (limits.distinctCharacters(s) <= limits.MAX_STRATEGY_DISTINCT_CHARACTERS) {
      strategy = s;
      break;
    }
  }
  limits.checkStrategyLimits(strategy, parse.parsePubmedQuery(strategy));
  return strategy;
}

const STRATEGIES: Record<string, () => Promise<string | null>> = {
  typical: async () =>
    "(randomized controlled trial[pt] OR randomized[tiab] OR placebo[tiab]) AND (spinal fusion[mh] OR spine*[tiab] " +
    "OR scoliosis[tiab]) NOT animals[mh]",
  "issue-400": async () => issueStrategy(400, 10),
  "issue-exit": async () => issueStrategy(473, 180),
  worst: worstStrategy,
};

if (values.print) {
  for (const name of values.strategy!.split(","))
    console.log(`${name}:\n${(await STRATEGIES[name.trim()]?.()) ?? "(none)"}\n`);
  process.exit(0);
}

// ---------------------------------------------------------------------------------------------------------------------
// Measurement helpers

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN;
const ms = (x: number) => `${x.toFixed(1)} ms`;
const summarise = (latencies: number[]) => {
  const s = [...latencies].sort((a, b) => a - b);
  return `${s.length} requests, p50 ${ms(quantile(s, 0.5))}, p99 ${ms(quantile(s, 0.99))}, max ${ms(s.at(-1) ?? Number.NaN)}`;
};

// ---------------------------------------------------------------------------------------------------------------------
// The application, as src/server.ts wires it

async function openBackend(): Promise<{ handle: DatabaseHandle; databaseUrl?: string; cleanup: () => Promise<void> }> {
  if (BACKEND === "pglite") {
    const dir = mkdtempSync(join(tmpdir(), "litreview-bench-syntax-"));
    const handle = openDatabase({ dataDir: dir });
    return { handle, cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const serverUrl = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const name = `lr_bench_syntax_${Date.now().toString(36)}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const handle = openDatabase({
    databaseUrl: url.toString(),
    dataDir: "",
    timeouts: { connectSeconds: 5, statementMs: 15_000, lockMs: 5_000 },
  });
  return {
    handle,
    databaseUrl: url.toString(),
    cleanup: async () => {
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

const { handle, databaseUrl, cleanup } = await openBackend();
const db = handle.db;
await migrateToLatest(db);
const config = loadConfig({
  NODE_ENV: "production",
  LOG_LEVEL: "error",
  PUBLIC_URL: "http://localhost:3000",
  SEED_SAMPLE: "false",
  PUBMED_ON_DEMAND: "off",
  ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
});
const search = new PostgresSearchIndex(db);
const deps: AppDeps = {
  config,
  db,
  search,
  jobs: new PgJobQueue(db),
  secretKey: crypto.getRandomValues(new Uint8Array(32)),
};

const ingestStarted = performance.now();
await ingestFiles(deps, corpusFiles);
const records = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM articles`.execute(db)).rows[0]!.n;
console.log(
  `machine: ${cpus().length} × ${cpus()[0]?.model ?? "?"}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB; backend ${BACKEND}; ` +
    `${records.toLocaleString("en-US")} records ingested in ${((performance.now() - ingestStarted) / 1000).toFixed(1)} s`,
);

/** A user with the one-week Plus trial a signup gives, and a token for her. */
async function user(name: string): Promise<{ authorization: string }> {
  const row = await db
    .insertInto("users")
    .values({
      email: `${name}-${Date.now().toString(36)}@example.com`,
      full_name: name,
      hashed_password: await Bun.password.hash("correct horse battery", {
        algorithm: "argon2id",
        memoryCost: 64,
        timeCost: 1,
      }),
      is_active: true,
      is_superuser: false,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  const end = new Date(Date.now() + 7 * 86_400_000);
  await db
    .insertInto("subscriptions")
    .values({
      user_id: row.id,
      status: "active",
      subscription_type: "plus",
      billing_interval: "annual",
      is_trial: true,
      trial_ends_at: end,
      current_period_end: end,
    })
    .execute();
  return { authorization: `Bearer ${await issueAccessToken(deps, row)}` };
}

const alice = await user("alice");
const bob = await user("bob");
const worker = startWorker(deps, jobHandlers(deps), { concurrency: BACKEND === "pglite" ? 1 : 2 });
const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: createApp(deps).fetch, idleTimeout: 120 });
const base = `http://127.0.0.1:${server.port}`;
const lag = lagMonitor(TICK_MS);

/**
 * B's client, on a thread of its own (a worker): GET /api/v1/users/me one request at a time, each recorded as
 * [start, end] in epoch milliseconds. On the server's thread it could not even send while the server is blocked, which
 * is exactly what is measured.
 */
const CLIENT = `
let running = false;
const samples = [];
self.onmessage = async (e) => {
  const { cmd, url, authorization } = e.data;
  if (cmd === "take") return postMessage(samples.splice(0));
  if (cmd === "stop") { running = false; return; }
  running = true;
  while (running && samples.length < 1000000) {
    const start = performance.timeOrigin + performance.now();
    const res = await fetch(url, { headers: { authorization } });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error("/users/me answered " + res.status);
    samples.push([start, performance.timeOrigin + performance.now()]);
  }
};`;
const client = new Worker(URL.createObjectURL(new Blob([CLIENT], { type: "application/javascript" })));
client.postMessage({ cmd: "go", url: `${base}/api/v1/users/me`, authorization: bob.authorization });
let samples: [number, number][] = [];
/** B's requests that overlapped [from, to] (epoch ms), as latencies. */
async function meDuring(from: number, to: number): Promise<number[]> {
  const taken = new Promise<[number, number][]>((resolve) => {
    client.onmessage = (e) => resolve(e.data as [number, number][]);
  });
  client.postMessage({ cmd: "take" });
  samples = [...samples, ...(await taken)];
  const during = samples.filter(([s, e]) => s <= to && e >= from);
  samples = samples.filter(([, e]) => e > to);
  return during.map(([s, e]) => e - s);
}

const TERMINAL = new Set(["complete", "no_articles_found", "error", "canceled"]);

try {
  // Warm-up: a plain review and B's requests, so that first-use costs (code paths, the word tables) are not counted.
  {
    const created = (await (
      await fetch(`${base}/api/v1/literature_review/create`, { method: "POST", headers: alice })
    ).json()) as {
      id: string;
    };
    await fetch(
      `${base}/api/v1/literature_review/start/${created.id}?user_query=${encodeURIComponent("asthma[tiab] AND child*")}`,
      {
        method: "POST",
        headers: alice,
      },
    );
    for (let i = 0; i < 600; i++) {
      const row = await db
        .selectFrom("literature_reviews")
        .select("status")
        .where("id", "=", created.id)
        .executeTakeFirst();
      if (row && TERMINAL.has(row.status)) break;
      await Bun.sleep(100);
    }
    await db.deleteFrom("literature_reviews").where("id", "=", created.id).execute();
  }
  lag.take();
  const baselineStart = Date.now();
  await Bun.sleep(2000);
  const baseline = await meDuring(baselineStart, Date.now());
  console.log(`baseline, B alone: ${summarise(baseline)}; longest event-loop block ${ms(lag.take())}`);

  const names = values.strategy!.split(",").map((s) => s.trim());
  for (const name of names) {
    const strategy = await STRATEGIES[name]?.();
    if (!strategy) {
      console.log(`${name}: not available in this version`);
      continue;
    }
    const distinct = new Set([...strategy.toLowerCase()]).size;
    const allMe: number[] = [];
    const reviews: number[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const created = (await (
        await fetch(`${base}/api/v1/literature_review/create`, { method: "POST", headers: alice })
      ).json()) as {
        id: string;
      };
      await Bun.sleep(200);
      lag.take();
      const startedAt = new Date();
      const res = await fetch(
        `${base}/api/v1/literature_review/start/${created.id}?user_query=${encodeURIComponent(strategy)}`,
        { method: "POST", headers: alice },
      );
      const body = (await res.json()) as { detail?: unknown };
      const head = `${name} (${strategy.length} characters, ${distinct} distinct ignoring case), round ${round}`;
      if (res.status !== 200) {
        const detail = Array.isArray(body.detail) ? (body.detail[0] as { msg: string }).msg : String(body.detail);
        console.log(`${head}: start answered ${res.status}: ${detail}`);
        continue;
      }
      const deadline = performance.now() + TIMEOUT_MS;
      const row = await (async () => {
        while (performance.now() < deadline) {
          const row = await db
            .selectFrom("literature_reviews")
            .select(["status", "updated_at", "error_message", "matching_count"])
            .where("id", "=", created.id)
            .executeTakeFirst();
          if (row && TERMINAL.has(row.status)) return row;
          await Bun.sleep(50);
        }
        return null;
      })();
      // B's requests from the start request on, until the review ended (or the deadline); the one held up by the
      // review's end lands a moment later.
      await Bun.sleep(300);
      const me = await meDuring(startedAt.getTime(), row ? new Date(row.updated_at).getTime() : Date.now());
      const block = lag.take();
      if (!row) {
        console.log(`${head}: not finished after ${TIMEOUT_MS / 1000} s; B meanwhile: ${summarise(me)}`);
        continue;
      }
      const took = new Date(row.updated_at).getTime() - startedAt.getTime();
      allMe.push(...me);
      reviews.push(took);
      const error = row.error_message ? ` (${row.error_message.slice(0, 160)})` : "";
      console.log(
        `${head}: ${row.status}${error}, ${row.matching_count ?? 0} matched, review ${ms(took)}; ` +
          `B meanwhile: ${summarise(me)}; longest event-loop block ${ms(block)}`,
      );
    }
    if (reviews.length > 1)
      console.log(
        `${name}, ${reviews.length} rounds: review ${ms(Math.min(...reviews))}–${ms(Math.max(...reviews))}; ` +
          `B over all rounds: ${summarise(allMe)}`,
      );
  }
} finally {
  lag.stop();
  client.postMessage({ cmd: "stop" });
  client.terminate();
  server.stop(true);
  await worker.stop();
  await handle.close();
  await cleanup();
}
