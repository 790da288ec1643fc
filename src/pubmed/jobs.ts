import { sql } from "kysely";
import { z } from "zod";
import { handleJob, type JobHandlers, jobKind } from "../jobs/kinds.ts";
import { enqueueUnlessWaiting, type Schedule } from "../jobs/schedule.ts";
import { pruneSearchCache } from "./search-cache.ts";
import { pruneRateGateKeys } from "../../search/pubmed/rate-gate.ts";

/**
 * Housekeeping of PubMed on demand (docs/decisions/0026-pubmed-on-demand.md): esearch answers are kept for reuse a day
 * (reviews) or a week (the weekly run, keyed by its ISO week), so answers older than SEARCH_CACHE_KEEP_MS are of no
 * further use; the per-user daily fetch counts matter only for their day, and are kept a month for an operator who
 * looks at use; a user's row of the rate gate (her pending slot, search/pubmed/rate-gate.ts) matters only until that
 * slot has passed.
 */

export const PUBMED_PRUNE_JOB = "pubmed.prune";
/** The kind with its (empty) payload's schema, src/jobs/kinds.ts. */
export const PUBMED_PRUNE = jobKind(PUBMED_PRUNE_JOB, z.object({}));
/** The longest any caller reuses an esearch answer (the weekly run's week), with a day's margin. */
export const SEARCH_CACHE_KEEP_MS = 8 * 24 * 60 * 60 * 1000;
/** Days of per-user fetch counts kept. */
export const USAGE_KEEP_DAYS = 31;

/** The job's handler: removes stale cached answers, old daily counts and the rate gate's past per-user slots. */
export function pubmedJobHandlers(): JobHandlers {
  return {
    [PUBMED_PRUNE_JOB]: handleJob(PUBMED_PRUNE, async (_payload, { deps }) => {
      await pruneSearchCache(deps.db, SEARCH_CACHE_KEEP_MS);
      await sql`DELETE FROM pubmed_fetch_usage WHERE day < (now() AT TIME ZONE 'UTC')::date - ${USAGE_KEEP_DAYS}::int`.execute(
        deps.db,
      );
      await pruneRateGateKeys(deps.db);
    }),
  };
}

/** Every day at 03:30 UTC, where jobs run. */
export function pubmedSchedules(): Schedule[] {
  return [{ name: PUBMED_PRUNE_JOB, cron: "30 3 * * *", run: (deps) => enqueueUnlessWaiting(deps, PUBMED_PRUNE) }];
}
