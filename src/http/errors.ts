import type { Context, ErrorHandler, NotFoundHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { isDatabaseUnavailable } from "../db/errors.ts";

/** One item of a 422 validation error, FastAPI-style: where, what, which rule. */
export interface ValidationIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
}

/**
 * The one error type of the API. Thrown anywhere; `onError` turns it into `{"detail": detail}` with `status`.
 * `detail` is text, or a list of ValidationIssue for 422.
 */
export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly detail: string | ValidationIssue[],
    readonly headers?: Record<string, string>,
  ) {
    super(typeof detail === "string" ? detail : (detail[0]?.msg ?? "Validation Error"));
  }
}

/**
 * Builds a 422 ApiError from zod-like issues (`path`, `message`, `code`). `source` is "body", "query", "path" or
 * "form".
 */
export function validationError(
  source: string,
  issues: { path: PropertyKey[]; message: string; code?: string }[],
): ApiError {
  return new ApiError(
    422,
    issues.map((i) => ({
      loc: [source, ...i.path.map((p) => (typeof p === "number" ? p : String(p)))],
      msg: i.message,
      type: i.code ?? "value_error",
    })),
  );
}

/** Hook for @hono/zod-validator: answers invalid input with 422 in the product's shape. */
export function zodHook(source: string) {
  return (result: {
    success: boolean;
    error?: { issues: { path: PropertyKey[]; message: string; code?: string }[] };
  }) => {
    if (!result.success) throw validationError(source, result.error?.issues ?? []);
  };
}

let requestCounter = 0;

/** The detail of the 503 answered while the database is unavailable. */
export const SERVICE_UNAVAILABLE = "The service is temporarily unavailable. Please try again in a few seconds.";
/** Seconds a client is asked to wait before retrying after a 503. */
export const RETRY_AFTER_SECONDS = 5;

/** Logs a database outage at most once every few seconds (a flood of failing requests would flood the log). */
let lastOutageLog = 0;
function logOutage(err: unknown): void {
  const now = Date.now();
  if (now - lastOutageLog < 5_000) return;
  lastOutageLog = now;
  console.error("database unavailable; answering 503:", err instanceof Error ? err.message : err);
}

/**
 * The app's one error handler: ApiError → its status and detail; a database that cannot answer now → 503 with
 * Retry-After; anything else → logged with a request id, 500.
 */
export const onError: ErrorHandler = (err, c) => {
  if (err instanceof ApiError) return c.json({ detail: err.detail }, err.status, err.headers);
  if (isDatabaseUnavailable(err)) {
    logOutage(err);
    return c.json({ detail: SERVICE_UNAVAILABLE }, 503, { "Retry-After": String(RETRY_AFTER_SECONDS) });
  }
  if (err instanceof HTTPException) {
    const res = err.getResponse();
    return c.json({ detail: err.message || res.statusText || "Error" }, err.status as ContentfulStatusCode);
  }
  // Malformed JSON bodies surface as SyntaxError from the body parser.
  if (err instanceof SyntaxError) return c.json({ detail: "Request body is not valid JSON" }, 400);
  const requestId = `${Date.now().toString(36)}-${(++requestCounter).toString(36)}`;
  console.error(`[${requestId}] ${c.req.method} ${c.req.path} failed:`, err);
  return c.json({ detail: "Internal Server Error", request_id: requestId }, 500);
};

/**
 * 404 for unknown API paths: `{"detail": "Not Found"}`, answered by the pages router's catch-all
 * (src/pages/routes.tsx).
 */
export const apiNotFound: NotFoundHandler = (c: Context) => c.json({ detail: "Not Found" }, 404);
