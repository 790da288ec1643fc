import { z } from "zod";
import { handleJob, type JobHandlers, jobKind } from "../jobs/kinds.ts";
import { enqueueUnlessWaiting, type Schedule } from "../jobs/schedule.ts";
import { syncPubmed } from "../../search/pubmed/sync.ts";

/** The daily update sync as a job (PUBMED_SYNC=daily). */
export const PUBMED_SYNC_JOB = "pubmed.sync";
/** The kind with its (empty) payload's schema, src/jobs/kinds.ts. */
export const PUBMED_SYNC = jobKind(PUBMED_SYNC_JOB, z.object({}));

/** The job's handler: one sync of the update files; a failed file is retried by the next day's run. */
export function pubmedSyncJobHandlers(): JobHandlers {
  return {
    [PUBMED_SYNC_JOB]: handleJob(PUBMED_SYNC, async (_payload, { deps }) => {
      const result = await syncPubmed(deps, deps.config.PUBMED_UPDATES_URL, {
        onLog: (line) => {
          if (deps.config.LOG_LEVEL === "debug" || deps.config.LOG_LEVEL === "info")
            console.info(`[pubmed.sync] ${line}`);
        },
      });
      const failed = result.files.find((f) => f.status === "failed");
      if (failed) console.error(`[pubmed.sync] ${failed.name} failed: ${failed.error}`);
    }),
  };
}

/** With PUBMED_SYNC=daily: every day at 05:00 UTC (NLM posts the day's update files overnight, US time). */
export function pubmedSyncSchedules(enabled: boolean): Schedule[] {
  return enabled
    ? [{ name: "pubmed.sync", cron: "0 5 * * *", run: (deps) => enqueueUnlessWaiting(deps, PUBMED_SYNC) }]
    : [];
}
