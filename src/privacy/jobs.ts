import { z } from "zod";
import { handleJob, type JobHandlers, jobKind } from "../jobs/kinds.ts";
import { enqueueUnlessWaiting, type Schedule } from "../jobs/schedule.ts";
import { DATA_EXPORT, DATA_EXPORT_JOB, produceDataExport, pruneDataExports } from "./data-export.ts";
import { applyRetention } from "./retention.ts";

/** The daily retention run (retention.ts), on the durable queue so that one process runs it once. */
export const RETENTION_JOB = "privacy.retention";
/** The kind with its (empty) payload's schema, src/jobs/kinds.ts. */
export const RETENTION = jobKind(RETENTION_JOB, z.object({}));

/** The privacy jobs: the daily retention run and the production of "Download my data" files. */
export function privacyJobHandlers(): JobHandlers {
  return {
    [RETENTION_JOB]: handleJob(RETENTION, async (_payload, { deps }) => {
      const now = new Date();
      const report = await applyRetention(deps, now);
      await pruneDataExports(deps.db, now);
      if (report.notices.length + report.deletions.length + report.archivesDeleted > 0) {
        console.info(
          `retention: ${report.notices.length} notice(s) queued, ${report.deletions.length} inactive account(s) deleted, ${report.archivesDeleted} archive(s) deleted`,
        );
      }
    }),
    [DATA_EXPORT_JOB]: handleJob(
      DATA_EXPORT,
      async (payload, { deps }) => produceDataExport(deps, payload.exportId, new Date()),
      // The owner sees "expired" rather than "being prepared" forever, and may ask again.
      async (payload, _reason, { deps }) => {
        await deps.db
          .updateTable("data_exports")
          .set({ status: "failed" })
          .where("id", "=", payload.exportId)
          .where("status", "=", "queued")
          .execute();
      },
    ),
  };
}

/** Every day at 04:15 UTC, where jobs run. */
export function privacySchedules(): Schedule[] {
  return [{ name: RETENTION_JOB, cron: "15 4 * * *", run: (deps) => enqueueUnlessWaiting(deps, RETENTION) }];
}
