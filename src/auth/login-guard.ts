import { sql } from "kysely";
import type { Database } from "../db/database.ts";
import { recordActivity } from "../privacy/activity.ts";
import { LIMITS, assertAllowed, hit, peek, reset, tooManyRequests, type RateLimit } from "./rate-limit.ts";

/**
 * The login's defence against guessing that hands no stranger a lock on someone else's account
 * (docs/decisions/0012-abuse-limits.md; OWASP ASVS 4.0 V2.2.1, NIST SP 800-63B §5.2.2):
 *
 * 1. Per client: at most 30 attempts a minute and 100 failures an hour, whatever the accounts.
 * 2. Per account and client together: the first FREE_FAILURES failures cost nothing; after that each attempt must
 *    wait 2^(failures − FREE_FAILURES) seconds after the previous failure, up to MAX_DELAY_SECONDS. A typo costs a
 *    user nothing; one client guessing is slowed to a few dozen tries an hour; and it slows only that client.
 * 3. Per account: at most 100 failures an hour from all clients together (ASVS V2.2.1). Past that, clients from
 *    which the account has logged in before (known clients, kept KNOWN_CLIENT_DAYS) still get in, subject to their
 *    own rule 2; other clients wait for the window to pass. A botnet can thus make at most 100 guesses an hour
 *    against an account, and cannot lock its owner out from where the owner usually logs in.
 *
 * A client is an IPv4 address or an IPv6 /64 (src/auth/client-address.ts); behind a proxy, TRUST_PROXY makes it the
 * visitor's rather than the proxy's. A request without an address (made in-process) is subject to no per-client
 * limit and counts as the client "local" for the rules on accounts.
 */

/** Failures per account and client that cost no delay. */
export const FREE_FAILURES = 5;
/** The longest delay between attempts of one client on one account. */
export const MAX_DELAY_SECONDS = 15 * 60;
/** A pair's failures are forgotten after this long without a failure. */
const PAIR_QUIET_SECONDS = 24 * 60 * 60;
/** How long a client stays known to an account after its last successful login. */
export const KNOWN_CLIENT_DAYS = 90;

const pairKey = (account: string, client: string) => `login-pair:${account}|${client}`;

/** Seconds a pair must wait after its `failures`-th failure before trying again (0 within the free failures). */
export function delayAfter(failures: number): number {
  return failures < FREE_FAILURES ? 0 : Math.min(MAX_DELAY_SECONDS, 2 ** (failures - FREE_FAILURES + 1));
}

/**
 * Refuses (429 with Retry-After) an attempt to log in to `account` from `client` that one of the rules forbids;
 * counts the attempt against the client's burst limit.
 * @param account the lower-cased address typed (whether or not it has an account).
 * @param perClientPerMinute the client's burst limit (LOGINS_PER_CLIENT_PER_MINUTE; default LIMITS.loginPerClient.max).
 */
export async function assertLoginAllowed(
  db: Database,
  account: string,
  client: string | null,
  perClientPerMinute: number = LIMITS.loginPerClient.max,
): Promise<void> {
  const who = client ?? "local";
  if (client) {
    assertAllowed(await hit(db, { ...LIMITS.loginPerClient, max: perClientPerMinute }, client));
    if ((await peek(db, LIMITS.loginFailuresPerClient, client)) >= LIMITS.loginFailuresPerClient.max) {
      throw tooManyRequests({
        hits: 0,
        allowed: false,
        retryAfterSeconds: await windowLeft(db, LIMITS.loginFailuresPerClient, client),
      });
    }
  }
  const pair = await db
    .selectFrom("rate_limits")
    .select(["hits", sql<number>`extract(epoch FROM (last_hit_at - now()))`.as("since")])
    .where("key", "=", pairKey(account, who))
    .where(sql<boolean>`last_hit_at > now() - make_interval(secs => ${PAIR_QUIET_SECONDS})`)
    .executeTakeFirst();
  if (pair) {
    const wait = Math.ceil(delayAfter(pair.hits) + Number(pair.since));
    if (wait > 0) throw tooManyRequests({ hits: pair.hits, allowed: false, retryAfterSeconds: wait });
  }
  if (
    (await peek(db, LIMITS.loginFailuresPerAccount, account)) >= LIMITS.loginFailuresPerAccount.max &&
    !(await isKnownClient(db, account, who))
  ) {
    throw tooManyRequests({
      hits: 0,
      allowed: false,
      retryAfterSeconds: await windowLeft(db, LIMITS.loginFailuresPerAccount, account),
    });
  }
}

