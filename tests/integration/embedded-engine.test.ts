import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Kysely, sql } from "kysely";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { createApp } from "../../src/app.ts";
import { loadConfig } from "../../src/config.ts";
import type { AppDeps } from "../../src/deps.ts";
import { openDatabase, type DatabaseHandle } from "../../src/db/database.ts";
import { EmbeddedDialect, EmbeddedEngine, TURN_AFTER_MS } from "../../src/db/embedded.ts";
import { migrateToLatest } from "../../src/db/migrator.ts";
import type { DB } from "../../src/db/types.ts";
import { PgJobQueue } from "../../src/jobs/queue-pg.ts";
import { issueAccessToken } from "../../src/auth/session.ts";
import { PostgresSearchIndex } from "../../search/postgres-index.ts";
import { TEST_ENV } from "../support/app.ts";

/**
 * The embedded database's driver (src/db/embedded.ts, issue 34): back-to-back statements let the event loop turn, and
 * an engine that stops in the middle of a statement is reopened from its data folder with every committed write.
 */

/**
 * Makes the engine stop in its next statement the way issue 34's probe made it stop: PostgreSQL's error exit
 * (emscripten's ExitStatus 100, how PGlite unwinds an ERROR) thrown again while PGlite recovers from it, so that it
 * escapes the statement. The two entry points PGlite calls for every statement are replaced once; what runs is
 * PGlite's own statement loop, its recovery call and its clean-up.
 */
function stopDuringNextStatement(engine: PGlite): void {
  const mod = engine.Module as unknown as Record<string, () => void>;
  const loopOnce = mod._PostgresMainLoopOnce!;
  const longJmp = mod._PostgresMainLongJmp!;
  const exit = Object.assign(new Error("Program terminated with exit(100)"), { name: "ExitStatus", status: 100 });
  mod._PostgresMainLoopOnce = () => {
    mod._PostgresMainLoopOnce = loopOnce;
    throw exit;
  };
  mod._PostgresMainLongJmp = () => {
    mod._PostgresMainLongJmp = longJmp;
    throw exit;
  };
}

describe("turns: a run of statements lets the event loop turn", () => {
  test("a timer due meanwhile runs before the run ends, not after it", async () => {
    // A clock that advances 4 ms per reading: the driver sees TURN_AFTER_MS pass after a few statements.
    let clock = 0;
    const engine = new EmbeddedEngine({ dataDir: "memory://", options: {}, now: () => (clock += 4) });
    const db = new Kysely<DB>({ dialect: new EmbeddedDialect(engine) });
    try {
      await sql`SELECT 1`.execute(db);
      let done = 0;
      let doneWhenTimerRan = -1;
      setTimeout(() => {
        doneWhenTimerRan = done;
      }, 0);
      // Statement after statement, as a job runs them: each awaited, nothing else awaited in between.
      for (let i = 0; i < 50; i++) {
        await sql`SELECT ${i}::int`.execute(db);
        done++;
      }
      expect(doneWhenTimerRan).toBeGreaterThanOrEqual(0);
      expect(doneWhenTimerRan).toBeLessThan(50);
      expect(TURN_AFTER_MS).toBeLessThanOrEqual(20);
    } finally {
      await db.destroy();
    }
  });
});

