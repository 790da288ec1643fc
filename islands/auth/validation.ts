/**
 * Form rules and messages of docs/product.md §5 of the sign-up, login and password recovery forms. Pure, so they are
 * tested without a browser.
 */

import { FULL_NAME_MIN } from "../../src/rules/account.ts";
import { email, fullNameRules } from "./field-rules.ts";
import { passwordLength, type Rules } from "./rules.ts";

export type LoginValues = { username: string; password: string };
export const loginRules: Rules<LoginValues> = {
  username: { required: "Username is required", rules: [email()] },
  password: { required: "Password is required", rules: [passwordLength()] },
};

export type SignupValues = { full_name: string; email: string; password: string; confirm_password: string };
export const signupRules: Rules<SignupValues> = {
  full_name: {
    required: "Full Name is required",
    rules: [
      {
        valid: (v) => v.trim().length >= FULL_NAME_MIN,
        message: `Full Name must be at least ${FULL_NAME_MIN} characters`,
      },
      ...fullNameRules<SignupValues>("Full Name"),
    ],
  },
  email: { required: "Email is required", rules: [email()] },
  password: { required: "Password is required", rules: [passwordLength()] },
  confirm_password: {
    required: "Password confirmation is required",
    rules: [{ valid: (v, all) => v === all.password, message: "The passwords do not match" }],
  },
};

export type RecoverValues = { email: string };
export const recoverRules: Rules<RecoverValues> = {
  email: { required: "Email is required", rules: [email()] },
};

export type ResetValues = { new_password: string; confirm_password: string };
export const resetRules: Rules<ResetValues> = {
  new_password: { required: "Password is required", rules: [passwordLength()] },
  confirm_password: {
    required: "Password confirmation is required",
    rules: [{ valid: (v, all) => v === all.new_password, message: "The passwords do not match" }],
  },
};
