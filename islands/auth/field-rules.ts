/**
 * The e-mail and full name rules shared by the sign-up, login and profile forms (docs/product.md §5); apart from
 * ./rules.ts so that the settings page's first paint, whose only form is the password change, does not load them
 * (docs/decisions/0043-first-paint-javascript.md).
 */
import { EMAIL_PATTERN, FULL_NAME_MAX, isSingleLine, singleLineMessage } from "../../src/rules/account.ts";
import type { Rule } from "./rules.ts";

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