/** Counts a failed login against the account, the client, and the pair of them. */
export async function recordLoginFailure(db: Database, account: string, client: string | null): Promise<void> {
  const who = client ?? "local";
  await hit(db, LIMITS.loginFailuresPerAccount, account);
  if (client) await hit(db, LIMITS.loginFailuresPerClient, client);
  await sql`
    INSERT INTO rate_limits AS r (key, hits, window_started_at, last_hit_at)
    VALUES (${pairKey(account, who)}, 1, now(), now())
    ON CONFLICT (key) DO UPDATE SET
      hits = CASE WHEN r.last_hit_at <= now() - make_interval(secs => ${PAIR_QUIET_SECONDS}) THEN 1 ELSE r.hits + 1 END,
      window_started_at = CASE WHEN r.last_hit_at <= now() - make_interval(secs => ${PAIR_QUIET_SECONDS}) THEN now() ELSE r.window_started_at END,
      last_hit_at = now()`.execute(db);
}

/** After a successful login: the pair's failures are forgotten and the client becomes known to the account. */
export async function recordLoginSuccess(
  db: Database,
  userId: string,
  account: string,
  client: string | null,
): Promise<void> {
  const who = client ?? "local";
  await db.deleteFrom("rate_limits").where("key", "=", pairKey(account, who)).execute();
  await db
    .insertInto("known_login_clients")
    .values({ user_id: userId, client_key: who })
    .onConflict((oc) => oc.columns(["user_id", "client_key"]).doUpdateSet({ last_login_at: sql`now()` }))
    .execute();
  // The retention policy's clock: a login keeps the account (src/privacy/retention.ts).
  await recordActivity(db, userId);
  if (Math.random() < 0.01) {
    await db
      .deleteFrom("known_login_clients")
      .where("last_login_at", "<", sql<Date>`now() - make_interval(days => ${KNOWN_CLIENT_DAYS})`)
      .execute();
  }
}

/** After a password reset by e-mail (the owner proved control of the address): the account's failures are forgotten. */
export async function clearAccountFailures(db: Database, account: string): Promise<void> {
  await reset(db, LIMITS.loginFailuresPerAccount, account);
  await db
    .deleteFrom("rate_limits")
    .where("key", "like", `login-pair:${account.replace(/[\\%_]/g, (c) => `\\${c}`)}|%`)
    .execute();
}

async function isKnownClient(db: Database, account: string, client: string): Promise<boolean> {
  const row = await db
    .selectFrom("known_login_clients as k")
    .innerJoin("users as u", "u.id", "k.user_id")
    .select("k.client_key")
    .where(sql<string>`lower(u.email)`, "=", account)
    .where("k.client_key", "=", client)
    .where("k.last_login_at", ">", sql<Date>`now() - make_interval(days => ${KNOWN_CLIENT_DAYS})`)
    .executeTakeFirst();
  return row !== undefined;
}

/** Seconds until the current window of `limit` for `subject` ends (at least 1). */
async function windowLeft(db: Database, limit: RateLimit, subject: string): Promise<number> {
  const row = await db
    .selectFrom("rate_limits")
    .select(
      sql<number>`ceil(extract(epoch FROM (window_started_at + make_interval(secs => ${limit.windowSeconds}) - now())))`.as(
        "left",
      ),
    )
    .where("key", "=", `${limit.name}:${subject}`)
    .executeTakeFirst();
  return Math.max(1, Number(row?.left ?? 1));
}
