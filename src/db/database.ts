import { Kysely } from "kysely";
import { PGlite } from "@electric-sql/pglite";
import { PGliteDialect } from "kysely-pglite-dialect";
import { PostgresPoolDialect } from "./postgres-driver.ts";
import postgres from "postgres";
import { mkdirSync } from "node:fs";
import type { DB } from "./types.ts";

export type Database = Kysely<DB>;

export interface DatabaseHandle {
  db: Database;
  /** "pglite" (embedded, in-process) or "postgres" (a server through postgres.js). */
  kind: "pglite" | "postgres";
  close(): Promise<void>;
}

/**
 * Opens the database: postgres.js against `databaseUrl` when given, else embedded PGlite in `dataDir`
 * (`"memory://"` keeps it in memory, for tests).
 * Both speak the same SQL and run the same migrations.
 */
export function openDatabase(opts: { databaseUrl?: string; dataDir: string; poolSize?: number }): DatabaseHandle {
  if (opts.databaseUrl) {
    const sql = postgres(opts.databaseUrl, {
      max: opts.poolSize ?? 10,
      onnotice: () => {},
      // Integers above 2^31 are never stored here; counts are cast to int in SQL.
      types: {},
    });
    // Single queries share the pool and are prepared; transactions reserve a connection (see postgres-driver.ts).
    const db = new Kysely<DB>({ dialect: new PostgresPoolDialect(sql) });
    return { db, kind: "postgres", close: () => db.destroy() };
  }
  if (!opts.dataDir.startsWith("memory://")) mkdirSync(opts.dataDir, { recursive: true });
  const pglite = new PGlite(opts.dataDir);
  const db = new Kysely<DB>({ dialect: new PGliteDialect(pglite) });
  return { db, kind: "pglite", close: () => db.destroy() };
}
