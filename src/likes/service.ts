import type { AppDeps } from "../deps.ts";
import { ApiError } from "../http/errors.ts";
import * as repo from "./repository.ts";
import type { LikedArticle } from "./schemas.ts";

/** The detail of a like of a PMID the index does not hold. */
export const ARTICLE_NOT_FOUND = "Article not found";

/**
 * Likes `pmid` for the user; liking again changes nothing (liked_at stays the first like's, spec §3).
 * @returns the liked article. @throws ApiError 404 when the index does not hold the PMID.
 */
export async function like(deps: Pick<AppDeps, "db">, userId: string, pmid: number): Promise<LikedArticle> {
  // A concurrent like of the same article, committed while this statement waited on it, is not in the statement's
  // snapshot (its insert then does nothing): a second read, in a new snapshot, finds it.
  const liked = (await repo.likeArticle(deps.db, userId, pmid)) ?? (await repo.findLike(deps.db, userId, pmid));
  if (!liked) throw new ApiError(404, ARTICLE_NOT_FOUND);
  return liked;
}

/** Removes the like if there is one: unliking what is not liked is not an error (the state asked for holds). */
export async function unlike(deps: Pick<AppDeps, "db">, userId: string, pmid: number): Promise<void> {
  await repo.deleteLike(deps.db, userId, pmid);
}

/** The user's liked articles, newest first; all of them unless `limit` is given. */
export async function myLikes(deps: Pick<AppDeps, "db">, userId: string, skip?: number, limit?: number): Promise<LikedArticle[]> {
  return repo.listLikes(deps.db, userId, skip, limit);
}

/** Whether the user likes `pmid`, and since when. */
export async function likeStatus(deps: Pick<AppDeps, "db">, userId: string, pmid: number) {
  const liked = await repo.findLike(deps.db, userId, pmid);
  return { article_pmid: pmid, liked: liked !== undefined, liked_at: liked?.liked_at ?? null };
}
