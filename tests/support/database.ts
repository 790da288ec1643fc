import postgres from "postgres";
import { openDatabase, type DatabaseHandle } from "../../src/db/database.ts";
import { migrateToLatest } from "../../src/db/migrator.ts";

/** The database backends integration tests run against: PGlite always, PostgreSQL when TEST_DATABASE_URL is set. */
export const BACKENDS: ("pglite" | "postgres")[] = process.env.TEST_DATABASE_URL ? ["pglite", "postgres"] : ["pglite"];

/**
 * A fresh, migrated database for one test file: in-memory PGlite, or a new database named lr_test_<random>
 * on the server of TEST_DATABASE_URL (dropped by `close`).
 */
export async function createTestDatabase(backend: "pglite" | "postgres"): Promise<DatabaseHandle & { url?: string }> {
  if (backend === "pglite") {
    const handle = openDatabase({ dataDir: "memory://" });
    await migrateToLatest(handle.db);
    return handle;
  }
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error("TEST_DATABASE_URL is not set");
  const name = `lr_test_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const handle = openDatabase({ databaseUrl: url.toString(), dataDir: "", poolSize: 5 });
  await migrateToLatest(handle.db);
  return {
    ...handle,
    /** The new database's address, for a second process (a CLI) to open it too. */
    url: url.toString(),
    async close() {
      await handle.close();
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}
