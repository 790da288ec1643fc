import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { APP_BACKENDS } from "../support/database.ts";
import { createTestApp, type TestApp, type TestUser } from "../support/app.ts";
import { CONTROL_CHARACTER_MESSAGE } from "../../src/http/input-text.ts";
import { MAX_BODY_BYTES, MAX_HEADER_BYTES, MAX_URL_CHARS } from "../../src/http/limits.ts";
import { MAX_QUERY_LENGTH } from "../../src/reviews/schemas.ts";

// The edge rules of issue 7 that hold for every endpoint (docs/decisions/0011-api-contract-and-edge-rules.md):
// control characters in any input are a 422 naming the field (never a 500), sizes are bounded with a {detail}
// answer, every refusal is in the {detail} shape.

interface Issue {
  loc: (string | number)[];
  msg: string;
  type: string;
}

const json = (method: string, body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method,
  headers: { "content-type": "application/json", ...headers },
  body: JSON.stringify(body),
});

/** Asserts a 422 naming `loc` (a value invalid in its format anyway, e.g. an id or address, may get that message). */
async function expectFieldRefused(res: Response, loc: (string | number)[]): Promise<void> {
  expect(res.status).toBe(422);
  const { detail } = (await res.json()) as { detail: Issue[] };
  expect(detail.map((i) => i.loc)).toContainEqual(loc);
}

/** Asserts a 422 whose detail names `loc` with the control-character message. */
async function expectControlRefused(res: Response, loc: (string | number)[]): Promise<void> {
  expect(res.status).toBe(422);
  const { detail } = (await res.json()) as { detail: Issue[] };
  expect(detail).toContainEqual({ loc, msg: CONTROL_CHARACTER_MESSAGE, type: "string_control_character" });
}

