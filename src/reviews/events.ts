/**
 * Status changes of reviews, as they are stored, for the server-sent event stream of the review page (issue 8).
 * In-process: the pipeline announces each change it committed, and every open stream of that review reads the
 * review at once. A change stored by another process (a WORKER=only worker) is not announced here; the streams
 * also re-read the review every STREAM_RECHECK_MS, which bounds the delay then.
 */

type Listener = () => void;
const listeners = new Map<string, Set<Listener>>();

/** Announces that the review's stored status or summary changed (call after the change committed). */
export function announceReviewChange(reviewId: string): void {
  for (const listener of listeners.get(reviewId) ?? []) listener();
}

/** Calls `listener` on every announced change of the review. @returns the function that stops listening. */
export function onReviewChange(reviewId: string, listener: Listener): () => void {
  let set = listeners.get(reviewId);
  if (!set) listeners.set(reviewId, (set = new Set()));
  set.add(listener);
  return () => {
    set.delete(listener);
    if (set.size === 0) listeners.delete(reviewId);
  };
}
