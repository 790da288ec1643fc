/**
 * The language model's own concurrency (issue 22, docs/decisions/0031-language-model-limits.md): at most `limit` calls
 * to one model at once in this process, and a call that finds every slot taken does not wait for one (the review
 * gets its extractive summary at once). The job worker runs `limit` more loops than it would without a model
 * (workerConcurrency), so calls to a hanging model can hold at most those extra loops, never the ones other users'
 * reviews need. Waiting for a slot would hold a worker loop just the same, hence no queue.
 */

const busy = new Map<string, number>();

/**
 * Takes one of `limit` slots of the model named `key` (its address and name).
 * @returns the function that gives the slot back (calling it twice gives back once), or null when all are taken.
 */
export function takeModelSlot(key: string, limit: number): (() => void) | null {
  const used = busy.get(key) ?? 0;
  if (used >= limit) return null;
  busy.set(key, used + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const left = (busy.get(key) ?? 1) - 1;
    if (left <= 0) busy.delete(key);
    else busy.set(key, left);
  };
}

/** Calls to the model named `key` running now in this process (for tests and logs). */
export function modelCallsRunning(key: string): number {
  return busy.get(key) ?? 0;
}
