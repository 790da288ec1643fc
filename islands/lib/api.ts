/**
 * Browser client for /api/v1 (docs/product.md §7): bearer token from localStorage `access_token`, credentials included,
 * errors thrown as ApiRequestError carrying status and the server's detail. On 401 or 403 the token is removed
 * and the browser goes to /login (docs/product.md §8).
 */

export const TOKEN_KEY = "access_token";

export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    /** The server's `detail`: text, or the first validation msg; null when the body had none. */
    readonly detail: string | null,
    readonly body: unknown,
  ) {
    super(detail ?? `Error: ${status}`);
  }
}

/** Standard names of HTTP statuses as docs/product.md lists them (§8). */
export function statusName(status: number): string {
  const names: Record<number, string> = {
    400: "Bad Request",
    401: "Unauthorized",
    403: "Forbidden",
    404: "Not Found",
    409: "Conflict",
    422: "Validation Error",
    429: "Too Many Requests",
    500: "Internal Server Error",
    503: "Service Unavailable",
  };
  return names[status] ?? "Generic Error";
}

/** Extracts the user-facing message of an error body: detail text, or detail[0].msg. */
export function detailOf(body: unknown): string | null {
  if (!body || typeof body !== "object" || !("detail" in body)) return null;
  const d = (body as { detail: unknown }).detail;
  if (typeof d === "string") return d;
  if (Array.isArray(d) && d[0] && typeof d[0] === "object" && "msg" in d[0])
    return String((d[0] as { msg: unknown }).msg);
  return null;
}

/** Message for an error toast: server detail, else the error's message, else the generic text. */
export function errorMessage(err: unknown): string {
  if (err instanceof ApiRequestError) return err.detail ?? err.message;
  if (err instanceof Error && err.message) return err.message;
  return "An unexpected error occurred. Please try again.";
}

/** The server's detail text when the failure carries one, else `fallback`. */
export function detailOr(err: unknown, fallback: string): string {
  return err instanceof ApiRequestError && err.detail ? err.detail : fallback;
}

export function getToken(): string | null {
  try {
    return localStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

const sessionEndListeners = new Set<() => void>();

/**
 * Registers work to do when the session ends (logout, or a 401/403 answer): the browser entry clears the shared
 * react-query cache with it, so that no island keeps the previous user's data. @returns a function that unregisters it.
 */
export function onSessionEnd(listener: () => void): () => void {
  sessionEndListeners.add(listener);
  return () => sessionEndListeners.delete(listener);
}

/**
 * Ends the session (docs/product.md §4): clears cached data, removes the stored token and the session cookie, goes to /login.
 * @param returnTo the page to come back to after logging in again (a session lost mid-page), carried as /login's
 *   `next`; none for a logout the user asked for. Not checked here: /login and its form follow `next` only when it is
 *   a path of this site (islands/lib/next-path.ts), which keeps this shared module small.
 */
export async function logout(returnTo?: string): Promise<void> {
  for (const listener of sessionEndListeners) {
    try {
      listener();
    } catch (err) {
      console.error("session end listener failed:", err);
    }
  }
  try {
    localStorage.removeItem(TOKEN_KEY);
  } catch {}
  await fetch("/api/v1/login/logout", { method: "POST", credentials: "include" }).catch(() => {});
  window.location.assign(returnTo && returnTo !== "/" ? `/login?next=${encodeURIComponent(returnTo)}` : "/login");
}

type Query = Record<string, string | number | boolean | undefined | null>;

/**
 * Calls the API. `body` is sent as JSON unless it is URLSearchParams (form-encoded).
 * @throws ApiRequestError for any non-2xx answer (after handling 401/403 as above).
 */
export async function api<T>(
  method: string,
  path: string,
  opts: { query?: Query; body?: unknown; signal?: AbortSignal } = {},
): Promise<T> {
  const url = new URL(`/api/v1${path}`, window.location.origin);
  for (const [k, v] of Object.entries(opts.query ?? {}))
    if (v !== undefined && v !== null) url.searchParams.set(k, String(v));
  const headers: Record<string, string> = { accept: "application/json" };
  const token = getToken();
  if (token) headers.authorization = `Bearer ${token}`;
  let body: BodyInit | undefined;
  if (opts.body instanceof URLSearchParams) body = opts.body;
  else if (opts.body !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(opts.body);
  }
  const res = await fetch(url, { method, headers, body, credentials: "include", signal: opts.signal });
  const text = await res.text();
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = text;
  }
  if (!res.ok) {
    // Only 401/403 end the session (docs/product.md §8). A 503 (the database is briefly unavailable) keeps the token: the
    // session is still valid, and the call can be retried. Login itself answers 400/401 for bad credentials: that
    // is a form error, not a lost session.
    if ((res.status === 401 || res.status === 403) && !path.startsWith("/login/access-token")) {
      void logout(`${window.location.pathname}${window.location.search}`);
    }
    throw new ApiRequestError(res.status, detailOf(parsed), parsed);
  }
  return parsed as T;
}
