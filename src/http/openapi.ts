import { OpenAPIHono, createRoute, z, type RouteConfig } from "@hono/zod-openapi";
import type { Env } from "hono";
import { validationError } from "./errors.ts";
import { CONTROL_CHARACTER_MESSAGE, refusedTextPaths } from "./input-text.ts";

/**
 * How every API route is declared (docs/decisions/0011-api-contract-and-edge-rules.md): a `@hono/zod-openapi`
 * route built with `apiRoute`, whose zod schemas both validate the request and describe the operation in the
 * OpenAPI 3.1 document served at /api/v1/openapi.json. One validation hook serves every route, so the edge
 * rules hold everywhere without a schema having to ask for them:
 * - an invalid input is 422 with FastAPI's `{"detail": [{loc, msg, type}]}` (loc starts with "path", "query" or
 *   "body", as the client and the FastAPI template expect);
 * - any string of the path, query, form or JSON body holding a control character or invalid Unicode
 *   (src/http/input-text.ts) is 422 naming the field, whatever its schema says.
 */

/** FastAPI's names for where an input came from, by Hono validation target. */
const LOCATION: Record<string, string> = {
  json: "body",
  form: "body",
  query: "query",
  param: "path",
  header: "header",
  cookie: "cookie",
};

type HookResult =
  | { success: true; data: unknown; target: string }
  | { success: false; error: { issues: { path: PropertyKey[]; message: string; code?: string }[] }; target: string };

/**
 * The validation hook of every route: refuses invalid input with 422, and valid input that holds refused
 * characters with 422 naming each such field. @throws ApiError 422.
 */
export function validationHook(result: HookResult): void {
  const source = LOCATION[result.target] ?? result.target;
  if (!result.success) throw validationError(source, result.error.issues);
  const refused = refusedTextPaths(result.data);
  if (refused.length > 0)
    throw validationError(
      source,
      refused.map((path) => ({ path, message: CONTROL_CHARACTER_MESSAGE, code: "string_control_character" })),
    );
}

/**
 * A sub-app of the API: OpenAPI-aware, with the shared validation hook. Trailing slashes are not significant
 * (`/users/` and `/users` are one route, as FastAPI clients call them); the top-level app sets the same rule.
 */
export function createApi<E extends Env = Env>(): OpenAPIHono<E> {
  return new OpenAPIHono<E>({ strict: false, defaultHook: validationHook as never });
}

// ---- Shared response shapes ---------------------------------------------------------------------------------

/** One item of a 422 answer. */
export const ValidationIssueSchema = z
  .object({
    loc: z.array(z.union([z.string(), z.number()])).openapi({ example: ["body", "email"] }),
    msg: z.string().openapi({ example: "Invalid email address" }),
    type: z.string().openapi({ example: "invalid_format" }),
  })
  .openapi("ValidationIssue");

/** Every non-422 error: `{"detail": "text"}`. */
export const HttpErrorSchema = z.object({ detail: z.string().openapi({ example: "Not Found" }) }).openapi("HTTPError");

/** 422: `{"detail": [ValidationIssue, …]}`. */
export const ValidationErrorSchema = z
  .object({ detail: z.array(ValidationIssueSchema) })
  .openapi("HTTPValidationError");

/** `{"message": "…"}`, the answer of calls that have nothing else to return. */
export const MessageSchema = z.object({ message: z.string() }).openapi("Message");

const ERROR_DESCRIPTIONS = {
  400: "Bad Request: the request cannot be carried out as sent (the detail says why)",
  401: "Unauthorized: no valid access token (bearer header or session cookie)",
  403: "Forbidden: not allowed for this user, or a cross-site write",
  404: "Not Found, or not this user's",
  409: "Conflict with the current state",
  413: "Request body too large",
  415: "Unsupported Media Type",
  422: "Validation Error: detail lists each invalid field",
  429: "Too Many Requests: see Retry-After",
  502: "Bad Gateway: a service this call relies on (the payment provider) failed; retry later",
  503: "Service Unavailable: the database is unreachable or busy (retry after Retry-After seconds), or a service this call needs is not configured",
} as const;

export type ErrorStatus = keyof typeof ERROR_DESCRIPTIONS;

/** OpenAPI responses for error statuses, each in the `{detail}` shape. */
export function errorResponses(...statuses: ErrorStatus[]) {
  return Object.fromEntries(
    statuses.map((s) => [
      s,
      {
        description: ERROR_DESCRIPTIONS[s],
        content: { "application/json": { schema: s === 422 ? ValidationErrorSchema : HttpErrorSchema } },
      },
    ]),
  );
}

/** An OpenAPI JSON content entry: `{ content: { "application/json": { schema } }, description }`. */
export function jsonContent<T extends z.ZodType>(schema: T, description: string) {
  return { content: { "application/json": { schema } }, description };
}

/** A required JSON request body. */
export function jsonBody<T extends z.ZodType>(schema: T, description?: string) {
  return { content: { "application/json": { schema } }, required: true, ...(description ? { description } : {}) };
}

/** Name of the security scheme of signed-in calls (the FastAPI template's OAuth2 password flow). */
export const SECURITY_SCHEME = "OAuth2PasswordBearer";

/** `security` of an operation that needs a signed-in user. */
export const SIGNED_IN = [{ [SECURITY_SCHEME]: [] }];

/**
 * Declares an API route: `createRoute` plus the error answers every operation of this kind can give, so the
 * document lists them without each route repeating them — 401 when it needs a token, 422 when it takes input,
 * 415 when it takes a body, 503 always (every call reads the database). The edge answers any request can get (413,
 * 414, 431), the operationId and public operations' `security: []` are added to the whole document in one place
 * (src/http/openapi-document.ts).
 */
export function apiRoute<const R extends RouteConfig>(config: R): R & { getRoutingPath(): string } {
  const req = config.request;
  const implied: ErrorStatus[] = [503];
  if (config.security?.length) implied.push(401);
  if (req && (req.params || req.query || req.body)) implied.push(422);
  if (req?.body) implied.push(415);
  const responses = { ...errorResponses(...implied), ...config.responses };
  return createRoute({ ...config, responses }) as unknown as R & { getRoutingPath(): string };
}

/** Registers the security scheme on the API app (once, on the root API app). */
export function registerSecurity(app: OpenAPIHono<any>): void {
  app.openAPIRegistry.registerComponent("securitySchemes", SECURITY_SCHEME, {
    type: "oauth2",
    description:
      "Access token from POST /api/v1/login/access-token, sent as `Authorization: Bearer <token>`. Pages also send it as the HttpOnly `access_token` cookie.",
    flows: { password: { tokenUrl: "/api/v1/login/access-token", scopes: {} } },
  });
}

/** The OpenAPI document's fixed part. */
export const OPENAPI_INFO: Parameters<OpenAPIHono["getOpenAPI31Document"]>[0] = {
  openapi: "3.1.0",
  info: {
    title: "LitReview API",
    version: "1.0.0",
    description:
      "The JSON API of LitReview: literature reviews over an index of PubMed records, accounts, subscriptions. " +
      'Errors are `{"detail": "text"}`, or for 422 `{"detail": [{loc, msg, type}]}`. Lists of users and reviews are `{data, count}`.',
    // Not an open-source API: the terms of use of the service (the /legal page) are its licence.
    license: { name: "Proprietary: LitReview terms of use", url: "/legal" },
  },
  // Paths in the document are relative to the API root.
  servers: [{ url: "/api/v1", description: "This server" }],
};
