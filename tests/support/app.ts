import type { Insertable } from "kysely";
import { createApp } from "../../src/app.ts";
import { loadConfig } from "../../src/config.ts";
import type { AppDeps } from "../../src/deps.ts";
import type { Database, DatabaseHandle } from "../../src/db/database.ts";
import type { SubscriptionsTable } from "../../src/db/types.ts";
import { PgJobQueue } from "../../src/jobs/queue-pg.ts";
import { runJobsUntilIdle } from "../../src/jobs/worker.ts";
import { jobHandlers } from "../../src/job-registry.ts";
import { issueAccessToken } from "../../src/auth/session.ts";
import { toUserPublic, type UserPublic } from "../../src/users/schemas.ts";
import type { SearchIndex } from "../../search/search-index.ts";
import { PostgresSearchIndex } from "../../search/postgres-index.ts";
import { createTestDatabase } from "./database.ts";

/**
 * The application wired for integration tests: a fresh migrated database (PGlite or PostgreSQL), a random
 * signing key, test configuration, the real job queue (jobs are stored; nothing runs them unless a test does),
 * the PostgreSQL full-text search index over the same database, and factories that create signed-in users
 * without going through the slow password hashing each time.
 *
 * Typical use:
 *   const t = await createTestApp(backend);
 *   const alice = await t.signup();                      // active Plus trial, like a real signup
 *   const res = await t.app.request("/api/v1/users/me", { headers: alice.headers });
 *   await t.close();
 */
export interface TestApp {
  backend: "pglite" | "postgres";
  /** The Hono app; call `app.request(path, init)`. */
  app: ReturnType<typeof createApp>;
  deps: AppDeps;
  /** Same as deps.db, for direct setup and assertions. */
  db: Database;
  /** On PostgreSQL, the test database's address (another process can open it); undefined on in-memory PGlite. */
  databaseUrl?: string;
  /** On PGlite, the embedded engine (src/db/embedded.ts): how often it was reopened. */
  embedded?: DatabaseHandle["embedded"];
  /** Closes the database (and drops it on PostgreSQL). Call it in afterAll. */
  close(): Promise<void>;
  /** Creates a user directly in the database and signs a token for it. See SignupOptions for the defaults. */
  signup(overrides?: SignupOptions): Promise<TestUser>;
  /** Signs a fresh access token for an existing user at their current token_version. */
  tokenFor(userId: string): Promise<string>;
  /**
   * Runs the queued jobs that are due (queued e-mail, reviews…) with the application's handlers, as a worker would,
   * until none is due; retries scheduled for later are not waited for. @returns how many ran.
   */
  runJobs(): Promise<number>;
}

/** A user created by `signup`, ready to make requests. */
export interface TestUser {
  user: UserPublic;
  /** A valid access token for `user`. */
  token: string;
  /** `{ authorization: "Bearer <token>" }`, to spread into request headers. */
  headers: { authorization: string };
  /** The user's plain-text password, for tests that log in through the API. */
  password: string;
}

/** Subscription presets of `signup`; any other object is inserted as the subscription row (user_id is filled in). */
export type SubscriptionPreset = "trial" | "expired_trial" | "none" | Omit<Insertable<SubscriptionsTable>, "user_id">;

export interface SignupOptions {
  /** Default: a unique address such as user-3-x1y2z3@example.com. */
  email?: string;
  /** Default: "Test User <n>". */
  full_name?: string | null;
  /** Default: DEFAULT_PASSWORD (stored as a low-cost argon2id hash, FIXTURE_ARGON2, computed once per process). */
  password?: string;
  institution_email?: string | null;
  description?: string | null;
  /** Default false. */
  is_superuser?: boolean;
  /** Default true. */
  is_active?: boolean;
  /**
   * "trial" (default): active Plus trial ending in 7 days, as a real signup creates.
   * "expired_trial": the same trial, whose end passed yesterday (still stored as "active", as it would be before
   * anyone reads it). "none": no subscription. An object: that row, e.g.
   * `{ status: "active", subscription_type: "pro", is_trial: false }`.
   */
  subscription?: SubscriptionPreset;
}

/** The password of users created by `signup` unless one is given. */
export const DEFAULT_PASSWORD = "correct horse battery";

