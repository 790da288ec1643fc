// What open review status streams cost the database (issue 22, item 6): `--users` users each open `--per-user`
// server-sent event streams (GET /api/v1/literature_review/events/{id}) on reviews in progress, over real HTTP to the
// application served in this process; once every stream has its first event, the database queries of the next
// `--seconds` are counted, then every review finishes and the time until all streams have ended is measured.
//
// Queries are counted by a Kysely plugin on the application's database handle (every statement the application
// sends, on either backend); on PostgreSQL also by the database's committed transactions (pg_stat_database
// xact_commit, which also counts statements sent outside Kysely, such as NOTIFY), less the bench's own reads of it.
//
// Bun's fetch keeps at most 256 requests in flight unless BUN_CONFIG_MAX_HTTP_REQUESTS says more: the script sets it.
//
// Usage: bun scripts/bench/bench-streams.ts [--database-url postgres://postgres@127.0.0.1:5432/postgres]
//        [--users 100] [--per-user 10] [--seconds 10]
// Without --database-url, an in-memory embedded database; with one, a fresh database on that server, dropped at the
// end.
// Must be set before the first fetch: the open streams are requests in flight.
process.env.BUN_CONFIG_MAX_HTTP_REQUESTS ??= "20000";
import { cpus, totalmem } from "node:os";
import { parseArgs } from "node:util";
import postgres from "postgres";
import type { KyselyPlugin } from "kysely";
import { openDatabase, type DatabaseHandle } from "../../src/db/database.ts";
import { migrateToLatest } from "../../src/db/migrator.ts";
import { loadConfig } from "../../src/config.ts";
import type { AppDeps } from "../../src/deps.ts";
import { createApp } from "../../src/app.ts";
import { PgJobQueue } from "../../src/jobs/queue-pg.ts";
import { issueAccessToken } from "../../src/auth/session.ts";
import * as events from "../../src/reviews/events.ts";
import type { SearchIndex } from "../../search/search-index.ts";

const { values } = parseArgs({
  options: {
    "database-url": { type: "string" },
    users: { type: "string", default: "100" },
    "per-user": { type: "string", default: "10" },
    seconds: { type: "string", default: "10" },
  },
});
const USERS = Number(values.users);
const PER_USER = Number(values["per-user"]);
const SECONDS = Number(values.seconds);

const unusedSearch: SearchIndex = {
  index: async () => {},
  delete: async () => {},
  refresh: async () => {},
  search: async () => ({ hits: [], total: 0, totalIsLowerBound: false }),
  similar: async () => ({ hits: [], total: 0, totalIsLowerBound: false }),
};

type BenchDatabase = DatabaseHandle & { url?: string; admin?: postgres.Sql; name?: string };

