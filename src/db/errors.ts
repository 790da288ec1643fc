/**
 * Which database errors mean "the database cannot answer right now" rather than "this request is wrong": the
 * server is down, restarting, unreachable, out of connections, or a statement ran past its time-out. The API
 * answers those with 503 and Retry-After (src/http/errors.ts) instead of 500, and never treats them as "no user"
 * (a database blip must not end anyone's session).
 */

/** Socket and postgres.js connection errors (`err.code`). */
const CONNECTION_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
]);

/**
 * PostgreSQL SQLSTATEs of an unavailable or overloaded server (PostgreSQL manual, appendix A): class 08
 * (connection exception), 53300 too_many_connections, 57P01–57P03 (admin shutdown, crash shutdown, cannot connect
 * now: a server starting or stopping), 57014 query_canceled (statement_timeout), 55P03 lock_not_available
 * (lock_timeout), 25P03 idle_in_transaction_session_timeout.
 */
const SQLSTATES = new Set(["53300", "57P01", "57P02", "57P03", "57014", "55P03", "25P03"]);

/** Whether `err` (or its cause) says the database is unavailable or too slow to answer now. */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === "object" && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && (CONNECTION_CODES.has(code) || SQLSTATES.has(code) || code.startsWith("08")))
      return true;
  }
  return false;
}
