import type { Context, MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import { NONCE, secureHeaders, type SecureHeadersVariables } from "hono/secure-headers";

type SecureHeadersOptions = NonNullable<Parameters<typeof secureHeaders>[0]>;
import type { Config } from "../config.ts";
import { SESSION_COOKIE, parseBearer, requestIsHttps } from "./credentials.ts";
import { isApiDocsPath } from "./api-docs.ts";

/**
 * HTTP security of every response (docs/decisions/0007-csp-and-csrf.md):
 * - `securityHeaders`: Content-Security-Policy, framing, sniffing, referrer and isolation headers, through hono's
 *   secure-headers middleware, and Strict-Transport-Security on answers sent over https only. Pages get a
 *   per-request script nonce for their one inline script; API responses, which are never rendered as pages, get a
 *   policy that allows nothing.
 * - `sameOriginMutations`: refuses cross-site writes to the API that would ride on the session cookie.
 */

/** The detail of the 403 answer to a refused cross-site request. */
export const CROSS_SITE_REFUSED = "Cross-site request refused";

/** The origin (scheme://host[:port]) of an http(s) URL, or null. */
function originOf(url: string | undefined): string | null {
  if (!url) return null;
  try {
    const u = new URL(url);
    return u.protocol === "http:" || u.protocol === "https:" ? u.origin : null;
  } catch {
    return null;
  }
}

/** Strict-Transport-Security as hono's secure-headers writes it by default (180 days, subdomains included). */
export const HSTS = "max-age=15552000; includeSubDomains";

/** Headers shared by pages and API answers. */
const COMMON: Partial<SecureHeadersOptions> = {
  // Set below, only over https: RFC 6797 §7.2, "An HSTS Host MUST NOT include the STS header field in HTTP responses
  // conveyed over non-secure transport" (issue 34: it was sent over plain http too).
  strictTransportSecurity: false,
  // A same-origin or cross-origin referrer carries at most the origin: never the path and query of a page
  // (a reset link's token). "no-referrer" is not used because it also turns the Origin header of same-origin
  // POSTs into "null", which the cross-site check below would then refuse.
  referrerPolicy: "strict-origin-when-cross-origin",
  xFrameOptions: "DENY",
  permissionsPolicy: { camera: [], microphone: [], geolocation: [], payment: [], usb: [] },
};

/**
 * Security headers for every response. Pages: scripts from this origin plus the inline script carrying the
 * request's nonce (no 'unsafe-inline'), styles, fonts and connections to this origin only, images from this origin,
 * data: URLs and the founder photo's host when FOUNDER_PHOTO_URL is set, no plugins, no framing, forms posting only
 * here. Read the nonce with `cspNonce(c)`.
 */
export function securityHeaders(config: Config): MiddlewareHandler {
  const founderPhoto = originOf(config.FOUNDER_PHOTO_URL);
  const pages = secureHeaders({
    ...COMMON,
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'", NONCE],
      styleSrc: ["'self'"],
      imgSrc: ["'self'", "data:", ...(founderPhoto ? [founderPhoto] : [])],
      fontSrc: ["'self'"],
      connectSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'none'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
  });
  const api = secureHeaders({
    ...COMMON,
    contentSecurityPolicy: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
  });
  // The API reference (/api/docs) is a page: it loads its scripts and styles from this origin.
  return async (c, next) => {
    const headers =
      (c.req.path === "/api" || c.req.path.startsWith("/api/")) && !isApiDocsPath(c.req.path) ? api : pages;
    await headers(c, next);
    if (requestIsHttps(c)) c.header("Strict-Transport-Security", HSTS);
  };
}

/** The CSP nonce of this request's page (set by `securityHeaders`), or undefined outside it (e.g. unit tests). */
export function cspNonce(c: Context): string | undefined {
  return (c as Context<{ Variables: Partial<SecureHeadersVariables> }>).get("secureHeadersNonce");
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** The origins that count as this site: the request's own (as the proxy reports its scheme) and PUBLIC_URL's. */
export function allowedOrigins(c: Context, config: Config): Set<string> {
  const url = new URL(c.req.url);
  const allowed = new Set([url.origin]);
  // Behind a TLS-terminating proxy the app sees http://; a browser's Origin header cannot be forged by another site,
  // nor can the proxy's X-Forwarded-Proto, so accepting the https form of our own host opens nothing.
  if (c.req.header("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase() === "https")
    allowed.add(`https://${url.host}`);
  const pub = originOf(config.PUBLIC_URL);
  if (pub) allowed.add(pub);
  return allowed;
}

/**
 * Middleware for /api/v1: a write (any method but GET, HEAD, OPTIONS) that a browser could send from another site
 * with the user's session cookie is refused with 403 `{"detail": "Cross-site request refused"}`.
 * - A request with `Authorization: Bearer …` (as `parseBearer` reads it, the same parser the token reader uses)
 *   passes: browsers never attach that header on their own.
 * - Otherwise the browser's word is taken: `Sec-Fetch-Site: same-origin`, or an `Origin` of this site, lets it
 *   through; any other value of either header is refused (as hono's csrf middleware decides, but for every content
 *   type, since a cookie also rides on cross-site DELETE or JSON requests where CORS is misconfigured or bypassed).
 * - When neither header is present, the request did not come from a browser page: it passes if it carries no
 *   session cookie (scripts, the payment webhook, a client sending its token) and is refused if it does, because
 *   only a browser holds that HttpOnly cookie and every current browser sends Origin with such requests.
 * A cross-site login form post (login CSRF) carries an Origin from the other site, so it is refused too.
 */
export function sameOriginMutations(config: Config): MiddlewareHandler {
  return async (c, next) => {
    if (SAFE_METHODS.has(c.req.method)) return next();
    if (parseBearer(c.req.header("authorization")) !== null) return next();

    const site = c.req.header("sec-fetch-site");
    const origin = c.req.header("origin");
    if (site === undefined && origin === undefined) {
      if (getCookie(c, SESSION_COOKIE) === undefined) return next();
      return c.json({ detail: CROSS_SITE_REFUSED }, 403);
    }
    if (site === "same-origin") return next();
    if (origin !== undefined && allowedOrigins(c, config).has(origin)) return next();
    // A same-origin page always sends one of the two as above; anything else is another site, a sandboxed frame
    // (Origin: null) or a user-initiated navigation, none of which may write with the cookie.
    return c.json({ detail: CROSS_SITE_REFUSED }, 403);
  };
}
