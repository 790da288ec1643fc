import { Client, HttpConnection, errors as esErrors } from "@elastic/elasticsearch";

type ClientAuth = { username: string; password: string } | { apiKey: string };

/**
 * How the adapter reaches the cluster: the node's address, credentials kept apart from it, and time limits.
 * - Credentials: a username and password, or an API key (Elasticsearch's `Authorization: ApiKey …`). A URL's own
 *   `user:password@` part is still read, but taken out of the URL first and decoded leniently: the client decodes it
 *   with decodeURIComponent, where a password holding "%zz" throws and "/" or "#" break the URL.
 * - Time limits: client 9.x waits forever by default (`requestTimeout` unset); an unresponsive cluster must not hang
 *   the start-up check or a review. Calls that ask the cluster to wait longer (health, index creation, refresh) pass
 *   their own, longer timeout (waits.ts). Retries cover connection errors and 502/503/504 (the client's rule), except
 *   for bulk writes, which retry on their own schedule (bulk.ts).
 */
export interface ConnectionOptions {
  node: string;
  username?: string;
  password?: string;
  apiKey?: string;
  /** Per request, ms (default 30,000). */
  requestTimeoutMs?: number;
  /** Client retries of a failed request (default 3). */
  maxRetries?: number;
}

/** decodeURIComponent, or the text as written when it is not valid percent-encoding ("%zz"). */
function lenientDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * The node URL without credentials, and the credentials to use: the separate ones first, else the URL's.
 * @throws Error when the URL is not an http(s) URL.
 */
export function splitCredentials(options: ConnectionOptions): { node: string; auth: ClientAuth | undefined } {
  // The authority's user-info ends at the LAST "@" before the path: a password may itself hold "@", "/" or "#".
  const m = /^(https?:\/\/)(?:(.*)@)?([^@]*)$/su.exec(options.node.trim());
  if (!m) throw new Error("ELASTICSEARCH_URL must be an http:// or https:// URL");
  // Groups 1 and 3 always take part in a match (possibly empty); group 2 only with a user-info part.
  const [, scheme = "", userInfo, rest = ""] = m;
  const node = `${scheme}${rest}`;
  if (options.apiKey) return { node, auth: { apiKey: options.apiKey } };
  if (options.username !== undefined || options.password !== undefined)
    return { node, auth: { username: options.username ?? "elastic", password: options.password ?? "" } };
  if (userInfo) {
    const colon = userInfo.indexOf(":");
    const username = lenientDecode(colon < 0 ? userInfo : userInfo.slice(0, colon));
    const password = colon < 0 ? "" : lenientDecode(userInfo.slice(colon + 1));
    return { node, auth: { username, password } };
  }
  return { node, auth: undefined };
}

/** A client for `options` (Node's http connection: the client's default undici connection does not run on Bun). */
export function createClient(options: ConnectionOptions): Client {
  const { node, auth } = splitCredentials(options);
  return new Client({
    node,
    ...(auth ? { auth } : {}),
    Connection: HttpConnection,
    requestTimeout: options.requestTimeoutMs ?? 30_000,
    maxRetries: options.maxRetries ?? 3,
  });
}

/**
 * A plain sentence for an error met while reaching the cluster: authentication and authorisation failures are named
 * as such (not "cannot be reached"), time-outs and connection failures too.
 */
export function describeConnectionError(err: unknown): string {
  if (err instanceof esErrors.ResponseError) {
    if (err.statusCode === 401)
      return "Elasticsearch refused the credentials (401): check ELASTICSEARCH_USERNAME and ELASTICSEARCH_PASSWORD, or ELASTICSEARCH_API_KEY.";
    if (err.statusCode === 403)
      return "Elasticsearch denied access (403): the user or API key needs the privileges listed in docs/scaling.md.";
    return `Elasticsearch answered ${err.statusCode ?? "an error"} (${err.message}).`;
  }
  if (err instanceof esErrors.TimeoutError)
    return "Elasticsearch at ELASTICSEARCH_URL did not answer in time (ELASTICSEARCH_REQUEST_TIMEOUT_MS).";
  return `Elasticsearch at ELASTICSEARCH_URL cannot be reached (${err instanceof Error ? err.message : String(err)}).`;
}
