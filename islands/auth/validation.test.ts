import { describe, expect, test } from "bun:test";
import { fieldErrors, formErrors } from "./rules.ts";
import { loginRules, recoverRules, resetRules, signupRules, type SignupValues } from "./validation.ts";

const signup = (v: Partial<SignupValues>): SignupValues => ({
  full_name: "Ada",
  email: "ada@example.com",
  password: "12345678",
  confirm_password: "12345678",
  ...v,
});

describe("sign-up rules (docs/product.md §5)", () => {
  test("a complete form has no message", () => {
    expect(formErrors(signupRules, signup({}))).toEqual({});
  });

  test("empty fields show only their required message", () => {
    const errors = formErrors(signupRules, { full_name: "", email: " ", password: "", confirm_password: "" });
    expect(errors).toEqual({
      full_name: ["Full Name is required"],
      email: ["Email is required"],
      password: ["Password is required"],
      confirm_password: ["Password confirmation is required"],
    });
  });

  test("a malformed address, a short password and a different confirmation are each named", () => {
    expect(fieldErrors(signupRules, "email", signup({ email: "ada@" }))).toEqual(["Invalid email address"]);
    expect(fieldErrors(signupRules, "email", signup({ email: "ada example.com" }))).toEqual(["Invalid email address"]);
    expect(fieldErrors(signupRules, "password", signup({ password: "1234567", confirm_password: "1234567" }))).toEqual([
      "Password must be at least 8 characters",
    ]);
    expect(fieldErrors(signupRules, "confirm_password", signup({ confirm_password: "123456789" }))).toEqual([
      "The passwords do not match",
    ]);
  });

  test("full name: 3 to 30 characters, on one line (the profile's maximum, so a name can be saved back)", () => {
    expect(fieldErrors(signupRules, "full_name", signup({ full_name: "x".repeat(30) }))).toEqual([]);
    expect(fieldErrors(signupRules, "full_name", signup({ full_name: "x".repeat(31) }))).toEqual([
      "Full Name must be at most 30 characters",
    ]);
    for (const name of ["Ada\r\nBcc: x", "Ada\nL", "Ada\tL", "Ada\u2028L", "Ada\u0000"]) {
      expect(fieldErrors(signupRules, "full_name", signup({ full_name: name }))).toEqual([
        "Full Name must be on one line, without control characters",
      ]);
    }
  });
});

describe("login, recovery and reset rules", () => {
  test("login: username required and an e-mail; password required and long enough", () => {
    expect(formErrors(loginRules, { username: "", password: "" })).toEqual({
      username: ["Username is required"],
      password: ["Password is required"],
    });
    expect(formErrors(loginRules, { username: "someone", password: "short" })).toEqual({
      username: ["Invalid email address"],
      password: ["Password must be at least 8 characters"],
    });
    expect(formErrors(loginRules, { username: "Someone@Example.ORG", password: "long enough" })).toEqual({});
  });

  test("recovery: e-mail required", () => {
    expect(formErrors(recoverRules, { email: "" })).toEqual({ email: ["Email is required"] });
  });

  test("reset: the confirmation is checked against the new password", () => {
    expect(formErrors(resetRules, { new_password: "abcdefgh", confirm_password: "abcdefgi" })).toEqual({
      confirm_password: ["The passwords do not match"],
    });
    expect(formErrors(resetRules, { new_password: "abcdefgh", confirm_password: "abcdefgh" })).toEqual({});
  });
});
