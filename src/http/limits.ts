import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";

/**
 * Size limits at the edge, one rule for every request (docs/decisions/0011-api-contract-and-edge-rules.md). Each
 * refusal answers in the API's `{"detail": …}` shape:
 * - the URL (path and query) at most MAX_URL_CHARS: else 414;
 * - all header lines together at most MAX_HEADER_BYTES: else 431;
 * - the body at most MAX_BODY_BYTES, or the larger limit a path declares in BODY_LIMIT_BY_PATH: else 413. A
 *   declared Content-Length over the limit is refused before a byte is read; a chunked body is read only up to
 *   the limit. So a flood of huge bodies costs no memory.
 *
 * The HTTP server itself (Bun) is started with a larger header allowance (`--max-http-header-size`, see
 * package.json) and request-body allowance (src/server.ts) than these, so that it is this code, not the parser,
 * that refuses, with a body that says why. Only headers beyond the parser's allowance (256 KiB) still get the
 * parser's bare 431.
 */

/** Longest path plus query string, in characters. A review topic is at most 500 characters; URLs stay far below. */
export const MAX_URL_CHARS = 8 * 1024;
/** Most bytes of all request headers together (names and values). */
export const MAX_HEADER_BYTES = 32 * 1024;
/** Largest request body by default: the API takes small JSON and form bodies. */
export const MAX_BODY_BYTES = 64 * 1024;
/**
 * Paths that need more: Stripe's webhook events (an invoice with many lines can pass 64 KB; Stripe's own events
 * stay well below 1 MB).
 */
export const BODY_LIMIT_BY_PATH: Readonly<Record<string, number>> = {
  "/api/v1/subscriptions/webhook": 1024 * 1024,
};

function headerBytes(headers: Headers): number {
  let n = 0;
  headers.forEach((value, name) => {
    n += name.length + value.length + 4;
  });
  return n;
}

const bodyLimits = new Map<number, MiddlewareHandler>();
function bodyLimitOf(maxSize: number): MiddlewareHandler {
  let mw = bodyLimits.get(maxSize);
  if (!mw) {
    mw = bodyLimit({
      maxSize,
      onError: (c) => c.json({ detail: `Request body too large: at most ${maxSize} bytes are accepted here.` }, 413),
    });
    bodyLimits.set(maxSize, mw);
  }
  return mw;
}

/** The middleware applying the three limits above, for the whole app. */
export function requestLimits(): MiddlewareHandler {
  return async (c, next) => {
    const url = c.req.url;
    const pathStart = url.indexOf("/", url.indexOf("//") + 2);
    if (url.length - Math.max(0, pathStart) > MAX_URL_CHARS) {
      return c.json(
        { detail: `Request URL too long: at most ${MAX_URL_CHARS} characters of path and query are accepted.` },
        414,
      );
    }
    if (headerBytes(c.req.raw.headers) > MAX_HEADER_BYTES) {
      return c.json({ detail: `Request headers too large: at most ${MAX_HEADER_BYTES} bytes are accepted.` }, 431);
    }
    return bodyLimitOf(BODY_LIMIT_BY_PATH[c.req.path] ?? MAX_BODY_BYTES)(c, next);
  };
}
