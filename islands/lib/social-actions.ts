/**
 * The changes to likes and received shares (docs/product.md §3 Likes and shares): like/unlike and deleting a received
 * share, optimistic, with the rules in ./social.ts's module comment. Apart from ./social.ts so that a page's first
 * paint, which only reads the lists, does not load them: the cards that offer the buttons import this module, and
 * the dashboard's Delete and Undo import it on use (docs/decisions/0043-first-paint-javascript.md).
 */
import { useSyncExternalStore } from "react";
import { useQueryClient, type QueryClient } from "@tanstack/react-query";
import { api, ApiRequestError } from "./api.ts";
import { showError } from "./toast.tsx";
import type { Article } from "../article-card/types.ts";
import { likedSet, socialKeys, useLikedPmids, type ReceivedShare, type ReceivedShareRef } from "./social.ts";

export const LIKE_FAILED = "Failed to like article. Please try again later.";
export const UNLIKE_FAILED = "Failed to unlike article. Please try again later.";
export const PMID_MISSING = "Article PMID is missing.";
export const DELETE_SHARE_FAILED = "Failed to delete share.";

// PMIDs whose like or unlike call is running, shared by every card of the page; subscribers re-render on change.
const pending = new Set<string>();
const pendingListeners = new Set<() => void>();
function setPending(pmid: string, on: boolean): void {
  if (on) pending.add(pmid);
  else pending.delete(pmid);
  for (const l of pendingListeners) l();
}
function subscribePending(listener: () => void): () => void {
  pendingListeners.add(listener);
  return () => pendingListeners.delete(listener);
}

/** Whether a like or unlike call for `pmid` is running (a toggle meanwhile is ignored). */
export function likePending(pmid: string): boolean {
  return pending.has(pmid);
}

/**
 * Toggles the like of `article`: optimistic, then POST or DELETE /likes/{pmid}; see the module comment.
 * Ignored while a call for the same PMID runs. No PMID: the error toast 'Article PMID is missing.'.
 */
export async function toggleLike(client: QueryClient, article: Article): Promise<void> {
  const pmid = article.pmid === undefined || article.pmid === null ? "" : String(article.pmid).trim();
  if (!pmid) {
    showError(PMID_MISSING);
    return;
  }
  if (pending.has(pmid)) return;
  setPending(pmid, true);
  const key = Number(pmid);
  const before = client.getQueryData<number[]>(socialKeys.likedPmids) ?? [];
  const wasLiked = likedSet(before).has(key);
  const place = before.indexOf(key);
  // A load of the set that is under way would overwrite the optimistic state with an older one.
  await client.cancelQueries({ queryKey: socialKeys.likedPmids });
  client.setQueryData<number[]>(socialKeys.likedPmids, (list = []) => {
    const others = list.filter((p) => p !== key);
    return wasLiked ? others : [key, ...others];
  });
  try {
    await api(wasLiked ? "DELETE" : "POST", "/likes/{article_pmid}", { path: { article_pmid: key } });
    // Listed pages follow from the server (a new like is first, an unliked one leaves its page).
    void client.invalidateQueries({ queryKey: socialKeys.likes });
  } catch {
    // Put back this PMID only: another article toggled meanwhile keeps its new state.
    client.setQueryData<number[]>(socialKeys.likedPmids, (list = []) => {
      const others = list.filter((p) => p !== key);
      if (!wasLiked) return others;
      others.splice(Math.min(place, others.length), 0, key);
      return others;
    });
    showError(wasLiked ? UNLIKE_FAILED : LIKE_FAILED);
  } finally {
    setPending(pmid, false);
  }
}

/** Whether `pmid` is liked, whether its call is running, and the toggle, for one card. */
export function useLike(article: Article) {
  const client = useQueryClient();
  const pmids = useLikedPmids();
  const pmid = String(article.pmid ?? "");
  const liked = pmid !== "" && likedSet(pmids.data).has(Number(pmid));
  const busy = useSyncExternalStore(
    subscribePending,
    () => pending.has(pmid),
    () => false,
  );
  return { liked, busy, toggle: () => toggleLike(client, article) };
}

/**
 * Deletes a received share: removed at once from the ids and from every loaded page, put back where it was in each if
 * the call fails (with 'Failed to delete share.'). After the call the loaded pages are refreshed, so the share that
 * follows moves up into the page. A 404 counts as deleted (another tab deleted it).
 * @returns whether it was deleted.
 */
export async function deleteShare(client: QueryClient, shareId: string): Promise<boolean> {
  // A load of the ids under way would bring the share back. Page loads are left to run (cancelling a page's first
  // load would leave it empty): a page that lands meanwhile is refreshed after the call anyway.
  await client.cancelQueries({ queryKey: socialKeys.shareIds });
  const ids = client.getQueryData<ReceivedShareRef[]>(socialKeys.shareIds) ?? [];
  const index = ids.findIndex((s) => s.id === shareId);
  if (index < 0) return false;
  const ref = ids[index]!;
  // Where the share sat in each loaded page, to put it back there.
  const inPages = client.getQueriesData<ReceivedShare[]>({ queryKey: socialKeys.shares }).flatMap(([key, page]) => {
    const at = page?.findIndex((s) => s.id === shareId) ?? -1;
    return at < 0 ? [] : [{ key, at, share: page![at]! }];
  });
  const without = <T extends { id: string }>(l: T[] = []) => l.filter((s) => s.id !== shareId);
  client.setQueryData<ReceivedShareRef[]>(socialKeys.shareIds, without);
  for (const p of inPages) client.setQueryData<ReceivedShare[]>(p.key, without);
  const putBack = <T extends { id: string }>(l: T[] = [], at: number, entry: T) => {
    if (l.some((s) => s.id === shareId)) return l;
    const next = [...l];
    next.splice(Math.min(at, next.length), 0, entry);
    return next;
  };
  try {
    await api("DELETE", "/shares/received/{share_id}", { path: { share_id: shareId } });
    void client.invalidateQueries({ queryKey: socialKeys.shares });
    return true;
  } catch (err) {
    // Already gone on the server (another tab deleted it): the lists are right as they are now.
    if (err instanceof ApiRequestError && err.status === 404) {
      void client.invalidateQueries({ queryKey: socialKeys.shares });
      return true;
    }
    client.setQueryData<ReceivedShareRef[]>(socialKeys.shareIds, (l) => putBack(l, index, ref));
    for (const p of inPages) client.setQueryData<ReceivedShare[]>(p.key, (l) => putBack(l, p.at, p.share));
    showError(DELETE_SHARE_FAILED);
    return false;
  }
}
