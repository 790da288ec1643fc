import { sql } from "kysely";
import { z } from "zod";
import { handleJob, type JobHandlers, jobKind } from "../jobs/kinds.ts";
import { enqueueUnlessWaiting, type Schedule } from "../jobs/schedule.ts";

/**
 * Housekeeping of the embedded database. PGlite runs PostgreSQL as one process, without the autovacuum launcher a
 * server has: rows that are updated all the time (the job queue, review statuses, rate-limit counters) would leave
 * their dead versions behind for ever and the tables would grow without bound. A scheduled job vacuums them, so
 * their space is reused, and takes a checkpoint, so the WAL is recycled
 * (docs/decisions/0013-faults-timeouts-and-bounds.md). On a PostgreSQL server (DATABASE_URL) the job does nothing:
 * autovacuum and the checkpointer do this.
 */

export const EMBEDDED_MAINTENANCE_JOB = "maintenance.embedded";
/** The kind with its (empty) payload's schema, src/jobs/kinds.ts. */
export const EMBEDDED_MAINTENANCE = jobKind(EMBEDDED_MAINTENANCE_JOB, z.object({}));

/** The tables whose rows are updated or deleted often. */
export const CHURNING_TABLES = [
  "jobs",
  "literature_reviews",
  "literature_review_articles",
  "rate_limits",
  "revoked_access_tokens",
  "known_login_clients",
  "password_reset_tokens",
  "subscriptions",
  "email_outbox",
  // PubMed on demand: the rate gate's row is updated by every request to NCBI.
  "ncbi_rate_gate",
  "pubmed_fetch_usage",
  "pubmed_search_cache",
] as const;

/** The job's handler. */
export function maintenanceJobHandlers(): JobHandlers {
  return {
    [EMBEDDED_MAINTENANCE_JOB]: handleJob(EMBEDDED_MAINTENANCE, async (_payload, { deps }) => {
      if (deps.config.DATABASE_URL) return;
      // VACUUM cannot run inside a transaction; on PGlite each statement here runs on its own.
      await sql.raw(`VACUUM (ANALYZE) ${CHURNING_TABLES.join(", ")}`).execute(deps.db);
      await sql`CHECKPOINT`.execute(deps.db);
    }),
  };
}

/** Every 15 minutes. */
export function maintenanceSchedules(): Schedule[] {
  return [
    {
      name: "maintenance.embedded",
      cron: "*/15 * * * *",
      run: (deps) => (deps.config.DATABASE_URL ? Promise.resolve() : enqueueUnlessWaiting(deps, EMBEDDED_MAINTENANCE)),
    },
  ];
}
