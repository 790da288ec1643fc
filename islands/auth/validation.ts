/**
 * Form rules and messages of docs/product.md §5, shared by the sign-up, login and password forms. Pure, so they are tested
 * without a browser.
 */

import {
  EMAIL_PATTERN,
  FULL_NAME_MAX,
  FULL_NAME_MIN,
  isSingleLine,
  PASSWORD_MIN,
  singleLineMessage,
} from "../../src/rules/account.ts";

// The field rules themselves live in src/rules/ (shared with the server's validation, docs/decisions/0038); they are
// re-exported here so that the forms keep one import.
export {
  EMAIL_PATTERN,
  FULL_NAME_MAX,
  FULL_NAME_MIN,
  isSingleLine,
  NOT_SINGLE_LINE,
  PASSWORD_MIN,
  singleLineMessage,
} from "../../src/rules/account.ts";

/** One rule: `valid` gets the field's value and all the form's values. */
export interface Rule<V extends Record<string, string>> {
  valid: (value: string, values: V) => boolean;
  message: string;
}

export type Rules<V extends Record<string, string>> = { [K in keyof V]?: { required?: string; rules?: Rule<V>[] } };

/**
 * Messages for one field: only the required message when it is empty, otherwise every rule it breaks
 * (docs/product.md §5: forms show all criteria).
 */
export function fieldErrors<V extends Record<string, string>>(rules: Rules<V>, name: keyof V, values: V): string[] {
  const spec = rules[name];
  if (!spec) return [];
  const value = values[name] ?? "";
  if (value.trim() === "") return spec.required ? [spec.required] : [];
  return (spec.rules ?? []).filter((r) => !r.valid(value, values)).map((r) => r.message);
}

/** Messages for every field of a form; an empty object means the form is valid. */
export function formErrors<V extends Record<string, string>>(
  rules: Rules<V>,
  values: V,
): Partial<Record<keyof V, string[]>> {
  const out: Partial<Record<keyof V, string[]>> = {};
  for (const name of Object.keys(rules) as (keyof V)[]) {
    const errs = fieldErrors(rules, name, values);
    if (errs.length) out[name] = errs;
  }
  return out;
}

/** The e-mail pattern rule ('Invalid email address'), for any form. */
export const email = <V extends Record<string, string>>(): Rule<V> => ({
  valid: (v) => EMAIL_PATTERN.test(v.trim()),
  message: "Invalid email address",
});

/** The full name rules of every form that writes one: on one line, at most FULL_NAME_MAX characters after trimming. */
export const fullNameRules = <V extends Record<string, string>>(label: string): Rule<V>[] => [
  { valid: (v) => isSingleLine(v), message: singleLineMessage(label) },
  { valid: (v) => v.trim().length <= FULL_NAME_MAX, message: `${label} must be at most ${FULL_NAME_MAX} characters` },
];

/** The password length rule ('Password must be at least 8 characters'), for any form. */
export const passwordLength = <V extends Record<string, string>>(): Rule<V> => ({
  valid: (v) => v.length >= PASSWORD_MIN,
  message: `Password must be at least ${PASSWORD_MIN} characters`,
});

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

export type ChangePasswordValues = { current_password: string; new_password: string; confirm_password: string };
/** The password change of /settings: the confirmation is checked against the new password (docs/product.md §5). */
export const changePasswordRules: Rules<ChangePasswordValues> = {
  current_password: { required: "Current password is required" },
  new_password: { required: "Password is required", rules: [passwordLength()] },
  confirm_password: {
    required: "Password confirmation is required",
    rules: [{ valid: (v, all) => v === all.new_password, message: "The passwords do not match" }],
  },
};
