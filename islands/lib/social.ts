/**
 * Likes and received shares in the client (spec §3 Likes and shares, §7): one react-query cache entry for each list,
 * read by every article card on the page, so that every card of a PMID shows the same state at once.
 *
 * - Like/unlike is optimistic: the cache changes first, then the call runs; on failure only that article's entry is
 *   put back as it was (another card's toggle meanwhile is kept) with the spec's toast. After a like succeeds the
 *   server's article replaces the local entry, keeping the local liked_at (spec §3).
 * - One call per PMID at a time: clicks while it runs are ignored (spec §3 "duplicate triggers while loading").
 * - Deleting a received share is optimistic too, and rolled back on failure ('Failed to delete share.').
 */
import { useSyncExternalStore } from "react";
import { useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { api, ApiRequestError } from "./api.ts";
import { showError } from "./toast.tsx";
import type { Article } from "../article-card/types.ts";

/** An article the user keeps: `in_index` false once the record has left the index (then only pmid is set). */
export type KeptArticle = Article & { in_index?: boolean };
/** An entry of GET /likes/my. */
export type LikedArticle = KeptArticle & { liked_at: string };
/** An entry of GET /shares/received. */
export interface ReceivedShare {
  id: string;
  article_pmid: number | string;
  shared_at: string;
  sharer: { id: string; full_name: string | null; email: string } | null;
  article: KeptArticle;
}

export const LIKE_FAILED = "Failed to like article. Please try again later.";
export const UNLIKE_FAILED = "Failed to unlike article. Please try again later.";
export const PMID_MISSING = "Article PMID is missing.";
export const LOAD_LIKES_FAILED = "Failed to load liked articles.";
export const LOAD_SHARES_FAILED = "Failed to load received shares.";
export const DELETE_SHARE_FAILED = "Failed to delete share.";

/** Query keys of the social lists. */
export const socialKeys = {
  likes: ["likes", "my"] as const,
  shares: ["shares", "received"] as const,
};

/** GET /likes/my: all the user's liked articles, newest first. */
export function fetchLikes(signal?: AbortSignal): Promise<LikedArticle[]> {
  return api<LikedArticle[]>("GET", "/likes/my", { signal });
}

/** GET /shares/received: all the user's received shares, newest first. */
export function fetchShares(signal?: AbortSignal): Promise<ReceivedShare[]> {
  return api<ReceivedShare[]>("GET", "/shares/received", { signal });
}

// Loaded once by the layout (islands/lib/session-data.ts) and kept: every change made here updates the cache itself.
const LIST_OPTIONS = { staleTime: Infinity, refetchOnWindowFocus: false } as const;

/** The user's liked articles (the layout loads them on mount). */
export function useLikes() {
  return useQuery({ queryKey: socialKeys.likes, queryFn: ({ signal }) => fetchLikes(signal), ...LIST_OPTIONS });
}

/** The user's received shares (the layout loads them on mount). */
export function useShares() {
  return useQuery({ queryKey: socialKeys.shares, queryFn: ({ signal }) => fetchShares(signal), ...LIST_OPTIONS });
}

const samePmid = (a: { pmid: string | number }, pmid: string) => String(a.pmid) === pmid;

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
  const before = client.getQueryData<LikedArticle[]>(socialKeys.likes)?.find((a) => samePmid(a, pmid));
  const wasLiked = before !== undefined;
  const local: LikedArticle = { ...article, liked_at: new Date().toISOString() };
  // A load of the list that is under way would overwrite the optimistic state with an older one.
  await client.cancelQueries({ queryKey: socialKeys.likes });
  client.setQueryData<LikedArticle[]>(socialKeys.likes, (list = []) => (wasLiked ? list.filter((a) => !samePmid(a, pmid)) : [local, ...list]));
  try {
    if (wasLiked) {
      await api("DELETE", `/likes/${encodeURIComponent(pmid)}`);
    } else {
      const server = await api<LikedArticle>("POST", `/likes/${encodeURIComponent(pmid)}`);
      client.setQueryData<LikedArticle[]>(socialKeys.likes, (list = []) =>
        list.map((a) => (samePmid(a, pmid) ? { ...server, pmid: a.pmid, liked_at: a.liked_at } : a)),
      );
    }
  } catch {
    // Put back this article's entry only: another article toggled meanwhile keeps its new state.
    client.setQueryData<LikedArticle[]>(socialKeys.likes, (list = []) => {
      const others = list.filter((a) => !samePmid(a, pmid));
      return before ? [before, ...others].sort((a, b) => Date.parse(b.liked_at) - Date.parse(a.liked_at)) : others;
    });
    showError(wasLiked ? UNLIKE_FAILED : LIKE_FAILED);
  } finally {
    setPending(pmid, false);
  }
}

/** Whether `pmid` is liked, whether its call is running, and the toggle, for one card. */
export function useLike(article: Article) {
  const client = useQueryClient();
  const likes = useLikes();
  const pmid = String(article.pmid ?? "");
  const liked = likes.data?.some((a) => samePmid(a, pmid)) ?? false;
  const busy = useSyncExternalStore(subscribePending, () => pending.has(pmid), () => false);
  return { liked, busy, toggle: () => toggleLike(client, article) };
}

/**
 * Deletes a received share: removed from the list at once, put back where it was if the call fails.
 * @returns whether it was deleted.
 */
export async function deleteShare(client: QueryClient, shareId: string): Promise<boolean> {
  await client.cancelQueries({ queryKey: socialKeys.shares });
  const list = client.getQueryData<ReceivedShare[]>(socialKeys.shares) ?? [];
  const index = list.findIndex((s) => s.id === shareId);
  if (index < 0) return false;
  const share = list[index]!;
  client.setQueryData<ReceivedShare[]>(socialKeys.shares, (l = []) => l.filter((s) => s.id !== shareId));
  try {
    await api("DELETE", `/shares/received/${encodeURIComponent(shareId)}`);
    return true;
  } catch (err) {
    // Already gone on the server (another tab deleted it): the list is right as it is now.
    if (err instanceof ApiRequestError && err.status === 404) return true;
    client.setQueryData<ReceivedShare[]>(socialKeys.shares, (l = []) => {
      const next = [...l];
      next.splice(Math.min(index, next.length), 0, share);
      return next;
    });
    showError(DELETE_SHARE_FAILED);
    return false;
  }
}
