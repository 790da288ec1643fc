import type { AppDeps } from "../deps.ts";
import type { JobHandlers } from "../jobs/worker.ts";
import { enqueueUnlessWaiting, type Schedule } from "../jobs/schedule.ts";
import { refreshMeshStats } from "./disruption.ts";
import { computeWeeklySuggestions } from "./service.ts";
import { usersDueForWeek } from "./repository.ts";
import { isIsoWeek, isoWeek } from "./week.ts";

/**
 * The weekly suggestions on the durable job queue (issue 11): the schedule (Mondays 06:00 UTC) or
 * `npm run suggestions:weekly` enqueues one WEEKLY_RUN_JOB; it refreshes the MeSH statistics once and enqueues one
 * USER_JOB per user due that ISO week. Each user's job is idempotent (a week with a batch is left alone), so a rerun,
 * a crash midway or two workers change nothing and send no digest twice.
 */
export const WEEKLY_RUN_JOB = "suggestions.weekly-run";
/** One user's week. Payload `{userId, week?, replace?}`. */
export const USER_JOB = "suggestions.user";

/** Users' jobs enqueued per statement batch by the weekly run. */
const ENQUEUE_BATCH = 500;

/** Queues the computation of `userId`'s suggestions now (a new subscriber, edited interests): done within a minute. */
export async function enqueueUserSuggestions(deps: Pick<AppDeps, "jobs">, userId: string, opts: { replace?: boolean; db?: AppDeps["db"] } = {}): Promise<void> {
  await deps.jobs.enqueue(USER_JOB, { userId, replace: opts.replace ?? false }, { fairnessKey: userId, maxAttempts: 5, db: opts.db });
}

/** The job handlers of suggestions. */
export function suggestionJobHandlers(): JobHandlers {
  return {
    [WEEKLY_RUN_JOB]: async (payload, { deps }) => {
      const week = typeof payload.week === "string" && isIsoWeek(payload.week) ? payload.week : isoWeek(new Date());
      await refreshMeshStats(deps.db);
      const users = await usersDueForWeek(deps.db, week);
      for (let i = 0; i < users.length; i += ENQUEUE_BATCH) {
        await deps.db.transaction().execute(async (trx) => {
          for (const userId of users.slice(i, i + ENQUEUE_BATCH)) await deps.jobs.enqueue(USER_JOB, { userId, week }, { fairnessKey: userId, maxAttempts: 5, db: trx });
        });
        deps.jobs.wake?.();
      }
    },
    [USER_JOB]: async (payload, { deps }) => {
      const week = typeof payload.week === "string" && isIsoWeek(payload.week) ? payload.week : undefined;
      // A recomputation (edited interests) refreshes the batch the page shows; it does not mail a second digest.
      await computeWeeklySuggestions(deps, String(payload.userId), { week, replace: payload.replace === true, sendDigest: payload.replace !== true });
    },
  };
}

/** Mondays at 06:00 UTC: the week's run. */
export function suggestionSchedules(): Schedule[] {
  return [{ name: "suggestions.weekly", cron: "0 6 * * 1", run: (deps) => enqueueUnlessWaiting(deps, WEEKLY_RUN_JOB) }];
}
