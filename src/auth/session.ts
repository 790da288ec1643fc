import type { Context } from "hono";
import { deleteCookie, setCookie } from "hono/cookie";
import type { AppDeps } from "../deps.ts";
import { SESSION_COOKIE } from "./middleware.ts";
import { createAccessToken } from "./tokens.ts";

/** The OAuth2 token response of POST /login/access-token. */
export interface TokenResponse {
  access_token: string;
  token_type: "bearer";
}

/** Signs an access token for a user at their current token_version, valid for ACCESS_TOKEN_EXPIRE_MINUTES. */
export function issueAccessToken(deps: AppDeps, user: { id: string; token_version: number }): Promise<string> {
  return createAccessToken(deps.secretKey, { sub: user.id, ver: user.token_version }, deps.config.ACCESS_TOKEN_EXPIRE_MINUTES);
}

/**
 * Whether the browser reached us over https: the request URL itself, or the scheme a reverse proxy reports.
 * Trusting X-Forwarded-Proto here is harmless: at worst it adds the Secure flag to a cookie.
 */
function isHttps(c: Context): boolean {
  if (new URL(c.req.url).protocol === "https:") return true;
  return c.req.header("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase() === "https";
}

/**
 * Sets the session cookie that lets server-rendered pages know who is asking: HttpOnly (scripts cannot read it),
 * SameSite=Lax (not sent on cross-site form posts), Path=/, Secure over https. It has no Max-Age, so it lasts
 * for the browser session (spec §9: cookies last for the session); the token inside still expires on its own.
 */
export function setSessionCookie(c: Context, token: string): void {
  setCookie(c, SESSION_COOKIE, token, { httpOnly: true, sameSite: "Lax", path: "/", secure: isHttps(c) });
}

/** Removes the session cookie (same name, path and flags as when it was set). */
export function clearSessionCookie(c: Context): void {
  deleteCookie(c, SESSION_COOKIE, { httpOnly: true, sameSite: "Lax", path: "/", secure: isHttps(c) });
}