for (const backend of APP_BACKENDS) {
  describe(`control characters in any input (${backend})`, () => {
    let t: TestApp;
    let user: TestUser;
    let admin: TestUser;
    beforeAll(async () => {
      t = await createTestApp(backend);
      user = await t.signup();
      admin = await t.signup({ is_superuser: true, subscription: "none" });
    });
    afterAll(async () => {
      await t?.close();
    });

    test("a NUL byte in login's username (no account needed) is a 422 naming the field", async () => {
      const res = await t.app.request("/api/v1/login/access-token", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ username: "ada\u0000@example.org", password: "whatever-it-is" }),
      });
      await expectControlRefused(res, ["body", "username"]);
    });

    test("in signup's full_name, on both databases, and nothing is stored", async () => {
      const res = await t.app.request(
        "/api/v1/users/signup",
        json("POST", { email: "nul@example.org", full_name: "Ada\u0000Lovelace", password: "long-enough-1" }),
      );
      await expectControlRefused(res, ["body", "full_name"]);
      expect(
        await t.db.selectFrom("users").select("id").where("email", "=", "nul@example.org").executeTakeFirst(),
      ).toBeUndefined();
    });

    test("in PATCH /users/me, the profile is left as it was", async () => {
      const res = await t.app.request(
        "/api/v1/users/me",
        json("PATCH", { full_name: "Bad\u0000Name", description: "ok" }, user.headers),
      );
      await expectControlRefused(res, ["body", "full_name"]);
      const row = await t.db
        .selectFrom("users")
        .select(["full_name", "description"])
        .where("id", "=", user.user.id)
        .executeTakeFirstOrThrow();
      expect(row.full_name).toBe(user.user.full_name);
      expect(row.description).toBeNull();
    });

    test("in a review's user_query, the review stays in status initial", async () => {
      const created = (await (
        await t.app.request("/api/v1/literature_review/create", { method: "POST", headers: user.headers })
      ).json()) as { id: string };
      const res = await t.app.request(
        `/api/v1/literature_review/start/${created.id}?user_query=${encodeURIComponent("covid\u0000")}`,
        { method: "POST", headers: user.headers },
      );
      await expectControlRefused(res, ["query", "user_query"]);
      const status = (await (
        await t.app.request(`/api/v1/literature_review/status/${created.id}`, { headers: user.headers })
      ).json()) as { status: string };
      expect(status.status).toBe("initial");
    });

    test("in the user search q, and in path parameters", async () => {
      await expectControlRefused(await t.app.request("/api/v1/users/search/?q=ada%00", { headers: user.headers }), [
        "query",
        "q",
      ]);
      await expectControlRefused(
        await t.app.request("/api/v1/literature_review/status/abc%00def", { headers: user.headers }),
        ["path", "lit_review_id"],
      );
      await expectFieldRefused(await t.app.request("/api/v1/password-recovery/a%00b@example.org", { method: "POST" }), [
        "path",
        "email",
      ]);
    });

    test("in the administrator's user calls", async () => {
      await expectControlRefused(
        await t.app.request(
          "/api/v1/users/",
          json("POST", { email: "new@example.org", password: "long-enough-1", full_name: "X\u0000" }, admin.headers),
        ),
        ["body", "full_name"],
      );
      await expectControlRefused(
        await t.app.request(
          `/api/v1/users/${user.user.id}`,
          json("PATCH", { description: "a,\u0000b" }, admin.headers),
        ),
        ["body", "description"],
      );
      await expectFieldRefused(await t.app.request(`/api/v1/users/${user.user.id}%00`, { headers: admin.headers }), [
        "path",
        "user_id",
      ]);
    });

    test("other control characters and lone surrogates are refused too; tab and line breaks only in multi-line text", async () => {
      for (const bad of ["\u0007", "\u001b[31m", "\u007f", "\u0085", "\ud800", "x\udc00"]) {
        const res = await t.app.request(
          "/api/v1/users/me",
          json("PATCH", { description: `interest ${bad}` }, user.headers),
        );
        await expectControlRefused(res, ["body", "description"]);
      }
      // Interests are single-line fields (ADR 0032); a review topic (a pasted search strategy) may span lines.
      const res = await t.app.request(
        "/api/v1/users/me",
        json("PATCH", { description: "line one\twith tab\r\nline two" }, user.headers),
      );
      expect(res.status).toBe(422);
      const { id } = (await (
        await t.app.request("/api/v1/literature_review/create", { method: "POST", headers: user.headers })
      ).json()) as { id: string };
      const topic = encodeURIComponent("asthma\tin children\r\nAND inhaled corticosteroids");
      expect(
        (
          await t.app.request(`/api/v1/literature_review/start/${id}?user_query=${topic}`, {
            method: "POST",
            headers: user.headers,
          })
        ).status,
      ).toBe(200);
    });

    test("a password with NUL is refused at the change-password call before anything is checked", async () => {
      const res = await t.app.request(
        "/api/v1/users/me/password",
        json(
          "PATCH",
          { current_password: "x\u0000y", new_password: "long-enough-2", confirm_password: "long-enough-2" },
          user.headers,
        ),
      );
      await expectControlRefused(res, ["body", "current_password"]);
    });
  });

  describe(`size limits and the shape of every refusal (${backend})`, () => {
    let t: TestApp;
    let user: TestUser;
    beforeAll(async () => {
      t = await createTestApp(backend);
      user = await t.signup();
    });
    afterAll(async () => {
      await t?.close();
    });

    test("a body over the limit is 413 with a detail, refused by its declared length before it is read", async () => {
      const body = JSON.stringify({
        email: "big@example.org",
        full_name: "x".repeat(MAX_BODY_BYTES),
        password: "long-enough-1",
      });
      const res = await t.app.request("/api/v1/users/signup", {
        method: "POST",
        headers: { "content-type": "application/json", "content-length": String(body.length) },
        body,
      });
      expect(res.status).toBe(413);
      expect(((await res.json()) as { detail: string }).detail).toBe(
        `Request body too large: at most ${MAX_BODY_BYTES} bytes are accepted here.`,
      );
    });

    test("a chunked body (no declared length) over the limit is 413 too", async () => {
      const chunk = new TextEncoder().encode("x".repeat(16 * 1024));
      let sent = 0;
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent++ < 10) controller.enqueue(chunk);
          else controller.close();
        },
      });
      const req = new Request("http://localhost/api/v1/users/signup", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: stream,
        duplex: "half",
      } as RequestInit);
      const res = await t.app.request(req);
      expect(res.status).toBe(413);
      expect(await res.json()).toHaveProperty("detail");
    });

    test("the webhook path accepts bodies larger than the default limit", async () => {
      const body = "x".repeat(MAX_BODY_BYTES + 1000);
      const res = await t.app.request("/api/v1/subscriptions/webhook", {
        method: "POST",
        headers: { "content-type": "application/json", "content-length": String(body.length) },
        body,
      });
      expect(res.status).not.toBe(413);
    });

    test("a URL over the limit is 414 with a detail", async () => {
      const res = await t.app.request(`/api/v1/users/search/?q=${"a".repeat(MAX_URL_CHARS)}`, {
        headers: user.headers,
      });
      expect(res.status).toBe(414);
      expect(((await res.json()) as { detail: string }).detail).toContain(`at most ${MAX_URL_CHARS} characters`);
    });

    test("headers over the limit are 431 with a detail", async () => {
      const res = await t.app.request("/api/v1/users/me", {
        headers: { ...user.headers, "x-padding": "p".repeat(MAX_HEADER_BYTES) },
      });
      expect(res.status).toBe(431);
      expect(((await res.json()) as { detail: string }).detail).toContain(`at most ${MAX_HEADER_BYTES} bytes`);
    });

    test(`a review topic has a documented maximum of ${MAX_QUERY_LENGTH} characters, refused with a clear 422`, async () => {
      const created = (await (
        await t.app.request("/api/v1/literature_review/create", { method: "POST", headers: user.headers })
      ).json()) as { id: string };
      const res = await t.app.request(
        `/api/v1/literature_review/start/${created.id}?user_query=${"a".repeat(MAX_QUERY_LENGTH + 1)}`,
        { method: "POST", headers: user.headers },
      );
      expect(res.status).toBe(422);
      const { detail } = (await res.json()) as { detail: Issue[] };
      expect(detail).toEqual([
        {
          loc: ["query", "user_query"],
          msg: `Review topic must be at most ${MAX_QUERY_LENGTH} characters.`,
          type: "too_big",
        },
      ]);
      const ok = await t.app.request(
        `/api/v1/literature_review/start/${created.id}?user_query=${"a".repeat(MAX_QUERY_LENGTH)}`,
        { method: "POST", headers: user.headers },
      );
      expect(ok.status).toBe(200);
    });

    test("an invalid address in POST /password-recovery/{email} is reported once", async () => {
      const res = await t.app.request("/api/v1/password-recovery/not-an-address", { method: "POST" });
      expect(res.status).toBe(422);
      expect(((await res.json()) as { detail: Issue[] }).detail).toEqual([
        { loc: ["path", "email"], msg: "Invalid email address", type: "invalid_format" },
      ]);
    });

    test("malformed JSON, a wrong media type, an unknown path and a wrong method all answer in the {detail} shape", async () => {
      const answers = [
        await t.app.request("/api/v1/users/signup", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: "{not json",
        }),
        await t.app.request("/api/v1/users/signup", {
          method: "POST",
          headers: { "content-type": "text/plain" },
          body: "hello",
        }),
        await t.app.request("/api/v1/no/such/call", { headers: user.headers }),
        await t.app.request("/api/v1/login/access-token", { method: "DELETE" }),
      ];
      expect(answers.map((r) => r.status)).toEqual([400, 415, 404, 404]);
      for (const r of answers) {
        expect(r.headers.get("content-type")).toContain("application/json");
        expect(typeof ((await r.json()) as { detail: unknown }).detail).toBe("string");
      }
    });

    test("a skip too large to be a page is a 422, not a database error", async () => {
      const res = await t.app.request("/api/v1/literature_review/history?skip=100000000000000000000", {
        headers: user.headers,
      });
      expect(res.status).toBe(422);
    });
  });
}
