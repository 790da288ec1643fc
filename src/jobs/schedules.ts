import type { AppDeps } from "../deps.ts";
import type { Schedule } from "./schedule.ts";
import { subscriptionSchedules } from "../subscriptions/trials.ts";
import { maintenanceSchedules } from "../db/maintenance.ts";
import { suggestionSchedules } from "../suggestions/jobs.ts";
import { pubmedSyncSchedules } from "../pubmed/sync-jobs.ts";
import { pubmedSchedules } from "../pubmed/jobs.ts";
import { privacySchedules } from "../privacy/jobs.ts";

/**
 * Every schedule of the application (see schedule.ts for the rules a schedule follows). server.ts starts them in
 * each process that runs jobs. Add a domain's schedule here, next to its job handler in handlers.ts.
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
