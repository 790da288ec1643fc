/**
 * Likes and received shares in the client (docs/product.md §3 Likes and shares, §7). Every card reads whether its
 * article is liked from one react-query entry, the set of liked PMIDs (an array of integers, newest like first, GET
 * /likes/my/pmids), so every card of a PMID shows the same state at once. The layout loads that set and the received
 * shares as ids (`{ id, article_pmid }`, GET /shares/received/ids) on mount; the liked articles and the shared ones are
 * read a page at a time where they are listed (the dashboard), never all at once: at 10,000 likes the whole list was
 * 15 MB on every page (issue 22, item 4), and received shares were loaded whole in the same way.
 *
 * - Like/unlike is optimistic: the set changes first, then the call runs; on failure only that PMID is put back as
 *   it was (another card's toggle meanwhile is kept) with the product's toast. Pages of liked articles already loaded
 *   are refreshed after the change (the server's article keeps the first liked_at, docs/product.md §3).
 * - One call per PMID at a time: clicks while it runs are ignored (docs/product.md §3 "duplicate triggers while
 *   loading").
 * - Deleting a received share is optimistic too (it leaves the ids and any loaded page at once), and rolled back on
 *   failure ('Failed to delete share.'); loaded pages are refreshed after it, so the next share moves up.
 *
 * This module holds what a list needs to show (keys, fetchers, the hooks that read the cache). The changes (like,
 * unlike, delete) are in ./social-actions.ts, which loads with the cards that offer them, not in the first paint
 * (docs/decisions/0043-first-paint-javascript.md).
 */
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { api } from "./api.ts";
import type { components } from "./api-types.gen.ts";

/** An article the user keeps: `in_index` false once the record has left the index (then only pmid is set). */
export type KeptArticle = components["schemas"]["KeptArticle"];
/** An entry of GET /likes/my. */
export type LikedArticle = components["schemas"]["LikedArticle"];
/** An entry of GET /shares/received/ids: a received share, newest first, by its id and its article's PMID. */
export type ReceivedShareRef = components["schemas"]["ReceivedShareRef"];
/** An entry of GET /shares/received. */
export type ReceivedShare = components["schemas"]["ReceivedShare"];

export const LOAD_LIKES_FAILED = "Failed to load liked articles.";
export const LOAD_SHARES_FAILED = "Failed to load received shares.";

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
  return api("GET", "/likes/my/pmids", { signal });
}

/**
 * GET /likes/my?limit=…[&after=…]: one page of the user's liked articles, newest first, continuing after the PMID of
 * the previous page's last entry (keyset pagination: every page costs the server the same).
 */
export function fetchLikesPage(after: number | null, limit: number, signal?: AbortSignal): Promise<LikedArticle[]> {
  return api("GET", "/likes/my", { query: { limit, after: after ?? undefined }, signal });
}

/** GET /shares/received/ids: the user's received shares as `{ id, article_pmid }`, newest first. */
export function fetchShareIds(signal?: AbortSignal): Promise<ReceivedShareRef[]> {
  return api("GET", "/shares/received/ids", { signal });
}

/**
 * GET /shares/received?limit=…[&after=…]: one page of the user's received shares, newest first, continuing after the
 * id of the previous page's last share (keyset pagination).
 */
export function fetchSharesPage(after: string | null, limit: number, signal?: AbortSignal): Promise<ReceivedShare[]> {
  return api("GET", "/shares/received", { query: { limit, after: after ?? undefined }, signal });
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
/** The liked PMIDs as a set, the same Set object for the same cached array (empty while not loaded). */
export function likedSet(pmids: readonly number[] | undefined): Set<number> {
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
