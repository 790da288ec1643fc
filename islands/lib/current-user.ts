import { api } from "./api.ts";

/**
 * The signed-in user as islands share it: one react-query entry under ME_QUERY_KEY, seeded from the server's
 * render (the settings page) and refreshed after a profile change, read by the top bar's menus.
 */

/** The query key of GET /users/me. */
export const ME_QUERY_KEY = ["users", "me"] as const;

/** The user as GET /users/me returns it (spec §3). */
export interface CurrentUserData {
  id: string;
  email: string;
  full_name: string | null;
  institution_email: string | null;
  description: string | null;
  is_superuser: boolean;
}

/** GET /users/me. */
export function fetchMe(): Promise<CurrentUserData> {
  return api<CurrentUserData>("GET", "/users/me");
}
