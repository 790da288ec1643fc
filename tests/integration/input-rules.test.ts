import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { APP_BACKENDS } from "../support/database.ts";
import { createTestApp, type TestApp, type TestUser } from "../support/app.ts";
import { fieldErrors } from "../../islands/auth/rules.ts";
import { signupRules, type SignupValues } from "../../islands/auth/validation.ts";
import { profileRules, type ProfileValues } from "../../islands/settings/profile.ts";
import { interestErrors } from "../../islands/settings/interests.ts";

// Issue 22, items 9 and 10: one rule for a full name everywhere (at least 3 characters at sign-up, at most 30, on
// one line), no line break or control character in any single-line field, the page and the API agreeing on each;
// year filters in plain digits only.

interface Issue {
  loc: (string | number)[];
  msg: string;
}

const json = (method: string, body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method,
  headers: { "content-type": "application/json", ...headers },
  body: JSON.stringify(body),
});

/** The 422's message for `field`, or undefined when the answer is not a 422 naming it. */
async function messageFor(res: Response, field: string): Promise<string | undefined> {
  if (res.status !== 422) return undefined;
  const { detail } = (await res.json()) as { detail: Issue[] };
  return detail.find((i) => i.loc.at(-1) === field)?.msg;
}

const BROKEN_NAMES = [
  "Ada\r\nBcc: victim@example.org",
  "Ada\nLovelace",
  "Ada\tLovelace",
  "Ada\u2028Lovelace",
  "A".repeat(31),
];

for (const backend of APP_BACKENDS) {
  describe(`single-line fields and full names (${backend})`, () => {
    let t: TestApp;
    let user: TestUser;
    let admin: TestUser;
    let n = 0;
    beforeAll(async () => {
      t = await createTestApp(backend);
      user = await t.signup({ full_name: "Grace Hopper" });
      admin = await t.signup({ is_superuser: true });
    });
    afterAll(() => t?.close());

    const validSignup = (): SignupValues => ({
      full_name: "Ada Lovelace",
      email: `ada-${++n}@example.org`,
      password: "long-enough-1",
      confirm_password: "long-enough-1",
    });
    const signupMessage = async (body: Record<string, string>) =>
      messageFor(await t.app.request("/api/v1/users/signup", json("POST", body)), "full_name");
    const nameOf = async (id: string) =>
      (await t.db.selectFrom("users").select("full_name").where("id", "=", id).executeTakeFirstOrThrow()).full_name;

    for (const name of BROKEN_NAMES) {
      const shown = JSON.stringify(name.slice(0, 24));
      test(`sign-up refuses full_name ${shown}, with the page's message, and stores nothing`, async () => {
        const values = { ...validSignup(), full_name: name };
        const [onPage] = fieldErrors(signupRules, "full_name", values);
        expect(onPage).toBeDefined();
        const { confirm_password: _c, ...body } = values;
        expect(await signupMessage(body)).toBe(onPage);
        const stored = await t.db.selectFrom("users").select("id").where("email", "=", values.email).executeTakeFirst();
        expect(stored).toBeUndefined();
      });

      test(`the profile refuses full_name ${shown} with the page's message and keeps the name`, async () => {
        const form: ProfileValues = { full_name: name, email: user.user.email, institution_email: "" };
        const [onPage] = fieldErrors(profileRules, "full_name", form);
        expect(onPage).toBeDefined();
        const res = await t.app.request("/api/v1/users/me", json("PATCH", { full_name: name }, user.headers));
        expect(await messageFor(res, "full_name")).toBe(onPage);
        expect(await nameOf(user.user.id)).toBe("Grace Hopper");
      });

      test(`administrators cannot write full_name ${shown} either`, async () => {
        const account = { email: `made-${++n}@example.org`, password: "long-enough-1", full_name: name };
        const create = await t.app.request("/api/v1/users/", json("POST", account, admin.headers));
        expect(await messageFor(create, "full_name")).toBeString();
        const patch = json("PATCH", { full_name: name }, admin.headers);
        const update = await t.app.request(`/api/v1/users/${user.user.id}`, patch);
        expect(await messageFor(update, "full_name")).toBeString();
      });
    }

    test("a 30-character name from sign-up is saved back from the profile; 3 is the sign-up minimum", async () => {
      const name = "Maria de los Angeles Fernandez"; // 30 characters
      expect(name).toHaveLength(30);
      const values = { ...validSignup(), full_name: name };
      expect(fieldErrors(signupRules, "full_name", values)).toEqual([]);
      const { confirm_password: _c, ...body } = values;
      const signup = await t.app.request("/api/v1/users/signup", json("POST", body));
      expect(signup.status).toBe(200);
      const login = await t.app.request("/api/v1/login/access-token", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ username: values.email, password: values.password }).toString(),
      });
      const { access_token } = (await login.json()) as { access_token: string };
      const headers = { authorization: `Bearer ${access_token}` };
      const patch = json("PATCH", { full_name: name, description: "sepsis" }, headers);
      const saved = await t.app.request("/api/v1/users/me", patch);
      expect(saved.status).toBe(200);
      expect(((await saved.json()) as { full_name: string }).full_name).toBe(name);

      const short = { ...validSignup(), full_name: "Al" };
      const [onPage] = fieldErrors(signupRules, "full_name", short);
      expect(onPage).toBe("Full Name must be at least 3 characters");
      const { confirm_password: _d, ...shortBody } = short;
      expect(await signupMessage(shortBody)).toBe(onPage);
    });

    test("an interest with a line break is refused on the page and by the API", async () => {
      const [onPage] = interestErrors("sepsis\nBcc: x");
      expect(onPage).toBeDefined();
      const patch = json("PATCH", { description: "sepsis\nBcc: x, asthma" }, user.headers);
      expect(await messageFor(await t.app.request("/api/v1/users/me", patch), "description")).toBe(onPage);
      const row = await t.db
        .selectFrom("users")
        .select("description")
        .where("id", "=", user.user.id)
        .executeTakeFirst();
      expect(row?.description).toBeNull();
    });
  });

  describe(`year filters take plain digits only (${backend})`, () => {
    let t: TestApp;
    let user: TestUser;
    beforeAll(async () => {
      t = await createTestApp(backend);
      user = await t.signup();
    });
    afterAll(() => t?.close());

    for (const [field, value] of [
      ["year_from", "0x7E0"],
      ["year_from", "2e3"],
      ["year_to", " 2020"],
      ["year_to", "2020.0"],
      ["year_from", "+2020"],
      ["year_to", "02020"],
      ["year_from", "２０２０"],
    ] as const) {
      test(`${field}=${JSON.stringify(value)} is 422 naming the field, and the review stays unstarted`, async () => {
        const post = { method: "POST", headers: user.headers };
        const { id } = (await (await t.app.request("/api/v1/literature_review/create", post)).json()) as { id: string };
        const query = new URLSearchParams({ user_query: "asthma", [field]: value }).toString();
        const res = await t.app.request(`/api/v1/literature_review/start/${id}?${query}`, post);
        expect(res.status).toBe(422);
        const { detail } = (await res.json()) as { detail: Issue[] };
        const msg = `${field} must be a year written as four digits, such as 2020`;
        expect(detail).toContainEqual(expect.objectContaining({ loc: ["query", field], msg }));
        const status = await t.app.request(`/api/v1/literature_review/status/${id}`, { headers: user.headers });
        expect(((await status.json()) as { status: string }).status).toBe("initial");
      });
    }
  });
}
