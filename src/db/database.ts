import { Kysely, sql } from "kysely";
import { PGlite } from "@electric-sql/pglite";
import { EmbeddedDialect, EmbeddedEngine } from "./embedded.ts";
import { PostgresPoolDialect } from "./postgres-driver.ts";
import postgres from "postgres";
import { mkdirSync } from "node:fs";
import type { DB } from "./types.ts";

export type Database = Kysely<DB>;

export interface DatabaseHandle {
  db: Database;
  /** "pglite" (embedded, in-process) or "postgres" (a server through postgres.js). */
  kind: "pglite" | "postgres";
  /** The embedded engine (PGlite only): reopened after a stop, see src/db/embedded.ts. */
  embedded?: EmbeddedEngine;
  close(): Promise<void>;
}

/**
 * Time limits of a PostgreSQL connection, so that a request never hangs on a locked table or an unreachable server
 * but fails fast (and answers 503, src/http/errors.ts).
 */
export interface DatabaseTimeouts {
  /** Most seconds to wait for a connection to the server (postgres.js connect_timeout). */
  connectSeconds: number;
  /** Most milliseconds one statement may run (statement_timeout); 0 for none. */
  statementMs: number;
  /** Most milliseconds a statement waits for a lock (lock_timeout); 0 for none. */
  lockMs: number;
}

/** The limits of the server's request and job handle (configurable, see src/config.ts). */
export const DEFAULT_TIMEOUTS: DatabaseTimeouts = { connectSeconds: 5, statementMs: 15_000, lockMs: 5_000 };

/** Most milliseconds a corpus-wide statistics statement of a background job may run (the weekly run's aggregates). */
export const CORPUS_STATISTICS_TIMEOUT_MS = 600_000;

/**
 * Lifts the connection's statement_timeout to `ms` for the rest of the transaction `trx` (SET LOCAL semantics): for
 * background jobs whose one statement reads the whole corpus, which the request-sized default would cancel.
 */
export async function allowLongStatements(trx: Kysely<DB>, ms: number = CORPUS_STATISTICS_TIMEOUT_MS): Promise<void> {
  await sql`SELECT set_config('statement_timeout', ${String(ms)}, true)`.execute(trx);
}

/** Limits for setup work (migrations, bulk ingest): a connect time-out only, statements may take what they need. */
export const SETUP_TIMEOUTS: DatabaseTimeouts = { connectSeconds: 10, statementMs: 0, lockMs: 0 };

/**
 * Settings of the embedded PGlite server (docs/decisions/0013-faults-timeouts-and-bounds.md).
 * PGlite runs PostgreSQL as a single process with no checkpointer: WAL piles up to max_wal_size (1 GB by default)
 * before a checkpoint recycles it, so a fresh install's data folder grew past 2 GB under load. A standalone backend
 * checkpoints in line once max_wal_size is reached, so a small one bounds the WAL at about that size, at the cost of
 * more frequent checkpoints during a bulk ingest (measured in docs/benchmarks.md).
 */
export const EMBEDDED_SETTINGS = ["-c", "max_wal_size=64MB", "-c", "min_wal_size=32MB"];

/**
 * Opens the database: postgres.js against `databaseUrl` when given, else embedded PGlite in `dataDir`
 * (`"memory://"` keeps it in memory, for tests) through src/db/embedded.ts (turns for the event loop, reopening after
 * a stop). `timeouts` (default SETUP_TIMEOUTS) apply to PostgreSQL: PGlite has one in-process connection, on which no
 * statement ever waits for another's lock, and no statement time-out (its statements are bounded by construction).
 * Both speak the same SQL and run the same migrations.
 */
export function openDatabase(opts: {
  databaseUrl?: string;
  dataDir: string;
  poolSize?: number;
  timeouts?: DatabaseTimeouts;
  /** Where the embedded engine reports a stop and its reopening (default console.error). */
  log?: (line: string) => void;
}): DatabaseHandle {
  if (opts.databaseUrl) {
    const timeouts = opts.timeouts ?? SETUP_TIMEOUTS;
    const sql = postgres(opts.databaseUrl, {
      max: opts.poolSize ?? 10,
      onnotice: () => {},
      connect_timeout: timeouts.connectSeconds,
      // Session settings sent at connection start; a transaction can still raise them with SET LOCAL.
      connection: {
        statement_timeout: timeouts.statementMs,
        lock_timeout: timeouts.lockMs,
        // A transaction left open by a crashed request must not hold its locks for ever.
        idle_in_transaction_session_timeout: timeouts.statementMs ? Math.max(60_000, timeouts.statementMs * 2) : 0,
      },
      // Integers above 2^31 are never stored here; counts are cast to int in SQL.
      types: {},
    });
    // Single queries share the pool and are prepared; transactions reserve a connection (see postgres-driver.ts).
    const db = new Kysely<DB>({ dialect: new PostgresPoolDialect(sql) });
    return { db, kind: "postgres", close: () => db.destroy() };
  }
  if (!opts.dataDir.startsWith("memory://")) mkdirSync(opts.dataDir, { recursive: true });
  const embedded = new EmbeddedEngine({
    dataDir: opts.dataDir,
    options: { startParams: [...PGlite.defaultStartParams, ...EMBEDDED_SETTINGS] },
    log: opts.log,
  });
  const db = new Kysely<DB>({ dialect: new EmbeddedDialect(embedded) });
  return { db, kind: "pglite", embedded, close: () => db.destroy() };
}
