/**
 * The share popover's user search (docs/product.md §7 GET /users/search/, §9): limit 5, debounced 300 ms, a blank query
 * clears the results without a call. Pure parts here (shared with the server's validation); the hook in ShareForm.
 */
import { api } from "../lib/api.ts";
import type { components } from "../lib/api-types.gen.ts";
import { USER_SEARCH_LIMIT, USER_SEARCH_MIN_CHARS } from "../../src/rules/user-search.ts";

// The limits live in src/rules/ (shared with the server's validation, docs/decisions/0038).
export { USER_SEARCH_LIMIT, USER_SEARCH_MIN_CHARS, USER_SEARCH_TOO_SHORT } from "../../src/rules/user-search.ts";

/** Pause after the last keystroke before searching (docs/product.md §9). */
export const USER_SEARCH_DEBOUNCE_MS = 300;
/** The store default of a failed search (docs/product.md §8). */
export const FETCH_USERS_FAILED = "Failed to fetch users.";

/** A user as the search returns it. */
export type FoundUser = components["schemas"]["UserSearchResult"];

/** The product's text when nobody matches (§8). */
export function noUsersFound(query: string): string {
  return `No users found matching "${query}".`;
}

/** What to do with the typed text: nothing (blank), explain (too short), or search for the trimmed text. */
export function searchPlan(text: string): { kind: "clear" } | { kind: "too-short" } | { kind: "search"; q: string } {
  const q = text.trim();
  if (q === "") return { kind: "clear" };
  if (q.length < USER_SEARCH_MIN_CHARS) return { kind: "too-short" };
  return { kind: "search", q };
}

/** GET /users/search?q=…&limit=5. */
export function searchUsers(q: string, signal?: AbortSignal): Promise<FoundUser[]> {
  return api("GET", "/users/search", { query: { q, limit: USER_SEARCH_LIMIT }, signal });
}
