import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { APP_BACKENDS } from "../support/database.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { SignJWT } from "jose";
import { createAccessToken } from "../../src/auth/tokens.ts";
import { parseBearer } from "../../src/http/credentials.ts";
import { LAST_SUPERUSER } from "../../src/users/service.ts";

// Sessions and roles (issue 7, items 13–15): logout ends the token on the server, one parser reads the
// Authorization header for both the token reader and the cross-site check, and the site always keeps an
// administrator.

const json = (method: string, body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method,
  headers: { "content-type": "application/json", ...headers },
  body: JSON.stringify(body),
});

describe("the bearer parser", () => {
  test("reads 'Bearer <token68>' with any letter case and one or more spaces", () => {
    expect(parseBearer("Bearer abc.def-ghi_jkl~+/=")).toBe("abc.def-ghi_jkl~+/=");
    expect(parseBearer("bearer   abc")).toBe("abc");
    expect(parseBearer("BEARER abc ")).toBe("abc");
  });

  test("refuses a tab, another scheme, an empty token, or characters a token cannot hold", () => {
    for (const h of [
      "Bearer\tabc",
      "Basic abc",
      "Bearer",
      "Bearer ",
      "Bearer a b",
      "Bearerabc",
      "Bearer <script>",
      undefined,
      "",
    ])
      expect(parseBearer(h)).toBeNull();
  });
});

