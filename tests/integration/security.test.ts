import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { APP_BACKENDS } from "../support/database.ts";
import { createTestApp, type TestApp, type TestUser } from "../support/app.ts";
import { CROSS_SITE_REFUSED } from "../../src/http/security.ts";

// Security headers on every response, the pages' Content-Security-Policy with its per-request nonce, and the refusal
// of cross-site writes that would ride on the session cookie (docs/decisions/0007-csp-and-csrf.md).
// Run after `npm run build` (pages need dist/manifest.json).

/** The directives of a CSP header: name → values. */
function directives(csp: string | null): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const part of (csp ?? "").split(";")) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) out.set(name, values);
  }
  return out;
}

/** The nonce of the page's inline script. */
function inlineScriptNonce(html: string): string | null {
  return /<script nonce="([^"]+)">/.exec(html)?.[1] ?? null;
}

const THIS_SITE = "http://localhost";

for (const backend of APP_BACKENDS) {
  describe(`security headers (${backend})`, () => {
    let t: TestApp;
    let user: TestUser;
    beforeAll(async () => {
      t = await createTestApp(backend, {
        env: { FOUNDER_NAME: "Marie Curie", FOUNDER_PHOTO_URL: "https://images.example.org/team/marie.jpg" },
      });
      user = await t.signup({ full_name: "Header Reader" });
    });
    afterAll(async () => {
      await t?.close();
    });

    test("a page's CSP allows only this site's scripts and the inline script that carries this response's nonce", async () => {
      const res = await t.app.request("/landing");
      expect(res.status).toBe(200);
      const csp = directives(res.headers.get("content-security-policy"));
      const html = await res.text();
      const nonce = inlineScriptNonce(html);
      expect(nonce).toMatch(/^[A-Za-z0-9+/=]{16,}$/);
      expect(csp.get("script-src")).toEqual(["'self'", `'nonce-${nonce}'`]);
      expect(res.headers.get("content-security-policy")).not.toContain("unsafe-inline");
      expect(res.headers.get("content-security-policy")).not.toContain("unsafe-eval");
      expect(csp.get("default-src")).toEqual(["'self'"]);
      expect(csp.get("style-src")).toEqual(["'self'"]);
      expect(csp.get("font-src")).toEqual(["'self'"]);
      expect(csp.get("connect-src")).toEqual(["'self'"]);
      expect(csp.get("object-src")).toEqual(["'none'"]);
      expect(csp.get("base-uri")).toEqual(["'none'"]);
      expect(csp.get("frame-ancestors")).toEqual(["'none'"]);
      // The configured founder photo's host is the only other image source.
      expect(csp.get("img-src")).toEqual(["'self'", "data:", "https://images.example.org"]);
      // Every script element of the page is either that inline script or a file from this site.
      const scripts = [...html.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1] ?? "");
      for (const attrs of scripts)
        expect(attrs.includes(`nonce="${nonce}"`) || /src="\/assets\//.test(attrs)).toBe(true);
    });

    test("every page response gets a fresh nonce", async () => {
      const a = inlineScriptNonce(await (await t.app.request("/landing")).text());
      const b = inlineScriptNonce(await (await t.app.request("/landing")).text());
      expect(a).not.toBeNull();
      expect(a).not.toBe(b);
    });

    test("pages, redirects, the 404 page, assets and API answers all carry the protective headers", async () => {
      const home = await t.app.request("/home", { headers: { authorization: `Bearer ${user.token}` } });
      const responses = [
        await t.app.request("/landing"),
        home,
        await t.app.request("/"),
        await t.app.request("/no/such/page"),
        await t.app.request("/api/v1/users/me", { headers: user.headers }),
        await t.app.request("/api/v1/users/me"),
        await t.app.request("/api/v1/nothing-here"),
      ];
      expect(responses.map((r) => r.status)).toEqual([200, 200, 302, 404, 200, 401, 404]);
      for (const res of responses) {
        expect(res.headers.get("x-content-type-options")).toBe("nosniff");
        expect(res.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
        expect(res.headers.get("x-frame-options")).toBe("DENY");
        expect(res.headers.get("cross-origin-opener-policy")).toBe("same-origin");
        // Asked over plain http: no Strict-Transport-Security (see "transport security" below).
        expect(res.headers.get("strict-transport-security")).toBeNull();
        expect(directives(res.headers.get("content-security-policy")).get("frame-ancestors")).toEqual(["'none'"]);
        expect(res.headers.get("x-powered-by")).toBeNull();
      }
    });

    test("API answers, never meant to be rendered, get a policy that allows nothing", async () => {
      const res = await t.app.request("/api/v1/users/me", { headers: user.headers });
      const csp = directives(res.headers.get("content-security-policy"));
      expect(csp.get("default-src")).toEqual(["'none'"]);
      expect(csp.has("script-src")).toBe(false);
    });
  });

  describe(`cross-site writes with the session cookie (${backend})`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(backend);
    });
    afterAll(async () => {
      await t?.close();
    });

    const patchMe = (headers: Record<string, string>, fullName: string) =>
      t.app.request("/api/v1/users/me", {
        method: "PATCH",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify({ full_name: fullName }),
      });

    async function nameOf(userId: string): Promise<string | null> {
      const row = await t.db.selectFrom("users").select("full_name").where("id", "=", userId).executeTakeFirst();
      return row?.full_name ?? null;
    }

    async function expectRefused(res: Response) {
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({ detail: CROSS_SITE_REFUSED });
    }

    test("a write from another site with the cookie is refused and changes nothing", async () => {
      const { user, token } = await t.signup({ full_name: "Victim" });
      const cookie = `access_token=${token}`;
      await expectRefused(await patchMe({ cookie, origin: "https://evil.example" }, "Pwned"));
      await expectRefused(await patchMe({ cookie, "sec-fetch-site": "cross-site" }, "Pwned"));
      await expectRefused(
        await patchMe({ cookie, "sec-fetch-site": "same-site", origin: "https://sub.localhost" }, "Pwned"),
      );
      // A sandboxed frame or a privacy-stripped request says Origin: null.
      await expectRefused(await patchMe({ cookie, origin: "null" }, "Pwned"));
      expect(await nameOf(user.id)).toBe("Victim");
    });

    test("deleting the account from another site is refused; the account stays", async () => {
      const { user, token } = await t.signup();
      const res = await t.app.request("/api/v1/users/me", {
        method: "DELETE",
        headers: { cookie: `access_token=${token}`, origin: "https://evil.example" },
      });
      await expectRefused(res);
      expect(await t.db.selectFrom("users").select("id").where("id", "=", user.id).executeTakeFirst()).toBeDefined();
    });

    test("a cookie-authenticated write that names no origin at all is refused (only a browser holds the cookie)", async () => {
      const { user, token } = await t.signup({ full_name: "Unchanged" });
      await expectRefused(await patchMe({ cookie: `access_token=${token}` }, "Changed"));
      expect(await nameOf(user.id)).toBe("Unchanged");
    });

    test("the site's own pages may write with the cookie: same Origin, Sec-Fetch-Site same-origin, or PUBLIC_URL's origin", async () => {
      const { user, token } = await t.signup();
      const cookie = `access_token=${token}`;
      expect((await patchMe({ cookie, origin: THIS_SITE }, "By Origin")).status).toBe(200);
      expect(await nameOf(user.id)).toBe("By Origin");
      expect((await patchMe({ cookie, "sec-fetch-site": "same-origin" }, "By Fetch Metadata")).status).toBe(200);
      expect(await nameOf(user.id)).toBe("By Fetch Metadata");
      // TEST_ENV's PUBLIC_URL: the address users reach when a proxy sits in front of the app.
      expect((await patchMe({ cookie, origin: "http://localhost:3000" }, "By Public URL")).status).toBe(200);
      expect(await nameOf(user.id)).toBe("By Public URL");
    });

    test("behind a TLS proxy, the https form of the site's own host is the same origin", async () => {
      const { token } = await t.signup();
      const res = await patchMe(
        { cookie: `access_token=${token}`, origin: "https://localhost", "x-forwarded-proto": "https" },
        "Via Proxy",
      );
      expect(res.status).toBe(200);
    });

    test("bearer-token requests are unaffected, whatever their origin", async () => {
      const { user, headers } = await t.signup();
      expect((await patchMe({ ...headers, origin: "https://other-client.example" }, "Bearer Client")).status).toBe(200);
      expect(await nameOf(user.id)).toBe("Bearer Client");
    });

    test("reads are never refused, even cross-site", async () => {
      const { token } = await t.signup();
      const res = await t.app.request("/api/v1/users/me", {
        headers: { cookie: `access_token=${token}`, origin: "https://evil.example", "sec-fetch-site": "cross-site" },
      });
      expect(res.status).toBe(200);
    });

    test("a login form posted from another site is refused (login CSRF); scripts and the site's own form may log in", async () => {
      const { user, password } = await t.signup();
      const login = (headers: Record<string, string>) =>
        t.app.request("/api/v1/login/access-token", {
          method: "POST",
          headers,
          body: new URLSearchParams({ username: user.email, password }),
        });
      const forged = await login({ origin: "https://evil.example" });
      await expectRefused(forged);
      expect(forged.headers.get("set-cookie")).toBeNull();
      expect((await login({})).status).toBe(200);
      expect((await login({ origin: THIS_SITE, "sec-fetch-site": "same-origin" })).status).toBe(200);
    });

    test("calls without a cookie or an origin (scripts, the payment provider's webhook) go through as before", async () => {
      const res = await t.app.request("/api/v1/users/signup", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "script@example.org", full_name: "Script User", password: "long-enough-1" }),
      });
      expect(res.status).toBe(200);
    });
  });
}

