import type { AppDeps } from "../deps.ts";
import { findUserById } from "../users/repository.ts";
import { z } from "zod";
import { enqueueJob, handleJob, type JobHandlers, type JobPayload, jobKind } from "../jobs/kinds.ts";
import { enqueueUnlessWaiting, type Schedule } from "../jobs/schedule.ts";
import { sendEmail } from "../email/service.ts";
import * as repo from "./repository.ts";
import { trialEndedEmail, trialEndingEmail } from "./emails.ts";

/**
 * The end of the free trial, in the background (ADR 0018). Access itself never waits for this: the access rule
 * (service.ts) closes at trial_ends_at whether or not anything below has run. What runs here:
 * - the TRIAL_SWEEP job marks ended trials trial_expired and queues, once per trial, the e-mail two days before
 *   the end and the e-mail at the end (claiming a notice and queueing its e-mail job are one transaction);
 * - the TRIAL_EMAIL job sends one of those e-mails (retried by the queue if the mail server fails);
 * - the schedule enqueues a sweep every minute in each process that runs jobs; `npm run subscription --
 *   expire-trials` runs the same sweep from an external cron.
 * Stripe webhook event records older than 30 days are pruned by a daily job.
 */

export const TRIAL_SWEEP_JOB = "subscriptions.trial-sweep";
export const TRIAL_EMAIL_JOB = "subscriptions.trial-email";
export const PRUNE_EVENTS_JOB = "subscriptions.prune-stripe-events";
/** The kinds with their payloads' schemas (src/jobs/kinds.ts): the sweeps take none, a trial e-mail its notice. */
export const TRIAL_SWEEP = jobKind(TRIAL_SWEEP_JOB, z.object({}));
export const TRIAL_EMAIL = jobKind(
  TRIAL_EMAIL_JOB,
  z.object({ userId: z.string().min(1), kind: z.enum(["ending", "ended"]), trialEndsAt: z.iso.datetime() }),
);
export const PRUNE_EVENTS = jobKind(PRUNE_EVENTS_JOB, z.object({}));

/** The reminder goes this long before the trial ends. */
export const TRIAL_REMINDER_BEFORE_MS = 2 * 24 * 60 * 60 * 1000;
/** Stripe redelivers an event for up to three days; records of applied events are kept ten times longer. */
export const STRIPE_EVENT_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

type TrialEmailKind = JobPayload<typeof TRIAL_EMAIL>["kind"];

/** What one sweep did. */
export interface SweepResult {
  expired: number;
  reminders: number;
  endNotices: number;
}

/**
 * One pass over the trials, at `now`, in one transaction: ended trials become trial_expired; trials ending within
 * two days get their reminder queued, ended ones their notice, each at most once ever (the claim is a column of
 * the row). Accounts that are deactivated are claimed but not e-mailed. Safe to run from several processes at
 * once: a trial claimed by one is invisible to the others.
 */
export async function sweepTrials(deps: Pick<AppDeps, "db" | "jobs">, now: Date = new Date()): Promise<SweepResult> {
  const result = await deps.db.transaction().execute(async (trx) => {
    const expired = await repo.expireDueTrials(trx, now);
    const reminders = await repo.claimTrialReminders(trx, now, TRIAL_REMINDER_BEFORE_MS);
    const ended = await repo.claimTrialEndNotices(trx, now);
    const queue = async (kind: TrialEmailKind, notices: repo.TrialNotice[]) => {
      for (const n of notices.filter((n) => n.is_active)) {
        await enqueueJob(
          deps.jobs,
          TRIAL_EMAIL,
          { userId: n.user_id, kind, trialEndsAt: new Date(n.trial_ends_at).toISOString() },
          { db: trx },
        );
      }
    };
    await queue("ending", reminders);
    await queue("ended", ended);
    return { expired, reminders: reminders.length, endNotices: ended.length };
  });
  if (result.reminders + result.endNotices > 0) deps.jobs.wake?.();
  return result;
}

/** Sends one trial e-mail (a TRIAL_EMAIL job). An account deleted or deactivated meanwhile gets nothing. */
export async function sendTrialEmail(
  deps: Pick<AppDeps, "config" | "db">,
  payload: JobPayload<typeof TRIAL_EMAIL>,
): Promise<void> {
  const user = await findUserById(deps.db, payload.userId);
  if (!user?.is_active) return;
  const origin = (deps.config.PUBLIC_URL ?? `http://localhost:${deps.config.PORT}`).replace(/\/+$/, "");
  const options = {
    to: user.email,
    name: user.full_name,
    trialEndsAt: new Date(payload.trialEndsAt),
    plansUrl: `${origin}/settings?tab=subscription`,
    supportEmail: deps.config.SUPPORT_EMAIL,
  };
  await sendEmail(deps, payload.kind === "ending" ? trialEndingEmail(options) : trialEndedEmail(options));
}

/** The job handlers of this file, for src/job-registry.ts. */
export function subscriptionJobHandlers(): JobHandlers {
  return {
    [TRIAL_SWEEP_JOB]: handleJob(TRIAL_SWEEP, async (_payload, { deps }) => void (await sweepTrials(deps))),
    [TRIAL_EMAIL_JOB]: handleJob(TRIAL_EMAIL, async (payload, { deps }) => sendTrialEmail(deps, payload)),
    [PRUNE_EVENTS_JOB]: handleJob(
      PRUNE_EVENTS,
      async (_payload, { deps }) =>
        void (await repo.pruneStripeEvents(deps.db, new Date(Date.now() - STRIPE_EVENT_RETENTION_MS))),
    ),
  };
}

/** The schedules of this file, for src/job-registry.ts. */
export function subscriptionSchedules(): Schedule[] {
  return [
    // Every minute: a trial's e-mail and its trial_expired status follow its end within about a minute.
    { name: "subscriptions.trials", cron: "* * * * *", run: (deps) => enqueueUnlessWaiting(deps, TRIAL_SWEEP) },
    {
      name: "subscriptions.prune-stripe-events",
      cron: "17 3 * * *",
      run: (deps) => enqueueUnlessWaiting(deps, PRUNE_EVENTS),
    },
  ];
}
