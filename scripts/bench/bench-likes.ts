// Likes and shares benchmark on PostgreSQL (issue 9's numbers): GET /likes/my for a user with 10,000 likes (a page of
// 100, a deep page, and the whole list), POST /likes/{pmid} under 32 connections (autocannon; every request a first
// like of another article), GET /shares/received with 1,000 shares, /dashboard's time to first byte, and the
// JavaScript /dashboard ships. Results go to docs/benchmarks.md.
//
// Usage: npm run bench -- likes [--connections N] [--duration S] [--requests N]
//   creates a fresh database on the PostgreSQL server of BENCH_DATABASE_URL (default
//   postgres://postgres@127.0.0.1:5432/postgres), starts `bun src/server.ts` on it (production, no job worker),
//   fills it with synthetic articles, likes and shares in SQL, measures, stops it and drops the database.
// Needs `npm run build` first. Every request goes to a loopback address; every loop is bounded.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir, totalmem } from "node:os";
import { join, resolve } from "node:path";
import postgres from "postgres";
import { quantile } from "./bench-pages.ts";
import { createDatabase, startServer, type AutocannonResult } from "./bench-accounts.ts";

const ROOT = resolve(import.meta.dir, "..", "..");

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
}

const CONNECTIONS = Number(arg("connections") ?? 32);
const DURATION_S = Math.min(60, Number(arg("duration") ?? 10));
const REQUESTS = Number(arg("requests") ?? 300);
const LIKES = 10_000;
const SHARES = 1_000;
const ARTICLES = 60_000;
const PASSWORD = "bench-password-123";

/** Issue 9's targets. */
const TARGETS = { likesP95Ms: 30, likeRps: 2000, likeP99Ms: 20, dashboardTtfbP95Ms: 50, dashboardJsKb: 100 };

async function signupAndLogin(url: string, email: string): Promise<string> {
  const signup = await fetch(`${url}/api/v1/users/signup`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, full_name: email.split("@")[0], password: PASSWORD }),
  });
  if (!signup.ok) throw new Error(`signup: ${signup.status} ${await signup.text()}`);
  const login = await fetch(`${url}/api/v1/login/access-token`, {
    method: "POST",
    body: new URLSearchParams({ username: email, password: PASSWORD }),
  });
  if (!login.ok) throw new Error(`login: ${login.status}`);
  return ((await login.json()) as { access_token: string }).access_token;
}

