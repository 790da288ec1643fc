import type { AppDeps } from "../deps.ts";
import type { Database } from "../db/database.ts";
import type { JobHandlers } from "../jobs/worker.ts";
import { sendEmail, type EmailMessage } from "./service.ts";
import { sendRecoveryEmail } from "../auth/recovery.ts";
import { LIMITS, hit } from "../auth/rate-limit.ts";

/**
 * E-mail sent from the durable job queue rather than from the request: the request only stores a job (one INSERT,
 * the same work whoever the recipient), so its answer and timing say nothing about the recipient, a crash or an
 * SMTP outage does not lose the message (the job is retried with backoff), and the web process does not wait on the
 * mail server.
 */

/** Sends a prepared message. Payload: the EmailMessage. */
export const SEND_EMAIL_JOB = "email.send";
/** Sends a password recovery mail if the address has an active account. Payload: `{email}`. */
export const RECOVERY_EMAIL_JOB = "email.password-recovery";

/** Queues `message` for sending. Pass `db` to enqueue inside the caller's transaction (then wake the queue after it commits). */
export async function enqueueEmail(
  deps: Pick<AppDeps, "jobs">,
  message: EmailMessage,
  opts: { db?: Database } = {},
): Promise<string> {
  return deps.jobs.enqueue(SEND_EMAIL_JOB, { ...message }, { db: opts.db, maxAttempts: 5 });
}

/** Queues a password recovery mail for `email` (the job finds out whether the address has an account). */
export async function enqueueRecoveryEmail(deps: Pick<AppDeps, "jobs">, email: string): Promise<string> {
  return deps.jobs.enqueue(RECOVERY_EMAIL_JOB, { email }, { maxAttempts: 5 });
}

/** The e-mail job handlers. */
export function emailJobHandlers(): JobHandlers {
  return {
    [SEND_EMAIL_JOB]: async (payload, { deps }) => {
      await sendEmail(deps, payload as unknown as EmailMessage);
    },
    [RECOVERY_EMAIL_JOB]: async (payload, { deps, job }) => {
      const email = String(payload.email);
      // At most a few mails an hour to one inbox. Counted once per job, not per retry; past the limit the request
      // was still answered alike, and the links already sent stay valid, so the owner is never blocked.
      if (job.attempts === 1 && !(await hit(deps.db, LIMITS.recoveryMailsPerAddress, email)).allowed) return;
      await sendRecoveryEmail(deps, email);
    },
  };
}
