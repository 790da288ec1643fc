import type { Context } from "hono";

// How a request carries its credentials: the session cookie's name, the bearer header and whether it came over https.
// These are facts of HTTP, used both by the security middleware here and by auth's token reader and cookie writer,
// so they live in the foundation layer that both may import (tests/support/layers.ts).

/** Name of the HttpOnly session cookie that carries the access token for server-rendered pages. */
export const SESSION_COOKIE = "access_token";

/**
 * The token of an `Authorization` header in the bearer scheme (RFC 6750 §2.1: "Bearer", case-insensitive, one or
 * more spaces, then a token68), or null for anything else ("Basic …", "Bearer" with a tab, an empty token, a token
 * with characters a token68 cannot hold). The one parser of this header: the token reader (src/auth/middleware.ts) and
 * the cross-site check (src/http/security.ts) agree on what a bearer header is.
 */
export function parseBearer(header: string | undefined | null): string | null {
  if (!header) return null;
  const m = /^bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header);
  return m ? m[1]! : null;
}

/**
 * Whether this request reached us over https: its URL, or the scheme a TLS-terminating reverse proxy reports in
 * X-Forwarded-Proto. Trusting that header is harmless where it is used: at worst a plain-http client that forges it
 * gets a Secure cookie or an HSTS header, which its browser then ignores or keeps to itself.
 */
export function requestIsHttps(c: Context): boolean {
  if (new URL(c.req.url).protocol === "https:") return true;
  return c.req.header("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase() === "https";
}
