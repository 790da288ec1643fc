import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { sql } from "kysely";
import { LAYER_BACKENDS, createTestDatabase } from "../support/database.ts";
import type { DatabaseHandle } from "../../src/db/database.ts";
import { COLUMN_OVERRIDES, introspectSchemaTypes, SCHEMA_GEN_PATH } from "../../src/db/codegen.ts";

// src/db/schema.gen.ts is what `npm run db:types` writes from the migrated schema; a migration added without
// regenerating it fails here, on each backend (PGlite and PostgreSQL must read as the same types).

const committed = readFileSync(join(import.meta.dir, "..", "..", SCHEMA_GEN_PATH), "utf8");

for (const backend of LAYER_BACKENDS) {
  describe(`generated database types (${backend})`, () => {
    let handle: DatabaseHandle;
    beforeAll(async () => {
      // Every migration run on an empty database: the other suites start from a copy of one migrated database.
      handle = await createTestDatabase(backend, { fromScratch: true });
    });
    afterAll(async () => {
      await handle?.close();
    });

    test(`${SCHEMA_GEN_PATH} is what the migrated schema generates (else run npm run db:types)`, async () => {
      expect(await introspectSchemaTypes(handle.db)).toBe(committed);
    });

    test("every column override names a column of the schema", async () => {
      // kysely-codegen ignores an override whose column is gone: a renamed column would silently lose its type.
      const { rows } = await sql<{ path: string }>`
        SELECT table_name || '.' || column_name AS path FROM information_schema.columns
        WHERE table_schema = 'public'`.execute(handle.db);
      const columns = new Set(rows.map((r) => r.path));
      expect(Object.keys(COLUMN_OVERRIDES).filter((path) => !columns.has(path))).toEqual([]);
    });

    test("a table the migrations add without regenerating is caught", async () => {
      await sql`CREATE TABLE db_types_probe (id int PRIMARY KEY)`.execute(handle.db);
      try {
        const generated = await introspectSchemaTypes(handle.db);
        expect(generated).not.toBe(committed);
        expect(generated).toContain("db_types_probe: DbTypesProbe;");
      } finally {
        await sql`DROP TABLE db_types_probe`.execute(handle.db);
      }
    });
  });
}
