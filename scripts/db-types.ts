// Regenerates src/db/schema.gen.ts from the migrated schema (`npm run db:types`); run it after adding a migration.
// tests/integration/db-types.test.ts fails while the committed file differs from what this writes.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { generateSchemaTypes, SCHEMA_GEN_PATH } from "../src/db/codegen.ts";

const outFile = join(import.meta.dir, "..", SCHEMA_GEN_PATH);
writeFileSync(outFile, await generateSchemaTypes());
console.log(`wrote ${SCHEMA_GEN_PATH}`);
