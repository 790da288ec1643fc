import type { AppDeps } from "../deps.ts";
import type { JobHandlers } from "./worker.ts";
import { reviewJobHandler, REVIEW_JOB_KIND } from "../reviews/pipeline.ts";
import { subscriptionJobHandlers } from "../subscriptions/trials.ts";
import { emailJobHandlers } from "../email/jobs.ts";
import { maintenanceJobHandlers } from "../db/maintenance.ts";
import { suggestionJobHandlers } from "../suggestions/jobs.ts";
import { pubmedSyncJobHandlers } from "../pubmed/sync-jobs.ts";
import { pubmedJobHandlers } from "../pubmed/jobs.ts";
import { privacyJobHandlers } from "../privacy/jobs.ts";
import { shareJobHandlers } from "../shares/notify.ts";

/**
 * Every job kind the application runs, by name. The worker claims only these kinds, so a job of a kind
 * added by a newer release waits in the queue for a worker that knows it.
 */
export function jobHandlers(_deps: AppDeps): JobHandlers {
  return {
    [REVIEW_JOB_KIND]: reviewJobHandler,
    ...subscriptionJobHandlers(),
    ...emailJobHandlers(),
    ...maintenanceJobHandlers(),
    ...suggestionJobHandlers(),
    ...pubmedSyncJobHandlers(),
    ...pubmedJobHandlers(),
    ...privacyJobHandlers(),
    ...shareJobHandlers(),
  };
}