/** `n` sequential GETs of `path`; @returns the times to the end of each answer (ms), sorted, and the last body size. */
async function timedGets(
  url: string,
  path: string,
  token: string,
  n: number,
): Promise<{ times: number[]; bytes: number; ttfb: number[] }> {
  const times: number[] = [];
  const ttfb: number[] = [];
  let bytes = 0;
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    const res = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${token}` } });
    const reader = res.body!.getReader();
    let chunk = await reader.read();
    ttfb.push(performance.now() - start);
    bytes = 0;
    while (!chunk.done) {
      bytes += chunk.value.length;
      chunk = await reader.read();
    }
    times.push(performance.now() - start);
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
  }
  return { times: times.sort((a, b) => a - b), bytes, ttfb: ttfb.sort((a, b) => a - b) };
}

const fmt = (ms: number) => ms.toFixed(1);
const p = (times: number[], q: number) => quantile(times, q);

/** Synthetic articles, LIKES likes of the reader's and SHARES shares from the sharer to the reader, in SQL. */
async function seed(sql: postgres.Sql, readerId: string, sharerId: string): Promise<void> {
  // Articles with a title, authors and a ~1,200-character abstract, as PubMed records are on average.
  await sql.unsafe(`
    INSERT INTO articles (pmid, title, authors, abstract, journal, publication_date, publication_year, content_hash)
    SELECT 10000000 + g, 'Synthetic article ' || g || ' on a biomedical topic of interest',
           'Author A, Author B, Author C', repeat('Background and methods and results of study ' || g || '. ', 25),
           'Journal of Benchmarks', date '2020-01-01' + (g % 1500), 2020 + (g % 5), md5(g::text)
    FROM generate_series(1, ${ARTICLES}) g`);
  await sql.unsafe(`
    INSERT INTO likes (user_id, article_pmid, liked_at)
    SELECT '${readerId}', 10000000 + g, now() - g * interval '1 minute' FROM generate_series(1, ${LIKES}) g`);
  await sql.unsafe(`
    INSERT INTO shares (article_pmid, sharer_id, recipient_id, shared_at)
    SELECT 10000000 + g, '${sharerId}', '${readerId}', now() - g * interval '1 minute' FROM generate_series(1, ${SHARES}) g`);
  await sql.unsafe("ANALYZE articles; ANALYZE likes; ANALYZE shares");
}

/**
 * POST /likes/{pmid} by `token` for `seconds` over CONNECTIONS connections (autocannon-likes.mjs), each request
 * liking the next PMID of `pmidsFile` (one per line, cycled).
 * @throws Error when autocannon fails.
 */
function likeLoad(
  url: string,
  token: string,
  pmidsFile: string,
  seconds: number,
): AutocannonResult & { distinctPmids: number; requestsMade: number } {
  const out = spawnSync(
    "node",
    [join(import.meta.dir, "autocannon-likes.mjs"), url, token, pmidsFile, String(CONNECTIONS), String(seconds)],
    {
      cwd: ROOT,
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
      timeout: (seconds + 30) * 1000,
    },
  );
  if (out.status !== 0) throw new Error(`autocannon failed: ${out.stderr}`);
  return JSON.parse(out.stdout) as AutocannonResult & { distinctPmids: number; requestsMade: number };
}

/** The JavaScript /dashboard ships: every module script and preload, gzip level 9. @returns bytes and file count. */
async function dashboardJavaScript(url: string, token: string): Promise<{ js: number; files: number }> {
  const html = await (await fetch(`${url}/dashboard`, { headers: { authorization: `Bearer ${token}` } })).text();
  const urls = new Set(
    [
      ...html.matchAll(/<script type="module" src="([^"]+)"/g),
      ...html.matchAll(/<link rel="modulepreload" href="([^"]+)"/g),
    ].map((m) => m[1]!),
  );
  let js = 0;
  for (const u of urls)
    js += Bun.gzipSync(new Uint8Array(await (await fetch(`${url}${u}`)).arrayBuffer()), { level: 9 }).length;
  return { js, files: urls.size };
}

type Timed = Awaited<ReturnType<typeof timedGets>>;

/** What `main` measured, for `report`. */
interface Measured {
  version: string;
  page: Timed;
  deep: Timed;
  whole: Timed;
  shares: Timed;
  dashboard: Timed;
  likeRun: ReturnType<typeof likeLoad>;
  againRun: AutocannonResult;
  js: number;
  files: number;
}

/** Prints the results, one line a measurement, with the targets. */
function report({ version, page, deep, whole, shares, dashboard, likeRun, againRun, js, files }: Measured): void {
  console.log(
    `machine: ${cpus().length} × ${cpus()[0]?.model}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB; ${version.split(",")[0]}`,
  );
  console.log(`data: ${ARTICLES} articles, ${LIKES} likes and ${SHARES} received shares for one user`);
  console.log(
    `GET /likes/my?limit=100 (newest page), ${REQUESTS} sequential: p50 ${fmt(p(page.times, 0.5))} ms, p95 ${fmt(p(page.times, 0.95))} ms (target ≤ ${TARGETS.likesP95Ms})`,
  );
  console.log(
    `GET /likes/my?skip=${LIKES - 100}&limit=100 (oldest page): p50 ${fmt(p(deep.times, 0.5))} ms, p95 ${fmt(p(deep.times, 0.95))} ms`,
  );
  console.log(
    `GET /likes/my (all ${LIKES}, ${(whole.bytes / 2 ** 20).toFixed(1)} MB): p50 ${fmt(p(whole.times, 0.5))} ms, p95 ${fmt(p(whole.times, 0.95))} ms`,
  );
  console.log(
    `GET /shares/received (all ${SHARES}, ${(shares.bytes / 2 ** 20).toFixed(2)} MB): p50 ${fmt(p(shares.times, 0.5))} ms, p95 ${fmt(p(shares.times, 0.95))} ms`,
  );
  console.log(
    `POST /likes/{pmid}, ${CONNECTIONS} connections, ${DURATION_S} s, ${likeRun.distinctPmids} distinct articles: ${likeRun.requests.average.toFixed(0)} req/s, ` +
      `p50 ${likeRun.latency.p50} ms, p99 ${likeRun.latency.p99} ms, non-2xx ${likeRun.non2xx}, errors ${likeRun.errors} (targets ≥ ${TARGETS.likeRps} req/s, p99 ≤ ${TARGETS.likeP99Ms} ms)`,
  );
  console.log(
    `POST /likes/{pmid} of one article already liked (nothing written): ${againRun.requests.average.toFixed(0)} req/s, p50 ${againRun.latency.p50} ms, p99 ${againRun.latency.p99} ms, non-2xx ${againRun.non2xx}`,
  );
  console.log(
    `/dashboard time to first byte, ${REQUESTS} sequential: p50 ${fmt(p(dashboard.ttfb, 0.5))} ms, p95 ${fmt(p(dashboard.ttfb, 0.95))} ms (target ≤ ${TARGETS.dashboardTtfbP95Ms})`,
  );
  console.log(
    `/dashboard JavaScript: ${(js / 1024).toFixed(1)} KB gzip in ${files} files (target ≤ ${TARGETS.dashboardJsKb})`,
  );
}

async function main() {
  const adminUrl = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const database = await createDatabase(adminUrl);
  const server = await startServer(database.url);
  const sql = postgres(database.url, { max: 2, onnotice: () => {} });
  const scratch = mkdtempSync(join(tmpdir(), "bench-likes-"));
  try {
    const stamp = Date.now().toString(36);
    const reader = await signupAndLogin(server.url, `reader-${stamp}@bench.test`);
    const liker = await signupAndLogin(server.url, `liker-${stamp}@bench.test`);
    await signupAndLogin(server.url, `sharer-${stamp}@bench.test`);
    const [readerRow] = await sql<{ id: string }[]>`SELECT id FROM users WHERE email = ${`reader-${stamp}@bench.test`}`;
    const [sharerRow] = await sql<{ id: string }[]>`SELECT id FROM users WHERE email = ${`sharer-${stamp}@bench.test`}`;
    await seed(sql, readerRow!.id, sharerRow!.id);

    // Warm-up: connections, prepared statements, JIT.
    await timedGets(server.url, "/api/v1/likes/my?limit=100", reader, 30);
    const page = await timedGets(server.url, "/api/v1/likes/my?limit=100", reader, REQUESTS);
    const deep = await timedGets(server.url, `/api/v1/likes/my?skip=${LIKES - 100}&limit=100`, reader, REQUESTS);
    const whole = await timedGets(server.url, "/api/v1/likes/my", reader, 40);
    const shares = await timedGets(server.url, "/api/v1/shares/received", reader, 60);
    await timedGets(server.url, "/dashboard", reader, 30);
    const dashboard = await timedGets(server.url, "/dashboard", reader, REQUESTS);

    // POST /likes/{pmid}: a fresh user liking article after article.
    const pmidsFile = join(scratch, "pmids.txt");
    writeFileSync(pmidsFile, Array.from({ length: ARTICLES }, (_, i) => 10000001 + i).join("\n"));
    likeLoad(server.url, liker, pmidsFile, 2); // warm-up
    const likeRun = likeLoad(server.url, liker, pmidsFile, DURATION_S);
    // The same article again and again: the idempotent path (the like exists; nothing is written).
    const onePmid = join(scratch, "one.txt");
    writeFileSync(onePmid, "10000001");
    const againRun: AutocannonResult = likeLoad(server.url, liker, onePmid, DURATION_S);
    const { js, files } = await dashboardJavaScript(server.url, reader);
    report({ version: database.version, page, deep, whole, shares, dashboard, likeRun, againRun, js, files });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
    await sql.end();
    await server.stop();
    await database.drop();
  }
}

await main();
