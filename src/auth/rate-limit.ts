import { sql } from "kysely";
import type { Database } from "../db/database.ts";
import { ApiError } from "../http/errors.ts";

/**
 * Rate limits for login and password recovery.
 *
 * Counters live in the database (table rate_limits), not in memory: limits then survive restarts and hold when
 * several processes serve the API (e.g. two containers on one PostgreSQL). Each limit is a fixed window: the
 * first hit opens a window of `windowSeconds`, later hits in it count up, and the first hit after it ends opens
 * a new one. A fixed window can let through up to twice `max` around a window boundary; that is acceptable for
 * these limits, whose purpose is to make guessing and mail bombing impractical, not to meter exactly.
 * One hit is one atomic upsert, so concurrent requests cannot both slip under the limit.
 */
export interface RateLimit {
  /** Prefix of the counter key; also names the limit in logs. */
  name: string;
  /** Most hits allowed in one window. */
  max: number;
  windowSeconds: number;
}

/**
 * The fixed-window limits in force (docs/decisions/0012-abuse-limits.md). Subjects: a client key (an IPv4 address or
 * an IPv6 /64, src/auth/client-address.ts), a lower-cased e-mail address, or a user id. The login's own policy, with
 * progressive delays and known clients, is in login-guard.ts.
 */
export const LIMITS = {
  /** Login attempts per client and minute: a burst limit against guessing across many accounts. */
  loginPerClient: { name: "login-ip", max: 30, windowSeconds: 60 },
  /** Failed logins per client and hour, whatever the accounts (credential stuffing from one network). */
  loginFailuresPerClient: { name: "login-client-failures", max: 100, windowSeconds: 60 * 60 },
  /**
   * Failed logins per account and hour (unknown addresses counted too, so as to reveal nothing): at most this many
   * (ASVS 4.0 V2.2.1: "no more than 100 failed attempts per hour … on a single account"). Past it, only clients the
   * account has logged in from before may still try.
   */
  loginFailuresPerAccount: { name: "login-account", max: 100, windowSeconds: 60 * 60 },
  /** Password recovery requests per client and hour. */
  recoveryPerClient: { name: "recovery-ip", max: 10, windowSeconds: 60 * 60 },
  /**
   * Recovery mails per e-mail address and hour: past it, requests still answer the same, but no new mail goes out
   * (the links already sent stay valid), so a stranger can neither bomb an inbox nor block its owner's reset.
   */
  recoveryMailsPerAddress: { name: "recovery-address", max: 3, windowSeconds: 60 * 60 },
  /** Accounts created per client and hour (each comes with a trial); `max` is SIGNUPS_PER_CLIENT_PER_HOUR. */
  signupPerClient: { name: "signup-client", max: 10, windowSeconds: 60 * 60 },
  /** Current-password checks of PATCH /users/me/password per user and 15 minutes; a success clears the count. */
  passwordCheckPerUser: { name: "password-check", max: 5, windowSeconds: 15 * 60 },
  /**
   * User searches per signed-in user and minute. Typing a name with the client's 300 ms debounce makes a few
   * calls; 30 a minute is ample for that and makes walking the directory slow.
   */
  userSearchPerUser: { name: "user-search", max: 30, windowSeconds: 60 },
  /**
   * Shares sent per user and hour. Each one e-mails a colleague: 50 is far beyond sharing by hand and keeps an
   * account from being used to send mail in bulk.
   */
  sharesPerUser: { name: "share", max: 50, windowSeconds: 60 * 60 },
} as const satisfies Record<string, RateLimit>;

/** The state of one counter after a hit. */
export interface RateLimitState {
  /** Hits in the current window (0 when there is none). */
  hits: number;
  /** Whether this request is within the limit. */
  allowed: boolean;
  /** Seconds until the current window ends (at least 1 when not allowed). */
  retryAfterSeconds: number;
}

function keyOf(limit: RateLimit, subject: string): string {
  return `${limit.name}:${subject}`;
}

// Windows of these limits last at most an hour; rows whose window ended long ago are removed now and then.
const CLEANUP_PROBABILITY = 0.01;

/**
 * Counts one hit against `limit` for `subject` and tells whether it is allowed (hits ≤ max).
 * Hits over the limit are still counted, so hammering does not shorten the wait.
 */
export async function hit(db: Database, limit: RateLimit, subject: string): Promise<RateLimitState> {
  const window = sql`(${limit.windowSeconds}::int * interval '1 second')`;
  const row = await sql<{ hits: number; retry_after: number }>`
    INSERT INTO rate_limits AS r (key, hits, window_started_at, last_hit_at)
    VALUES (${keyOf(limit, subject)}, 1, now(), now())
    ON CONFLICT (key) DO UPDATE SET
      last_hit_at = now(),
      hits = CASE WHEN r.window_started_at <= now() - ${window} THEN 1 ELSE r.hits + 1 END,
      window_started_at = CASE WHEN r.window_started_at <= now() - ${window} THEN now() ELSE r.window_started_at END
    RETURNING hits, ceil(extract(epoch FROM (window_started_at + ${window} - now())))::int AS retry_after`.execute(db);
  if (Math.random() < CLEANUP_PROBABILITY) {
    await db.deleteFrom("rate_limits").where("window_started_at", "<", sql<Date>`now() - interval '1 day'`).execute();
  }
  const { hits, retry_after } = row.rows[0]!;
  return { hits, allowed: hits <= limit.max, retryAfterSeconds: Math.max(1, Number(retry_after)) };
}

/** The hits counted in the counter's current window (0 when it has none or it has ended). Counts nothing. */
export async function peek(db: Database, limit: RateLimit, subject: string): Promise<number> {
  const row = await db
    .selectFrom("rate_limits")
    .select("hits")
    .where("key", "=", keyOf(limit, subject))
    .where("window_started_at", ">", sql<Date>`now() - make_interval(secs => ${limit.windowSeconds})`)
    .executeTakeFirst();
  return row?.hits ?? 0;
}

/**
 * The counter's state as the next hit would find it, counting nothing: `allowed` is false when the window already
 * holds `max` hits (so a caller can refuse before doing the work, and count only what it then does).
 */
export async function peekState(db: Database, limit: RateLimit, subject: string): Promise<RateLimitState> {
  const window = sql`(${limit.windowSeconds}::int * interval '1 second')`;
  const row = await sql<{ hits: number; retry_after: number }>`
    SELECT hits, ceil(extract(epoch FROM (window_started_at + ${window} - now())))::int AS retry_after
    FROM rate_limits WHERE key = ${keyOf(limit, subject)} AND window_started_at > now() - ${window}`.execute(db);
  const hits = row.rows[0]?.hits ?? 0;
  return { hits, allowed: hits < limit.max, retryAfterSeconds: Math.max(1, Number(row.rows[0]?.retry_after ?? 1)) };
}

/** Forgets a counter (e.g. an account's failed logins after a successful login or a password reset). */
export async function reset(db: Database, limit: RateLimit, subject: string): Promise<void> {
  await db.deleteFrom("rate_limits").where("key", "=", keyOf(limit, subject)).execute();
}

/** The 429 answer: `{"detail": "Too Many Requests"}` with Retry-After in seconds. */
export function tooManyRequests(state: RateLimitState): ApiError {
  return new ApiError(429, "Too Many Requests", { "Retry-After": String(state.retryAfterSeconds) });
}

/** Throws the 429 answer when `state` is over its limit. */
export function assertAllowed(state: RateLimitState): void {
  if (!state.allowed) throw tooManyRequests(state);
}
