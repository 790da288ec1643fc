/**
 * Likes and received shares in the client (docs/product.md §3 Likes and shares, §7). Every card reads whether its article is
 * liked from one react-query entry, the set of liked PMIDs (an array of integers, newest like first, GET
 * /likes/my/pmids), so every card of a PMID shows the same state at once. The layout loads that set and the received
 * shares as ids (`{ id, article_pmid }`, GET /shares/received/ids) on mount; the liked articles and the shared ones are
 * read a page at a time where they are listed (the dashboard), never all at once: at 10,000 likes the whole list was
 * 15 MB on every page (issue 22, item 4), and received shares were loaded whole in the same way.
 *
 * - Like/unlike is optimistic: the set changes first, then the call runs; on failure only that PMID is put back as
 *   it was (another card's toggle meanwhile is kept) with the product's toast. Pages of liked articles already loaded
 *   are refreshed after the change (the server's article keeps the first liked_at, docs/product.md §3).
 * - One call per PMID at a time: clicks while it runs are ignored (docs/product.md §3 "duplicate triggers while loading").
 * - Deleting a received share is optimistic too (it leaves the ids and any loaded page at once), and rolled back on
 *   failure ('Failed to delete share.'); loaded pages are refreshed after it, so the next share moves up.
 */
import { useSyncExternalStore } from "react";
import { keepPreviousData, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { api, ApiRequestError } from "./api.ts";
import { showError } from "./toast.tsx";
import type { Article } from "../article-card/types.ts";

/** An article the user keeps: `in_index` false once the record has left the index (then only pmid is set). */
export type KeptArticle = Article & { in_index?: boolean };
/** An entry of GET /likes/my. */
export type LikedArticle = KeptArticle & { liked_at: string };
/** An entry of GET /shares/received/ids: a received share, newest first, by its id and its article's PMID. */
export interface ReceivedShareRef {
  id: string;
  article_pmid: number;
}
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
  /** Pages of liked articles: `[...likes, after, limit]`. */
  likes: ["likes", "my"] as const,
  likedPmids: ["likes", "pmids"] as const,
  /** Pages of received shares: `[...shares, after, limit]`. */
  shares: ["shares", "received"] as const,
  shareIds: ["shares", "ids"] as const,
};

/** GET /likes/my/pmids: the PMIDs the user likes, newest like first. */
export function fetchLikedPmids(signal?: AbortSignal): Promise<number[]> {
  return api<number[]>("GET", "/likes/my/pmids", { signal });
}

/**
 * GET /likes/my?limit=…[&after=…]: one page of the user's liked articles, newest first, continuing after the PMID of
 * the previous page's last entry (keyset pagination: every page costs the server the same).
 */
export function fetchLikesPage(after: number | null, limit: number, signal?: AbortSignal): Promise<LikedArticle[]> {
  const query = new URLSearchParams({ limit: String(limit) });
  if (after !== null) query.set("after", String(after));
  return api<LikedArticle[]>("GET", `/likes/my?${query}`, { signal });
}

/** GET /shares/received/ids: the user's received shares as `{ id, article_pmid }`, newest first. */
export function fetchShareIds(signal?: AbortSignal): Promise<ReceivedShareRef[]> {
  return api<ReceivedShareRef[]>("GET", "/shares/received/ids", { signal });
}

/**
 * GET /shares/received?limit=…[&after=…]: one page of the user's received shares, newest first, continuing after the
 * id of the previous page's last share (keyset pagination).
 */
export function fetchSharesPage(after: string | null, limit: number, signal?: AbortSignal): Promise<ReceivedShare[]> {
  const query = new URLSearchParams({ limit: String(limit) });
  if (after !== null) query.set("after", after);
  return api<ReceivedShare[]>("GET", `/shares/received?${query}`, { signal });
}

// Loaded once by the layout (islands/lib/session-data.ts) and kept: every change made here updates the cache itself.
const LIST_OPTIONS = { staleTime: Infinity, refetchOnWindowFocus: false } as const;

/** The PMIDs the user likes, newest like first (the layout loads them on mount). */
export function useLikedPmids() {
  return useQuery({
    queryKey: socialKeys.likedPmids,
    queryFn: ({ signal }) => fetchLikedPmids(signal),
    ...LIST_OPTIONS,
  });
}

/**
 * One page of liked articles: `limit` entries after the PMID `after` (null: the first page). While the next page
 * loads, the one shown stays (no empty flash between pages).
 */
export function useLikesPage(after: number | null, limit: number, enabled = true) {
  return useQuery({
    queryKey: [...socialKeys.likes, after, limit],
    queryFn: ({ signal }) => fetchLikesPage(after, limit, signal),
    placeholderData: keepPreviousData,
    enabled,
  });
}

// Membership tests of the liked set, built once per version of the cached array.
const likedSets = new WeakMap<readonly number[], Set<number>>();
function likedSet(pmids: readonly number[] | undefined): Set<number> {
  if (!pmids) return new Set();
  let set = likedSets.get(pmids);
  if (!set) likedSets.set(pmids, (set = new Set(pmids)));
  return set;
}

/** The user's received shares as ids, newest first (the layout loads them on mount). */
export function useShareIds() {
  return useQuery({ queryKey: socialKeys.shareIds, queryFn: ({ signal }) => fetchShareIds(signal), ...LIST_OPTIONS });
}

/**
 * One page of received shares: `limit` entries after the share id `after` (null: the first page). While the next
 * page loads, the one shown stays.
 */
export function useSharesPage(after: string | null, limit: number, enabled = true) {
  return useQuery({
    queryKey: [...socialKeys.shares, after, limit],
    queryFn: ({ signal }) => fetchSharesPage(after, limit, signal),
    placeholderData: keepPreviousData,
    enabled,
  });
}

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
    await api(wasLiked ? "DELETE" : "POST", `/likes/${encodeURIComponent(pmid)}`);
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
    await api("DELETE", `/shares/received/${encodeURIComponent(shareId)}`);
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