/** Configuration values used by every test app; `createTestApp`'s `env` option overrides them. */
export const TEST_ENV: Record<string, string> = {
  NODE_ENV: "test",
  LOG_LEVEL: "silent",
  SEED_SAMPLE: "false",
  WORKER: "off",
  // Nothing leaves the machine in tests: a test that exercises PubMed on demand turns it on with a local stand-in.
  PUBMED_ON_DEMAND: "off",
  PUBLIC_URL: "http://localhost:3000",
  SUPPORT_EMAIL: "support@litreview.test",
};

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * argon2id at its smallest cost (64 KiB, 1 pass) for the users `signup` stores directly: a login verifies a stored
 * hash at the cost written in it, and at the production cost (src/auth/passwords.ts, about 50 ms of CPU) the suites'
 * thousands of logins were a large share of its CPU time. Only these fixture rows use it: accounts created or
 * passwords changed through the API are hashed by hashPassword at the production cost, which users.test.ts checks,
 * and logins still go through the production verification (docs/decisions/0040-test-suite-budget.md).
 */
const FIXTURE_ARGON2 = { algorithm: "argon2id", memoryCost: 64, timeCost: 1 } as const;

// Hashes are computed once per distinct password and process.
const hashCache = new Map<string, Promise<string>>();
function cachedHash(password: string): Promise<string> {
  let hash = hashCache.get(password);
  if (!hash) {
    hash = Bun.password.hash(password, FIXTURE_ARGON2);
    hashCache.set(password, hash);
  }
  return hash;
}

let userCounter = 0;

/**
 * Builds a TestApp on a fresh database of `backend`.
 * @param opts.env configuration overrides (merged over TEST_ENV), e.g. `{ SMTP_URL: "smtp://127.0.0.1:2525" }`
 * @param opts.search a search index to use instead of the default PostgresSearchIndex on the test database
 */
export async function createTestApp(
  backend: "pglite" | "postgres",
  opts: { env?: Record<string, string>; search?: SearchIndex } = {},
): Promise<TestApp> {
  const handle = await createTestDatabase(backend);
  const db = handle.db;
  const secretKey = crypto.getRandomValues(new Uint8Array(32));
  const config = loadConfig({ ...TEST_ENV, ...opts.env });
  const deps: AppDeps = {
    config,
    db,
    search: opts.search ?? new PostgresSearchIndex(db),
    jobs: new PgJobQueue(db),
    secretKey,
  };
  const app = createApp(deps);

  async function tokenFor(userId: string): Promise<string> {
    const row = await db
      .selectFrom("users")
      .select(["id", "token_version"])
      .where("id", "=", userId)
      .executeTakeFirstOrThrow();
    return issueAccessToken(deps, row);
  }

  async function signup(o: SignupOptions = {}): Promise<TestUser> {
    const n = ++userCounter;
    const password = o.password ?? DEFAULT_PASSWORD;
    const row = await db
      .insertInto("users")
      .values({
        email: (o.email ?? `user-${n}-${Math.random().toString(36).slice(2, 8)}@example.com`).toLowerCase(),
        full_name: o.full_name === undefined ? `Test User ${n}` : o.full_name,
        hashed_password: await cachedHash(password),
        institution_email: o.institution_email ?? null,
        description: o.description ?? null,
        is_superuser: o.is_superuser ?? false,
        is_active: o.is_active ?? true,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const preset = o.subscription ?? "trial";
    if (preset !== "none") {
      const now = Date.now();
      const trialEnd = new Date(preset === "expired_trial" ? now - DAY_MS : now + 7 * DAY_MS);
      const values: Omit<Insertable<SubscriptionsTable>, "user_id"> = typeof preset === "object"
        ? preset
        : {
            status: "active",
            subscription_type: "plus",
            billing_interval: "annual",
            is_trial: true,
            trial_ends_at: trialEnd,
            current_period_end: trialEnd,
          };
      await db
        .insertInto("subscriptions")
        .values({ ...values, user_id: row.id })
        .execute();
    }
    const token = await issueAccessToken(deps, row);
    return { user: toUserPublic(row), token, headers: { authorization: `Bearer ${token}` }, password };
  }

  const runJobs = () => runJobsUntilIdle(deps, jobHandlers(deps));

  return {
    backend,
    app,
    deps,
    db,
    databaseUrl: handle.url,
    embedded: handle.embedded,
    close: () => handle.close(),
    signup,
    tokenFor,
    runJobs,
  };
}
