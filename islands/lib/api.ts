/**
 * Browser client for /api/v1 (docs/product.md §7): bearer token from localStorage `access_token`, credentials included,
 * errors thrown as ApiRequestError carrying status and the server's detail. On 401 or 403 the token is removed
 * and the browser goes to /login (docs/product.md §8).
 */

import type { paths } from "./api-types.gen.ts";

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

/** The session's ending once `logout` has been called: later calls join it. */
let ending: Promise<void> | undefined;

/**
 * Ends the session (docs/product.md §4): clears cached data, removes the stored token and the session cookie, goes to
 * /login.
 * @param returnTo the page to come back to after logging in again (a session lost mid-page), carried as /login's
 *   `next`; none for a logout the user asked for. Not checked here: /login and its form follow `next` only when it is
 *   a path of this site (islands/lib/next-path.ts), which keeps this shared module small.
 */
export function logout(returnTo?: string): Promise<void> {
  // The first call decides where the browser goes: a request that fails with 401 because the user just logged out
  // calls this again with its page as `next`, and must not turn "Logout" into "log in to come back here".
  ending ??= endSession(returnTo);
  return ending;
}

async function endSession(returnTo?: string): Promise<void> {
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

/** The API's paths as the OpenAPI document names them (`/likes/{article_pmid}`): by path, then lowercase method. */
type Paths = paths;
/** An HTTP method as fetch sends it (upper case: fetch does not normalise `patch`). */
export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
/** The operation of `path` under `method`, from the generated document. */
type Operation<M extends Method, P extends keyof Paths> = Paths[P][Lowercase<M> & keyof Paths[P]];
/** The paths that have an operation under `method`. */
export type PathsWith<M extends Method> = {
  [P in keyof Paths]: Lowercase<M> extends keyof Paths[P] ? P : never;
}[keyof Paths];

type SuccessStatus = 200 | 201 | 202 | 204;
/** The JSON body of an answer, or null when it declares none (an empty body parses as null). */
type JsonBody<R> = R extends { content: { "application/json": infer B } } ? B : null;
/**
 * What `api(method, path)` resolves to: the JSON body of the operation's 2xx answers, as the server's OpenAPI
 * document declares it (islands/lib/api-types.gen.ts).
 */
export type ResponseOf<M extends Method, P extends PathsWith<M>> =
  Operation<M, P> extends { responses: infer R }
    ? { [S in keyof R]: S extends SuccessStatus ? JsonBody<R[S]> : never }[keyof R]
    : never;

type ParamsOf<O> = O extends { parameters: infer X } ? X : Record<never, never>;
/** The body `api` sends: JSON of the declared schema, or URLSearchParams where the operation takes a form. */
type BodyOf<O> = O extends { requestBody?: { content: infer C } }
  ? C extends { "application/json": infer J }
    ? J
    : URLSearchParams
  : never;

/**
 * The options of one call, typed from its operation: `path` (the values of the path's `{…}` parameters, required when
 * it has some), `query`, `body` (required when the operation requires one; `never` where it takes none), `signal`.
 */
export type RequestOf<M extends Method, P extends PathsWith<M>> = { signal?: AbortSignal } & (ParamsOf<
  Operation<M, P>
> extends { path: infer X }
  ? { path: X }
  : { path?: never }) &
  (ParamsOf<Operation<M, P>> extends { query: infer Q }
    ? { query: Q }
    : ParamsOf<Operation<M, P>> extends { query?: infer Q }
      ? { query?: Q }
      : { query?: never }) &
  (Operation<M, P> extends { requestBody: unknown }
    ? { body: BodyOf<Operation<M, P>> }
    : { body?: BodyOf<Operation<M, P>> });

/** The options argument: optional when nothing in it is required. */
type OptionsArg<O> = Partial<O> extends O ? [opts?: O] : [opts: O];

/** The options as the function reads them, whatever the operation. */
type Options = {
  path?: Record<string, string | number>;
  query?: Record<string, string | number | boolean | undefined | null>;
  body?: unknown;
  signal?: AbortSignal;
};

/**
 * Calls the API operation `method path`, where `path` is the document's (`/likes/{article_pmid}`) and `opts.path`
 * fills its parameters (each URI-encoded); `opts.query` is the query string (null and undefined values left out);
 * `body` is sent as JSON unless it is URLSearchParams (form-encoded). Parameters, body and answer are typed from the
 * server's OpenAPI document (islands/lib/api-types.gen.ts, `npm run api:types`); the types add no runtime code.
 * A 401 or 403 ends the session unless the token the request carried has been replaced meanwhile (see
 * `apiRenewingToken`): the request is then sent once more with the current token.
 * @returns the parsed JSON body of the 2xx answer (null when empty).
 * @throws ApiRequestError for any non-2xx answer (after handling 401/403 as above).
 */
export function api<M extends Method, P extends PathsWith<M>>(
  method: M,
  path: P,
  ...[opts]: OptionsArg<RequestOf<M, P>>
): Promise<ResponseOf<M, P>> {
  return send(method, path, (opts ?? {}) as Options, {}) as Promise<ResponseOf<M, P>>;
}

/** A request replacing the session's token, in flight: settles once the new token is stored or the request failed. */
let renewal: Promise<unknown> | null = null;

/**
 * `api` for an operation that ends every other session and answers the token that replaces this one (the password
 * change: PATCH /users/me/password). The answer's `access_token` is stored before this resolves. Meanwhile, another
 * request sent with the token being replaced can be refused (401) by a server that has already revoked it: such a
 * request waits for this one, then is sent again with the new token instead of ending the session.
 * @returns the parsed JSON body of the 2xx answer.
 * @throws ApiRequestError as `api` does; the stored token is then unchanged.
 */
export async function apiRenewingToken<M extends Method, P extends PathsWith<M>>(
  method: M,
  path: P,
  ...[opts]: OptionsArg<RequestOf<M, P>>
): Promise<ResponseOf<M, P>> {
  const answer = send(method, path, (opts ?? {}) as Options, { renewing: true }).then((body) => {
    const token = (body as { access_token?: unknown } | null)?.access_token;
    if (typeof token === "string") {
      try {
        localStorage.setItem(TOKEN_KEY, token);
      } catch {
        // Without storage the session cookie, which the API also renews, keeps the pages signed in.
      }
    }
    return body as ResponseOf<M, P>;
  });
  const mine = answer.catch(() => {});
  renewal = mine;
  try {
    return await answer;
  } finally {
    if (renewal === mine) renewal = null;
  }
}

/**
 * One request of `api`. `flags.renewing`: it is the renewal itself, which must not wait for itself; `flags.retried`:
 * it was already sent again once after a token change.
 */
async function send(
  method: Method,
  path: string,
  opts: Options,
  flags: { renewing?: boolean; retried?: boolean },
): Promise<unknown> {
  const { path: params = {}, query, body: sent, signal } = opts;
  const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name]!));
  const url = new URL(`/api/v1${filled}`, window.location.origin);
  for (const [k, v] of Object.entries(query ?? {}))
    if (v !== undefined && v !== null) url.searchParams.set(k, String(v));
  const headers: Record<string, string> = { accept: "application/json" };
  const token = getToken();
  if (token) headers.authorization = `Bearer ${token}`;
  let body: BodyInit | undefined;
  if (sent instanceof URLSearchParams) body = sent;
  else if (sent !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(sent);
  }
  const res = await fetch(url, { method, headers, body, credentials: "include", signal });
  const text = await res.text();
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = text;
  }
  if (!res.ok) {
    // Only 401/403 end the session (docs/product.md §8). A 503 (the database is briefly unavailable) keeps the token:
    // the session is still valid, and the call can be retried. Login itself answers 400/401 for bad credentials: that
    // is a form error, not a lost session.
    if ((res.status === 401 || res.status === 403) && !path.startsWith("/login/access-token")) {
      // Refused for a token that a password change has just replaced, not for a lost session: send it again once.
      if (!flags.renewing && renewal) await renewal;
      const current = getToken();
      if (!flags.retried && current !== null && current !== token) return send(method, path, opts, { retried: true });
      void logout(`${window.location.pathname}${window.location.search}`);
    }
    throw new ApiRequestError(res.status, detailOf(parsed), parsed);
  }
  return parsed;
}