for (const backend of APP_BACKENDS) {
  describe(`sessions and roles (${backend})`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(backend);
    });
    afterAll(async () => {
      await t?.close();
    });

    async function login(email: string, password: string): Promise<string> {
      const res = await t.app.request("/api/v1/login/access-token", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ username: email, password }),
      });
      expect(res.status).toBe(200);
      return ((await res.json()) as { access_token: string }).access_token;
    }
    const me = (token: string, how: "bearer" | "cookie" = "bearer") =>
      t.app.request("/api/v1/users/me", {
        headers: how === "bearer" ? { authorization: `Bearer ${token}` } : { cookie: `access_token=${token}` },
      });

    test("logout revokes the token on the server: it no longer reads /users/me, by header or by cookie", async () => {
      const u = await t.signup();
      const token = await login(u.user.email, u.password);
      expect((await me(token)).status).toBe(200);
      const out = await t.app.request("/api/v1/login/logout", {
        method: "POST",
        headers: { authorization: `Bearer ${token}` },
      });
      expect(out.status).toBe(200);
      expect((await me(token)).status).toBe(401);
      expect((await me(token, "cookie")).status).toBe(401);
    });

    test("logging out one session leaves the user's other sessions working", async () => {
      const u = await t.signup();
      const laptop = await login(u.user.email, u.password);
      const phone = await login(u.user.email, u.password);
      await t.app.request("/api/v1/login/logout", { method: "POST", headers: { authorization: `Bearer ${laptop}` } });
      expect((await me(laptop)).status).toBe(401);
      expect((await me(phone)).status).toBe(200);
    });

    test("a page's logout (cookie, same-origin) revokes the cookie's token", async () => {
      const u = await t.signup();
      const token = await login(u.user.email, u.password);
      const out = await t.app.request("/api/v1/login/logout", {
        method: "POST",
        headers: { cookie: `access_token=${token}`, origin: "http://localhost" },
      });
      expect(out.status).toBe(200);
      expect((await me(token, "cookie")).status).toBe(401);
    });

    test("a token issued before tokens had ids is ended by logout with all of that user's sessions", async () => {
      const u = await t.signup();
      // A token without jti, as issued by the previous release.
      const old = await new SignJWT({ ver: 0 })
        .setProtectedHeader({ alg: "HS256", typ: "JWT" })
        .setSubject(u.user.id)
        .setIssuedAt()
        .setExpirationTime("1h")
        .sign(t.deps.secretKey);
      expect((await me(old)).status).toBe(200);
      await t.app.request("/api/v1/login/logout", { method: "POST", headers: { authorization: `Bearer ${old}` } });
      expect((await me(old)).status).toBe(401);
      expect((await me(u.token)).status).toBe(401);
    });

    test("logout without a token, or with an invalid one, is harmless", async () => {
      expect((await t.app.request("/api/v1/login/logout", { method: "POST" })).status).toBe(200);
      expect(
        (
          await t.app.request("/api/v1/login/logout", {
            method: "POST",
            headers: { authorization: "Bearer not-a-token" },
          })
        ).status,
      ).toBe(200);
      const forged = await createAccessToken(
        new TextEncoder().encode("another-key-0123456789abcdef01234567"),
        { sub: crypto.randomUUID(), ver: 0 },
        60,
      );
      expect(
        (
          await t.app.request("/api/v1/login/logout", {
            method: "POST",
            headers: { authorization: `Bearer ${forged}` },
          })
        ).status,
      ).toBe(200);
    });

    test("'Bearer' followed by a tab is no bearer header for either reader: a cookie-carrying write is then checked as cross-site", async () => {
      const u = await t.signup();
      const headers = {
        authorization: `Bearer\t${u.token}`,
        cookie: `access_token=${u.token}`,
        origin: "https://evil.example",
      };
      const res = await t.app.request("/api/v1/users/me", json("PATCH", { full_name: "Hijacked" }, headers));
      expect(res.status).toBe(403);
      // Read without the cookie, the malformed header authenticates nobody.
      expect(
        (await t.app.request("/api/v1/users/me", { headers: { authorization: `Bearer\t${u.token}` } })).status,
      ).toBe(401);
    });

    test("the last active superuser cannot be deactivated or demoted; with a second one, either can", async () => {
      const admin = await t.signup({ is_superuser: true, subscription: "none" });
      // Other administrators of earlier tests in this file would count: there are none.
      for (const patch of [{ is_active: false }, { is_superuser: false }, { is_active: false, is_superuser: false }]) {
        const res = await t.app.request(`/api/v1/users/${admin.user.id}`, json("PATCH", patch, admin.headers));
        expect(res.status).toBe(409);
        expect(((await res.json()) as { detail: string }).detail).toBe(LAST_SUPERUSER);
      }
      const second = await t.signup({ is_superuser: true, subscription: "none" });
      const demoted = await t.app.request(
        `/api/v1/users/${second.user.id}`,
        json("PATCH", { is_superuser: false }, admin.headers),
      );
      expect(demoted.status).toBe(200);
      expect(((await demoted.json()) as { is_superuser: boolean }).is_superuser).toBe(false);
      // Back to one: refused again.
      expect(
        (await t.app.request(`/api/v1/users/${admin.user.id}`, json("PATCH", { is_active: false }, admin.headers)))
          .status,
      ).toBe(409);
    });

    test("two superusers demoting each other at the same moment leave one of them a superuser", async () => {
      const a = await t.signup({ is_superuser: true, subscription: "none" });
      const b = await t.signup({ is_superuser: true, subscription: "none" });
      // Only a and b are active superusers now (earlier ones were demoted or are these).
      const others = await t.db
        .selectFrom("users")
        .select("id")
        .where("is_superuser", "=", true)
        .where("is_active", "=", true)
        .where("id", "not in", [a.user.id, b.user.id])
        .execute();
      for (const o of others)
        await t.db.updateTable("users").set({ is_superuser: false }).where("id", "=", o.id).execute();
      const results = await Promise.all([
        t.app.request(`/api/v1/users/${b.user.id}`, json("PATCH", { is_superuser: false }, a.headers)),
        t.app.request(`/api/v1/users/${a.user.id}`, json("PATCH", { is_superuser: false }, b.headers)),
      ]);
      const statuses = results.map((r) => r.status).sort();
      // The second change sees one superuser left (itself the target) and is refused, or its actor was demoted first.
      expect(statuses).not.toEqual([200, 200]);
      const left = await t.db
        .selectFrom("users")
        .select("id")
        .where("is_superuser", "=", true)
        .where("is_active", "=", true)
        .execute();
      expect(left.length).toBeGreaterThanOrEqual(1);
    });
  });
}
