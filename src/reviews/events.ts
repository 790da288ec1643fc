import postgres from "postgres";

/**
 * Status changes of reviews, as they are stored, for the server-sent event stream of the review page (issue 8).
 * The pipeline announces each change it committed; every open stream of that review in this process then reads the
 * review once. Streams never poll one by one (issue 22, item 6: 5,000 open streams cost 4,999 transactions a second).
 *
 * Across processes (PostgreSQL, a WORKER=only worker beside the web processes): each process runs one feed
 * (startReviewChangeFeed) that sends its announcements as NOTIFY on REVIEW_CHANGE_CHANNEL and LISTENs on one
 * connection for the others'. On the embedded database one process owns everything, so the in-process signal is all.
 * A notification lost while the listening connection reconnects is caught by the streams' one shared re-read
 * (src/reviews/status-streams.ts).
 */

type Listener = () => void;
const listeners = new Map<string, Set<Listener>>();
/** Where announcements go besides this process's streams (the PostgreSQL feeds started here). */
const publishers = new Set<(reviewId: string) => void>();

/** The PostgreSQL channel of review changes; a notification's payload is "<origin> <review id>". */
export const REVIEW_CHANGE_CHANNEL = "review_change";

/** Wakes this process's streams of the review. */
function dispatch(reviewId: string): void {
  for (const listener of listeners.get(reviewId) ?? []) listener();
}

/** Announces that the review's stored status or summary changed (call after the change committed). */
export function announceReviewChange(reviewId: string): void {
  dispatch(reviewId);
  for (const publish of publishers) publish(reviewId);
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

/** A running feed of review changes between processes. */
export interface ReviewChangeFeed {
  /** Stops listening and publishing, and closes the feed's connections. */
  close(): Promise<void>;
}

/**
 * Starts this process's feed of review changes on the PostgreSQL server at `databaseUrl`: one connection LISTENs on
 * REVIEW_CHANGE_CHANNEL and wakes the local streams of each review another process announces; this process's
 * announcements are sent with NOTIFY (delivered to every listening process; our own come back and are skipped by
 * their origin). postgres.js re-LISTENs by itself after a reconnect. Without `databaseUrl` (the embedded database,
 * one process) there is nothing to connect: the in-process signal is the whole feed.
 * @throws when the server cannot be reached at start.
 */
export async function startReviewChangeFeed(databaseUrl: string | undefined): Promise<ReviewChangeFeed> {
  if (!databaseUrl) return { close: async () => {} };
  const origin = crypto.randomUUID();
  // Its own small client: LISTEN holds a connection for good, which must not come out of the request pool.
  const client = postgres(databaseUrl, { max: 1, onnotice: () => {}, connect_timeout: 5 });
  const { unlisten } = await client.listen(REVIEW_CHANGE_CHANNEL, (payload) => {
    const [from, reviewId] = payload.split(" ");
    if (from !== origin && reviewId) dispatch(reviewId);
  });
  const sending = new Set<Promise<unknown>>();
  const publish = (reviewId: string) => {
    const sent = client.notify(REVIEW_CHANGE_CHANNEL, `${origin} ${reviewId}`).catch((err: unknown) => {
      // The other processes' streams then see the change at their next shared re-read.
      console.error("review change feed: notify failed:", err instanceof Error ? err.message : err);
    });
    sending.add(sent);
    void sent.finally(() => sending.delete(sent));
  };
  publishers.add(publish);
  return {
    async close() {
      publishers.delete(publish);
      await Promise.allSettled([...sending]);
      await unlisten().catch(() => {});
      await client.end({ timeout: 5 });
    },
  };
}
