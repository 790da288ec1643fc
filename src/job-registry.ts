import type { AppDeps } from "./deps.ts";
import type { JobHandlers } from "./jobs/kinds.ts";
import type { Schedule } from "./jobs/schedule.ts";
import { reviewJobHandler, REVIEW_JOB_KIND } from "./reviews/pipeline.ts";
import { subscriptionJobHandlers, subscriptionSchedules } from "./subscriptions/trials.ts";
import { emailJobHandlers } from "./email/jobs.ts";
import { recoveryJobHandlers } from "./auth/recovery-jobs.ts";
import { maintenanceJobHandlers, maintenanceSchedules } from "./db/maintenance.ts";
import { suggestionJobHandlers, suggestionSchedules } from "./suggestions/jobs.ts";
import { pubmedSyncJobHandlers, pubmedSyncSchedules } from "./pubmed/sync-jobs.ts";
import { pubmedJobHandlers, pubmedSchedules } from "./pubmed/jobs.ts";
import { privacyJobHandlers, privacySchedules } from "./privacy/jobs.ts";
import { shareJobHandlers } from "./shares/notify.ts";

// The application's jobs and schedules, gathered where the server is assembled: each domain declares its own job
// kinds, handlers and schedules, and only this file knows them all, so that src/jobs (the queue, the worker and the
// scheduler) depends on no domain. A new domain's jobs are added here, handler and schedule side by side.

/**
 * Every job kind the application runs, by name. The worker claims only these kinds, so a job of a kind
 * added by a newer release waits in the queue for a worker that knows it.
 */
export function jobHandlers(_deps: AppDeps): JobHandlers {
  return {
    [REVIEW_JOB_KIND]: reviewJobHandler,
    ...subscriptionJobHandlers(),
    ...emailJobHandlers(),
    ...recoveryJobHandlers(),
    ...maintenanceJobHandlers(),
    ...suggestionJobHandlers(),
    ...pubmedSyncJobHandlers(),
    ...pubmedJobHandlers(),
    ...privacyJobHandlers(),
    ...shareJobHandlers(),
  };
}

/**
 * Every schedule of the application (see src/jobs/schedule.ts for the rules a schedule follows). server.ts starts
 * them in each process that runs jobs.
 */
export function applicationSchedules(deps: AppDeps): Schedule[] {
  return [
    ...subscriptionSchedules(),
    ...maintenanceSchedules(),
    ...suggestionSchedules(),
    ...pubmedSyncSchedules(deps.config.PUBMED_SYNC === "daily"),
    ...pubmedSchedules(),
    ...privacySchedules(),
  ];
}
