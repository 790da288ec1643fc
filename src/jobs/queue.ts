/** Enqueues durable background work (stored in the `jobs` table before this resolves). */
export interface JobQueue {
  /**
   * @param kind handler name, e.g. "review.run"
   * @param payload JSON-serialisable arguments
   * @returns the job id
   */
  enqueue(kind: string, payload: Record<string, unknown>, opts?: { runAt?: Date; maxAttempts?: number }): Promise<string>;
}
