import { sql } from "kysely";
import type { Database } from "../db/database.ts";
import type { EnqueueOptions, JobQueue } from "./queue.ts";

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
    const row = await executor
      .insertInto("jobs")
      .values({
        kind,
        // Cast through text: postgres.js would otherwise JSON-encode the already encoded string a second time.
        payload: sql`cast(${JSON.stringify(payload)} as text)::jsonb` as unknown as string,
        ...(opts.runAt ? { run_at: opts.runAt } : {}),
        ...(opts.maxAttempts !== undefined ? { max_attempts: opts.maxAttempts } : {}),
      })
      .returning(sql<string>`id::text`.as("id"))
      .executeTakeFirstOrThrow();
    // A listener may run before the caller's transaction commits; the worker then finds the job at its next poll.
    for (const listener of this.listeners) listener();
    return row.id;
  }

  /** See JobQueue.onEnqueued. */
  onEnqueued(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
