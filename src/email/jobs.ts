import { z } from "zod";
import type { AppDeps } from "../deps.ts";
import type { Database } from "../db/database.ts";
import { enqueueJob, handleJob, type JobHandlers, jobKind } from "../jobs/kinds.ts";
import { sendEmail, type EmailMessage } from "./service.ts";

/**
 * E-mail sent from the durable job queue rather than from the request: the request only stores a job (one INSERT,
 * the same work whoever the recipient), so its answer and timing say nothing about the recipient, a crash or an
 * SMTP outage does not lose the message (the job is retried with backoff), and the web process does not wait on the
 * mail server.
 */

/** Sends a prepared message. Payload: the EmailMessage. */
export const SEND_EMAIL_JOB = "email.send";

/** The kinds with their payloads' schemas (src/jobs/kinds.ts). A message's fields as EmailMessage has them. */
export const SEND_EMAIL = jobKind(
  SEND_EMAIL_JOB,
  z.object({
    to: z.string().min(1),
    subject: z.string(),
    html: z.string(),
    text: z.string(),
    headers: z.record(z.string(), z.string()).optional(),
  }) satisfies z.ZodType<EmailMessage>,
);

/**
 * Queues `message` for sending. Pass `db` to enqueue inside the caller's transaction (then wake the queue after it
 * commits).
 */
export async function enqueueEmail(
  deps: Pick<AppDeps, "jobs">,
  message: EmailMessage,
  opts: { db?: Database } = {},
): Promise<string> {
  return enqueueJob(deps.jobs, SEND_EMAIL, message, { db: opts.db, maxAttempts: 5 });
}

/** The e-mail job handlers. */
export function emailJobHandlers(): JobHandlers {
  return {
    [SEND_EMAIL_JOB]: handleJob(SEND_EMAIL, async (payload, { deps }) => {
      await sendEmail(deps, payload);
    }),
  };
}
