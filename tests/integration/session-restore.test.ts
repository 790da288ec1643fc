import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { APP_BACKENDS } from "../support/database.ts";
import { createTestApp, type TestApp, type TestUser } from "../support/app.ts";

// POST /api/v1/login/session: a browser that kept its token (localStorage) but lost the session cookie (a restart)
// gets the cookie back by presenting the token as a bearer header, so that the server's pages and redirects treat it
// as signed in again. Only the header counts, never a cookie; an invalid, revoked or outdated token gets nothing.
// Then the pages' `next` rules, end to end through the whole app.

const SESSION = "/api/v1/login/session";
const ORIGIN = "http://localhost";

/** The access_token cookie a response sets, or null. */
function sessionCookie(res: Response): string | null {
  const set = res.headers.getSetCookie().find((c) => c.startsWith("access_token="));
  return set ? set.slice("access_token=".length).split(";")[0]! : null;
}

for (const backend of APP_BACKENDS) {
  describe(`session restore from the stored token (${backend})`, () => {
    let t: TestApp;
    let ada: TestUser;

    beforeAll(async () => {
      t = await createTestApp(backend);
      ada = await t.signup({ full_name: "Ada Lovelace" });
    });
    afterAll(async () => {
      await t?.close();
    });

    test("a valid bearer token gets the HttpOnly session cookie holding that same token", async () => {
      const headers = { ...ada.headers, origin: ORIGIN, "sec-fetch-site": "same-origin" };
      const res = await t.app.request(SESSION, { method: "POST", headers });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ message: "Session restored" });
      expect(sessionCookie(res)).toBe(ada.token);
      const raw = res.headers.getSetCookie().find((c) => c.startsWith("access_token="))!;
      expect(raw).toContain("HttpOnly");
      expect(raw).toContain("SameSite=Lax");
      expect(raw).toContain("Path=/");
      expect(raw).not.toMatch(/Max-Age|Expires/i);
    });

    test("with the cookie back, / goes to /home and /login goes to its next, as for a signed-in user", async () => {
      const res = await t.app.request(SESSION, { method: "POST", headers: ada.headers });
      const cookie = `access_token=${sessionCookie(res)}`;
      expect((await t.app.request("/", { headers: { cookie } })).headers.get("location")).toBe("/home");
      expect((await t.app.request("/home", { headers: { cookie } })).status).toBe(200);
      const login = await t.app.request("/login?next=%2Fdashboard%3Ftab%3Dshares%26article%3D7", {
        headers: { cookie },
      });
      expect(login.status).toBe(302);
      expect(login.headers.get("location")).toBe("/dashboard?tab=shares&article=7");
    });

    test("no header, a cookie instead of the header, a bad or revoked token: 401 and no cookie", async () => {
      const bare = await t.app.request(SESSION, { method: "POST", headers: { origin: ORIGIN } });
      expect(bare.status).toBe(401);
      expect(await bare.json()).toEqual({ detail: "Could not validate credentials" });
      expect(sessionCookie(bare)).toBeNull();

      const cookieOnly = { cookie: `access_token=${ada.token}`, origin: ORIGIN };
      const viaCookie = await t.app.request(SESSION, { method: "POST", headers: cookieOnly });
      expect(viaCookie.status).toBe(401);
      expect(sessionCookie(viaCookie)).toBeNull();

      const forged = await t.app.request(SESSION, { method: "POST", headers: { authorization: "Bearer not.a.token" } });
      expect(forged.status).toBe(401);
      expect(sessionCookie(forged)).toBeNull();

      const bob = await t.signup();
      expect((await t.app.request("/api/v1/login/logout", { method: "POST", headers: bob.headers })).status).toBe(200);
      const revoked = await t.app.request(SESSION, { method: "POST", headers: bob.headers });
      expect(revoked.status).toBe(401);
      expect(sessionCookie(revoked)).toBeNull();
    });

    test("a token outdated by a password change gets nothing", async () => {
      const carol = await t.signup();
      await t.db.updateTable("users").set({ token_version: 1 }).where("id", "=", carol.user.id).execute();
      const res = await t.app.request(SESSION, { method: "POST", headers: carol.headers });
      expect(res.status).toBe(401);
    });

    test("another site cannot plant a session: its cookie-riding post without the header is refused", async () => {
      const res = await t.app.request(SESSION, {
        method: "POST",
        headers: {
          cookie: `access_token=${ada.token}`,
          origin: "https://evil.example",
          "sec-fetch-site": "cross-site",
        },
      });
      expect(res.status).toBe(403);
      expect(sessionCookie(res)).toBeNull();
    });

    test("protected pages send a visitor to /login with the page as next; unsafe next values lead to /", async () => {
      const res = await t.app.request("/dashboard?tab=shares&article=12345");
      expect(res.headers.get("location")).toBe("/login?next=%2Fdashboard%3Ftab%3Dshares%26article%3D12345");
      const cookie = `access_token=${ada.token}`;
      const unsafe = ["//evil.example", "/\\evil.example", "https://evil.example", "/\n/evil.example", "/\t/a.example"];
      for (const next of [...unsafe, "javascript:alert(1)"]) {
        const login = await t.app.request(`/login?next=${encodeURIComponent(next)}`, { headers: { cookie } });
        expect(login.headers.get("location")).toBe("/");
      }
    });
  });
}
