import { sql } from "kysely";
import type { Database } from "../db/database.ts";
import { DEFAULT_MAX_ATTEMPTS, type EnqueueOptions, type JobQueue } from "./queue.ts";

/**
 * How far back in the queue each job a key already has queued or running puts its next job (seconds). Long enough
 * that, in any backlog shorter than this, every user's first job runs before anyone's second (a newcomer's review
 * waits for one review, not for the heavy users' queues: issue 22, item 5); bounded, so a user's third job is never
 * held back by newcomers for more than twice this. A form of start-time fair queuing (Goyal, Vin and Cheng,
 * "Start-time Fair Queuing", SIGCOMM 1996), with each user's jobs one step apart.
 */
export const FAIR_STEP_SECONDS = 300;

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
    const key = opts.fairnessKey ?? null;
    // fair_at: one FAIR_STEP_SECONDS later per job the key already has queued or running (its place in its user's
    // queue), so a user's next job goes behind every other user's first (see claimJob in worker.ts).
    const { rows } = await sql<{ id: string }>`
      INSERT INTO jobs (kind, payload, run_at, max_attempts, fairness_key, fair_at)
      SELECT kind, payload, run_at, max_attempts, fairness_key,
        run_at + make_interval(secs => ${FAIR_STEP_SECONDS} * (
          SELECT count(*) FROM jobs AS k WHERE k.fairness_key = v.fairness_key AND k.status IN ('queued', 'running')
        ))
      FROM (VALUES (
        ${kind},
        cast(${JSON.stringify(payload)} as text)::jsonb,
        coalesce(cast(${opts.runAt ?? null} as timestamptz), now()),
        coalesce(cast(${opts.maxAttempts ?? null} as integer), ${DEFAULT_MAX_ATTEMPTS}),
        cast(${key} as text)
      )) AS v (kind, payload, run_at, max_attempts, fairness_key)
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
