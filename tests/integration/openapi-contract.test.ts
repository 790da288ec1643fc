import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../support/app.ts";

// The API as a published contract (issue 7): the OpenAPI 3.1 document generated from the routes' zod schemas lists
// every call of spec §7 that the server implements, with its parameters and its error answers, and nothing the
// server serves is missing from it.

/** Spec §7's calls: method, path (as in the spec, under /api/v1), and the parameters the spec names. */
export const SPEC_CALLS: { method: string; path: string; params?: { path?: string[]; query?: string[] }; body?: boolean; signedIn: boolean }[] = [
  { method: "post", path: "/likes/{article_pmid}", params: { path: ["article_pmid"] }, signedIn: true },
  { method: "delete", path: "/likes/{article_pmid}", params: { path: ["article_pmid"] }, signedIn: true },
  { method: "get", path: "/likes/my", signedIn: true },
  { method: "get", path: "/likes/status/{article_pmid}", params: { path: ["article_pmid"] }, signedIn: true },
  { method: "post", path: "/literature_review/create", signedIn: true },
  { method: "get", path: "/literature_review/history", params: { query: ["skip", "limit"] }, signedIn: true },
  { method: "post", path: "/literature_review/start/{lit_review_id}", params: { path: ["lit_review_id"], query: ["user_query"] }, signedIn: true },
  { method: "get", path: "/literature_review/status/{lit_review_id}", params: { path: ["lit_review_id"] }, signedIn: true },
  { method: "get", path: "/literature_review/details/{lit_review_id}", params: { path: ["lit_review_id"], query: ["fts_skip", "fts_limit"] }, signedIn: true },
  { method: "delete", path: "/literature_review/delete/{lit_review_id}", params: { path: ["lit_review_id"] }, signedIn: true },
  { method: "post", path: "/login/access-token", body: true, signedIn: false },
  { method: "post", path: "/login/test-token", signedIn: true },
  { method: "post", path: "/password-recovery/{email}", params: { path: ["email"] }, signedIn: false },
  { method: "post", path: "/reset-password/", body: true, signedIn: false },
  { method: "post", path: "/password-recovery-html-content/{email}", params: { path: ["email"] }, signedIn: true },
  { method: "post", path: "/shares/{article_pmid}", params: { path: ["article_pmid"] }, body: true, signedIn: true },
  { method: "get", path: "/shares/received", signedIn: true },
  { method: "delete", path: "/shares/received/{share_id}", params: { path: ["share_id"] }, signedIn: true },
  { method: "post", path: "/subscriptions/checkout", body: true, signedIn: true },
  { method: "get", path: "/subscriptions/me", signedIn: true },
  { method: "post", path: "/subscriptions/cancel", signedIn: true },
  { method: "post", path: "/subscriptions/webhook", signedIn: false },
  { method: "get", path: "/subscriptions/prices", signedIn: false },
  { method: "get", path: "/suggestions/weekly/latest", signedIn: true },
  { method: "get", path: "/users/", params: { query: ["skip", "limit"] }, signedIn: true },
  { method: "post", path: "/users/", body: true, signedIn: true },
  { method: "get", path: "/users/search/", params: { query: ["q", "skip", "limit"] }, signedIn: true },
  { method: "get", path: "/users/me", signedIn: true },
  { method: "patch", path: "/users/me", body: true, signedIn: true },
  { method: "delete", path: "/users/me", signedIn: true },
  { method: "patch", path: "/users/me/password", body: true, signedIn: true },
  { method: "post", path: "/users/signup", body: true, signedIn: false },
  { method: "get", path: "/users/{user_id}", params: { path: ["user_id"] }, signedIn: true },
  { method: "patch", path: "/users/{user_id}", params: { path: ["user_id"] }, body: true, signedIn: true },
  { method: "delete", path: "/users/{user_id}", params: { path: ["user_id"] }, signedIn: true },
];

type Operation = {
  parameters?: { name: string; in: string; required?: boolean }[];
  requestBody?: { content: Record<string, unknown> };
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
  security?: unknown[];
};

