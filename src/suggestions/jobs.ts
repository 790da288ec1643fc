import { z } from "zod";
import type { AppDeps } from "../deps.ts";
import { enqueueJob, handleJob, type JobHandlers, type JobKind, jobKind, type PayloadSchema } from "../jobs/kinds.ts";
import { enqueueUnlessWaiting, type Schedule } from "../jobs/schedule.ts";
import { refreshMeshStats } from "./disruption.ts";
import { refreshCdIndex } from "./cd-index.ts";
import { computeWeeklySuggestions } from "./service.ts";
import { readProfileLikes, readSuggestionUser, subscribedUsers, usersDueForWeek } from "./repository.ts";
import { pruneSourceCache, rankedSources, SOURCE_CACHE_DAYS } from "./source-cache.ts";
import { buildProfile } from "./profile.ts";
import { isoWeek } from "./week.ts";
import { isoWeekField, USER, USER_JOB } from "./queueing.ts";

/**
 * The weekly suggestions on the durable job queue (issue 11): the schedule (Mondays 06:00 UTC) or
 * `npm run suggestions:weekly` enqueues one WEEKLY_RUN_JOB; it refreshes the MeSH statistics once and enqueues one
 * USER_JOB per user due that ISO week. Each user's job is idempotent (a week with a batch is left alone), so a rerun,
 * a crash midway or two workers change nothing and send no digest twice.
 */
export const WEEKLY_RUN_JOB = "suggestions.weekly-run";
/**
 * The daily preparation (docs/decisions/0025-suggestion-source-cache.md): one PREPARE_USER_JOB per subscriber, each
 * computing the answers of the user's profile sources that are missing or older than PREPARE_AFTER_DAYS, so that the
 * weekly run reads them all. Most days a user's sources are cached already (their interests and likes have not
 * changed), and the job asks the index nothing.
 */
export const PREPARE_RUN_JOB = "suggestions.prepare-run";
/** One user's source answers. Payload `{userId}`. */
export const PREPARE_USER_JOB = "suggestions.prepare-user";
/** The kinds with their payloads' schemas (src/jobs/kinds.ts). The weekly run is for this week unless `week` says. */
export const WEEKLY_RUN = jobKind(WEEKLY_RUN_JOB, z.object({ week: isoWeekField.optional() }));
export const PREPARE_RUN = jobKind(PREPARE_RUN_JOB, z.object({}));
export const PREPARE_USER = jobKind(PREPARE_USER_JOB, z.object({ userId: z.string().min(1) }));
/**
 * Answers this old are computed again by the preparation: a week before they expire, so the weekly run never meets an
 * expired one.
 */
export const PREPARE_AFTER_DAYS = SOURCE_CACHE_DAYS - 7;

/** Users' jobs enqueued per statement batch by the weekly run and the preparation. */
const ENQUEUE_BATCH = 500;

/** Queues one `kind` job per user, ENQUEUE_BATCH per transaction, waking the workers after each. */
async function enqueuePerUser<S extends PayloadSchema>(
  deps: AppDeps,
  users: readonly string[],
  kind: JobKind<S>,
  payload: (userId: string) => z.input<S>,
  maxAttempts: number,
): Promise<void> {
  for (let i = 0; i < users.length; i += ENQUEUE_BATCH) {
    await deps.db.transaction().execute(async (trx) => {
      for (const userId of users.slice(i, i + ENQUEUE_BATCH))
        await enqueueJob(deps.jobs, kind, payload(userId), { fairnessKey: userId, maxAttempts, db: trx });
    });
    deps.jobs.wake?.();
  }
}

/** The job handlers of suggestions. */
export function suggestionJobHandlers(): JobHandlers {
  return {
    [WEEKLY_RUN_JOB]: handleJob(WEEKLY_RUN, async (payload, { deps }) => {
      const week = payload.week ?? isoWeek(new Date());
      await refreshMeshStats(deps.db);
      // The citation signal is an addition: if its refresh fails, last week's CD indexes stay (the statement runs in
      // one transaction) and the users' weeks still go out, with the MeSH signal current.
      await refreshCdIndex(deps.db).catch((err) =>
        console.error(
          `weekly suggestions: the CD index refresh failed; last week's is kept: ${err instanceof Error ? err.message : err}`,
        ),
      );
      await pruneSourceCache(deps);
      await enqueuePerUser(deps, await usersDueForWeek(deps.db, week), USER, (userId) => ({ userId, week }), 5);
    }),
    [USER_JOB]: handleJob(USER, async (payload, { deps }) => {
      // A recomputation (edited interests) refreshes the batch the page shows. It mails the week's digest only when
      // none went out for that week (the batch's digest_queued_at): a subscriber whose first batch comes from setting
      // her interests gets that week's digest once, and an edit after it does not mail a second.
      await computeWeeklySuggestions(deps, payload.userId, { week: payload.week, replace: payload.replace === true });
    }),
    [PREPARE_RUN_JOB]: handleJob(PREPARE_RUN, async (_payload, { deps }) => {
      await pruneSourceCache(deps);
      await enqueuePerUser(deps, await subscribedUsers(deps.db), PREPARE_USER, (userId) => ({ userId }), 3);
    }),
    [PREPARE_USER_JOB]: handleJob(PREPARE_USER, async ({ userId }, { deps }) => {
      const now = new Date();
      const [user, likes] = await Promise.all([readSuggestionUser(deps.db, userId), readProfileLikes(deps.db, userId)]);
      if (!user?.is_active) return;
      const texts = buildProfile(user.description, likes, now).sources.map((s) => s.text);
      await rankedSources(deps, texts, now, { maxAgeDays: PREPARE_AFTER_DAYS });
    }),
  };
}

/** Mondays at 06:00 UTC: the week's run; every day at 02:00 UTC: the preparation of the sources' answers. */
export function suggestionSchedules(): Schedule[] {
  return [
    { name: "suggestions.weekly", cron: "0 6 * * 1", run: (deps) => enqueueUnlessWaiting(deps, WEEKLY_RUN) },
    { name: "suggestions.prepare", cron: "0 2 * * *", run: (deps) => enqueueUnlessWaiting(deps, PREPARE_RUN) },
  ];
}
