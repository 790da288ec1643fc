import type { Database } from "../db/database.ts";
import { ApiError } from "../http/errors.ts";
import { onReviewChange } from "./events.ts";

/**
 * Bookkeeping of the open review status streams of this process (GET /literature_review/events/{id}, issue 22,
 * item 6): how many each user has open, and the one re-read that all of them share.
 *
 * A stream reads its review when a change is announced (src/reviews/events.ts), never on a timer of its own. As a net
 * under the announcements (a NOTIFY lost while the listening connection reconnected, a change written by a tool that
 * announces nothing), this process re-reads the status of every review it streams in one query every
 * STREAM_SWEEP_MS and wakes the streams whose review changed. 1,000 open streams then cost about one query each
 * STREAM_SWEEP_MS in all, instead of 1,000 a second (measured by scripts/bench/bench-streams.ts).
 */

/** Status streams one user may have open at once in one process; the next one is refused with 429. */
export const MAX_STREAMS_PER_USER = 10;
/** How often this process re-reads, in one query, the reviews its open streams follow. */
export const STREAM_SWEEP_MS = 5_000;
/** Most review ids one re-read query names (they are sent as parameters). */
const SWEEP_BATCH = 5_000;

const openByUser = new Map<string, number>();

/**
 * Takes one of the user's MAX_STREAMS_PER_USER stream places.
 * @returns the function that gives it back (call it once, when the stream ends).
 * @throws ApiError 429 "Too Many Requests" (the API's rate-limit answer) with Retry-After: 5 when the user has them
 *   all open.
 */
export function acquireStreamSlot(userId: string): () => void {
  const open = openByUser.get(userId) ?? 0;
  if (open >= MAX_STREAMS_PER_USER) throw new ApiError(429, "Too Many Requests", { "Retry-After": "5" });
  openByUser.set(userId, open + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const left = (openByUser.get(userId) ?? 1) - 1;
    if (left > 0) openByUser.set(userId, left);
    else openByUser.delete(userId);
  };
}

/** What a stream compares to decide whether its review changed (status, progress line, last update). */
export function statusKey(s: { status: string; progress?: string | null; updated_at: Date | string }): string {
  return `${s.status}|${s.progress ?? ""}|${new Date(s.updated_at).toISOString()}`;
}

interface Watch {
  reviewId: string;
  /** statusKey of what the stream last sent ("" before its first read). */
  seen: string;
  wake: () => void;
}

/** The watches on one database handle and the timer of their shared re-read. */
interface SweepGroup {
  watches: Set<Watch>;
  timer: ReturnType<typeof setInterval>;
  running: boolean;
}
const groups = new Map<Database, SweepGroup>();

/** A stream's watch on its review. */
export interface ReviewWatch {
  /** Records the statusKey the stream has just sent, so the shared re-read wakes it only on a difference. */
  seen(key: string): void;
  /** Stops watching (call once, when the stream ends). */
  close(): void;
}

/**
 * Calls `wake` whenever the review's change is announced, or the shared re-read of `db` finds its stored status
 * different from what the stream last recorded with `seen` (or the review gone).
 * @param sweepMs how often the shared re-read of `db` runs (default STREAM_SWEEP_MS; config REVIEW_STREAM_SWEEP_MS),
 *   taken from the watch that starts it: the re-read is one timer for all the streams on one database handle.
 */
export function watchReview(
  db: Database,
  reviewId: string,
  wake: () => void,
  sweepMs: number = STREAM_SWEEP_MS,
): ReviewWatch {
  const watch: Watch = { reviewId, seen: "", wake };
  const off = onReviewChange(reviewId, wake);
  let group = groups.get(db);
  if (!group) {
    const created: SweepGroup = {
      watches: new Set(),
      running: false,
      timer: setInterval(() => void sweep(db, created), sweepMs),
    };
    created.timer.unref?.();
    groups.set(db, (group = created));
  }
  group.watches.add(watch);
  const owner = group;
  return {
    seen(key) {
      watch.seen = key;
    },
    close() {
      off();
      owner.watches.delete(watch);
      if (owner.watches.size === 0 && groups.get(db) === owner) {
        clearInterval(owner.timer);
        groups.delete(db);
      }
    },
  };
}

/** One re-read of every watched review of `group` (in batches of SWEEP_BATCH ids); wakes the streams behind. */
async function sweep(db: Database, group: SweepGroup): Promise<void> {
  if (group.running || group.watches.size === 0) return;
  group.running = true;
  try {
    const ids = [...new Set([...group.watches].map((w) => w.reviewId))];
    const current = new Map<string, string>();
    for (let i = 0; i < ids.length; i += SWEEP_BATCH) {
      const rows = await db
        .selectFrom("literature_reviews")
        .select(["id", "status", "progress", "updated_at"])
        .where("id", "in", ids.slice(i, i + SWEEP_BATCH))
        .execute();
      for (const row of rows) current.set(row.id, statusKey(row));
    }
    for (const watch of group.watches) if (watch.seen && current.get(watch.reviewId) !== watch.seen) watch.wake();
  } catch (err) {
    // The database is unavailable: the streams carry on, and the next re-read tries again.
    console.error("review status streams: re-read failed:", err instanceof Error ? err.message : err);
  } finally {
    group.running = false;
  }
}
