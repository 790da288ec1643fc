import type { Database } from "../db/database.ts";

/** Tries a job gets unless its enqueue says otherwise. */
export const DEFAULT_MAX_ATTEMPTS = 3;

/** Options of one enqueue call. */
export interface EnqueueOptions {
  /** Earliest time the job may run (default: now). */
  runAt?: Date;
  /** How many times the job is tried before it is marked failed (default DEFAULT_MAX_ATTEMPTS). */
  maxAttempts?: number;
  /**
   * Whose work this is (e.g. the user id): each key's next job goes behind every other key's first, so one user's
   * burst cannot starve another (src/jobs/queue-pg.ts FAIR_STEP_SECONDS, src/jobs/worker.ts claimJob).
   */
  fairnessKey?: string;
  /**
   * Executor to insert with, typically the caller's open transaction, so that the job is committed (or
   * rolled back) together with the writes that made it necessary.
   */
  db?: Database;
}

/** Enqueues durable background work (stored in the `jobs` table before this resolves). */
export interface JobQueue {
  /**
   * @param kind handler name, e.g. "review.run"
   * @param payload JSON-serialisable arguments
   * @returns the job id
   */
  enqueue(kind: string, payload: Record<string, unknown>, opts?: EnqueueOptions): Promise<string>;
  /**
   * Registers a listener called after each enqueue from this process, so that an in-process worker can pick
   * the job up at once instead of at its next poll. Returns the function that unregisters it.
   */
  onEnqueued?(listener: () => void): () => void;
  /**
   * Tells this process's workers to look for jobs now. `enqueue` does it itself unless it ran inside the caller's
   * transaction (`opts.db`): a worker woken then could not see the uncommitted job, so the caller calls `wake()`
   * after committing.
   */
  wake?(): void;
}
