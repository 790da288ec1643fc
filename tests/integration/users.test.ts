import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { APP_BACKENDS } from "../support/database.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { ensureFirstSuperuser } from "../../src/users/service.ts";

type Issue = { loc: (string | number)[]; msg: string; type: string };

/** A JSON request with optional extra headers. */
function jsonRequest(method: string, body: unknown, headers: Record<string, string> = {}): RequestInit {
  return { method, headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) };
}

for (const backend of APP_BACKENDS) {
  describe(`signup (${backend})`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(backend);
    });
    afterAll(async () => {
      await t?.close();
    });

    /** POST /users/signup with this body. */
    function signup(body: unknown) {
      return t.app.request("/api/v1/users/signup", jsonRequest("POST", body));
    }

    /** Asserts a 422 whose first issue is `msg` at `field`. */
    async function expectInvalid(res: Response, field: string, msg: string) {
      expect(res.status).toBe(422);
      const { detail } = (await res.json()) as { detail: Issue[] };
      expect(detail[0]).toMatchObject({ loc: ["body", field], msg });
    }

    test("creates the account and returns the public user", async () => {
      const res = await signup({
        email: "  New.Person@Example.COM ",
        full_name: "New Person",
        password: "long-enough",
      });
      expect(res.status).toBe(200);
      const body = (await res.json()) as Record<string, unknown>;
      expect(body).toEqual({
        id: expect.any(String),
        email: "new.person@example.com",
        full_name: "New Person",
        institution_email: null,
        description: null,
        is_active: true,
        is_superuser: false,
      });
      expect(body).not.toHaveProperty("password");
      expect(body).not.toHaveProperty("hashed_password");
    });

    test("stores the password as an argon2id hash with the OWASP minimum parameters", async () => {
      const res = await signup({ email: "hash@example.com", full_name: "Hash Check", password: "plain-text-pw" });
      const { id } = (await res.json()) as { id: string };
      const row = await t.db
        .selectFrom("users")
        .select("hashed_password")
        .where("id", "=", id)
        .executeTakeFirstOrThrow();
      expect(row.hashed_password).toStartWith("$argon2id$v=19$m=19456,t=2,");
      expect(row.hashed_password).not.toContain("plain-text-pw");
    });

    test("fields the client may not set are ignored", async () => {
      const res = await signup({
        email: "sneaky@example.com",
        full_name: "Sneaky One",
        password: "long-enough",
        is_superuser: true,
        is_active: false,
        id: "x",
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ is_superuser: false, is_active: true });
    });

    test("an address already taken, in any letter case, is refused", async () => {
      expect(
        (await signup({ email: "taken@example.com", full_name: "First One", password: "long-enough" })).status,
      ).toBe(200);
      const again = await signup({ email: "TAKEN@Example.com", full_name: "Second One", password: "long-enough" });
      expect(again.status).toBe(400);
      expect(await again.json()).toEqual({ detail: "The user with this email already exists in the system" });
      const count = await t.db
        .selectFrom("users")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("email", "=", "taken@example.com")
        .executeTakeFirstOrThrow();
      expect(Number(count.n)).toBe(1);
    });

    test("two simultaneous signups for one address create one account", async () => {
      const body = { email: "race@example.com", full_name: "Race Condition", password: "long-enough" };
      const results = await Promise.all([signup(body), signup({ ...body, email: "RACE@example.com" })]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
    });

    test("a short password is refused with the form's message", async () => {
      await expectInvalid(
        await signup({ email: "short@example.com", full_name: "Short Pass", password: "1234567" }),
        "password",
        "Password must be at least 8 characters",
      );
    });

    test("a malformed address is refused", async () => {
      await expectInvalid(
        await signup({ email: "not-an-address", full_name: "Bad Email", password: "long-enough" }),
        "email",
        "Invalid email address",
      );
      await expectInvalid(
        await signup({ email: "a@b", full_name: "Bad Email", password: "long-enough" }),
        "email",
        "Invalid email address",
      );
    });

    test("missing fields are refused with the form's messages", async () => {
      await expectInvalid(
        await signup({ email: "nameless@example.com", password: "long-enough" }),
        "full_name",
        "Full Name is required",
      );
      await expectInvalid(
        await signup({ full_name: "No Email", password: "long-enough" }),
        "email",
        "Email is required",
      );
      await expectInvalid(
        await signup({ email: "nopass@example.com", full_name: "No Pass" }),
        "password",
        "Password is required",
      );
      await expectInvalid(
        await signup({ email: "blank@example.com", full_name: "   ", password: "long-enough" }),
        "full_name",
        "Full Name is required",
      );
    });

    test("a full name under 3 characters is refused", async () => {
      const res = await signup({ email: "ab@example.com", full_name: "Ab", password: "long-enough" });
      await expectInvalid(res, "full_name", "Full Name must be at least 3 characters");
    });

    test("every invalid field is listed", async () => {
      const res = await signup({ email: "bad", full_name: "", password: "short" });
      expect(res.status).toBe(422);
      const { detail } = (await res.json()) as { detail: Issue[] };
      expect(detail.map((d) => d.loc[1])).toEqual(expect.arrayContaining(["email", "full_name", "password"]));
    });

    test("malformed JSON is a client error, not a server error", async () => {
      const res = await t.app.request("/api/v1/users/signup", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{not json",
      });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { detail: string }).detail).toBeString();
      const notObject = await t.app.request("/api/v1/users/signup", jsonRequest("POST", ["a", "b"]));
      expect(notObject.status).toBe(422);
    });
  });

  describe(`current user (${backend})`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(backend);
    });
    afterAll(async () => {
      await t?.close();
    });

    test("GET /users/me returns the signed-in user", async () => {
      const { user, headers } = await t.signup({ full_name: "Me Myself", description: "oncology, genomics" });
      const res = await t.app.request("/api/v1/users/me", { headers });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual(user);
    });

    test("GET /users/me without a token is 401", async () => {
      const res = await t.app.request("/api/v1/users/me");
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ detail: "Could not validate credentials" });
    });
  });
}

