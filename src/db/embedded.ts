import { PGlite, type PGliteOptions } from "@electric-sql/pglite";
import {
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

/**
 * The embedded database (PGlite: PostgreSQL compiled to WebAssembly, running in this process) behind Kysely, with two
 * duties the library dialect (kysely-pglite-dialect) does not have (issue 34, docs/decisions/0048-bounded-strategy-
 * evaluation.md):
 *
 * - **Turns.** PGlite executes a statement synchronously on the JavaScript thread and resolves its promise at once, so
 *   a job that runs statement after statement never lets the event loop reach its timers and sockets: another user's
 *   request waits, unread, until the job's next real pause. The driver therefore lets the event loop turn (one
 *   `setImmediate`) before a statement when it has not turned for TURN_AFTER_MS of back-to-back statements. With every
 *   statement of a long job bounded (the strategy walk's slices), no job holds the thread, nor the one connection, for
 *   more than about TURN_AFTER_MS plus one statement.
 * - **Reopening.** Should the engine stop in the middle of a statement (a WebAssembly trap, or PostgreSQL's exit
 *   escaping PGlite's error handling, as issue 34's probe made it do: `ExitStatus … exit(100)`), its state cannot be
 *   trusted. The statement fails (SQLSTATE 57P02, crash_shutdown: the API answers 503), the stopped engine is dropped
 *   without another call into it, and a new one is opened on the same data folder, which replays the write-ahead log as
 *   after a crash: every committed transaction is there, as on a server that restarted. The log says both. A
 *   transaction open on the stopped engine is gone: its later statements fail the same way and its ROLLBACK succeeds.
 *   An in-memory database (tests) cannot be reopened: the failure is passed on.
 *
 * Statements are serialised over one connection, first come first served, as the library dialect does.
 */

/**
 * Back-to-back statements after which the driver lets the event loop turn before the next one: our choice, a tenth of
 * the 200 ms p99 issue 34 asks of another user's request (measured: docs/benchmarks.md, "Hardening, fourth round").
 */
export const TURN_AFTER_MS = 10;

/** What PGlite needs to open the data folder again. */
export interface EmbeddedOptions {
  /** A folder, or "memory://" (not reopenable). */
  dataDir: string;
  /** PGlite's options (start parameters, a data folder tarball to load…). */
  options: PGliteOptions;
  /** Where the engine's stop and reopening are reported (default: console.error). */
  log?: (line: string) => void;
  /** The clock, in milliseconds (default performance.now). */
  now?: () => number;
}

/** A statement failed because the embedded engine stopped (or had restarted since its transaction began). */
export class EmbeddedEngineStopped extends Error {
  /** PostgreSQL's crash_shutdown: the API's error handler answers it with 503 (src/db/errors.ts). */
  readonly code = "57P02";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "EmbeddedEngineStopped";
  }
}

/**
 * Whether an error thrown by a PGlite statement means the engine itself stopped, rather than PostgreSQL refusing the
 * statement (those carry a SQLSTATE `code`): emscripten's ExitStatus, a WebAssembly trap, an abort.
 */
