import type { OpenAPIHono } from "@hono/zod-openapi";
import { MAX_BODY_BYTES, MAX_HEADER_BYTES, MAX_URL_CHARS } from "./limits.ts";
import { OPENAPI_INFO } from "./openapi.ts";

/**
 * The OpenAPI 3.1 document of the API, as served at /api/v1/openapi.json
 * (docs/decisions/0033-api-lint-and-streamed-exports.md): generated from the routes' declarations, then completed here,
 * in one place, with what every operation shares, so that no route file repeats it and the document lints clean under
 * Redocly's `recommended` rules (tests/integration/openapi-contract.test.ts runs the linter):
 * - an `operationId` for every operation, from its method and path (`operationIdOf`);
 * - `security: []` on the operations that declare no security scheme: they are public;
 * - the edge answers of src/http/limits.ts, which every request can get whatever its route (413 body too large,
 *   414 URL too long, 431 headers too large), and the 429 of the rate-limited routes, each declared once under
 *   `components.responses` and referenced from the operations.
 */

type Json = Record<string, unknown>;
type Operation = Json & { operationId?: string; security?: unknown[]; responses?: Record<string, unknown> };

const HTTP_METHODS = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);
const detail = { "application/json": { schema: { $ref: "#/components/schemas/HTTPError" } } };

/** Answers any request may get from the edge rules (src/http/limits.ts), by status, under their component names. */
export const EDGE_RESPONSES = {
  413: {
    name: "ContentTooLarge",
    response: {
      description: `Request body too large: at most ${MAX_BODY_BYTES} bytes (more where an operation says so)`,
      content: detail,
    },
  },
  414: {
    name: "URITooLong",
    response: { description: `URL too long: at most ${MAX_URL_CHARS} characters (path, query)`, content: detail },
  },
  431: {
    name: "RequestHeaderFieldsTooLarge",
    response: { description: `Request headers too large: at most ${MAX_HEADER_BYTES} bytes`, content: detail },
  },
} as const;

/** The rate-limited operations' 429, declared once with its Retry-After header. */
export const TOO_MANY_REQUESTS = {
  name: "TooManyRequests",
  response: {
    description: "Too Many Requests: a limit of this operation was reached; try again after Retry-After seconds",
    headers: {
      "Retry-After": { description: "Seconds to wait before trying again", schema: { type: "integer", minimum: 0 } },
    },
    content: detail,
  },
} as const;

/**
 * A stable camelCase operationId from an operation's method and path: `get /users/me` → `getUsersMe`,
 * `post /likes/{article_pmid}` → `postLikesByArticlePmid`. Unique because method and path are.
 */
export function operationIdOf(method: string, path: string): string {
  const words = path
    .split("/")
    .filter(Boolean)
    .flatMap((segment) => {
      const param = /^\{(.+)\}$/.exec(segment);
      const parts = (param ? param[1]! : segment).split(/[^A-Za-z0-9]+/).filter(Boolean);
      return param ? ["by", ...parts] : parts;
    });
  return [method.toLowerCase(), ...words.map((w) => w[0]!.toUpperCase() + w.slice(1).toLowerCase())].join("");
}

/** Completes a generated document in place (see the module's comment); @returns it. */
export function completeDocument<D extends { paths?: object; components?: object }>(doc: D): D {
  const components = (doc.components ??= {}) as Json;
  const responses = (components.responses ??= {}) as Json;
  for (const { name, response } of Object.values(EDGE_RESPONSES)) responses[name] = response;
  responses[TOO_MANY_REQUESTS.name] = TOO_MANY_REQUESTS.response;
  const ref = (name: string) => ({ $ref: `#/components/responses/${name}` });

  for (const [path, item] of Object.entries((doc.paths ?? {}) as Record<string, Json>)) {
    for (const [method, value] of Object.entries(item)) {
      if (!HTTP_METHODS.has(method)) continue;
      const op = value as Operation;
      op.operationId ??= operationIdOf(method, path);
      op.security ??= [];
      const answers = (op.responses ??= {});
      for (const [status, { name }] of Object.entries(EDGE_RESPONSES)) answers[status] = ref(name);
      if (answers["429"]) answers["429"] = ref(TOO_MANY_REQUESTS.name);
    }
  }
  return doc;
}

/** The API's document: generated from `api`'s routes with OPENAPI_INFO, then completed. */
export function openApiDocument(api: OpenAPIHono<any>) {
  return completeDocument(api.getOpenAPI31Document(OPENAPI_INFO));
}
