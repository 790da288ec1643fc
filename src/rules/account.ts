/**
 * Account field rules of docs/product.md §5 and §9 (e-mail, password, full name, single-line text), shared by the
 * pages' forms (islands/auth/validation.ts) and the server's validation (src/users/schemas.ts), so that both refuse
 * exactly the same values. Imports nothing: no React, no DOM, no database (see docs/decisions/0038).
 */

/** The standard address pattern the original forms used (local part, "@", domain with a 2+ letter top level). */
export const EMAIL_PATTERN = /^[A-Z0-9._%+-]+@[A-Z0-9.-]+\.[A-Z]{2,}$/i;

/** Minimum password length (docs/product.md §9). */
export const PASSWORD_MIN = 8;

/** Full name minimum on sign-up (docs/product.md §9). */
export const FULL_NAME_MIN = 3;
/** Full name maximum, wherever a name is written: sign-up, profile, administrators (docs/product.md §9: at most 30). */
export const FULL_NAME_MAX = 30;

/**
 * What a single-line field (a name, an address, an interest) must not hold: any C0 or C1 control character, tab, line
 * feed and carriage return included, DEL, and the Unicode line and paragraph separators (U+2028, U+2029). A line
 * break in a name would split the e-mail subjects and headers it is written into, and the lists it is shown in.
 */
export const NOT_SINGLE_LINE = /[\u0000-\u001F\u007F-\u009F\u2028\u2029]/;

/** Whether `value` fits on one line (see NOT_SINGLE_LINE). */
export function isSingleLine(value: string): boolean {
  return !NOT_SINGLE_LINE.test(value);
}

/** The message of a single-line field holding a line break or a control character. */
export const singleLineMessage = (label: string) => `${label} must be on one line, without control characters`;
