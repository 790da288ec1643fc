// Applies pending migrations to the configured database (DATABASE_URL, else PGlite in DATA_DIR) and exits.
import { loadConfig } from "../src/config.ts";
import { openDatabase } from "../src/db/database.ts";
import { migrateToLatest } from "../src/db/migrator.ts";

const config = loadConfig(process.env, { role: "cli" });
const handle = openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
try {
  const applied = await migrateToLatest(handle.db);
  console.log(applied.length ? `applied: ${applied.join(", ")}` : "database is up to date");
} finally {
  await handle.close();
}
