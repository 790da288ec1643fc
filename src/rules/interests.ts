/**
 * Main interests limits and messages (docs/product.md §3, §5, §9): up to five interests kept as one `description`
 * string joined by commas. Shared by the settings page (islands/settings/interests.ts) and the server's validation
 * (src/users/schemas.ts). Imports nothing: no React, no DOM, no database (see docs/decisions/0038).
 */

/** Number of interest slots. */
export const INTEREST_SLOTS = 5;
/** Most characters in one interest. */
export const INTEREST_MAX = 100;
/** Most characters in the joined description. */
export const INTERESTS_TOTAL_MAX = 2000;

export const COMMA_MESSAGE = "Commas are not allowed.";
export const INTEREST_TOO_LONG = `Each interest must be at most ${INTEREST_MAX} characters.`;
export const TOTAL_TOO_LONG = "Total length of interests cannot exceed 2000 characters.";
/** An interest is one line: no line break, tab or other control character. */
export const INTEREST_NOT_SINGLE_LINE = "Each interest must be on one line, without control characters.";
