import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SignJWT } from "jose";
import { APP_BACKENDS } from "../support/database.ts";
import { createTestApp, type TestApp } from "../support/app.ts";

/** A form-encoded OAuth2 password login request, as the login page sends it. */
function loginRequest(username: string, password: string, headers: Record<string, string> = {}): RequestInit {
  return { method: "POST", headers, body: new URLSearchParams({ username, password }) };
}

/** base64url of a JSON value, for hand-made tokens. */
function b64url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString("base64url");
}

for (const backend of APP_BACKENDS) {
  describe(`login (${backend})`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(backend);
    });
    afterAll(async () => {
      await t?.close();
    });

    test("a user who signed up through the API can log in and use the token", async () => {
      const signup = await t.app.request("/api/v1/users/signup", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "Reader@Example.org", full_name: "Ada Reader", password: "s3cret-pass" }),
      });
      expect(signup.status).toBe(200);

      const res = await t.app.request("/api/v1/login/access-token", loginRequest("reader@example.org", "s3cret-pass"));
      expect(res.status).toBe(200);
      const body = (await res.json()) as { access_token: string; token_type: string };
      expect(body.token_type).toBe("bearer");
      expect(body.access_token.split(".")).toHaveLength(3);

      const me = await t.app.request("/api/v1/users/me", { headers: { authorization: `Bearer ${body.access_token}` } });
      expect(me.status).toBe(200);
      expect(((await me.json()) as { email: string }).email).toBe("reader@example.org");
    });

    test("the address is matched case-insensitively and trimmed", async () => {
      const { user, password } = await t.signup({ email: "mixed.case@example.com" });
      const res = await t.app.request(
        "/api/v1/login/access-token",
        loginRequest("  MIXED.Case@Example.COM ", password),
      );
      expect(res.status).toBe(200);
      const token = ((await res.json()) as { access_token: string }).access_token;
      const me = await t.app.request("/api/v1/login/test-token", {
        method: "POST",
        headers: { authorization: `Bearer ${token}` },
      });
      expect(((await me.json()) as { id: string }).id).toBe(user.id);
    });

    test("login sets an HttpOnly, SameSite=Lax session cookie that authenticates on its own", async () => {
      const { user, password } = await t.signup();
      const res = await t.app.request("/api/v1/login/access-token", loginRequest(user.email, password));
      const cookie = res.headers.get("set-cookie") ?? "";
      const token = ((await res.json()) as { access_token: string }).access_token;
      expect(cookie).toContain(`access_token=${token}`);
      expect(cookie).toContain("HttpOnly");
      expect(cookie).toContain("SameSite=Lax");
      expect(cookie).toContain("Path=/");
      expect(cookie).not.toContain("Secure");
      // A session cookie: no lifetime, so it ends with the browser session.
      expect(cookie).not.toMatch(/Max-Age|Expires/i);

      // As the page's own script sends it: cookie-authenticated writes must come from this site (src/http/security.ts).
      const viaCookie = await t.app.request("/api/v1/login/test-token", {
        method: "POST",
        headers: { cookie: `access_token=${token}`, origin: "http://localhost" },
      });
      expect(viaCookie.status).toBe(200);
      expect(((await viaCookie.json()) as { id: string }).id).toBe(user.id);
    });

    test("the session cookie is Secure when the request came over https", async () => {
      const { user, password } = await t.signup();
      const direct = await t.app.request(
        "https://litreview.example/api/v1/login/access-token",
        loginRequest(user.email, password),
      );
      expect(direct.headers.get("set-cookie")).toContain("Secure");
      const proxied = await t.app.request(
        "/api/v1/login/access-token",
        loginRequest(user.email, password, { "x-forwarded-proto": "https" }),
      );
      expect(proxied.headers.get("set-cookie")).toContain("Secure");
    });

    test("a wrong password and an unknown address get the same answer", async () => {
      const { user } = await t.signup();
      const wrong = await t.app.request("/api/v1/login/access-token", loginRequest(user.email, "not-the-password"));
      expect(wrong.status).toBe(400);
      expect(await wrong.json()).toEqual({ detail: "Incorrect email or password" });
      expect(wrong.headers.get("set-cookie")).toBeNull();

      const unknown = await t.app.request(
        "/api/v1/login/access-token",
        loginRequest("nobody@example.com", "whatever-pass"),
      );
      expect(unknown.status).toBe(400);
      expect(await unknown.json()).toEqual({ detail: "Incorrect email or password" });
    });

    test("an inactive user cannot log in, even with the right password", async () => {
      const { user, password } = await t.signup({ is_active: false });
      const res = await t.app.request("/api/v1/login/access-token", loginRequest(user.email, password));
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ detail: "Inactive user" });
      // With a wrong password the answer does not reveal that the account exists.
      const wrong = await t.app.request("/api/v1/login/access-token", loginRequest(user.email, "wrong-password"));
      expect(await wrong.json()).toEqual({ detail: "Incorrect email or password" });
    });

    test("missing form fields are 422 with the form's messages", async () => {
      const noUser = await t.app.request("/api/v1/login/access-token", {
        method: "POST",
        body: new URLSearchParams({ password: "x" }),
      });
      expect(noUser.status).toBe(422);
      const body = (await noUser.json()) as { detail: { loc: string[]; msg: string }[] };
      expect(body.detail[0]).toMatchObject({ loc: ["body", "username"], msg: "Username is required" });

      const noPassword = await t.app.request("/api/v1/login/access-token", {
        method: "POST",
        body: new URLSearchParams({ username: "a@b.co" }),
      });
      expect(noPassword.status).toBe(422);
      expect(((await noPassword.json()) as { detail: { msg: string }[] }).detail[0]?.msg).toBe("Password is required");
    });

    test("a JSON body instead of the form is refused as an unsupported media type, not a crash", async () => {
      const res = await t.app.request("/api/v1/login/access-token", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ username: "a@b.co", password: "12345678" }),
      });
      expect(res.status).toBe(415);
      expect(await res.json()).toEqual({ detail: "Unsupported Media Type" });
    });

    test("logout clears the session cookie", async () => {
      const res = await t.app.request("/api/v1/login/logout", { method: "POST" });
      expect(res.status).toBe(200);
      const cookie = res.headers.get("set-cookie") ?? "";
      expect(cookie).toMatch(/^access_token=;/);
      expect(cookie).toContain("Max-Age=0");
      expect(cookie).toContain("Path=/");
    });
  });

  describe(`access tokens (${backend})`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(backend);
    });
    afterAll(async () => {
      await t?.close();
    });

    /** POST /login/test-token with these headers. */
    function testToken(headers: Record<string, string>) {
      return t.app.request("/api/v1/login/test-token", { method: "POST", headers });
    }

    /** Asserts the standard 401 answer. */
    async function expectRejected(res: Response) {
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ detail: "Could not validate credentials" });
      expect(res.headers.get("www-authenticate")).toBe("Bearer");
    }

    test("test-token returns the public user, never the password hash", async () => {
      const { user, headers } = await t.signup({
        full_name: "Grace Hopper",
        institution_email: "grace@uni.edu",
        description: "compilers",
      });
      const res = await testToken(headers);
      expect(res.status).toBe(200);
      const body = (await res.json()) as Record<string, unknown>;
      expect(body).toEqual({
        id: user.id,
        email: user.email,
        full_name: "Grace Hopper",
        institution_email: "grace@uni.edu",
        description: "compilers",
        is_active: true,
        is_superuser: false,
      });
      expect(JSON.stringify(body)).not.toContain("argon2");
    });

    test("no token is refused", async () => {
      await expectRejected(await testToken({}));
      await expectRejected(await t.app.request("/api/v1/users/me"));
    });

    test("a garbage token is refused", async () => {
      await expectRejected(await testToken({ authorization: "Bearer not.a.jwt" }));
      await expectRejected(await testToken({ authorization: "Bearer " }));
      await expectRejected(await testToken({ cookie: "access_token=%%%", origin: "http://localhost" }));
    });

    test("an expired token is refused", async () => {
      const { user } = await t.signup();
      const past = Math.floor(Date.now() / 1000) - 3600;
      const token = await new SignJWT({ ver: 0 })
        .setProtectedHeader({ alg: "HS256", typ: "JWT" })
        .setSubject(user.id)
        .setIssuedAt(past - 60)
        .setExpirationTime(past)
        .sign(t.deps.secretKey);
      await expectRejected(await testToken({ authorization: `Bearer ${token}` }));
    });

    test("a token signed with another key is refused", async () => {
      const { user } = await t.signup();
      const otherKey = crypto.getRandomValues(new Uint8Array(32));
      const token = await new SignJWT({ ver: 0 })
        .setProtectedHeader({ alg: "HS256" })
        .setSubject(user.id)
        .setExpirationTime("1h")
        .sign(otherKey);
      await expectRejected(await testToken({ authorization: `Bearer ${token}` }));
    });

    test('an unsigned token ("alg": "none") is refused', async () => {
      const { user } = await t.signup();
      const exp = Math.floor(Date.now() / 1000) + 3600;
      const token = `${b64url({ alg: "none", typ: "JWT" })}.${b64url({ sub: user.id, ver: 0, exp })}.`;
      await expectRejected(await testToken({ authorization: `Bearer ${token}` }));
    });

    test("a token whose subject is not a user id is refused", async () => {
      const token = await new SignJWT({ ver: 0 })
        .setProtectedHeader({ alg: "HS256" })
        .setSubject("not-a-uuid")
        .setExpirationTime("1h")
        .sign(t.deps.secretKey);
      await expectRejected(await testToken({ authorization: `Bearer ${token}` }));
    });

    test("tokens issued before a token_version bump stop working", async () => {
      const { user, headers } = await t.signup();
      expect((await testToken(headers)).status).toBe(200);
      await t.db.updateTable("users").set({ token_version: 1 }).where("id", "=", user.id).execute();
      await expectRejected(await testToken(headers));
      // A token issued after the bump works.
      expect((await testToken({ authorization: `Bearer ${await t.tokenFor(user.id)}` })).status).toBe(200);
    });

    test("tokens of deactivated or deleted users stop working", async () => {
      const deactivated = await t.signup();
      await t.db.updateTable("users").set({ is_active: false }).where("id", "=", deactivated.user.id).execute();
      await expectRejected(await testToken(deactivated.headers));

      const deleted = await t.signup();
      await t.db.deleteFrom("users").where("id", "=", deleted.user.id).execute();
      await expectRejected(await testToken(deleted.headers));
    });
  });
}
