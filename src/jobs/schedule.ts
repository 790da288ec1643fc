import { Cron } from "croner";
import { sql } from "kysely";
import type { z } from "zod";
import type { AppDeps } from "../deps.ts";
import { enqueueJob, type JobKind, type PayloadSchema } from "./kinds.ts";

/**
 * In-process schedules (weekly suggestions, trial expiry, the daily PubMed sync…), run with the croner library in
 * every process that runs jobs (WORKER=inline or only). A schedule only ENQUEUES durable jobs: the queue makes the
 * work survive crashes and restarts, and the schedule's `run` must be idempotent (enqueue with a key that makes a
 * second enqueue for the same period a no-op, or check what already exists), because several worker processes
 * each run the same schedules, and an external cron may call the same `run` through an `npm run` command too.
 */
export interface Schedule {
  /** Short name, for logs (e.g. "suggestions.weekly"). */
  name: string;
  /**
   * When it fires: a cron pattern read in UTC, five fields (minute hour day month weekday) or six with seconds
   * first, as croner reads them (e.g. "0 6 * * 1": Mondays at 06:00 UTC).
   */
  cron: string;
  /** Enqueues the period's jobs. Must be idempotent (see above). Errors are logged; the next firing runs again. */
  run(deps: AppDeps, firedAt: Date): Promise<void>;
}

/** Started schedules. */
export interface Scheduler {
  /** Stops every schedule; a run in progress finishes on its own. */
  stop(): void;
  /** The next firing time of each schedule, by name (for logs and tests). */
  nextRuns(): Record<string, Date | null>;
}

/**
 * Starts `schedules` in this process. A run that is still going when its schedule fires again is not started a
 * second time (croner's overrun protection).
 * @throws Error for an invalid cron pattern (at start, not at the first firing).
 */
export function startSchedules(deps: AppDeps, schedules: readonly Schedule[]): Scheduler {
  const jobs = schedules.map(
    (s) =>
      new Cron(s.cron, { timezone: "UTC", protect: true, name: s.name }, async () => {
        try {
          await s.run(deps, new Date());
        } catch (err) {
          console.error(`schedule ${s.name} failed:`, err);
        }
      }),
  );
  return {
    stop: () => {
      for (const j of jobs) j.stop();
    },
    nextRuns: () => Object.fromEntries(jobs.map((j, i) => [schedules[i]!.name, j.nextRun()])),
  };
}

/**
 * Enqueues a job of `kind` (empty payload) unless one is already waiting in the queue: the idempotent `run` of a
 * schedule whose job does the whole period's work (a sweep), however many processes fire it. Only a kind whose
 * payload schema accepts `{}` may be passed (checked by the type, and by enqueueJob).
 */
export async function enqueueUnlessWaiting<S extends PayloadSchema>(
  deps: AppDeps,
  kind: JobKind<S> & (Record<string, never> extends z.input<S> ? unknown : never),
): Promise<void> {
  const waiting = await deps.db
    .selectFrom("jobs")
    .select(sql<number>`1`.as("one"))
    .where("kind", "=", kind.name)
    .where("status", "=", "queued")
    .limit(1)
    .executeTakeFirst();
  if (!waiting) await enqueueJob(deps.jobs, kind, {} as z.input<S>);
}