/** The document's path for a spec path: trailing slash dropped (the server ignores it). */
const docPath = (p: string) => (p.length > 1 ? p.replace(/\/$/, "") : p);
/** Hono's routing form of a document path ({x} → :x), as the app's route table lists it. */
const routingPath = (p: string) => `/api/v1${docPath(p).replace(/\{(\w+)\}/g, ":$1")}`;

describe("the OpenAPI document", () => {
  let t: TestApp;
  let doc: { openapi: string; paths: Record<string, Record<string, Operation>>; components: { securitySchemes: Record<string, unknown> } };
  let served: Set<string>;
  beforeAll(async () => {
    t = await createTestApp("pglite");
    const res = await t.app.request("/api/v1/openapi.json");
    expect(res.status).toBe(200);
    doc = (await res.json()) as typeof doc;
    // Every method + path the app routes under /api/v1, except the document itself.
    served = new Set(
      t.app.routes
        .filter((r) => r.path.startsWith("/api/v1/") && r.method !== "ALL" && !r.path.endsWith("/openapi.json"))
        .map((r) => `${r.method.toLowerCase()} ${r.path}`),
    );
  });
  afterAll(async () => {
    await t?.close();
  });

  test("is OpenAPI 3.1 with the bearer-token login scheme", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.components.securitySchemes.OAuth2PasswordBearer).toMatchObject({ type: "oauth2", flows: { password: { tokenUrl: "/api/v1/login/access-token" } } });
  });

  test("lists every call of spec §7 that the server implements, with its parameters and error answers", () => {
    const implemented = SPEC_CALLS.filter((call) => served.has(`${call.method} ${routingPath(call.path)}`));
    // The calls this release implements at least (the rest arrive with their features).
    expect(implemented.length).toBeGreaterThanOrEqual(22);
    for (const call of implemented) {
      const op = doc.paths[docPath(call.path)]?.[call.method];
      expect(op, `${call.method} ${call.path} is in the document`).toBeDefined();
      for (const where of ["path", "query"] as const) {
        for (const name of call.params?.[where] ?? []) {
          expect(op!.parameters?.some((p) => p.name === name && p.in === where), `${call.method} ${call.path}: ${where} parameter ${name}`).toBe(true);
        }
      }
      if (call.body) expect(op!.requestBody, `${call.method} ${call.path} documents its body`).toBeDefined();
      if (call.signedIn) {
        expect(op!.security, `${call.method} ${call.path} needs a token`).toEqual([{ OAuth2PasswordBearer: [] }]);
        expect(op!.responses["401"], `${call.method} ${call.path} documents 401`).toBeDefined();
      }
      if (call.params || call.body) expect(op!.responses["422"], `${call.method} ${call.path} documents 422`).toBeDefined();
      expect(op!.responses["503"], `${call.method} ${call.path} documents 503`).toBeDefined();
      // Every error answer is described in the {detail} shape.
      for (const [status, response] of Object.entries(op!.responses)) {
        if (Number(status) < 400) continue;
        const schema = JSON.stringify(response.content?.["application/json"]?.schema);
        expect(schema, `${call.method} ${call.path} ${status}`).toMatch(/#\/components\/schemas\/(HTTPError|HTTPValidationError)/);
      }
    }
  });

  test("leaves out nothing the server serves under /api/v1", () => {
    const documented = new Set(Object.entries(doc.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m} ${routingPath(p)}`)));
    expect([...served].filter((r) => !documented.has(r))).toEqual([]);
  });

  test("the interactive reference at /api/docs loads only this site's scripts, under the pages' CSP", async () => {
    const res = await t.app.request("/api/docs");
    expect(res.status).toBe(200);
    const html = await res.text();
    const scripts = [...html.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1] ?? "");
    expect(scripts.length).toBeGreaterThan(0);
    for (const attrs of scripts) expect(attrs).toMatch(/src="\/api\/docs\/[\w.-]+\.js"/);
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain("unsafe-inline");
    for (const file of ["swagger-ui-bundle.js", "swagger-ui-standalone-preset.js", "init.js", "swagger-ui.css"]) {
      expect((await t.app.request(`/api/docs/${file}`)).status).toBe(200);
    }
    expect((await t.app.request("/api/docs/package.json")).status).toBe(404);
  });
});
