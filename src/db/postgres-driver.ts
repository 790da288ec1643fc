import {
  AbortedTransactionError,
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
  type TransactionSettings,
} from "kysely";
import type { ReservedSql, Sql } from "postgres";

/**
 * Kysely over postgres.js, tuned for many short queries (every signed-in request looks its user up):
 * - A query outside a transaction runs on the shared pool: postgres.js sends it on a free connection or pipelines
 *   it behind others, with no reserve/release round of the pool per query. (The kysely-postgres-js dialect reserves
 *   a connection for every single query, which serialises concurrent requests on the pool.)
 * - A query with parameters runs as a named prepared statement, so PostgreSQL parses and plans its text once per
 *   connection (postgres.js's own default for its queries). postgres.js recycles connections after 30 to 60
 *   minutes, which bounds the statements a connection keeps. Queries without parameters (migrations, several
 *   statements in one string) use the simple protocol as before.
 * - A transaction reserves one connection from `begin` to `commit`/`rollback`, so its statements share a session.
 *
 * Measured with 32 concurrent user lookups on loopback PostgreSQL (docs/benchmarks.md): about 9,000
 * queries/s with the reserve-per-query dialect against about 19,000 with this driver.
 * Limit: `db.connection()` outside a transaction does not pin a session (no code here uses it); use a transaction
 * for anything that needs one session (SET, session-level advisory locks).
 */
export class PostgresPoolDialect implements Dialect {
  constructor(private readonly sql: Sql) {}

  createAdapter() {
    return new PostgresAdapter();
  }

  createDriver() {
    return new PostgresPoolDriver(this.sql);
  }

  createIntrospector(db: Kysely<unknown>) {
    return new PostgresIntrospector(db);
  }

  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
}

/** One Kysely connection: the pool, until a transaction begins on it and reserves a real connection. */
class PoolConnection implements DatabaseConnection {
  reserved: ReservedSql | null = null;

  constructor(private readonly pool: Sql) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const target = this.reserved ?? this.pool;
    const parameters = [...compiled.parameters] as never[];
    const result = await target.unsafe(compiled.sql, parameters, { prepare: parameters.length > 0 });
    const { command, count } = result;
    return {
      numAffectedRows:
        command === "INSERT" || command === "UPDATE" || command === "DELETE" || command === "MERGE"
          ? BigInt(count)
          : undefined,
      rows: Array.from(result.values()) as R[],
    };
  }

  async *streamQuery<R>(compiled: CompiledQuery, chunkSize = 100): AsyncIterableIterator<QueryResult<R>> {
    if (!Number.isInteger(chunkSize) || chunkSize <= 0) throw new Error("chunkSize must be a positive integer");
    const target = this.reserved ?? this.pool;
    const cursor = target.unsafe(compiled.sql, [...compiled.parameters] as never[]).cursor(chunkSize);
    for await (const rows of cursor) yield { rows: rows as R[] };
  }

  /** Runs a statement without parameters and returns its command tag (e.g. "COMMIT" or "ROLLBACK"). */
  async command(statement: string): Promise<string> {
    const result = await (this.reserved ?? this.pool).unsafe(statement);
    return result.command;
  }

  /** Gives the reserved connection, if any, back to the pool. */
  release(): void {
    this.reserved?.release();
    this.reserved = null;
  }
}

/** Quotes a savepoint name as an SQL identifier. */
function identifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

class PostgresPoolDriver implements Driver {
  constructor(private readonly pool: Sql) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return new PoolConnection(this.pool);
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const conn = connection as PoolConnection;
    conn.reserved ??= await this.pool.reserve();
    let statement = "begin";
    if (settings.isolationLevel || settings.accessMode) {
      statement = "start transaction";
      if (settings.isolationLevel) statement += ` isolation level ${settings.isolationLevel}`;
      if (settings.accessMode) statement += ` ${settings.accessMode}`;
    }
    try {
      await conn.executeQuery(CompiledQuery.raw(statement));
    } catch (err) {
      conn.release();
      throw err;
    }
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const conn = connection as PoolConnection;
    try {
      // PostgreSQL answers COMMIT with a ROLLBACK tag when an earlier error had aborted the transaction.
      if ((await conn.command("commit")) === "ROLLBACK") throw new AbortedTransactionError();
    } finally {
      conn.release();
    }
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const conn = connection as PoolConnection;
    // Already given back (its commit failed): a bare ROLLBACK on a pooled connection would have nothing to undo.
    if (!conn.reserved) return;
    try {
      await conn.command("rollback");
    } finally {
      conn.release();
    }
  }

  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await (connection as PoolConnection).command(`savepoint ${identifier(name)}`);
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await (connection as PoolConnection).command(`rollback to ${identifier(name)}`);
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await (connection as PoolConnection).command(`release ${identifier(name)}`);
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    // A transaction that neither committed nor rolled back (its connection broke) must not keep the reservation.
    (connection as PoolConnection).release();
  }

  async destroy(): Promise<void> {
    await this.pool.end();
  }
}
