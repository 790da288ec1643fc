import { describe, expect, test } from "bun:test";
import { formErrors } from "../auth/rules.ts";
import { profileChanges, profileRules, profileValuesOf } from "./profile.ts";

const user = { full_name: "Jane Doe", email: "jane@example.com", institution_email: null };

describe("profile rules (docs/product.md §5)", () => {
  test("email is required and must be an address; the institutional address is optional", () => {
    expect(formErrors(profileRules, { full_name: "", email: "", institution_email: "" })).toEqual({
      email: ["Email is required"],
    });
    expect(formErrors(profileRules, { full_name: "", email: "jane@", institution_email: "lab" })).toEqual({
      email: ["Invalid email address"],
      institution_email: ["Invalid email address"],
    });
  });

  test("full name at most 30 characters", () => {
    expect(formErrors(profileRules, { full_name: "x".repeat(30), email: "a@b.org", institution_email: "" })).toEqual(
      {},
    );
    expect(formErrors(profileRules, { full_name: "x".repeat(31), email: "a@b.org", institution_email: "" })).toEqual({
      full_name: ["Full name must be at most 30 characters"],
    });
  });

  test("full name on one line", () => {
    expect(formErrors(profileRules, { full_name: "Jane\r\nDoe", email: "a@b.org", institution_email: "" })).toEqual({
      full_name: ["Full name must be on one line, without control characters"],
    });
  });
});

describe("profile changes sent to PATCH /users/me", () => {
  test("an untouched form sends nothing", () => {
    expect(profileChanges(user, profileValuesOf(user))).toEqual({});
  });

  test("only changed fields are sent, trimmed", () => {
    expect(profileChanges(user, { full_name: " Jane Roe ", email: "jane@example.com", institution_email: "" })).toEqual(
      { full_name: "Jane Roe" },
    );
  });

  test("an emptied institutional address is sent as null, a new one as typed", () => {
    const withInstitution = { ...user, institution_email: "jane@uni.edu" };
    expect(
      profileChanges(withInstitution, { full_name: "Jane Doe", email: "jane@example.com", institution_email: "  " }),
    ).toEqual({ institution_email: null });
    expect(
      profileChanges(user, { full_name: "Jane Doe", email: "jane@example.com", institution_email: "jd@lab.org" }),
    ).toEqual({ institution_email: "jd@lab.org" });
  });

  test("white space or a change of letter case alone is no change", () => {
    expect(
      profileChanges(user, { full_name: "Jane Doe  ", email: " JANE@example.com", institution_email: "" }),
    ).toEqual({});
  });
});
