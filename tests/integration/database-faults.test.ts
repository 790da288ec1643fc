import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sql } from "kysely";
import { createApp } from "../../src/app.ts";
import type { AppDeps } from "../../src/deps.ts";
import { allowLongStatements, openDatabase, type DatabaseHandle } from "../../src/db/database.ts";
import { SERVICE_UNAVAILABLE } from "../../src/http/errors.ts";
import { PgJobQueue } from "../../src/jobs/queue-pg.ts";
import { PostgresSearchIndex } from "../../search/postgres-index.ts";
import { createTestApp, type TestApp, type TestUser } from "../support/app.ts";

// A database that cannot answer (down, unreachable, a table locked) gives 503 with Retry-After, never 401 (which
// makes clients drop the session, docs/product.md §8), never 500, and never a request left hanging (issue 7, items
// 1–2). The full outage-and-recovery run against the local server is scripts/fault-test.ts (it stops PostgreSQL).

/** The test app's configuration and key over another database handle (same signing key: tokens stay valid). */
function appOver(t: TestApp, handle: DatabaseHandle) {
  const deps: AppDeps = {
    ...t.deps,
    db: handle.db,
    search: new PostgresSearchIndex(handle.db),
    jobs: new PgJobQueue(handle.db),
  };
  return createApp(deps);
}

async function expectUnavailable(res: Response): Promise<void> {
  expect(res.status).toBe(503);
  expect(res.headers.get("retry-after")).toBe("5");
  expect(await res.json()).toEqual({ detail: SERVICE_UNAVAILABLE });
}

describe("an unreachable database", () => {
  let t: TestApp;
  let user: TestUser;
  let down: DatabaseHandle;
  beforeAll(async () => {
    t = await createTestApp("pglite");
    user = await t.signup();
    // Nothing listens on port 1.
    down = openDatabase({
      databaseUrl: "postgres://postgres@127.0.0.1:1/none",
      dataDir: "",
      timeouts: { connectSeconds: 1, statementMs: 1000, lockMs: 500 },
    });
  });
  afterAll(async () => {
    await down?.close().catch(() => {});
    await t?.close();
  });

  test("signed-in calls answer 503 with Retry-After, not 401, so clients keep their session", async () => {
    const app = appOver(t, down);
    await expectUnavailable(await app.request("/api/v1/users/me", { headers: user.headers }));
    await expectUnavailable(await app.request("/api/v1/literature_review/history", { headers: user.headers }));
  });

  test("signup and login answer 503, not 500", async () => {
    const app = appOver(t, down);
    await expectUnavailable(
      await app.request("/api/v1/users/signup", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "new@example.org", full_name: "New Person", password: "long-enough-1" }),
      }),
    );
    await expectUnavailable(
      await app.request("/api/v1/login/access-token", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ username: user.user.email, password: user.password }),
      }),
    );
  });

  test("a signed-in page answers a 503 page that reloads itself, not a redirect to /login", async () => {
    const res = await appOver(t, down).request("/home", { headers: { cookie: `access_token=${user.token}` } });
    expect(res.status).toBe(503);
    expect(res.headers.get("location")).toBeNull();
    expect(res.headers.get("retry-after")).toBe("5");
    const html = await res.text();
    expect(html).toContain("Temporarily unavailable");
    expect(html).toContain('http-equiv="refresh"');
  });

  test("a token whose subject is not a user id is still just 401 (that is not a database error)", async () => {
    const { createAccessToken } = await import("../../src/auth/tokens.ts");
    const token = await createAccessToken(t.deps.secretKey, { sub: "not-a-uuid", ver: 0 }, 5);
    expect((await t.app.request("/api/v1/users/me", { headers: { authorization: `Bearer ${token}` } })).status).toBe(
      401,
    );
  });
});

describe.if(Boolean(process.env.TEST_DATABASE_URL))("a table locked by another session (postgres)", () => {
  let t: TestApp;
  let user: TestUser;
  let timed: DatabaseHandle;
  beforeAll(async () => {
    t = await createTestApp("postgres");
    user = await t.signup();
    timed = openDatabase({
      databaseUrl: t.databaseUrl!,
      dataDir: "",
      timeouts: { connectSeconds: 2, statementMs: 2000, lockMs: 500 },
    });
  });
  afterAll(async () => {
    await timed?.close();
    await t?.close();
  });

  test("a request waiting on the lock answers 503 within the lock time-out instead of hanging", async () => {
    const app = appOver(t, timed);
    const locked = Promise.withResolvers<void>();
    const release = Promise.withResolvers<void>();
    const holder = t.db.transaction().execute(async (trx) => {
      await sql`LOCK TABLE users IN ACCESS EXCLUSIVE MODE`.execute(trx);
      locked.resolve();
      await release.promise;
    });
    await locked.promise;
    const started = performance.now();
    try {
      await expectUnavailable(await app.request("/api/v1/users/me", { headers: user.headers }));
    } finally {
      release.resolve();
      await holder;
    }
    expect(performance.now() - started).toBeLessThan(2000);
    // And once the lock is gone, the same handle answers normally.
    expect((await app.request("/api/v1/users/me", { headers: user.headers })).status).toBe(200);
  });
});

describe.if(Boolean(process.env.TEST_DATABASE_URL))("corpus-wide statements of background jobs (postgres)", () => {
  let t: TestApp;
  let timed: DatabaseHandle;
  beforeAll(async () => {
    t = await createTestApp("postgres");
    timed = openDatabase({
      databaseUrl: t.databaseUrl!,
      dataDir: "",
      timeouts: { connectSeconds: 2, statementMs: 100, lockMs: 500 },
    });
  });
  afterAll(async () => {
    await timed?.close();
    await t?.close();
  });

  test("allowLongStatements lifts the request-sized statement time-out for one transaction only", async () => {
    const slow = sql`SELECT pg_sleep(0.3)`;
    await expect(timed.db.transaction().execute((trx) => slow.execute(trx))).rejects.toMatchObject({ code: "57014" });
    await timed.db.transaction().execute(async (trx) => {
      await allowLongStatements(trx, 5000);
      await slow.execute(trx);
    });
    await expect(slow.execute(timed.db)).rejects.toMatchObject({ code: "57014" }); // the connection's default is back
  });
});
