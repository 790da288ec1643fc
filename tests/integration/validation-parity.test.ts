import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { APP_BACKENDS } from "../support/database.ts";
import { createTestApp, type TestApp, type TestUser } from "../support/app.ts";
import { changePasswordRules, fieldErrors, type ChangePasswordValues } from "../../islands/auth/rules.ts";
import { signupRules, type SignupValues } from "../../islands/auth/validation.ts";
import { profileRules, type ProfileValues } from "../../islands/settings/profile.ts";
import { interestErrors, TOTAL_TOO_LONG } from "../../islands/settings/interests.ts";

// docs/product.md §5 says the forms' rules hold "on the page and again on the server": for each invalid value, the
// message the page shows on blur and the message the API answers (422, detail[0].msg) must be the same text.

interface Issue {
  loc: (string | number)[];
  msg: string;
}

async function serverMessage(res: Response, field: string): Promise<string | undefined> {
  expect(res.status).toBe(422);
  const { detail } = (await res.json()) as { detail: Issue[] };
  return detail.find((i) => i.loc.at(-1) === field)?.msg;
}

const json = (method: string, body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method,
  headers: { "content-type": "application/json", ...headers },
  body: JSON.stringify(body),
});

for (const backend of APP_BACKENDS) {
  describe(`the page and the API give the same validation messages (${backend})`, () => {
    let t: TestApp;
    let user: TestUser;
    beforeAll(async () => {
      t = await createTestApp(backend);
      user = await t.signup();
    });
    afterAll(async () => {
      await t?.close();
    });

    const validSignup: SignupValues = {
      full_name: "Ada Lovelace",
      email: "ada@example.org",
      password: "long-enough-1",
      confirm_password: "long-enough-1",
    };
    const signupCases: [keyof SignupValues, string][] = [
      ["email", ""],
      ["email", "not-an-address"],
      ["email", "ada@example"],
      ["email", "o'brien@example.org"],
      ["full_name", ""],
      ["full_name", "Al"],
      ["password", ""],
      ["password", "short"],
    ];
    for (const [field, value] of signupCases) {
      test(`sign-up ${field} = ${JSON.stringify(value)}`, async () => {
        const values = { ...validSignup, [field]: value, ...(field === "password" ? { confirm_password: value } : {}) };
        const [onPage] = fieldErrors(signupRules, field, values);
        expect(onPage).toBeDefined();
        const { confirm_password: _c, ...body } = values;
        expect(await serverMessage(await t.app.request("/api/v1/users/signup", json("POST", body)), field)).toBe(
          onPage,
        );
      });
    }

    const validProfile: ProfileValues = { full_name: "Ada", email: "ada@example.org", institution_email: "" };
    const profileCases: [keyof ProfileValues, string][] = [
      ["full_name", "x".repeat(31)],
      ["email", ""],
      ["email", "ada@"],
      ["institution_email", "lab"],
    ];
    for (const [field, value] of profileCases) {
      test(`profile ${field} = ${JSON.stringify(value.length > 20 ? `${value.slice(0, 8)}…` : value)}`, async () => {
        const [onPage] = fieldErrors(profileRules, field, { ...validProfile, [field]: value });
        expect(onPage).toBeDefined();
        const res = await t.app.request("/api/v1/users/me", json("PATCH", { [field]: value }, user.headers));
        expect(await serverMessage(res, field)).toBe(onPage);
      });
    }

    const validPassword: ChangePasswordValues = {
      current_password: "whatever-1",
      new_password: "new-password-1",
      confirm_password: "new-password-1",
    };
    const passwordCases: [keyof ChangePasswordValues, Partial<ChangePasswordValues>][] = [
      ["current_password", { current_password: "" }],
      ["new_password", { new_password: "", confirm_password: "" }],
      ["new_password", { new_password: "short", confirm_password: "short" }],
      ["confirm_password", { confirm_password: "" }],
      ["confirm_password", { confirm_password: "new-password-2" }],
    ];
    for (const [field, change] of passwordCases) {
      test(`password change ${field} = ${JSON.stringify(change[field])}`, async () => {
        const values = { ...validPassword, ...change };
        const [onPage] = fieldErrors(changePasswordRules, field, values);
        expect(onPage).toBeDefined();
        const res = await t.app.request("/api/v1/users/me/password", json("PATCH", values, user.headers));
        expect(await serverMessage(res, field)).toBe(onPage);
      });
    }

    test("main interests: an interest over 100 characters, and a total over 2000", async () => {
      const long = "x".repeat(101);
      const [onPage] = interestErrors(long);
      const res = await t.app.request(
        "/api/v1/users/me",
        json("PATCH", { description: `oncology, ${long}` }, user.headers),
      );
      expect(await serverMessage(res, "description")).toBe(onPage);
      const tooMuch = await t.app.request(
        "/api/v1/users/me",
        json("PATCH", { description: "y".repeat(2001) }, user.headers),
      );
      expect(await serverMessage(tooMuch, "description")).toBe(TOTAL_TOO_LONG);
    });
  });
}
