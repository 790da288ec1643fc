import { z } from "zod";
import type { AppDeps } from "../deps.ts";
import { handleJob, type JobHandlers, type JobPayload, jobKind } from "../jobs/kinds.ts";
import { sendEmail } from "../email/service.ts";
import { articleSharedEmail, shareInvitationEmail } from "./emails.ts";
import { signUnsubscribeToken } from "../email/list-unsubscribe.ts";
import { hit, type RateLimit } from "../auth/rate-limit.ts";
import { purgeOldInvitations, readInvitation, recipientHash } from "./invitations.ts";

/**
 * The e-mail of a share, sent from the durable job queue. The request stores one job whoever the recipient is (an
 * account or not), so its answer and its work say nothing about the address; the worker decides what goes out:
 * - a share with an account: the notification, unless the recipient turned share e-mails off (read when sending, so
 *   an opt-out made meanwhile holds), with RFC 8058 one-click unsubscribe headers;
 * - an invitation: the invitation e-mail, unless an account uses the address by then, and at most
 *   INVITATIONS_PER_ADDRESS a day to one address from all sharers together (silently: the sharers were answered).
 */

/** Sends a share's notification or an invitation. Payload: `{share_id}` or `{invitation_id, to}`. */
export const SHARE_NOTIFY_JOB = "shares.notify";
/** SHARE_NOTIFY_JOB with its payload's schema (src/jobs/kinds.ts): a share with an account, or an invitation. */
export const SHARE_NOTIFY = jobKind(
  SHARE_NOTIFY_JOB,
  z.union([
    z.object({ share_id: z.string().min(1) }),
    z.object({ invitation_id: z.string().min(1), to: z.string().min(1) }),
  ]),
);
/** What service.ts enqueues. */
export type ShareNotifyPayload = JobPayload<typeof SHARE_NOTIFY>;

/** Invitation e-mails to one address a day, whoever sends them: no stranger's inbox is filled through the product. */
export const INVITATIONS_PER_ADDRESS: RateLimit = {
  name: "share-invitation-address",
  max: 3,
  windowSeconds: 24 * 60 * 60,
};

/** The site's origin for links in e-mails: PUBLIC_URL, else the local server. */
function origin(config: AppDeps["config"]): string {
  return (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/+$/, "");
}

/** The address of the page that opens a shared article: the origin + /dashboard?tab=shares&article=PMID. */
export function sharedArticleLink(config: AppDeps["config"], pmid: number): string {
  return `${origin(config)}/dashboard?tab=shares&article=${pmid}`;
}

/** The signed one-click link that turns `userId`'s share e-mails off (/unsubscribe/shares, no login). */
export async function shareUnsubscribeLink(
  deps: Pick<AppDeps, "config" | "secretKey">,
  userId: string,
): Promise<string> {
  const token = await signUnsubscribeToken(deps.secretKey, userId, "share-email-unsubscribe");
  return `${origin(deps.config)}/unsubscribe/shares?token=${encodeURIComponent(token)}`;
}

async function notifyShare(deps: AppDeps, shareId: string): Promise<void> {
  const row = await deps.db
    .selectFrom("shares as s")
    .innerJoin("users as r", "r.id", "s.recipient_id")
    .leftJoin("users as sh", "sh.id", "s.sharer_id")
    .leftJoin("articles as a", "a.pmid", "s.article_pmid")
    .select(["s.article_pmid", "r.id as recipient_id", "r.email", "r.share_emails", "r.is_active"])
    .select(["sh.full_name", "sh.email as sharer_email", "a.title"])
    .where("s.id", "=", shareId)
    .executeTakeFirst();
  // Deleted by the recipient before it went out, or the recipient turned share e-mails off: nothing to send.
  if (!row?.share_emails || !row.is_active) return;
  await sendEmail(
    deps,
    articleSharedEmail({
      to: row.email,
      sharerName: row.full_name || row.sharer_email || "Unknown User",
      articleTitle: row.title || `PubMed article ${row.article_pmid}`,
      pmid: row.article_pmid,
      link: sharedArticleLink(deps.config, row.article_pmid),
      supportEmail: deps.config.SUPPORT_EMAIL,
      unsubscribeUrl: await shareUnsubscribeLink(deps, row.recipient_id),
    }),
  );
}

async function sendInvitation(deps: AppDeps, invitationId: string, to: string, firstAttempt: boolean): Promise<void> {
  const invitation = await readInvitation(deps.db, invitationId);
  if (!invitation) return; // the sharer deleted their account meanwhile
  const account = await deps.db.selectFrom("users").select("id").where("email", "=", to).executeTakeFirst();
  if (account) return; // signed up meanwhile, or an inactive account: an invitation to join would mislead
  // Counted once per job, not per retry, and keyed by the address's hash, not the address.
  if (firstAttempt && !(await hit(deps.db, INVITATIONS_PER_ADDRESS, recipientHash(deps.secretKey, to))).allowed) return;
  await sendEmail(
    deps,
    shareInvitationEmail({
      to,
      sharerName: invitation.sharer_full_name || invitation.sharer_email,
      articleTitle: invitation.title || `PubMed article ${invitation.article_pmid}`,
      pmid: invitation.article_pmid,
      signupLink: `${origin(deps.config)}/signup`,
      supportEmail: deps.config.SUPPORT_EMAIL,
    }),
  );
  await purgeOldInvitations(deps.db);
}

/** The share e-mail job handlers. */
export function shareJobHandlers(): JobHandlers {
  return {
    [SHARE_NOTIFY_JOB]: handleJob(SHARE_NOTIFY, async (payload, { deps, job }) => {
      if ("share_id" in payload) return notifyShare(deps, payload.share_id);
      return sendInvitation(deps, payload.invitation_id, payload.to, job.attempts === 1);
    }),
  };
}
