import type { QueryClient } from "@tanstack/react-query";
import { api, type RequestOf } from "./api.ts";
import type { components } from "./api-types.gen.ts";

/**
 * The signed-in user as islands share it: one react-query entry under ME_QUERY_KEY, seeded from the server's
 * render (the settings page) and refreshed after a profile change, read by the top bar's menus.
 */

/** The query key of GET /users/me. */
export const ME_QUERY_KEY = ["users", "me"] as const;

/**
 * The user as GET /users/me returns it (docs/product.md §3), less `is_active`: the settings page seeds the cache
 * without it (a signed-in user is active), and no island reads it.
 */
export type CurrentUserData = Omit<components["schemas"]["UserPublic"], "is_active">;

/** GET /users/me. */
export function fetchMe(): Promise<CurrentUserData> {
  return api("GET", "/users/me");
}

/**
 * PATCH /users/me with `changes`, then puts the answer in the shared cache (and marks it for a refetch), so the
 * settings cards and the top bar show the new values at once (docs/product.md §7: "then the current user is
 * refreshed").
 * @throws ApiRequestError from the API (e.g. 400 for an address already in use, 422 for an invalid field).
 */
export async function updateMe(
  queryClient: QueryClient,
  changes: RequestOf<"PATCH", "/users/me">["body"],
): Promise<CurrentUserData> {
  const updated = await api("PATCH", "/users/me", { body: changes });
  queryClient.setQueryData(ME_QUERY_KEY, updated);
  void queryClient.invalidateQueries({ queryKey: ME_QUERY_KEY });
  return updated;
}
