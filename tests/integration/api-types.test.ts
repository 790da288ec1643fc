import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { API_TYPES_GEN_PATH, buildOpenApiDocument, generateApiTypes } from "../../scripts/api-types.ts";

// islands/lib/api-types.gen.ts is what `npm run api:types` writes from the API's OpenAPI document; the browser's
// calls are typed from it (islands/lib/api.ts). A route whose schema changes without regenerating it fails here
// (docs/decisions/0044-generated-api-types.md).

const committed = readFileSync(join(import.meta.dir, "..", "..", API_TYPES_GEN_PATH), "utf8");

describe("generated API types", () => {
  test(`${API_TYPES_GEN_PATH} is what the OpenAPI document generates (else run npm run api:types)`, async () => {
    const generated = await generateApiTypes();
    if (generated !== committed) {
      const [now, then] = [generated.split("\n"), committed.split("\n")];
      const line = now.findIndex((text, i) => text !== then[i]);
      throw new Error(
        `${API_TYPES_GEN_PATH} is stale: run npm run api:types (line ${line + 1} now reads ${JSON.stringify(now[line])})`,
      );
    }
  });

  test("the document built in process is the one the server serves", async () => {
    const { createTestApp } = await import("../support/app.ts");
    const t = await createTestApp("pglite");
    try {
      const served = await (await t.app.request("/api/v1/openapi.json")).json();
      expect(await buildOpenApiDocument()).toEqual(served);
    } finally {
      await t.close();
    }
  }, 60_000);

  test("a schema changed without regenerating is caught, naming the changed type", async () => {
    const doc = await buildOpenApiDocument();
    const schemas = (doc.components as { schemas: Record<string, { properties: Record<string, unknown> }> }).schemas;
    // The drift this file ended: an article's pmid read as a string in the browser while the server sends an integer.
    schemas.Article!.properties.pmid = { type: "string" };
    const generated = await generateApiTypes(doc);
    expect(generated).not.toBe(committed);
    expect(committed).toContain("pmid: number;");
    expect(generated).toMatch(/Article: \{\s+pmid: string;/);
  });

  test("the generated file is types only: it adds nothing to the browser's bundle", () => {
    const code = committed.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "");
    expect(code).not.toMatch(/^\s*(import|const|let|var|function|class|export (const|let|function|class|default))\b/m);
    expect(code).toMatch(/^export interface paths \{/m);
  });
});
