import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createTestApp, type TestApp, type TestUser } from "../support/app.ts";
import { EXPORT_FORMATS, type ExportFormat } from "../../src/export/formats.ts";

// The API as a published contract (issue 7): the OpenAPI 3.1 document generated from the routes' zod schemas lists
// every call of docs/product.md §7 that the server implements, with its parameters and its error answers, and nothing
// the server serves is missing from it. Issue 22: it lints clean under Redocly's `recommended` rules (the CLI, a dev
// dependency, run here offline), every operation has an operationId, public ones `security: []`, the edge answers
// (413, 414, 431) are declared once and referenced by every operation, and exports declare the media types sent.

/**
 * docs/product.md §7's calls: method, path (as in docs/product.md, under /api/v1), and the parameters docs/product.md
 * names.
 */
export const SPEC_CALLS: {
  method: string;
  path: string;
  params?: { path?: string[]; query?: string[] };
  body?: boolean;
  signedIn: boolean;
}[] = [
  { method: "post", path: "/likes/{article_pmid}", params: { path: ["article_pmid"] }, signedIn: true },
  { method: "delete", path: "/likes/{article_pmid}", params: { path: ["article_pmid"] }, signedIn: true },
  { method: "get", path: "/likes/my", signedIn: true },
  { method: "get", path: "/likes/status/{article_pmid}", params: { path: ["article_pmid"] }, signedIn: true },
  { method: "post", path: "/literature_review/create", signedIn: true },
  { method: "get", path: "/literature_review/history", params: { query: ["skip", "limit"] }, signedIn: true },
  {
    method: "post",
    path: "/literature_review/start/{lit_review_id}",
    params: { path: ["lit_review_id"], query: ["user_query"] },
    signedIn: true,
  },
  {
    method: "get",
    path: "/literature_review/status/{lit_review_id}",
    params: { path: ["lit_review_id"] },
    signedIn: true,
  },
  {
    method: "get",
    path: "/literature_review/details/{lit_review_id}",
    params: { path: ["lit_review_id"], query: ["fts_skip", "fts_limit"] },
    signedIn: true,
  },
  {
    method: "delete",
    path: "/literature_review/delete/{lit_review_id}",
    params: { path: ["lit_review_id"] },
    signedIn: true,
  },
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

type Response = { content?: Record<string, { schema: unknown }>; $ref?: string };
type Operation = {
  operationId?: string;
  parameters?: { name: string; in: string; required?: boolean }[];
  requestBody?: { content: Record<string, unknown> };
  responses: Record<string, Response>;
  security?: unknown[];
};

const ROOT = resolve(import.meta.dir, "..", "..");
/** Redocly CLI's entry point, run by this test's own runtime (Bun), so that no other Node.js is needed. */
const REDOCLY = join(ROOT, "node_modules", "@redocly", "cli", "bin", "cli.js");
/** The CLI's documented opt-outs: no usage data sent, no check for a newer version (nothing leaves the machine). */
const OFFLINE = { REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", DO_NOT_TRACK: "1", CI: "true" };

/** The document's path for a spec path: trailing slash dropped (the server ignores it). */
const docPath = (p: string) => (p.length > 1 ? p.replace(/\/$/, "") : p);
/** Hono's routing form of a document path ({x} → :x), as the app's route table lists it. */
const routingPath = (p: string) => `/api/v1${docPath(p).replace(/\{(\w+)\}/g, ":$1")}`;

describe("the OpenAPI document", () => {
  let t: TestApp;
  let doc: {
    openapi: string;
    info: { license?: { name: string } };
    paths: Record<string, Record<string, Operation>>;
    components: { securitySchemes: Record<string, unknown>; responses: Record<string, Response> };
  };
  /** A response with its `$ref` (to components.responses) followed. */
  const resolved = (r: Response): Response =>
    r.$ref ? doc.components.responses[r.$ref.replace("#/components/responses/", "")]! : r;
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
    expect(doc.components.securitySchemes.OAuth2PasswordBearer).toMatchObject({
      type: "oauth2",
      flows: { password: { tokenUrl: "/api/v1/login/access-token" } },
    });
  });

  test("lists every call of docs/product.md §7 that the server implements, with its parameters and error answers", () => {
    const implemented = SPEC_CALLS.filter((call) => served.has(`${call.method} ${routingPath(call.path)}`));
    // The calls this release implements at least (the rest arrive with their features).
    expect(implemented.length).toBeGreaterThanOrEqual(22);
    for (const call of implemented) {
      const op = doc.paths[docPath(call.path)]?.[call.method];
      expect(op, `${call.method} ${call.path} is in the document`).toBeDefined();
      for (const where of ["path", "query"] as const) {
        for (const name of call.params?.[where] ?? []) {
          expect(
            op!.parameters?.some((p) => p.name === name && p.in === where),
            `${call.method} ${call.path}: ${where} parameter ${name}`,
          ).toBe(true);
        }
      }
      if (call.body) expect(op!.requestBody, `${call.method} ${call.path} documents its body`).toBeDefined();
      if (call.signedIn) {
        expect(op!.security, `${call.method} ${call.path} needs a token`).toEqual([{ OAuth2PasswordBearer: [] }]);
        expect(op!.responses["401"], `${call.method} ${call.path} documents 401`).toBeDefined();
      }
      if (call.params || call.body)
        expect(op!.responses["422"], `${call.method} ${call.path} documents 422`).toBeDefined();
      expect(op!.responses["503"], `${call.method} ${call.path} documents 503`).toBeDefined();
      // Every error answer is described in the {detail} shape.
      for (const [status, response] of Object.entries(op!.responses)) {
        if (Number(status) < 400) continue;
        const schema = JSON.stringify(resolved(response).content?.["application/json"]?.schema);
        expect(schema, `${call.method} ${call.path} ${status}`).toMatch(
          /#\/components\/schemas\/(HTTPError|HTTPValidationError)/,
        );
      }
    }
  });

  test("leaves out nothing the server serves under /api/v1", () => {
    const documented = new Set(
      Object.entries(doc.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m} ${routingPath(p)}`)),
    );
    expect([...served].filter((r) => !documented.has(r))).toEqual([]);
  });

  test("lints clean under Redocly's recommended rules: 0 errors, 0 warnings", async () => {
    const dir = mkdtempSync(join(tmpdir(), "openapi-lint-"));
    try {
      writeFileSync(join(dir, "openapi.json"), JSON.stringify(doc));
      // Run in the temporary folder, so that no redocly.yaml found on the way changes the rules.
      const args = ["lint", "--extends=recommended", "--format=json", "openapi.json"];
      const run = Bun.spawn([process.execPath, REDOCLY, ...args], {
        cwd: dir,
        env: { ...process.env, ...OFFLINE },
        stdout: "pipe",
        stderr: "pipe",
      });
      const [out, err] = await Promise.all([new Response(run.stdout).text(), new Response(run.stderr).text()]);
      await run.exited;
      const report = JSON.parse(out) as {
        totals: { errors: number; warnings: number };
        problems: { ruleId: string; message: string; location: { pointer: string }[] }[];
      };
      const problems = report.problems.map((p) => `${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`);
      expect(problems, err).toEqual([]);
      expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
      expect(run.exitCode).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  test("every operation: a unique camelCase operationId, security declared (public ones []), the edge answers", () => {
    const ids = new Set<string>();
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const where = `${method} ${path}`;
        expect(op.operationId, where).toMatch(/^[a-z]+(?:[A-Z0-9][a-z0-9]*)+$/);
        expect(ids.has(op.operationId!), `${where}: ${op.operationId} is unique`).toBe(false);
        ids.add(op.operationId!);
        expect(Array.isArray(op.security), `${where} declares security`).toBe(true);
        for (const status of ["413", "414", "431"]) {
          expect(op.responses[status]?.$ref, `${where} ${status}`).toMatch(/^#\/components\/responses\//);
        }
        if (op.responses["429"]) {
          expect(op.responses["429"].$ref, `${where} 429`).toBe("#/components/responses/TooManyRequests");
        }
      }
    }
    expect(doc.paths["/users/me"]!.get!.operationId).toBe("getUsersMe");
    expect(doc.paths["/likes/{article_pmid}"]!.post!.operationId).toBe("postLikesByArticlePmid");
    const publicCalls: [string, string][] = [
      ["get", "/health"],
      ["get", "/subscriptions/prices"],
    ];
    publicCalls.push(["post", "/users/signup"], ["post", "/login/access-token"]);
    for (const [method, path] of publicCalls) {
      expect(doc.paths[path]![method]!.security, `${method} ${path} is public`).toEqual([]);
    }
    expect(doc.info.license?.name).toBeTruthy();
    const edge = ["ContentTooLarge", "URITooLong", "RequestHeaderFieldsTooLarge", "TooManyRequests"];
    expect(Object.keys(doc.components.responses)).toEqual(expect.arrayContaining(edge));
  });

  test("exports declare the media types the server sends, for every format", async () => {
    const user: TestUser = await t.signup();
    const list = doc.paths["/export/likes"]!.get!;
    const declared = Object.keys(list.responses["200"]!.content ?? {});
    expect(declared).not.toContain("text/plain");
    for (const format of Object.keys(EXPORT_FORMATS) as ExportFormat[]) {
      const res = await t.app.request(`/api/v1/export/likes?format=${format}`, { headers: user.headers });
      expect(res.status).toBe(200);
      const sent = res.headers.get("content-type")!.split(";")[0]!;
      expect(declared, `${format} is sent as ${sent}`).toContain(sent);
      const reviewList = doc.paths["/export/reviews/{lit_review_id}"]!.get!;
      expect(Object.keys(reviewList.responses["200"]!.content ?? {})).toContain(sent);
      await res.arrayBuffer();
    }
    const expected = ["application/x-research-info-systems", "application/x-bibtex"];
    expected.push("application/vnd.citationstyles.csl+json");
    expect(declared).toEqual(expect.arrayContaining(expected));
    // The cap of one export is documented: limit at most MAX_EXPORT_RECORDS, and skip for the rest.
    const names = (list.parameters ?? []).map((p) => p.name);
    expect(names).toEqual(expect.arrayContaining(["format", "skip", "limit"]));
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
