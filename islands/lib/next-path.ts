/**
 * The `next` parameter of /login (docs/decisions/0036-first-hour.md): where the browser goes once signed in, limited
 * to this site's own paths so that a crafted link can never send a freshly signed-in user to another site
 * (an open redirect, CWE-601). Shared by the server (the redirects to and away from /login) and the login form.
 */

/** Longest `next` kept; a longer one is dropped (no page of this site needs more). */
export const NEXT_MAX_LENGTH = 2048;

/** The query parameter that carries the destination. */
export const NEXT_PARAM = "next";

/**
 * `raw` when it is a path of this site, else null. Accepted: a string that starts with exactly one "/" followed by
 * anything but "/" or "\" (so neither "//evil.example" nor "/\evil.example", which browsers read as another host),
 * with no backslash, control character or whitespace anywhere (browsers drop tabs and newlines from URLs, so
 * "/\t/evil.example" would become "//evil.example"), at most NEXT_MAX_LENGTH characters, and which still resolves
 * to the same origin (a check against a placeholder origin, in case a parser reads it otherwise).
 * Refused: null, absolute URLs ("https://…", "javascript:…"), relative paths ("home"), and the above.
 */
export function safeNextPath(raw: string | null | undefined): string | null {
  if (typeof raw !== "string" || raw.length === 0 || raw.length > NEXT_MAX_LENGTH) return null;
  if (raw[0] !== "/" || raw[1] === "/" || raw[1] === "\\") return null;
  // Backslashes, whitespace and controls (C0, DEL, C1) have no place in a path this site links to.
  if (/[\\\s\u0000-\u001f\u007f-\u009f]/.test(raw)) return null;
  const base = "http://next.invalid";
  try {
    const url = new URL(raw, base);
    if (url.origin !== base) return null;
  } catch {
    return null;
  }
  return raw;
}

/** "/login?next=…" for a destination `path` (its query kept), or "/login" when `path` is not a safe path or is "/". */
export function loginPathFor(path: string): string {
  const next = safeNextPath(path);
  return next && next !== "/" ? `/login?${NEXT_PARAM}=${encodeURIComponent(next)}` : "/login";
}
