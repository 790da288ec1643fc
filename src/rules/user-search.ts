/**
 * User search limits (docs/product.md §7 GET /users/search/, §9), shared by the share popover
 * (islands/social/user-search.ts) and the server's validation (src/users/schemas.ts), so that the server refuses
 * exactly what the popover does not send. Imports nothing: no React, no DOM, no database (see docs/decisions/0038).
 */

/** Fewest characters of a user search (shorter ones would enumerate the accounts letter by letter). */
export const USER_SEARCH_MIN_CHARS = 3;
export const USER_SEARCH_TOO_SHORT = `Type at least ${USER_SEARCH_MIN_CHARS} characters to search for a user.`;
/** Results asked for (docs/product.md §7: the client uses limit 5). */
export const USER_SEARCH_LIMIT = 5;
