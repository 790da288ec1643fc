import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { BACKENDS } from "../support/database.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { settleBackgroundEmail } from "../../src/email/service.ts";
import { LIMITS, hit } from "../../src/auth/rate-limit.ts";

/**
 * What Bun passes as the app's env: the server, whose requestIP tells the client's address.
 * Requests made with it look as if they came from `address`.
 */
function fromAddress(address: string) {
  return { requestIP: () => ({ address, family: "IPv4", port: 40000 }) };
}

/** Asserts the 429 answer and returns its Retry-After in seconds. */
async function expectTooMany(res: Response, maxWindowSeconds: number): Promise<number> {
  expect(res.status).toBe(429);
  expect(await res.json()).toEqual({ detail: "Too Many Requests" });
  const retryAfter = Number(res.headers.get("retry-after"));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(maxWindowSeconds);
  return retryAfter;
}

for (const backend of BACKENDS) {
  describe(`rate limits (${backend})`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(backend);
    });
    afterAll(async () => {
      await settleBackgroundEmail();
      await t?.close();
    });

    /** A login attempt, optionally from a given client address. */
    function login(username: string, password: string, ip?: string) {
      return t.app.request("/api/v1/login/access-token", { method: "POST", body: new URLSearchParams({ username, password }) }, ip ? fromAddress(ip) : undefined);
    }

    /** A recovery request, optionally from a given client address. */
    function recover(email: string, ip?: string) {
      return t.app.request(`/api/v1/password-recovery/${email}`, { method: "POST" }, ip ? fromAddress(ip) : undefined);
    }

    test("an account takes 100 failed logins an hour, then even the right password waits", async () => {
      const victim = await t.signup();
      const bystander = await t.signup();
      for (let i = 0; i < LIMITS.loginFailuresPerAccount.max; i++) {
        const res = await login(victim.user.email, `wrong-guess-${i}`);
        expect(res.status).toBe(400);
      }
      await expectTooMany(await login(victim.user.email, "one-more-guess"), 3600);
      await expectTooMany(await login(victim.user.email.toUpperCase(), victim.password), 3600);
      // Other accounts are not affected.
      expect((await login(bystander.user.email, bystander.password)).status).toBe(200);
    });

    test("unknown addresses are limited alike, so the limit reveals no accounts", async () => {
      const ghost = "ghost-account@example.com";
      for (let i = 0; i < LIMITS.loginFailuresPerAccount.max; i++) await hit(t.db, LIMITS.loginFailuresPerAccount, ghost);
      await expectTooMany(await login(ghost, "any-password"), 3600);
    });

    test("a successful login clears the account's failures", async () => {
      const u = await t.signup();
      for (let i = 0; i < LIMITS.loginFailuresPerAccount.max - 1; i++) await hit(t.db, LIMITS.loginFailuresPerAccount, u.user.email);
      expect((await login(u.user.email, u.password)).status).toBe(200);
      // Without the reset these two failures would reach the limit and lock the account.
      expect((await login(u.user.email, "wrong-one")).status).toBe(400);
      expect((await login(u.user.email, "wrong-two")).status).toBe(400);
      expect((await login(u.user.email, u.password)).status).toBe(200);
    });

    test("one client address gets a burst of 30 login attempts a minute", async () => {
      const u = await t.signup();
      for (let i = 0; i < LIMITS.loginPerIp.max; i++) {
        const res = await login(`burst-${i}@example.com`, "wrong-password", "203.0.113.10");
        expect(res.status).toBe(400);
      }
      await expectTooMany(await login(u.user.email, u.password, "203.0.113.10"), 60);
      // Another address still logs in.
      expect((await login(u.user.email, u.password, "203.0.113.11")).status).toBe(200);
    });

    test("a forged X-Forwarded-For header does not get around the per-address limit", async () => {
      for (let i = 0; i < LIMITS.loginPerIp.max; i++) await hit(t.db, LIMITS.loginPerIp, "203.0.113.20");
      const res = await t.app.request(
        "/api/v1/login/access-token",
        { method: "POST", headers: { "x-forwarded-for": "198.51.100.1" }, body: new URLSearchParams({ username: "a@example.com", password: "whatever-pass" }) },
        fromAddress("203.0.113.20"),
      );
      await expectTooMany(res, 60);
    });

    test("recovery: three mails an hour per address, whether or not it has an account", async () => {
      const u = await t.signup();
      for (let i = 0; i < LIMITS.recoveryPerAddress.max; i++) expect((await recover(u.user.email)).status).toBe(200);
      await expectTooMany(await recover(u.user.email.toUpperCase()), 3600);
      await settleBackgroundEmail();
      const mails = await t.db.selectFrom("email_outbox").select("id").where("to", "=", u.user.email).execute();
      expect(mails).toHaveLength(LIMITS.recoveryPerAddress.max);

      for (let i = 0; i < LIMITS.recoveryPerAddress.max; i++) expect((await recover("no-account@example.com")).status).toBe(200);
      await expectTooMany(await recover("no-account@example.com"), 3600);
    });

    test("recovery: ten requests an hour per client address", async () => {
      for (let i = 0; i < LIMITS.recoveryPerIp.max; i++) expect((await recover(`someone-${i}@example.com`, "198.51.100.7")).status).toBe(200);
      await expectTooMany(await recover("someone-else@example.com", "198.51.100.7"), 3600);
      expect((await recover("someone-else@example.com", "198.51.100.8")).status).toBe(200);
    });

    test("a window that has ended starts again", async () => {
      const u = await t.signup();
      for (let i = 0; i < LIMITS.loginFailuresPerAccount.max; i++) await hit(t.db, LIMITS.loginFailuresPerAccount, u.user.email);
      expect((await login(u.user.email, u.password)).status).toBe(429);
      await t.db
        .updateTable("rate_limits")
        .set({ window_started_at: new Date(Date.now() - (LIMITS.loginFailuresPerAccount.windowSeconds + 1) * 1000) })
        .where("key", "like", "login-account:%")
        .execute();
      expect((await login(u.user.email, u.password)).status).toBe(200);
    });
  });
}