async function freshDatabase(serverUrl?: string): Promise<BenchDatabase> {
  if (!serverUrl) {
    const handle = openDatabase({ dataDir: "memory://" });
    await migrateToLatest(handle.db);
    return handle;
  }
  const name = `lr_bench_streams_${Date.now().toString(36)}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const handle = openDatabase({ databaseUrl: url.toString(), dataDir: "", poolSize: 10 });
  await migrateToLatest(handle.db);
  return {
    ...handle,
    url: url.toString(),
    admin,
    name,
    async close() {
      await handle.close();
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

const handle = await freshDatabase(values["database-url"]);
let queries = 0;
const counter: KyselyPlugin = {
  transformQuery: (a) => {
    queries++;
    return a.node;
  },
  transformResult: async (a) => a.result,
};
const db = handle.db.withPlugin(counter);
const config = loadConfig({ DATABASE_URL: handle.url, WORKER: "off", SEED_SAMPLE: "false", LOG_LEVEL: "silent" });
const secretKey = crypto.getRandomValues(new Uint8Array(32));
const deps: AppDeps = { config, db, search: unusedSearch, jobs: new PgJobQueue(db), secretKey };
// The process's one listener, as src/server.ts starts it (absent in versions before issue 22).
type StartFeed = (url?: string) => Promise<{ close(): Promise<void> }>;
const startFeed = (events as Record<string, unknown>).startReviewChangeFeed as StartFeed | undefined;
const feed = startFeed ? await startFeed(handle.url) : null;
const server = Bun.serve({ port: 0, fetch: createApp(deps).fetch, idleTimeout: 60 });

/** Committed transactions of the bench database so far (PostgreSQL only). */
async function commits(): Promise<number | null> {
  if (!handle.admin) return null;
  const [row] = await handle.admin`
    SELECT xact_commit::bigint AS n FROM pg_stat_database WHERE datname = ${handle.name!}`;
  return Number(row!.n);
}

try {
  const streams: { reviewId: string; events: string[]; done: Promise<void>; abort: AbortController }[] = [];
  const reviewIds: string[] = [];
  const t0Open = performance.now();
  for (let u = 0; u < USERS; u++) {
    const user = await handle.db
      .insertInto("users")
      .values({ email: `s${u}@streams-bench.test`, full_name: `S ${u}`, hashed_password: "x" })
      .returning(["id", "token_version"])
      .executeTakeFirstOrThrow();
    const token = await issueAccessToken(deps, user);
    const opened = Array.from({ length: PER_USER }, async () => {
      const review = await handle.db
        .insertInto("literature_reviews")
        .values({ user_id: user.id, status: "searching", user_query: "spinal fusion" })
        .returning("id")
        .executeTakeFirstOrThrow();
      reviewIds.push(review.id);
      const abort = new AbortController();
      const res = await fetch(`http://127.0.0.1:${server.port}/api/v1/literature_review/events/${review.id}`, {
        headers: { authorization: `Bearer ${token}` },
        signal: abort.signal,
      });
      if (res.status !== 200) throw new Error(`stream ${streams.length + 1}: ${res.status} ${await res.text()}`);
      const seen: string[] = [];
      const done = (async () => {
        const decoder = new TextDecoder();
        let text = "";
        try {
          for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
            text += decoder.decode(chunk, { stream: true });
            for (let cut = text.indexOf("\n\n"); cut >= 0; cut = text.indexOf("\n\n")) {
              const block = text.slice(0, cut);
              text = text.slice(cut + 2);
              const data = block.split("\n").find((l) => l.startsWith("data:"));
              if (data) seen.push(JSON.parse(data.slice(5)).status);
            }
          }
        } catch {
          // aborted at the end
        }
      })();
      streams.push({ reviewId: review.id, events: seen, done, abort });
    });
    await Promise.all(opened);
  }
  const openedIn = (performance.now() - t0Open) / 1000;
  const allOpen = performance.now();
  while (streams.some((s) => s.events.length === 0) && performance.now() - allOpen < 30_000) await Bun.sleep(20);
  const ready = streams.filter((s) => s.events.length > 0).length;

  // PostgreSQL reports a backend's transactions when it goes idle, up to 10 s late (PGSTAT_IDLE_INTERVAL): the
  // opening's own transactions must be in before the count starts.
  if (handle.admin) await Bun.sleep(11_000);
  queries = 0;
  const before = await commits();
  const t0 = performance.now();
  await Bun.sleep(SECONDS * 1000);
  const elapsed = (performance.now() - t0) / 1000;
  const counted = queries;
  const after = await commits();
  // The bench's own two reads of pg_stat_database are transactions of the maintenance database, not of this one.
  const transactions = before !== null && after !== null ? after - before : null;

  // Every review finishes, as the pipeline would: stored, then announced.
  await handle.db
    .updateTable("literature_reviews")
    .set({ status: "complete", updated_at: new Date() })
    .where("id", "in", reviewIds)
    .execute();
  const finished = performance.now();
  for (const id of reviewIds) events.announceReviewChange(id);
  const ended = await Promise.race([
    Promise.all(streams.map((s) => s.done)).then(() => true),
    Bun.sleep(30_000).then(() => false),
  ]);
  const endSeconds = (performance.now() - finished) / 1000;
  const completed = streams.filter((s) => s.events.at(-1) === "complete").length;

  console.log(
    `machine: ${cpus().length} × ${cpus()[0]?.model}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB; ` +
      `database: ${handle.url ? "PostgreSQL" : "embedded (PGlite)"}; ${USERS} users × ${PER_USER} streams = ` +
      `${streams.length} open in ${openedIn.toFixed(1)} s (${ready} with their first event)`,
  );
  console.log(
    `idle for ${elapsed.toFixed(1)} s: ${counted} queries from the application (${(counted / elapsed).toFixed(1)}/s)` +
      (transactions !== null
        ? `, ${transactions} committed transactions in the database (${(transactions / elapsed).toFixed(1)}/s)`
        : ""),
  );
  console.log(
    `then every review finished: ${completed}/${streams.length} streams got 'complete' and ` +
      `${ended ? "all ended" : "not all ended"} within ${endSeconds.toFixed(2)} s`,
  );
  for (const s of streams) s.abort.abort();
} finally {
  server.stop(true);
  await feed?.close();
  await handle.close();
}
