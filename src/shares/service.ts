import type { AppDeps } from "../deps.ts";
import { ApiError } from "../http/errors.ts";
import { readArticle } from "../articles/repository.ts";
import { enqueueEmail } from "../email/jobs.ts";
import { articleSharedEmail } from "../email/templates.ts";
import { LIMITS, assertAllowed, hit } from "../auth/rate-limit.ts";
import type { CurrentUser } from "../auth/middleware.ts";
import * as repo from "./repository.ts";
import type { ReceivedShare, ShareSent } from "./schemas.ts";

// Error details of POST /shares/{pmid} (docs/decisions/0016-likes-and-shares.md). None is idempotent-success: each
// tells the sharer something they would want to know, and a repeated share must not e-mail the colleague twice.
export const SHARE_WITH_SELF = "You cannot share an article with yourself.";
export const NO_SUCH_RECIPIENT = "No user found with this email address.";
export const ALREADY_SHARED = "You have already shared this article with this user.";
export const SHARE_NOT_FOUND = "Share not found";
export const SHARE_ARTICLE_NOT_FOUND = "Article not found";

/** The address of the page that opens a shared article: PUBLIC_URL (or the local server) + /dashboard?tab=shares&article=PMID. */
export function sharedArticleLink(config: AppDeps["config"], pmid: number): string {
  const origin = (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/+$/, "");
  return `${origin}/dashboard?tab=shares&article=${pmid}`;
}

/**
 * Shares `pmid` with the active account `recipientEmail` (already trimmed and lower-cased) and queues the e-mail
 * telling them, in one transaction: a share is never recorded without its message, nor a message sent for a share
 * that was not recorded.
 * @throws ApiError 400 sharing with oneself; 404 unknown article or no active account with that address;
 *   409 already shared with them; 429 past LIMITS.sharesPerUser.
 */
export async function shareArticle(deps: AppDeps, sharer: CurrentUser, pmid: number, recipientEmail: string): Promise<ShareSent> {
  if (recipientEmail === sharer.email.toLowerCase()) throw new ApiError(400, SHARE_WITH_SELF);
  const article = await readArticle(deps.db, pmid);
  if (!article) throw new ApiError(404, SHARE_ARTICLE_NOT_FOUND);
  const recipient = await deps.db
    .selectFrom("users")
    .select(["id", "email"])
    .where("email", "=", recipientEmail)
    .where("is_active", "=", true)
    .executeTakeFirst();
  if (!recipient) throw new ApiError(404, NO_SUCH_RECIPIENT);
  // Counted only for shares that would go out, so typing mistakes do not use up the hour.
  assertAllowed(await hit(deps.db, LIMITS.sharesPerUser, sharer.id));
  const message = articleSharedEmail({
    to: recipient.email,
    sharerName: sharer.full_name || sharer.email,
    articleTitle: article.title || `PubMed article ${pmid}`,
    pmid,
    link: sharedArticleLink(deps.config, pmid),
    supportEmail: deps.config.SUPPORT_EMAIL,
  });
  const share = await deps.db.transaction().execute(async (trx) => {
    const row = await repo.insertShare(trx, sharer.id, recipient.id, pmid);
    if (!row) return undefined;
    await enqueueEmail(deps, message, { db: trx });
    return row;
  });
  if (!share) throw new ApiError(409, ALREADY_SHARED);
  deps.jobs.wake?.();
  return { id: share.id, article_pmid: share.article_pmid, recipient_email: recipient.email, shared_at: new Date(share.shared_at).toISOString() };
}

/** The caller's received shares, newest first; all of them unless `limit` is given. */
export async function receivedShares(deps: Pick<AppDeps, "db">, userId: string, skip?: number, limit?: number): Promise<ReceivedShare[]> {
  return repo.listReceived(deps.db, userId, skip, limit);
}

/** Deletes one of the caller's received shares. @throws ApiError 404 when it is not one (someone else's, or unknown). */
export async function deleteReceivedShare(deps: Pick<AppDeps, "db">, userId: string, shareId: string): Promise<void> {
  if (!repo.isShareId(shareId) || !(await repo.deleteReceived(deps.db, userId, shareId))) throw new ApiError(404, SHARE_NOT_FOUND);
}
