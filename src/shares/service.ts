import type { AppDeps } from "../deps.ts";
import { ApiError } from "../http/errors.ts";
import { readArticle } from "../articles/repository.ts";
import { LIMITS, hit, peekState, tooManyRequests } from "../auth/rate-limit.ts";
import type { CurrentUser } from "../auth/middleware.ts";
import * as preferences from "../users/preferences.ts";
import * as repo from "./repository.ts";
import { insertInvitation, recipientHash } from "./invitations.ts";
import { SHARE_NOTIFY, type ShareNotifyPayload } from "./notify.ts";
import { enqueueJob } from "../jobs/kinds.ts";
import { UNKNOWN_LIST_CURSOR, type ReceivedShare, type ReceivedShareRef, type ShareSent } from "./schemas.ts";

export { sharedArticleLink } from "./notify.ts";

// Error details of POST /shares/{pmid} (docs/decisions/0016-likes-and-shares.md and
// 0032-share-privacy-and-preferences.md).
// None tells whether an address has an account: a share to an address without one is an invitation, answered alike.
export const SHARE_WITH_SELF = "You cannot share an article with yourself.";
export const ALREADY_SHARED = "You have already shared this article with this user.";
export const SHARE_NOT_FOUND = "Share not found";
export const SHARE_ARTICLE_NOT_FOUND = "Article not found";

/** Thrown inside the share's transaction to undo it (the quota's hit included) when the hour's quota is used up. */
class QuotaExceeded extends Error {
  constructor(readonly answer: ApiError) {
    super("share quota exceeded");
  }
}

/**
 * Shares `pmid` with `recipientEmail` (already trimmed and lower-cased). With an active account there, the share is
 * recorded for it; otherwise an invitation is (a keyed hash of the address, never the address). Either way one job
 * is queued that sends what fits (src/shares/notify.ts), and the answer has the same status and shape, so nothing
 * tells the sharer whether the address has an account (docs/decisions/0032-share-privacy-and-preferences.md).
 *
 * The quota (LIMITS.sharesPerUser an hour) counts shares and invitations recorded, nothing refused: it is checked
 * first, so past it every address gets 429, and counted in the transaction that records, so a 409 costs nothing and
 * concurrent requests cannot slip past it.
 * @throws ApiError 400 sharing with oneself; 429 past the quota; 404 an article the index does not hold;
 *   409 this article already shared with (or invited) this address.
 */
export async function shareArticle(
  deps: AppDeps,
  sharer: CurrentUser,
  pmid: number,
  recipientEmail: string,
): Promise<ShareSent> {
  if (recipientEmail === sharer.email.toLowerCase()) throw new ApiError(400, SHARE_WITH_SELF);
  const quota = await peekState(deps.db, LIMITS.sharesPerUser, sharer.id);
  if (!quota.allowed) throw tooManyRequests(quota);
  const article = await readArticle(deps.db, pmid);
  if (!article) throw new ApiError(404, SHARE_ARTICLE_NOT_FOUND);
  const recipient = await deps.db
    .selectFrom("users")
    .select(["id", "is_active"])
    .where("email", "=", recipientEmail)
    .executeTakeFirst();
  let sent: { id: string; at: Date | string } | undefined;
  try {
    sent = await deps.db.transaction().execute(async (trx) => {
      let row: { id: string; at: Date | string } | undefined;
      let payload: ShareNotifyPayload | undefined;
      if (recipient?.is_active) {
        const share = await repo.insertShare(trx, sharer.id, recipient.id, pmid);
        row = share && { id: share.id, at: share.shared_at };
        payload = share && { share_id: share.id };
      } else {
        const invitation = await insertInvitation(trx, sharer.id, recipientHash(deps.secretKey, recipientEmail), pmid);
        row = invitation && { id: invitation.id, at: invitation.invited_at };
        payload = invitation && { invitation_id: invitation.id, to: recipientEmail };
      }
      if (!row || !payload) return undefined;
      const state = await hit(trx, LIMITS.sharesPerUser, sharer.id);
      if (!state.allowed) throw new QuotaExceeded(tooManyRequests(state));
      await enqueueJob(deps.jobs, SHARE_NOTIFY, payload, { db: trx, maxAttempts: 5 });
      return row;
    });
  } catch (err) {
    if (err instanceof QuotaExceeded) throw err.answer;
    throw err;
  }
  if (!sent) throw new ApiError(409, ALREADY_SHARED);
  deps.jobs.wake?.();
  const sharedAt = new Date(sent.at).toISOString();
  return { id: sent.id, article_pmid: pmid, recipient_email: recipientEmail, shared_at: sharedAt };
}

/** Whether the user is e-mailed when someone shares an article with them. */
export async function shareEmailSetting(deps: Pick<AppDeps, "db">, userId: string): Promise<boolean> {
  return preferences.shareEmailsOf(deps.db, userId);
}

/** Turns share e-mails on or off for `userId` (settings, or the e-mail's one-click unsubscribe). */
export async function setShareEmails(deps: Pick<AppDeps, "db">, userId: string, on: boolean): Promise<void> {
  await preferences.setShareEmails(deps.db, userId, on);
}

/**
 * The caller's received shares, newest first: all of them unless `limit` is given; from `skip`, or right `after` the
 * id of the previous page's last share (keyset).
 * @throws ApiError 400 UNKNOWN_LIST_CURSOR when `after` is not one of the caller's received shares.
 */
export async function receivedShares(
  deps: Pick<AppDeps, "db">,
  userId: string,
  page: { skip?: number; after?: string; limit?: number } = {},
): Promise<ReceivedShare[]> {
  const list = await repo.listReceived(deps.db, userId, { skip: page.skip, after: page.after }, page.limit);
  // An empty page is the end of the list, or a cursor that names no share of the caller: only then is it looked up.
  if (list.length === 0 && page.after !== undefined && !(await repo.hasReceived(deps.db, userId, page.after))) {
    throw new ApiError(400, UNKNOWN_LIST_CURSOR);
  }
  return list;
}

/** The caller's received shares, newest first, as `{ id, article_pmid }` only (the dashboard's count and pages). */
export async function receivedShareRefs(deps: Pick<AppDeps, "db">, userId: string): Promise<ReceivedShareRef[]> {
  return repo.listReceivedRefs(deps.db, userId);
}

/**
 * Deletes one of the caller's received shares. @throws ApiError 404 when it is not one (someone else's, or unknown).
 */
export async function deleteReceivedShare(deps: Pick<AppDeps, "db">, userId: string, shareId: string): Promise<void> {
  if (!repo.isShareId(shareId) || !(await repo.deleteReceived(deps.db, userId, shareId)))
    throw new ApiError(404, SHARE_NOT_FOUND);
}