for (const backend of APP_BACKENDS) {
  describe(`user management by superusers (${backend})`, () => {
    let t: TestApp;
    let admin: Awaited<ReturnType<TestApp["signup"]>>;
    let regular: Awaited<ReturnType<TestApp["signup"]>>;
    beforeAll(async () => {
      t = await createTestApp(backend);
      admin = await t.signup({ is_superuser: true, subscription: "none", full_name: "Admin" });
      regular = await t.signup({ full_name: "Regular Reader" });
    });
    afterAll(async () => {
      await t?.close();
    });

    test("lists users as {data, count}, paged by skip and limit, with or without the trailing slash", async () => {
      for (let i = 0; i < 3; i++) await t.signup();
      const all = await t.app.request("/api/v1/users/", { headers: admin.headers });
      expect(all.status).toBe(200);
      const body = (await all.json()) as { data: { id: string; email: string }[]; count: number };
      expect(body.count).toBe(body.data.length);
      expect(body.count).toBeGreaterThanOrEqual(5);
      expect(body.data.map((u) => u.id)).toContain(regular.user.id);
      expect(JSON.stringify(body)).not.toContain("hashed_password");

      const page = await t.app.request("/api/v1/users?skip=1&limit=2", { headers: admin.headers });
      const pageBody = (await page.json()) as { data: { id: string }[]; count: number };
      expect(pageBody.count).toBe(body.count);
      expect(pageBody.data.map((u) => u.id)).toEqual(body.data.slice(1, 3).map((u) => u.id));
    });

    test("bad paging values are 422", async () => {
      expect((await t.app.request("/api/v1/users/?limit=0", { headers: admin.headers })).status).toBe(422);
      expect((await t.app.request("/api/v1/users/?skip=-1", { headers: admin.headers })).status).toBe(422);
      expect((await t.app.request("/api/v1/users/?limit=abc", { headers: admin.headers })).status).toBe(422);
    });

    test("regular users cannot list or create users", async () => {
      const list = await t.app.request("/api/v1/users/", { headers: regular.headers });
      expect(list.status).toBe(403);
      expect(await list.json()).toEqual({ detail: "The user doesn't have enough privileges" });
      const create = await t.app.request(
        "/api/v1/users/",
        jsonRequest("POST", { email: "x@example.com", password: "long-enough" }, regular.headers),
      );
      expect(create.status).toBe(403);
      expect((await t.app.request("/api/v1/users/")).status).toBe(401);
    });

    test("a superuser creates an account that can log in and has the trial", async () => {
      const res = await t.app.request(
        "/api/v1/users/",
        jsonRequest(
          "POST",
          {
            email: "Created@Example.com",
            password: "created-pass",
            full_name: "Created Person",
            description: "cardiology",
          },
          admin.headers,
        ),
      );
      expect(res.status).toBe(200);
      const created = (await res.json()) as { id: string; email: string; is_superuser: boolean; description: string };
      expect(created).toMatchObject({ email: "created@example.com", is_superuser: false, description: "cardiology" });

      const login = await t.app.request("/api/v1/login/access-token", {
        method: "POST",
        body: new URLSearchParams({ username: "created@example.com", password: "created-pass" }),
      });
      expect(login.status).toBe(200);
      const sub = await t.db
        .selectFrom("subscriptions")
        .selectAll()
        .where("user_id", "=", created.id)
        .executeTakeFirst();
      expect(sub).toMatchObject({ status: "active", subscription_type: "plus", is_trial: true });

      const again = await t.app.request(
        "/api/v1/users/",
        jsonRequest("POST", { email: "CREATED@example.com", password: "created-pass" }, admin.headers),
      );
      expect(again.status).toBe(400);
      expect(await again.json()).toEqual({ detail: "The user with this email already exists in the system" });
    });

    test("a superuser can create another superuser", async () => {
      const res = await t.app.request(
        "/api/v1/users/",
        jsonRequest(
          "POST",
          { email: "admin2@example.com", password: "admin2-pass", is_superuser: true },
          admin.headers,
        ),
      );
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ is_superuser: true, full_name: null });
    });

    test("reading a user by id: oneself, or anyone for a superuser", async () => {
      const self = await t.app.request(`/api/v1/users/${regular.user.id}`, { headers: regular.headers });
      expect(self.status).toBe(200);
      expect(await self.json()).toEqual(regular.user);

      const other = await t.signup();
      const forbidden = await t.app.request(`/api/v1/users/${other.user.id}`, { headers: regular.headers });
      expect(forbidden.status).toBe(403);
      // A regular user cannot tell an unknown id from someone else's.
      expect((await t.app.request(`/api/v1/users/${crypto.randomUUID()}`, { headers: regular.headers })).status).toBe(
        403,
      );

      const byAdmin = await t.app.request(`/api/v1/users/${other.user.id}`, { headers: admin.headers });
      expect(await byAdmin.json()).toEqual(other.user);
      const missing = await t.app.request(`/api/v1/users/${crypto.randomUUID()}`, { headers: admin.headers });
      expect(missing.status).toBe(404);
      expect(await missing.json()).toEqual({ detail: "User not found" });
      const malformed = await t.app.request("/api/v1/users/not-a-uuid", { headers: admin.headers });
      expect(malformed.status).toBe(422);
    });

    test("a superuser updates a user; deactivation ends the user's sessions", async () => {
      const target = await t.signup();
      const res = await t.app.request(
        `/api/v1/users/${target.user.id}`,
        jsonRequest("PATCH", { full_name: "Renamed Person", is_active: false }, admin.headers),
      );
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({
        full_name: "Renamed Person",
        is_active: false,
        email: target.user.email,
      });
      expect((await t.app.request("/api/v1/users/me", { headers: target.headers })).status).toBe(401);
    });

    test("a superuser sets a new password; the old one and old sessions stop working", async () => {
      const target = await t.signup();
      const res = await t.app.request(
        `/api/v1/users/${target.user.id}`,
        jsonRequest("PATCH", { password: "brand-new-pass" }, admin.headers),
      );
      expect(res.status).toBe(200);
      expect((await t.app.request("/api/v1/users/me", { headers: target.headers })).status).toBe(401);
      const oldLogin = await t.app.request("/api/v1/login/access-token", {
        method: "POST",
        body: new URLSearchParams({ username: target.user.email, password: target.password }),
      });
      expect(oldLogin.status).toBe(400);
      const newLogin = await t.app.request("/api/v1/login/access-token", {
        method: "POST",
        body: new URLSearchParams({ username: target.user.email, password: "brand-new-pass" }),
      });
      expect(newLogin.status).toBe(200);
    });

    test("updating a user: taken address 409, unknown user 404, regular user 403, invalid values 422", async () => {
      const target = await t.signup();
      const taken = await t.app.request(
        `/api/v1/users/${target.user.id}`,
        jsonRequest("PATCH", { email: regular.user.email.toUpperCase() }, admin.headers),
      );
      expect(taken.status).toBe(409);
      expect(await taken.json()).toEqual({ detail: "User with this email already exists" });
      const unknown = await t.app.request(
        `/api/v1/users/${crypto.randomUUID()}`,
        jsonRequest("PATCH", { full_name: "X" }, admin.headers),
      );
      expect(unknown.status).toBe(404);
      const byRegular = await t.app.request(
        `/api/v1/users/${target.user.id}`,
        jsonRequest("PATCH", { full_name: "X" }, regular.headers),
      );
      expect(byRegular.status).toBe(403);
      const invalid = await t.app.request(
        `/api/v1/users/${target.user.id}`,
        jsonRequest("PATCH", { password: "short" }, admin.headers),
      );
      expect(invalid.status).toBe(422);
    });

    test("a superuser deletes a user and everything the user owns", async () => {
      const target = await t.signup();
      const res = await t.app.request(`/api/v1/users/${target.user.id}`, { method: "DELETE", headers: admin.headers });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ message: "User deleted successfully" });
      expect(
        await t.db.selectFrom("users").select("id").where("id", "=", target.user.id).executeTakeFirst(),
      ).toBeUndefined();
      expect(
        await t.db.selectFrom("subscriptions").select("id").where("user_id", "=", target.user.id).executeTakeFirst(),
      ).toBeUndefined();
      expect(
        (await t.app.request(`/api/v1/users/${target.user.id}`, { method: "DELETE", headers: admin.headers })).status,
      ).toBe(404);
    });

    test("a superuser cannot delete their own account; regular users cannot delete others", async () => {
      const self = await t.app.request(`/api/v1/users/${admin.user.id}`, { method: "DELETE", headers: admin.headers });
      expect(self.status).toBe(403);
      expect(await self.json()).toEqual({ detail: "Super users are not allowed to delete themselves" });
      const other = await t.signup();
      expect(
        (await t.app.request(`/api/v1/users/${other.user.id}`, { method: "DELETE", headers: regular.headers })).status,
      ).toBe(403);
    });
  });

  describe(`user search (${backend})`, () => {
    let t: TestApp;
    let me: Awaited<ReturnType<TestApp["signup"]>>;
    beforeAll(async () => {
      t = await createTestApp(backend);
      me = await t.signup({ full_name: "Marie Searcher", email: "marie@lab.example" });
      await t.signup({ full_name: "Marie Curie", email: "curie@radium.example" });
      await t.signup({ full_name: "Pierre Curie", email: "pierre@radium.example" });
      await t.signup({ full_name: "Rosalind Franklin", email: "rfranklin@kings.example" });
      await t.signup({ full_name: "Inactive Curie", email: "gone@radium.example", is_active: false });
      await t.signup({ full_name: "Percent 100% Sure", email: "percent@odd.example" });
    });
    afterAll(async () => {
      await t?.close();
    });

    /** GET /users/search/ as `me`. */
    async function search(query: string): Promise<{ id: string; full_name: string | null; email: string }[]> {
      const res = await t.app.request(`/api/v1/users/search/?${query}`, { headers: me.headers });
      expect(res.status).toBe(200);
      return (await res.json()) as { id: string; full_name: string | null; email: string }[];
    }

    test("finds other active users by the start of their name, a word of it, or their address, case-insensitively, with only id, name and address", async () => {
      const byName = await search("q=CURIE");
      expect(byName.map((u) => u.email).sort()).toEqual(["curie@radium.example", "pierre@radium.example"]);
      for (const u of byName) expect(Object.keys(u).sort()).toEqual(["email", "full_name", "id"]);

      const byAddress = await search("q=rfrank");
      expect(byAddress).toEqual([
        { id: expect.any(String), full_name: "Rosalind Franklin", email: "rfranklin@kings.example" },
      ]);
      const byFirstName = await search("q=rosa");
      expect(byFirstName.map((u) => u.email)).toEqual(["rfranklin@kings.example"]);
    });

    test("matches only the start of an address or name, so a domain or an '@' lists nobody", async () => {
      expect(await search("q=kings")).toEqual([]);
      expect(await search("q=radium.example")).toEqual([]);
      expect(await search("q=%40ra")).toEqual([]);
      expect(await search("q=urie")).toEqual([]);
    });

    test("administrators and inactive accounts are never listed", async () => {
      await t.signup({ full_name: "Admin Curie", email: "admin-curie@radium.example", is_superuser: true });
      const found = await search("q=curie");
      expect(found.map((u) => u.email)).not.toContain("admin-curie@radium.example");
      expect(found.map((u) => u.email)).not.toContain("gone@radium.example");
      expect(await search("q=admin")).toEqual([]);
      expect(await search("q=gone")).toEqual([]);
    });

    test("one or two characters are refused with a clear 422", async () => {
      for (const q of ["a", "ab", "%20ab%20"]) {
        const res = await t.app.request(`/api/v1/users/search/?q=${q}`, { headers: me.headers });
        expect(res.status).toBe(422);
        const { detail } = (await res.json()) as { detail: { loc: string[]; msg: string }[] };
        expect(detail[0]).toMatchObject({
          loc: ["query", "q"],
          msg: "Type at least 3 characters to search for a user.",
        });
      }
    });

    test("LIKE wildcards in the query are matched literally", async () => {
      expect(await search("q=%25%25%25")).toEqual([]);
      expect((await search("q=percent")).map((u) => u.email)).toEqual(["percent@odd.example"]);
      expect(await search("q=_____________________")).toEqual([]);
    });

    test("limit and skip page the results (at most 10 a page); the path works without the trailing slash", async () => {
      const first = await search("q=curie&limit=1");
      const second = await search("q=curie&limit=1&skip=1");
      expect(first).toHaveLength(1);
      expect(second).toHaveLength(1);
      expect(first[0]!.id).not.toBe(second[0]!.id);
      const noSlash = await t.app.request("/api/v1/users/search?q=franklin", { headers: me.headers });
      expect(((await noSlash.json()) as unknown[]).length).toBe(1);
      expect((await t.app.request("/api/v1/users/search/?q=curie&limit=11", { headers: me.headers })).status).toBe(422);
    });

    test("each user may search only so often: past the limit, 429 with Retry-After", async () => {
      const other = await t.signup();
      let last: Response | undefined;
      for (let i = 0; i < 31; i++)
        last = await t.app.request("/api/v1/users/search/?q=pierre", { headers: other.headers });
      expect(last!.status).toBe(429);
      expect(Number(last!.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(((await last!.json()) as { detail: string }).detail).toBe("Too Many Requests");
      // Another user is not affected.
      expect((await search("q=pierre")).length).toBe(1);
    });

    test("searching needs a signed-in user", async () => {
      expect((await t.app.request("/api/v1/users/search/?q=curie")).status).toBe(401);
    });
  });

  describe(`own account (${backend})`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(backend);
    });
    afterAll(async () => {
      await t?.close();
    });

    /** PATCH /users/me as this user. */
    function updateMe(headers: Record<string, string>, body: unknown) {
      return t.app.request("/api/v1/users/me", jsonRequest("PATCH", body, headers));
    }

    /** PATCH /users/me/password as this user. */
    function changePassword(headers: Record<string, string>, body: unknown) {
      return t.app.request("/api/v1/users/me/password", jsonRequest("PATCH", body, headers));
    }

    test("updates the profile fields that were sent and leaves the others", async () => {
      const u = await t.signup({ full_name: "Before Name", institution_email: "old@uni.edu", description: "a, b" });
      const res = await updateMe(u.headers, { full_name: "After Name", description: "oncology, immunology, genomics" });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({
        ...u.user,
        full_name: "After Name",
        description: "oncology, immunology, genomics",
      });
      const me = await t.app.request("/api/v1/users/me", { headers: u.headers });
      expect(await me.json()).toMatchObject({ full_name: "After Name", institution_email: "old@uni.edu" });
    });

    test("an emptied institutional address is stored as null", async () => {
      const u = await t.signup({ institution_email: "old@uni.edu" });
      expect(await (await updateMe(u.headers, { institution_email: "" })).json()).toMatchObject({
        institution_email: null,
      });
      expect(await (await updateMe(u.headers, { institution_email: "New@Uni.edu" })).json()).toMatchObject({
        institution_email: "new@uni.edu",
      });
      expect(await (await updateMe(u.headers, { institution_email: null })).json()).toMatchObject({
        institution_email: null,
      });
    });

    test("changing the address: the new one logs in, a taken one is 409", async () => {
      const u = await t.signup();
      const other = await t.signup();
      const taken = await updateMe(u.headers, { email: other.user.email.toUpperCase() });
      expect(taken.status).toBe(409);
      expect(await taken.json()).toEqual({ detail: "User with this email already exists" });

      const res = await updateMe(u.headers, { email: "Moved@Example.org" });
      expect(await res.json()).toMatchObject({ email: "moved@example.org" });
      const login = await t.app.request("/api/v1/login/access-token", {
        method: "POST",
        body: new URLSearchParams({ username: "moved@example.org", password: u.password }),
      });
      expect(login.status).toBe(200);
      // Keeping one's own address (in another case) is not a conflict.
      expect((await updateMe(u.headers, { email: "MOVED@example.org" })).status).toBe(200);
    });

    test("profile validation: name at most 30, valid addresses, interests at most 2000 characters", async () => {
      const u = await t.signup();
      const longName = await updateMe(u.headers, { full_name: "x".repeat(31) });
      expect(longName.status).toBe(422);
      expect(((await longName.json()) as { detail: Issue[] }).detail[0]).toMatchObject({
        loc: ["body", "full_name"],
        msg: "Full name must be at most 30 characters",
      });
      expect((await updateMe(u.headers, { full_name: "x".repeat(30) })).status).toBe(200);

      const badEmail = await updateMe(u.headers, { email: "nope" });
      expect(((await badEmail.json()) as { detail: Issue[] }).detail[0]?.msg).toBe("Invalid email address");
      const badInstitution = await updateMe(u.headers, { institution_email: "nope" });
      expect(((await badInstitution.json()) as { detail: Issue[] }).detail[0]?.msg).toBe("Invalid email address");

      const longInterests = await updateMe(u.headers, { description: "a".repeat(2001) });
      expect(((await longInterests.json()) as { detail: Issue[] }).detail[0]?.msg).toBe(
        "Total length of interests cannot exceed 2000 characters.",
      );
    });

    test("privileges cannot be raised through the profile", async () => {
      const u = await t.signup();
      const res = await updateMe(u.headers, { is_superuser: true, is_active: false, full_name: "Still Regular" });
      expect(await res.json()).toMatchObject({ is_superuser: false, is_active: true, full_name: "Still Regular" });
    });

    test("changing the password ends other sessions and returns a fresh token for this one", async () => {
      const u = await t.signup();
      const res = await changePassword(u.headers, {
        current_password: u.password,
        new_password: "next-password",
        confirm_password: "next-password",
      });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { message: string; access_token: string; token_type: string };
      expect(body.message).toBe("Password updated successfully");
      expect(res.headers.get("set-cookie")).toContain(`access_token=${body.access_token}`);

      expect((await t.app.request("/api/v1/users/me", { headers: u.headers })).status).toBe(401);
      expect(
        (await t.app.request("/api/v1/users/me", { headers: { authorization: `Bearer ${body.access_token}` } })).status,
      ).toBe(200);
      const login = await t.app.request("/api/v1/login/access-token", {
        method: "POST",
        body: new URLSearchParams({ username: u.user.email, password: "next-password" }),
      });
      expect(login.status).toBe(200);
    });

    test("password change errors: wrong current password, same password, mismatch, too short", async () => {
      const u = await t.signup();
      const wrong = await changePassword(u.headers, {
        current_password: "not-my-password",
        new_password: "next-password",
        confirm_password: "next-password",
      });
      expect(wrong.status).toBe(400);
      expect(await wrong.json()).toEqual({ detail: "Incorrect password" });

      const same = await changePassword(u.headers, {
        current_password: u.password,
        new_password: u.password,
        confirm_password: u.password,
      });
      expect(same.status).toBe(400);
      expect(await same.json()).toEqual({ detail: "New password cannot be the same as the current one" });

      const mismatch = await changePassword(u.headers, {
        current_password: u.password,
        new_password: "next-password",
        confirm_password: "other-password",
      });
      expect(mismatch.status).toBe(422);
      expect(((await mismatch.json()) as { detail: Issue[] }).detail[0]).toMatchObject({
        loc: ["body", "confirm_password"],
        msg: "The passwords do not match",
      });

      const short = await changePassword(u.headers, {
        current_password: u.password,
        new_password: "short",
        confirm_password: "short",
      });
      expect(((await short.json()) as { detail: Issue[] }).detail[0]?.msg).toBe(
        "Password must be at least 8 characters",
      );

      const missing = await changePassword(u.headers, { current_password: u.password, new_password: "next-password" });
      expect(((await missing.json()) as { detail: Issue[] }).detail[0]?.msg).toBe("Password confirmation is required");

      // Nothing changed: the session still works.
      expect((await t.app.request("/api/v1/users/me", { headers: u.headers })).status).toBe(200);
    });

    test("deleting one's account removes it with its data and clears the session cookie", async () => {
      const u = await t.signup();
      const res = await t.app.request("/api/v1/users/me", { method: "DELETE", headers: u.headers });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ message: "User deleted successfully" });
      expect(res.headers.get("set-cookie")).toMatch(/^access_token=;/);
      expect(
        await t.db.selectFrom("users").select("id").where("id", "=", u.user.id).executeTakeFirst(),
      ).toBeUndefined();
      expect(
        await t.db.selectFrom("subscriptions").select("id").where("user_id", "=", u.user.id).executeTakeFirst(),
      ).toBeUndefined();
      expect((await t.app.request("/api/v1/users/me", { headers: u.headers })).status).toBe(401);
      const login = await t.app.request("/api/v1/login/access-token", {
        method: "POST",
        body: new URLSearchParams({ username: u.user.email, password: u.password }),
      });
      expect(login.status).toBe(400);
    });

    test("a superuser cannot delete their own account", async () => {
      const admin = await t.signup({ is_superuser: true });
      const res = await t.app.request("/api/v1/users/me", { method: "DELETE", headers: admin.headers });
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({ detail: "Super users are not allowed to delete themselves" });
      expect((await t.app.request("/api/v1/users/me", { headers: admin.headers })).status).toBe(200);
    });
  });

  describe(`first superuser (${backend})`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(backend, {
        env: { FIRST_SUPERUSER: "Root@LitReview.test", FIRST_SUPERUSER_PASSWORD: "first-root-pass" },
      });
    });
    afterAll(async () => {
      await t?.close();
    });

    test("is created once from the configuration and can log in as a superuser", async () => {
      const created = await ensureFirstSuperuser(t.deps);
      expect(created).toMatchObject({ email: "root@litreview.test", is_superuser: true, is_active: true });
      const login = await t.app.request("/api/v1/login/access-token", {
        method: "POST",
        body: new URLSearchParams({ username: "root@litreview.test", password: "first-root-pass" }),
      });
      expect(login.status).toBe(200);
      const { access_token } = (await login.json()) as { access_token: string };
      const list = await t.app.request("/api/v1/users/", { headers: { authorization: `Bearer ${access_token}` } });
      expect(list.status).toBe(200);

      // A second start changes nothing, not even a password changed since.
      await t.db
        .updateTable("users")
        .set({ full_name: "Renamed Root" })
        .where("email", "=", "root@litreview.test")
        .execute();
      expect(await ensureFirstSuperuser(t.deps)).toBeNull();
      const row = await t.db
        .selectFrom("users")
        .select(["full_name"])
        .where("email", "=", "root@litreview.test")
        .executeTakeFirstOrThrow();
      expect(row.full_name).toBe("Renamed Root");
      const count = await t.db
        .selectFrom("users")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow();
      expect(Number(count.n)).toBe(1);
    });
  });
}
