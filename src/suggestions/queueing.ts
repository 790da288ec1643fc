import { z } from "zod";
import type { AppDeps } from "../deps.ts";
import { enqueueJob, jobKind } from "../jobs/kinds.ts";
import { isIsoWeek } from "./week.ts";

/**
 * Queueing one user's weekly suggestions, apart from the job handlers (jobs.ts) so that the domains that start a
 * user's access or change their profile (users, subscriptions) can ask for it without importing the suggestion
 * computation.
 */

/** One user's week. Payload `{userId, week?, replace?}` (handled in jobs.ts). */
export const USER_JOB = "suggestions.user";

/** An ISO week such as "2026-W48" (week.ts). */
export const isoWeekField = z.string().refine(isIsoWeek, "must be an ISO week such as 2026-W48");

/** USER_JOB with its payload's schema (src/jobs/kinds.ts): this week when `week` is absent. */
export const USER = jobKind(
  USER_JOB,
  z.object({ userId: z.string().min(1), week: isoWeekField.optional(), replace: z.boolean().optional() }),
);

/**
 * Queues the computation of `userId`'s suggestions for this week now: a new subscriber, edited interests. The worker
 * polls every second, so it is done within a minute. Nothing is computed without access or with an empty profile, and
 * a week that has its batch is left alone unless `replace`.
 * @param opts.db a transaction to enqueue in (the caller then wakes the workers after its commit).
 */
export async function enqueueUserSuggestions(
  deps: Pick<AppDeps, "jobs">,
  userId: string,
  opts: { replace?: boolean; db?: AppDeps["db"] } = {},
): Promise<void> {
  await enqueueJob(
    deps.jobs,
    USER,
    { userId, replace: opts.replace ?? false },
    { fairnessKey: userId, maxAttempts: 5, db: opts.db },
  );
}
