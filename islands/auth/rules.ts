/**
 * What every form of the site needs to check its fields (docs/product.md §5): a rule, the messages of a field and of
 * a form, the password length rule and the password change of /settings. The e-mail and full name rules are in
 * ./field-rules.ts. The sign-up, login and reset forms' own rule sets are in ./validation.ts, which only those pages
 * load (docs/decisions/0043-first-paint-javascript.md). Pure, so they are tested without a browser.
 */
import { PASSWORD_MIN } from "../../src/rules/account.ts";

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

/** The password length rule ('Password must be at least 8 characters'), for any form. */
export const passwordLength = <V extends Record<string, string>>(): Rule<V> => ({
  valid: (v) => v.length >= PASSWORD_MIN,
  message: `Password must be at least ${PASSWORD_MIN} characters`,
});

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
