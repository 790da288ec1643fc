import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { APP_BACKENDS } from "../support/database.ts";
import { createTestApp, type TestApp, type TestUser } from "../support/app.ts";
import { LIMITS, hit } from "../../src/auth/rate-limit.ts";

type Issue = { loc: (string | number)[]; msg: string };

for (const backend of APP_BACKENDS) {
  describe(`password recovery (${backend})`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(backend);
    });
    afterAll(async () => {
      await t?.close();
    });

    /** POST /password-recovery/{email}, then waits for the mail work that runs after the response. */
    async function recover(email: string): Promise<Response> {
      const res = await t.app.request(`/api/v1/password-recovery/${encodeURIComponent(email)}`, { method: "POST" });
      await t.runJobs();
      return res;
    }

    /** The outbox messages addressed to `to`, oldest first. */
    function outboxFor(to: string) {
      return t.db.selectFrom("email_outbox").selectAll().where("to", "=", to).orderBy("created_at").execute();
    }

    /** The reset token inside the link of the latest message to `to`. */
    async function tokenFromLatestMail(to: string): Promise<string> {
      const mails = await outboxFor(to);
      const text = mails.at(-1)?.text ?? "";
      const match = text.match(/http:\/\/localhost:3000\/reset-password\?token=([A-Za-z0-9_%-]+)/);
      expect(match).not.toBeNull();
      return decodeURIComponent(match![1]!);
    }

    /** POST /reset-password/ with this body. */
    function resetPassword(body: unknown, path = "/api/v1/reset-password/") {
      return t.app.request(path, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    }

    /** A login attempt through the form. */
    function login(username: string, password: string) {
      return t.app.request("/api/v1/login/access-token", {
        method: "POST",
        body: new URLSearchParams({ username, password }),
      });
    }

    test("an account's address gets a mail with a working reset link", async () => {
      const u = await t.signup();
      const res = await recover(u.user.email.toUpperCase());
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ message: "Password recovery email sent" });

      const mails = await outboxFor(u.user.email);
      expect(mails).toHaveLength(1);
      expect(mails[0]).toMatchObject({
        status: "stored",
        subject: `LitReview - Password recovery for user ${u.user.email}`,
      });
      expect(mails[0]!.html).toContain("/reset-password?token=");
      expect(mails[0]!.text).toContain("expires in 48 hours");
    });

    test("an unknown or inactive address gets the very same answer and no mail", async () => {
      const unknown = await recover("nobody-here@example.com");
      expect(unknown.status).toBe(200);
      expect(await unknown.json()).toEqual({ message: "Password recovery email sent" });
      expect(await outboxFor("nobody-here@example.com")).toHaveLength(0);

      const inactive = await t.signup({ is_active: false });
      const res = await recover(inactive.user.email);
      expect(await res.json()).toEqual({ message: "Password recovery email sent" });
      expect(await outboxFor(inactive.user.email)).toHaveLength(0);
    });

    test("a malformed address is 422", async () => {
      const res = await t.app.request("/api/v1/password-recovery/not-an-address", { method: "POST" });
      expect(res.status).toBe(422);
      expect(((await res.json()) as { detail: Issue[] }).detail[0]).toMatchObject({
        loc: ["path", "email"],
        msg: "Invalid email address",
      });
    });

    test("resetting with the link's token sets the password and ends every session", async () => {
      const u = await t.signup();
      await recover(u.user.email);
      const token = await tokenFromLatestMail(u.user.email);

      const res = await resetPassword({ token, new_password: "reset-password-1" });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ message: "Password updated successfully" });

      expect((await login(u.user.email, u.password)).status).toBe(400);
      expect((await login(u.user.email, "reset-password-1")).status).toBe(200);
      expect((await t.app.request("/api/v1/users/me", { headers: u.headers })).status).toBe(401);
    });

    test("a token works only once", async () => {
      const u = await t.signup();
      await recover(u.user.email);
      const token = await tokenFromLatestMail(u.user.email);
      expect((await resetPassword({ token, new_password: "first-new-pass" })).status).toBe(200);
      const again = await resetPassword({ token, new_password: "second-new-pass" });
      expect(again.status).toBe(400);
      expect(await again.json()).toEqual({ detail: "Invalid token" });
      expect((await login(u.user.email, "first-new-pass")).status).toBe(200);
    });

    test("using one token voids the user's other outstanding tokens", async () => {
      const u = await t.signup();
      await recover(u.user.email);
      const older = await tokenFromLatestMail(u.user.email);
      await recover(u.user.email);
      const newer = await tokenFromLatestMail(u.user.email);
      expect(newer).not.toBe(older);
      expect((await resetPassword({ token: newer, new_password: "newest-pass-1" })).status).toBe(200);
      expect(await (await resetPassword({ token: older, new_password: "older-pass-1" })).json()).toEqual({
        detail: "Invalid token",
      });
    });

    test("an expired token is refused", async () => {
      const u = await t.signup();
      await recover(u.user.email);
      const token = await tokenFromLatestMail(u.user.email);
      await t.db
        .updateTable("password_reset_tokens")
        .set({ expires_at: new Date(Date.now() - 1000) })
        .where("user_id", "=", u.user.id)
        .execute();
      const res = await resetPassword({ token, new_password: "too-late-pass" });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ detail: "Token has expired" });
      expect((await login(u.user.email, u.password)).status).toBe(200);
    });

    test("tokens expire after at most 48 hours and only their hash is stored", async () => {
      const u = await t.signup();
      const before = Date.now();
      await recover(u.user.email);
      const token = await tokenFromLatestMail(u.user.email);
      const row = await t.db
        .selectFrom("password_reset_tokens")
        .selectAll()
        .where("user_id", "=", u.user.id)
        .executeTakeFirstOrThrow();
      expect(new Date(row.expires_at).getTime()).toBeLessThanOrEqual(Date.now() + 48 * 3600_000);
      expect(new Date(row.expires_at).getTime()).toBeGreaterThan(before);
      expect(row.token_hash).not.toContain(token);
      expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/);
    });

    test("an unknown token, a missing token and a short password are refused", async () => {
      const unknown = await resetPassword({ token: "made-up-token", new_password: "whatever-pass" });
      expect(unknown.status).toBe(400);
      expect(await unknown.json()).toEqual({ detail: "Invalid token" });

      const missing = await resetPassword({ new_password: "whatever-pass" });
      expect(missing.status).toBe(422);
      expect(((await missing.json()) as { detail: Issue[] }).detail[0]).toMatchObject({
        loc: ["body", "token"],
        msg: "Token is required",
      });

      const short = await resetPassword({ token: "made-up-token", new_password: "short" });
      expect(short.status).toBe(422);
      expect(((await short.json()) as { detail: Issue[] }).detail[0]?.msg).toBe(
        "Password must be at least 8 characters",
      );
    });

    test("the reset path also works without the trailing slash", async () => {
      const u = await t.signup();
      await recover(u.user.email);
      const token = await tokenFromLatestMail(u.user.email);
      expect((await resetPassword({ token, new_password: "no-slash-pass" }, "/api/v1/reset-password")).status).toBe(
        200,
      );
    });

    test("a reset lets a user locked out by failed logins back in", async () => {
      const u = await t.signup();
      for (let i = 0; i < LIMITS.loginFailuresPerAccount.max; i++)
        await hit(t.db, LIMITS.loginFailuresPerAccount, u.user.email);
      expect((await login(u.user.email, u.password)).status).toBe(429);

      await recover(u.user.email);
      const token = await tokenFromLatestMail(u.user.email);
      expect((await resetPassword({ token, new_password: "unlocked-pass" })).status).toBe(200);
      expect((await login(u.user.email, "unlocked-pass")).status).toBe(200);
    });

    describe("recovery mail preview", () => {
      let admin: TestUser;
      beforeAll(async () => {
        admin = await t.signup({ is_superuser: true, subscription: "none" });
      });

      test("a superuser gets the HTML of the message, with a working link", async () => {
        const u = await t.signup();
        const res = await t.app.request(`/api/v1/password-recovery-html-content/${u.user.email}`, {
          method: "POST",
          headers: admin.headers,
        });
        expect(res.status).toBe(200);
        expect(res.headers.get("content-type")).toStartWith("text/html");
        expect(res.headers.get("x-email-subject")).toBe(`LitReview - Password recovery for user ${u.user.email}`);
        const html = await res.text();
        const token = decodeURIComponent(html.match(/reset-password\?token=([A-Za-z0-9_%-]+)/)![1]!);
        expect((await resetPassword({ token, new_password: "previewed-pass" })).status).toBe(200);
        // A preview sends nothing.
        expect(await outboxFor(u.user.email)).toHaveLength(0);
      });

      test("an unknown address is 404 for the superuser", async () => {
        const res = await t.app.request("/api/v1/password-recovery-html-content/ghost@example.com", {
          method: "POST",
          headers: admin.headers,
        });
        expect(res.status).toBe(404);
        expect(await res.json()).toEqual({ detail: "The user with this email does not exist in the system." });
      });

      test("regular users and visitors cannot preview", async () => {
        const u = await t.signup();
        expect(
          (
            await t.app.request(`/api/v1/password-recovery-html-content/${u.user.email}`, {
              method: "POST",
              headers: u.headers,
            })
          ).status,
        ).toBe(403);
        expect(
          (await t.app.request(`/api/v1/password-recovery-html-content/${u.user.email}`, { method: "POST" })).status,
        ).toBe(401);
      });
    });
  });
}
