import type { Context } from "hono";
import { deleteCookie, setCookie } from "hono/cookie";
import type { AppDeps } from "../deps.ts";
import type { Config } from "../config.ts";
import { sql } from "kysely";
import { SESSION_COOKIE, requestIsHttps } from "../http/credentials.ts";
import { readClaims } from "./middleware.ts";
import { createAccessToken } from "./tokens.ts";

/** The OAuth2 token response of POST /login/access-token. */
export interface TokenResponse {
  access_token: string;
  token_type: "bearer";
}

/** Signs an access token for a user at their current token_version, valid for ACCESS_TOKEN_EXPIRE_MINUTES. */
export function issueAccessToken(deps: AppDeps, user: { id: string; token_version: number }): Promise<string> {
  return createAccessToken(
    deps.secretKey,
    { sub: user.id, ver: user.token_version },
    deps.config.ACCESS_TOKEN_EXPIRE_MINUTES,
  );
}

/**
 * Whether the session cookie is sent with Secure: the site's address (PUBLIC_URL) is https, or this request came over
 * https. Behind a proxy that terminates TLS without saying so, the request looks like plain http, but the browser is
 * on https (issue 34: the cookie lacked Secure there).
 */
function secureCookie(c: Context, config: Pick<Config, "PUBLIC_URL">): boolean {
  return requestIsHttps(c) || (config.PUBLIC_URL?.toLowerCase().startsWith("https:") ?? false);
}

/**
 * Sets the session cookie that lets server-rendered pages know who is asking: HttpOnly (scripts cannot read it),
 * SameSite=Lax (not sent on cross-site form posts), Path=/, Secure when the site is https (`secureCookie`). It has no
 * Max-Age, so it lasts for the browser session (docs/product.md §9: cookies last for the session); the token inside
 * still expires on its own.
 */
export function setSessionCookie(c: Context, config: Pick<Config, "PUBLIC_URL">, token: string): void {
  setCookie(c, SESSION_COOKIE, token, { httpOnly: true, sameSite: "Lax", path: "/", secure: secureCookie(c, config) });
}

/** Removes the session cookie (same name, path and flags as when it was set). */
export function clearSessionCookie(c: Context, config: Pick<Config, "PUBLIC_URL">): void {
  deleteCookie(c, SESSION_COOKIE, { httpOnly: true, sameSite: "Lax", path: "/", secure: secureCookie(c, config) });
}

// Revocations are kept until the token would have expired; expired ones are removed now and then.
const CLEANUP_PROBABILITY = 0.01;

/**
 * Logout on the server: the request's access token (bearer header or session cookie), if valid, is refused from now
 * on. A token with an id (`jti`) is revoked alone, so the user's other sessions continue; a token issued before
 * tokens had ids can only be ended with all of the user's sessions (token_version is bumped).
 * A request without a valid token changes nothing.
 */
export async function revokeRequestToken(deps: AppDeps, c: Context): Promise<void> {
  const claims = await readClaims(deps, c);
  if (!claims) return;
  if (claims.jti === undefined) {
    await deps.db
      .updateTable("users")
      .set({ token_version: sql<number>`token_version + 1` })
      .where("id", "=", claims.sub)
      .where("token_version", "=", claims.ver)
      .execute();
    return;
  }
  await deps.db
    .insertInto("revoked_access_tokens")
    .values({ jti: claims.jti, user_id: claims.sub, expires_at: new Date((claims.exp ?? 0) * 1000) })
    .onConflict((oc) => oc.column("jti").doNothing())
    // The user may be gone already (deleted account): nothing to revoke then.
    .execute()
    .catch((err: unknown) => {
      if ((err as { code?: string }).code !== "23503") throw err;
    });
  if (Math.random() < CLEANUP_PROBABILITY) {
    await deps.db.deleteFrom("revoked_access_tokens").where("expires_at", "<", sql<Date>`now()`).execute();
  }
}