// Issue 34: the session cookie's Secure flag when the site is https, and HSTS only over https.
for (const backend of APP_BACKENDS) {
  describe(`transport security (${backend})`, () => {
    let https: TestApp;
    let local: TestApp;
    beforeAll(async () => {
      // Behind a proxy that terminates TLS and does not say so (no X-Forwarded-Proto): the app sees http://.
      https = await createTestApp(backend, { env: { PUBLIC_URL: "https://litreview.example.org" } });
      local = await createTestApp(backend, { env: { PUBLIC_URL: "http://localhost:3000" } });
    });
    afterAll(async () => {
      await https?.close();
      await local?.close();
    });

    const loginCookie = async (t: TestApp, url: string, headers: Record<string, string> = {}) => {
      const { user, password } = await t.signup();
      const res = await t.app.request(url, {
        method: "POST",
        headers,
        body: new URLSearchParams({ username: user.email, password }),
      });
      expect(res.status).toBe(200);
      const cookie = res.headers.get("set-cookie");
      expect(cookie).toStartWith("access_token=");
      return cookie!;
    };
    const flags = (cookie: string) => cookie.split(";").map((p) => p.trim().toLowerCase());

    test("the session cookie is Secure when PUBLIC_URL is https, whatever scheme the request reached the app by", async () => {
      expect(flags(await loginCookie(https, "http://localhost/api/v1/login/access-token"))).toContain("secure");
      expect(flags(await loginCookie(https, "https://litreview.example.org/api/v1/login/access-token"))).toContain(
        "secure",
      );
    });

    test("with a plain-http PUBLIC_URL (a local trial) the cookie is Secure only for a request that came over https", async () => {
      expect(flags(await loginCookie(local, "http://localhost/api/v1/login/access-token"))).not.toContain("secure");
      expect(
        flags(await loginCookie(local, "http://localhost/api/v1/login/access-token", { "x-forwarded-proto": "https" })),
      ).toContain("secure");
      expect(flags(await loginCookie(local, "https://localhost/api/v1/login/access-token"))).toContain("secure");
    });

    test("Strict-Transport-Security only over https: never on a plain-http answer, page or API", async () => {
      for (const path of ["/landing", "/api/v1/health", "/api/v1/users/me"]) {
        for (const t of [https, local]) {
          const plain = await t.app.request(`http://localhost${path}`);
          expect(plain.headers.get("strict-transport-security"), path).toBeNull();
          const secure = await t.app.request(`https://localhost${path}`);
          expect(secure.headers.get("strict-transport-security"), path).toBe("max-age=15552000; includeSubDomains");
          const proxied = await t.app.request(`http://localhost${path}`, { headers: { "x-forwarded-proto": "https" } });
          expect(proxied.headers.get("strict-transport-security"), path).toBe("max-age=15552000; includeSubDomains");
        }
      }
    });
  });
}
