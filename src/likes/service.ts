import type { AppDeps } from "../deps.ts";
import { ApiError } from "../http/errors.ts";
import * as repo from "./repository.ts";
import { UNKNOWN_LIST_CURSOR, type LikedArticle } from "./schemas.ts";

/** The detail of a like of a PMID the index does not hold. */
export const ARTICLE_NOT_FOUND = "Article not found";

/**
 * Likes `pmid` for the user; liking again changes nothing (liked_at stays the first like's, docs/product.md §3).
 * A like that loses to a concurrent unlike of the same article is made again (re-read on conflict), so an article the
 * index holds is never answered 404.
 * @returns the liked article. @throws ApiError 404 when the index does not hold the PMID; 409 when 5 tries in a row
 *   lost to concurrent unlikes.
 */
export async function like(deps: Pick<AppDeps, "db">, userId: string, pmid: number): Promise<LikedArticle> {
  for (let attempt = 1; ; attempt++) {
    // A concurrent like of the same article, committed while this statement waited on it, is not in the statement's
    // snapshot (its insert then does nothing): a second read, in a new snapshot, finds it.
    const liked = (await repo.likeArticle(deps.db, userId, pmid)) ?? (await repo.findLike(deps.db, userId, pmid));
    if (liked) return liked;
    // Nothing came back: either the index does not hold the PMID, or a concurrent unlike removed the like between the
    // two reads. Only the first is a 404; the second is a conflict, and the like is simply made again.
    if (!(await repo.articleExists(deps.db, pmid))) throw new ApiError(404, ARTICLE_NOT_FOUND);
    if (attempt >= LIKE_ATTEMPTS) throw new ApiError(409, LIKE_CONFLICT);
  }
}

/** Tries of a like that keeps losing to concurrent unlikes of the same article by the same user. */
const LIKE_ATTEMPTS = 5;
/** The detail when those tries are used up (the user is liking and unliking as fast as the server answers). */
export const LIKE_CONFLICT = "The article was unliked meanwhile. Please try again.";

/** Removes the like if there is one: unliking what is not liked is not an error (the state asked for holds). */
export async function unlike(deps: Pick<AppDeps, "db">, userId: string, pmid: number): Promise<void> {
  await repo.deleteLike(deps.db, userId, pmid);
}

/**
 * The user's liked articles, newest first: all of them unless `limit` is given; from `skip`, or right `after` the
 * PMID of the previous page's last entry (keyset).
 * @throws ApiError 400 UNKNOWN_LIST_CURSOR when `after` is not a PMID the user likes.
 */
export async function myLikes(
  deps: Pick<AppDeps, "db">,
  userId: string,
  page: { skip?: number; after?: number; limit?: number } = {},
): Promise<LikedArticle[]> {
  const list = await repo.listLikes(deps.db, userId, { skip: page.skip, after: page.after }, page.limit);
  // An empty page is the end of the list, or a cursor that names no like: only then is the cursor looked up.
  if (list.length === 0 && page.after !== undefined && !(await repo.findLike(deps.db, userId, page.after))) {
    throw new ApiError(400, UNKNOWN_LIST_CURSOR);
  }
  return list;
}

/** The PMIDs the user likes, newest like first (what a page needs to show each card's like state). */
export async function myLikedPmids(deps: Pick<AppDeps, "db">, userId: string): Promise<number[]> {
  return repo.likedPmids(deps.db, userId);
}

/** Whether the user likes `pmid`, and since when. */
export async function likeStatus(deps: Pick<AppDeps, "db">, userId: string, pmid: number) {
  const liked = await repo.findLike(deps.db, userId, pmid);
  return { article_pmid: pmid, liked: liked !== undefined, liked_at: liked?.liked_at ?? null };
}
