/**
 * Main interests (docs/product.md §3, §5, §9): up to five interests kept as one `description` string joined by commas.
 * Pure, so the rules are tested without a browser.
 */
import { isSingleLine } from "../../src/rules/account.ts";
import {
  COMMA_MESSAGE,
  INTEREST_MAX,
  INTEREST_NOT_SINGLE_LINE,
  INTEREST_SLOTS,
  INTEREST_TOO_LONG,
} from "../../src/rules/interests.ts";

// The limits and messages live in src/rules/ (shared with the server's validation, docs/decisions/0038).
export {
  COMMA_MESSAGE,
  INTEREST_MAX,
  INTEREST_NOT_SINGLE_LINE,
  INTEREST_SLOTS,
  INTEREST_TOO_LONG,
  INTERESTS_TOTAL_MAX,
  TOTAL_TOO_LONG,
} from "../../src/rules/interests.ts";

/**
 * The five slots of a stored description: split on commas, trimmed, empty entries dropped, padded with "" to five.
 * Entries beyond the fifth (possible only in data written by other means) are not shown and are kept by
 * `sameInterests`.
 */
export function splitInterests(description: string | null | undefined): string[] {
  const entries = (description ?? "")
    .split(",")
    .map((e) => e.trim())
    .filter((e) => e !== "");
  const slots = entries.slice(0, INTEREST_SLOTS);
  while (slots.length < INTEREST_SLOTS) slots.push("");
  return slots;
}

/** The description to store for these slots: each trimmed, empty ones dropped, joined with ", ". */
export function joinInterests(slots: readonly string[]): string {
  return slots
    .map((s) => s.trim())
    .filter((s) => s !== "")
    .join(", ");
}

/** The rules of one slot: no commas (they separate interests), at most INTEREST_MAX characters. */
export const INTEREST_RULES: readonly { valid: (value: string) => boolean; message: string }[] = [
  { valid: (v) => !v.includes(","), message: COMMA_MESSAGE },
  { valid: (v) => isSingleLine(v), message: INTEREST_NOT_SINGLE_LINE },
  { valid: (v) => v.trim().length <= INTEREST_MAX, message: INTEREST_TOO_LONG },
];

/** The messages of one slot (an empty slot has none). */
export function interestErrors(value: string): string[] {
  return INTEREST_RULES.filter((r) => !r.valid(value)).map((r) => r.message);
}

/** Whether saving `slots` would store what `description` already holds (the edit changed nothing). */
export function sameInterests(slots: readonly string[], description: string | null | undefined): boolean {
  return joinInterests(slots) === joinInterests(splitInterests(description));
}
