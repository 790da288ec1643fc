import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sql } from "kysely";
import { APP_BACKENDS } from "../support/database.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { LIMITS, hit } from "../../src/auth/rate-limit.ts";
import { FREE_FAILURES, delayAfter } from "../../src/auth/login-guard.ts";

// Abuse limits (issue 7, items 10–12; docs/decisions/0012-abuse-limits.md): guessing stays impractical without
// handing strangers a lock on someone else's account.

/**
 * What Bun passes as the app's env: the server, whose requestIP tells the client's address.
 * Requests made with it look as if they came from `address`.
 */
function fromAddress(address: string) {
  return { requestIP: () => ({ address, family: address.includes(":") ? "IPv6" : "IPv4", port: 40000 }) };
}

/** Asserts the 429 answer and returns its Retry-After in seconds. */
async function expectTooMany(res: Response, maxSeconds: number): Promise<number> {
  expect(res.status).toBe(429);
  expect(await res.json()).toEqual({ detail: "Too Many Requests" });
  const retryAfter = Number(res.headers.get("retry-after"));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(maxSeconds);
  return retryAfter;
}

for (const backend of APP_BACKENDS) {
  describe(`abuse limits (${backend})`, () => {
    let t: TestApp;
    let proxied: TestApp;
    beforeAll(async () => {
      t = await createTestApp(backend);
      proxied = await createTestApp(backend, { env: { TRUST_PROXY: "1" } });
    });
    afterAll(async () => {
      await t?.close();
      await proxied?.close();
    });

    /** A login attempt from a client address (or in-process when none is given). */
    function login(username: string, password: string, ip?: string, app = t) {
      return app.app.request(
        "/api/v1/login/access-token",
        { method: "POST", body: new URLSearchParams({ username, password }) },
        ip ? fromAddress(ip) : undefined,
      );
    }

    /** A recovery request, optionally from a given client address. */
    function recover(email: string, ip?: string) {
      return t.app.request(`/api/v1/password-recovery/${email}`, { method: "POST" }, ip ? fromAddress(ip) : undefined);
    }

    /** Pretends the pair's last failure happened `seconds` earlier than recorded. */
    async function age(account: string, seconds: number) {
      await t.db
        .updateTable("rate_limits")
        .set({ last_hit_at: sql`last_hit_at - make_interval(secs => ${seconds})` })
        .where("key", "like", `login-pair:${account}|%`)
        .execute();
    }

    test("100 wrong passwords from rotating addresses do not lock the owner out where they log in", async () => {
      const owner = await t.signup();
      expect((await login(owner.user.email, owner.password, "192.0.2.1")).status).toBe(200);
      for (let i = 0; i < LIMITS.loginFailuresPerAccount.max; i++) {
        expect((await login(owner.user.email, `guess-${i}`, `198.51.100.${i % 250}`)).status).toBe(400);
      }
      // Past 100 failures an hour the account takes no more guesses from strangers (ASVS V2.2.1)…
      await expectTooMany(await login(owner.user.email, "guess-101", "203.0.113.99"), 3600);
      await expectTooMany(await login(owner.user.email, owner.password, "203.0.113.98"), 3600);
      // …but its owner, from the client they logged in from before, gets in with the right password.
      expect((await login(owner.user.email, owner.password, "192.0.2.1")).status).toBe(200);
    });

    test("one client guessing one account is slowed progressively, and only that client", async () => {
      const u = await t.signup();
      for (let i = 0; i < FREE_FAILURES; i++)
        expect((await login(u.user.email, `typo-${i}`, "203.0.113.5")).status).toBe(400);
      const wait = await expectTooMany(await login(u.user.email, u.password, "203.0.113.5"), delayAfter(FREE_FAILURES));
      expect(wait).toBe(delayAfter(FREE_FAILURES));
      // Another client is not slowed.
      expect((await login(u.user.email, "typo-x", "203.0.113.6")).status).toBe(400);
      // Once the delay has passed, the next attempt goes through; each further failure doubles the wait.
      await age(u.user.email, wait);
      expect((await login(u.user.email, "typo-again", "203.0.113.5")).status).toBe(400);
      expect(await expectTooMany(await login(u.user.email, u.password, "203.0.113.5"), 3600)).toBe(
        delayAfter(FREE_FAILURES + 1),
      );
      await age(u.user.email, delayAfter(FREE_FAILURES + 1));
      expect((await login(u.user.email, u.password, "203.0.113.5")).status).toBe(200);
    });

    test("a few typos cost nothing, and a success forgets them", async () => {
      const u = await t.signup();
      for (let round = 0; round < 2; round++) {
        for (let i = 0; i < FREE_FAILURES - 1; i++)
          expect((await login(u.user.email, `typo-${i}`, "203.0.113.7")).status).toBe(400);
        expect((await login(u.user.email, u.password, "203.0.113.7")).status).toBe(200);
      }
    });

    test("unknown addresses are limited alike, so the limits reveal no accounts", async () => {
      const ghost = "ghost-account@example.com";
      for (let i = 0; i < FREE_FAILURES; i++)
        expect((await login(ghost, `guess-${i}`, "203.0.113.8")).status).toBe(400);
      await expectTooMany(await login(ghost, "guess", "203.0.113.8"), delayAfter(FREE_FAILURES));
      for (let i = 0; i < LIMITS.loginFailuresPerAccount.max; i++)
        await hit(t.db, LIMITS.loginFailuresPerAccount, ghost);
      await expectTooMany(await login(ghost, "any-password", "203.0.113.9"), 3600);
    });

    test("one client gets a burst of 30 login attempts a minute, and 100 failures an hour across accounts", async () => {
      const u = await t.signup();
      for (let i = 0; i < LIMITS.loginPerClient.max; i++)
        expect((await login(`burst-${i}@example.com`, "wrong-password", "203.0.113.10")).status).toBe(400);
      await expectTooMany(await login(u.user.email, u.password, "203.0.113.10"), 60);
      expect((await login(u.user.email, u.password, "203.0.113.11")).status).toBe(200);

      for (let i = 0; i < LIMITS.loginFailuresPerClient.max; i++)
        await hit(t.db, LIMITS.loginFailuresPerClient, "203.0.113.12");
      await expectTooMany(await login(u.user.email, u.password, "203.0.113.12"), 3600);
    });

    test("IPv6 clients are keyed by their /64: a fresh address in the same /64 is the same client", async () => {
      const u = await t.signup();
      for (let i = 0; i < LIMITS.loginPerClient.max; i++)
        await login(`v6-${i}@example.com`, "wrong-password", `2001:db8:aa:1::${(i + 1).toString(16)}`);
      await expectTooMany(await login(u.user.email, u.password, "2001:db8:aa:1:ffff:ffff:ffff:ffff"), 60);
      expect((await login(u.user.email, u.password, "2001:db8:aa:2::1")).status).toBe(200);
    });

    test("a forged X-Forwarded-For does not get around the limits unless TRUST_PROXY says a proxy writes it", async () => {
      for (let i = 0; i < LIMITS.loginPerClient.max; i++) await hit(t.db, LIMITS.loginPerClient, "203.0.113.20");
      const forged = await t.app.request(
        "/api/v1/login/access-token",
        {
          method: "POST",
          headers: { "x-forwarded-for": "198.51.100.1" },
          body: new URLSearchParams({ username: "a@example.com", password: "whatever-pass" }),
        },
        fromAddress("203.0.113.20"),
      );
      await expectTooMany(forged, 60);
    });

    test("behind a trusted proxy, the visitors of one campus NAT are not one client", async () => {
      const u = await proxied.signup();
      const viaProxy = (visitor: string, password: string) =>
        proxied.app.request(
          "/api/v1/login/access-token",
          {
            method: "POST",
            headers: { "x-forwarded-for": `6.6.6.6, ${visitor}` },
            body: new URLSearchParams({ username: u.user.email, password }),
          },
          fromAddress("10.0.0.1"),
        );
      for (let i = 0; i < LIMITS.loginPerClient.max; i++) await viaProxy("198.51.100.50", "wrong-password");
      await expectTooMany(await viaProxy("198.51.100.50", u.password), 3600);
      // Another visitor behind the same proxy (and the same left-most forged entry) is another client.
      expect((await viaProxy("198.51.100.51", u.password)).status).toBe(200);
    });

    test("recovery: a stranger cannot block the owner's reset; at most 3 mails an hour reach one inbox", async () => {
      const u = await t.signup();
      for (let i = 0; i < 5; i++) expect((await recover(u.user.email, `198.51.100.${60 + i}`)).status).toBe(200);
      // The owner's own request is answered like any other, never 429.
      expect((await recover(u.user.email.toUpperCase(), "192.0.2.77")).status).toBe(200);
      await t.runJobs();
      const mails = await t.db.selectFrom("email_outbox").select("text").where("to", "=", u.user.email).execute();
      expect(mails).toHaveLength(LIMITS.recoveryMailsPerAddress.max);
      // Every mail that did go out carries a working link.
      const token = decodeURIComponent(/reset-password\?token=([A-Za-z0-9_%-]+)/.exec(mails.at(-1)!.text ?? "")![1]!);
      const reset = await t.app.request("/api/v1/reset-password/", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ token, new_password: "a-new-password-1" }),
      });
      expect(reset.status).toBe(200);
    });

    test("recovery: ten requests an hour per client", async () => {
      for (let i = 0; i < LIMITS.recoveryPerClient.max; i++)
        expect((await recover(`someone-${i}@example.com`, "198.51.100.7")).status).toBe(200);
      await expectTooMany(await recover("someone-else@example.com", "198.51.100.7"), 3600);
      expect((await recover("someone-else@example.com", "198.51.100.8")).status).toBe(200);
    });

    test("recovery answers known and unknown addresses with the same work: one queued job, no lookup", async () => {
      const u = await t.signup();
      const before = await t.db
        .selectFrom("jobs")
        .select(sql<number>`count(*)::int`.as("n"))
        .where("kind", "=", "email.password-recovery")
        .executeTakeFirstOrThrow();
      await recover(u.user.email, "198.51.100.90");
      await recover("nobody-here@example.com", "198.51.100.91");
      const after = await t.db
        .selectFrom("jobs")
        .select(sql<number>`count(*)::int`.as("n"))
        .where("kind", "=", "email.password-recovery")
        .executeTakeFirstOrThrow();
      expect(after.n - before.n).toBe(2);
      await t.runJobs();
      expect(
        await t.db.selectFrom("email_outbox").select("id").where("to", "=", "nobody-here@example.com").execute(),
      ).toEqual([]);
    });

    test("signup: ten accounts an hour per client", async () => {
      const signup = (i: number, ip: string) =>
        t.app.request(
          "/api/v1/users/signup",
          {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({
              email: `bulk-${ip}-${i}@example.com`,
              full_name: "Bulk Account",
              password: "long-enough-1",
            }),
          },
          fromAddress(ip),
        );
      for (let i = 0; i < LIMITS.signupPerClient.max; i++) expect((await signup(i, "198.51.100.120")).status).toBe(200);
      await expectTooMany(await signup(99, "198.51.100.120"), 3600);
      expect((await signup(99, "198.51.100.121")).status).toBe(200);
    });

    test("the current-password check of a password change takes 5 wrong guesses per 15 minutes; a success resets it", async () => {
      const u = await t.signup();
      const change = (current: string) =>
        t.app.request("/api/v1/users/me/password", {
          method: "PATCH",
          headers: { ...u.headers, "content-type": "application/json" },
          body: JSON.stringify({
            current_password: current,
            new_password: "brand-new-pass-1",
            confirm_password: "brand-new-pass-1",
          }),
        });
      for (let i = 0; i < LIMITS.passwordCheckPerUser.max; i++) expect((await change(`wrong-${i}`)).status).toBe(400);
      await expectTooMany(await change(u.password), 15 * 60);
      await t.db.deleteFrom("rate_limits").where("key", "like", "password-check:%").execute();
      expect((await change(u.password)).status).toBe(200);
    });
  });
}