describe("an engine that stops during a statement is reopened, with every committed write", () => {
  let dir: string;
  let handle: DatabaseHandle;
  let deps: AppDeps;
  let app: ReturnType<typeof createApp>;
  let headers: { authorization: string };
  const log: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "litreview-embedded-stop-"));
    handle = openDatabase({ dataDir: dir, log: (line) => log.push(line) });
    await migrateToLatest(handle.db);
    deps = {
      config: loadConfig(TEST_ENV),
      db: handle.db,
      search: new PostgresSearchIndex(handle.db),
      jobs: new PgJobQueue(handle.db),
      secretKey: crypto.getRandomValues(new Uint8Array(32)),
    };
    app = createApp(deps);
    const user = await handle.db
      .insertInto("users")
      .values({ email: "stop@example.com", full_name: "Stop Test", hashed_password: "x", is_active: true })
      .returningAll()
      .executeTakeFirstOrThrow();
    await handle.db
      .insertInto("subscriptions")
      .values({ user_id: user.id, status: "active", subscription_type: "plus", is_trial: false })
      .execute();
    headers = { authorization: `Bearer ${await issueAccessToken(deps, user)}` };
  });

  afterAll(async () => {
    await handle?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test("the request during the stop answers 503; the log says so; earlier writes are there and new ones work", async () => {
    const created: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await app.request("/api/v1/literature_review/create", { method: "POST", headers });
      expect(res.status).toBe(200);
      created.push(((await res.json()) as { id: string }).id);
    }
    const engineBefore = handle.embedded!.current;

    stopDuringNextStatement(engineBefore);
    const during = await app.request("/api/v1/users/me", { headers });
    expect(during.status).toBe(503);
    expect(((await during.json()) as { detail: string }).detail).toBeString();

    expect(handle.embedded!.current).not.toBe(engineBefore);
    expect(handle.embedded!.reopened).toBe(1);
    expect(log.some((l) => l.includes("the engine stopped during a statement") && l.includes("exit(100)"))).toBe(true);
    expect(log.some((l) => l.includes(`reopening ${dir}`))).toBe(true);
    expect(log.some((l) => /reopened in \d+ ms/.test(l))).toBe(true);

    const me = await app.request("/api/v1/users/me", { headers });
    expect(me.status).toBe(200);
    const history = await app.request("/api/v1/literature_review/history", { headers });
    expect(history.status).toBe(200);
    const ids = ((await history.json()) as { data: { id: string }[] }).data.map((r) => r.id);
    expect(ids.sort()).toEqual([...created].sort());
    const after = await app.request("/api/v1/literature_review/create", { method: "POST", headers });
    expect(after.status).toBe(200);
  });

  test("a transaction open when the engine stops is rolled back, its later statements fail, committed ones stay", async () => {
    await sql`CREATE TABLE IF NOT EXISTS stop_probe (n integer)`.execute(handle.db);
    await sql`INSERT INTO stop_probe VALUES (1)`.execute(handle.db);
    const attempt = handle.db.transaction().execute(async (trx) => {
      await sql`INSERT INTO stop_probe VALUES (2)`.execute(trx);
      stopDuringNextStatement(handle.embedded!.current);
      await sql`INSERT INTO stop_probe VALUES (3)`.execute(trx).catch(() => {});
      // The transaction died with the engine: going on in it fails rather than writing outside it.
      await sql`INSERT INTO stop_probe VALUES (4)`.execute(trx);
    });
    await expect(attempt).rejects.toThrow(/reopened during this transaction/);
    const { rows } = await sql<{ n: number }>`SELECT n FROM stop_probe ORDER BY n`.execute(handle.db);
    expect(rows.map((r) => r.n)).toEqual([1]);
  });

  test("reopened from a copy of the folder taken while the engine runs (no shutdown), committed rows are all there", async () => {
    // The engine is never closed here: the copy is what a process killed at this moment leaves on disk.
    await sql`CREATE TABLE IF NOT EXISTS crash_probe (n integer)`.execute(handle.db);
    for (let n = 1; n <= 20; n++) await sql`INSERT INTO crash_probe VALUES (${n})`.execute(handle.db);
    const copy = `${dir}-copy`;
    await Bun.$`cp -r ${dir} ${copy}`.quiet();
    const reopened = new PGlite(copy);
    try {
      const { rows } = await reopened.query<{ n: number }>("SELECT count(*)::int AS n FROM crash_probe");
      expect(rows[0]!.n).toBe(20);
    } finally {
      await reopened.close();
      rmSync(copy, { recursive: true, force: true });
    }
  });
});
