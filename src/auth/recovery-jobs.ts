import { z } from "zod";
import type { AppDeps } from "../deps.ts";
import { enqueueJob, handleJob, type JobHandlers, jobKind } from "../jobs/kinds.ts";
import { LIMITS, hit } from "./rate-limit.ts";
import { sendRecoveryEmail } from "./recovery.ts";

// The password-recovery mail goes through the job queue like every e-mail (src/email/jobs.ts says why: the request's
// answer and timing say nothing about whether the address has an account). The job is auth's: it decides whether an
// account exists and applies auth's per-address limit, so it lives here and is registered in src/job-registry.ts.

/**
 * Sends a password recovery mail if the address has an active account. Payload: `{email}`. The kind keeps its first
 * name ("email.…") so that jobs queued before the move still run.
 */
export const RECOVERY_EMAIL_JOB = "email.password-recovery";
export const RECOVERY_EMAIL = jobKind(RECOVERY_EMAIL_JOB, z.object({ email: z.string().min(1) }));

/** Queues a password recovery mail for `email` (the job finds out whether the address has an account). */
export async function enqueueRecoveryEmail(deps: Pick<AppDeps, "jobs">, email: string): Promise<string> {
  return enqueueJob(deps.jobs, RECOVERY_EMAIL, { email }, { maxAttempts: 5 });
}

/** The recovery mail's job handler. */
export function recoveryJobHandlers(): JobHandlers {
  return {
    [RECOVERY_EMAIL_JOB]: handleJob(RECOVERY_EMAIL, async ({ email }, { deps, job }) => {
      // At most a few mails an hour to one inbox. Counted once per job, not per retry; past the limit the request
      // was still answered alike, and the links already sent stay valid, so the owner is never blocked.
      if (job.attempts === 1 && !(await hit(deps.db, LIMITS.recoveryMailsPerAddress, email)).allowed) return;
      await sendRecoveryEmail(deps, email);
    }),
  };
}
