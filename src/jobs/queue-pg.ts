import { sql } from "kysely";
import type { Database } from "../db/database.ts";
import { DEFAULT_MAX_ATTEMPTS, type EnqueueOptions, type JobQueue } from "./queue.ts";

/**
 * The JobQueue over the `jobs` table (see docs/decisions/0003-job-queue.md). Works the same on PGlite and
 * PostgreSQL: enqueueing is one INSERT, so a job enqueued inside a transaction exists only if it commits.
 */
export class PgJobQueue implements JobQueue {
  private readonly listeners = new Set<() => void>();

  constructor(private readonly db: Database) {}

  /** Inserts a queued job and returns its id (a decimal string, the table's bigserial). */
  async enqueue(kind: string, payload: Record<string, unknown>, opts: EnqueueOptions = {}): Promise<string> {
    const executor = opts.db ?? this.db;
    // The payload goes in as text and is cast in SQL: postgres.js would JSON-encode an encoded string again.
    const { rows } = await sql<{ id: string }>`
      INSERT INTO jobs (kind, payload, run_at, max_attempts, fairness_key)
      VALUES (
        ${kind},
        cast(${JSON.stringify(payload)} as text)::jsonb,
        coalesce(cast(${opts.runAt ?? null} as timestamptz), now()),
        coalesce(cast(${opts.maxAttempts ?? null} as integer), ${DEFAULT_MAX_ATTEMPTS}),
        cast(${opts.fairnessKey ?? null} as text)
      )
      RETURNING id::text AS id`.execute(executor);
    // Inside the caller's transaction the job is not visible yet: the caller wakes the workers after commit.
    if (!opts.db) this.wake();
    return rows[0]!.id;
  }

  /** See JobQueue.wake. */
  wake(): void {
    for (const listener of this.listeners) listener();
  }

  /** See JobQueue.onEnqueued. */
  onEnqueued(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