export function isEngineStop(err: unknown): boolean {
  if (err === null || typeof err !== "object") return false;
  const { code, name, message } = err as { code?: unknown; name?: unknown; message?: unknown };
  if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return false;
  if (name === "ExitStatus" || err instanceof WebAssembly.RuntimeError) return true;
  return /\bAborted\(|program has already aborted|memory access out of bounds|unreachable executed/.test(
    String(message ?? ""),
  );
}

/** One engine at a time, reopened after a stop (see the module comment). */
export class EmbeddedEngine {
  private pglite: PGlite;
  /** Bumped by every reopening: a transaction begun under an older one is gone. */
  generation = 0;
  /** How many times the engine was reopened since this process opened it. */
  reopened = 0;
  private readonly log: (line: string) => void;
  private readonly now: () => number;
  // The event loop's turns: a marker scheduled with setImmediate; still pending means the loop has not turned since.
  private markerPending = false;
  private markerSince = 0;

  constructor(private readonly opts: EmbeddedOptions) {
    this.pglite = new PGlite(opts.dataDir, opts.options);
    this.log = opts.log ?? ((line) => console.error(line));
    this.now = opts.now ?? (() => performance.now());
  }

  /** The current PGlite instance (for the test database's snapshot, and for fault tests). */
  get current(): PGlite {
    return this.pglite;
  }

  /** Lets the event loop turn if it has not for TURN_AFTER_MS of statements. */
  private async takeTurn(): Promise<void> {
    if (this.markerPending && this.now() - this.markerSince >= TURN_AFTER_MS)
      await new Promise<void>((resolve) => setImmediate(resolve));
    if (!this.markerPending) {
      this.markerPending = true;
      this.markerSince = this.now();
      setImmediate(() => {
        this.markerPending = false;
      });
    }
  }

  /**
   * Runs one statement. @throws PostgreSQL's error as PGlite raises it; EmbeddedEngineStopped when the engine stopped
   *   during it and has been reopened; the engine's own error when it stopped and could not be (in memory, or never
   *   opened).
   */
  async query(sql: string, parameters: readonly unknown[]): Promise<QueryResult<unknown>> {
    await this.takeTurn();
    const engine = this.pglite;
    try {
      const result = await engine.query(sql, [...parameters]);
      return result.affectedRows
        ? { numAffectedRows: BigInt(result.affectedRows), rows: result.rows }
        : { rows: result.rows };
    } catch (err) {
      if (!isEngineStop(err) || !(await this.reopen(engine, err))) throw err;
      throw new EmbeddedEngineStopped(
        "The embedded database stopped during this statement and was reopened; the statement did not complete.",
        { cause: err },
      );
    }
  }

  /**
   * Replaces a stopped engine by a new one on the same data folder (once, whatever the number of callers).
   * @returns whether the engine now in place is a new one (false: in memory, or the stopped one never opened).
   */
  private async reopen(stopped: PGlite, err: unknown): Promise<boolean> {
    if (stopped !== this.pglite) return true;
    // An engine that never opened (its folder in use by another process, a damaged folder) is not reopened: the
    // failure is the caller's to report.
    if (!stopped.ready) return false;
    const why = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
    if (this.opts.dataDir.includes("://")) {
      this.log(
        `embedded database: the engine stopped during a statement (${why}); an in-memory database cannot be reopened`,
      );
      return false;
    }
    this.log(`embedded database: the engine stopped during a statement (${why}); reopening ${this.opts.dataDir}`);
    const started = this.now();
    // The stopped engine is not called again (no close: its state is not to be trusted); the new one recovers the
    // folder from the write-ahead log, as PostgreSQL does after a crash.
    this.generation++;
    this.reopened++;
    this.pglite = new PGlite(this.opts.dataDir, this.opts.options);
    await this.pglite.waitReady;
    this.log(
      `embedded database: reopened in ${Math.round(this.now() - started)} ms; committed transactions are kept, ` +
        "the interrupted statement (and any transaction it was part of) failed",
    );
    return true;
  }

  /** Closes the current engine (the database handle's close). */
  async close(): Promise<void> {
    await this.pglite.close();
  }
}

/** The one connection: statements go to the engine; a transaction remembers the engine generation it began under. */
class EmbeddedConnection implements DatabaseConnection {
  /** The engine generation of the open transaction, or null outside one. */
  transactionGeneration: number | null = null;

  constructor(private readonly engine: EmbeddedEngine) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    if (this.transactionGeneration !== null && this.transactionGeneration !== this.engine.generation) {
      // The transaction died with the engine: nothing of it is left to roll back.
      if (/^\s*rollback\b/i.test(compiled.sql)) return { rows: [] };
      throw new EmbeddedEngineStopped(
        "The embedded database was reopened during this transaction, which was rolled back.",
      );
    }
    return (await this.engine.query(compiled.sql, compiled.parameters)) as QueryResult<R>;
  }

  async *streamQuery<R>(compiled: CompiledQuery, chunkSize: number): AsyncIterableIterator<QueryResult<R>> {
    const result = await this.executeQuery<R>(compiled);
    for (let i = 0; i < result.rows.length; i += Math.max(1, chunkSize)) {
      yield { rows: result.rows.slice(i, i + chunkSize) };
    }
  }
}

/** Kysely's driver over the engine: one connection, handed out first come, first served. */
class EmbeddedDriver implements Driver {
  private readonly connection: EmbeddedConnection;
  private busy = false;
  private readonly waiting: ((c: EmbeddedConnection) => void)[] = [];

  constructor(private readonly engine: EmbeddedEngine) {
    this.connection = new EmbeddedConnection(engine);
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    if (!this.busy) {
      this.busy = true;
      return this.connection;
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  async releaseConnection(): Promise<void> {
    const next = this.waiting.shift();
    if (next) next(this.connection);
    else this.busy = false;
  }

  async beginTransaction(conn: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const c = conn as EmbeddedConnection;
    c.transactionGeneration = null;
    const begin = settings.isolationLevel ? `start transaction isolation level ${settings.isolationLevel}` : "begin";
    await c.executeQuery(CompiledQuery.raw(begin));
    c.transactionGeneration = this.engine.generation;
  }

  async commitTransaction(conn: DatabaseConnection): Promise<void> {
    const c = conn as EmbeddedConnection;
    try {
      await c.executeQuery(CompiledQuery.raw("commit"));
    } finally {
      c.transactionGeneration = null;
    }
  }

  async rollbackTransaction(conn: DatabaseConnection): Promise<void> {
    const c = conn as EmbeddedConnection;
    try {
      await c.executeQuery(CompiledQuery.raw("rollback"));
    } finally {
      c.transactionGeneration = null;
    }
  }

  async destroy(): Promise<void> {
    await this.engine.close();
  }
}

/** Kysely's dialect for the embedded engine (PostgreSQL's adapter, compiler and introspector). */
export class EmbeddedDialect implements Dialect {
  constructor(private readonly engine: EmbeddedEngine) {}

  createAdapter() {
    return new PostgresAdapter();
  }

  createDriver(): Driver {
    return new EmbeddedDriver(this.engine);
  }

  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }

  createIntrospector(db: Kysely<unknown>) {
    return new PostgresIntrospector(db);
  }
}
