/**
 * What the authenticated layout loads on mount (docs/product.md §2): which articles the user likes (their PMIDs only:
 * every card needs "is this liked?", and only the dashboard lists the liked articles, a page at a time), received
 * shares (their ids and PMIDs only: the dashboard's count and pages; it lists the shared articles a page at a time) and
 * review history, into the one client cache every island of the page reads. A failed load shows the store's default
 * error toast (docs/product.md §8), or the server's detail when it gave one.
 */
import { useEffect } from "react";
import { useQuery } from "@tanstack/react-query";
import { detailOr } from "./api.ts";
import { showError } from "./toast.tsx";
import { LOAD_LIKES_FAILED, LOAD_SHARES_FAILED, useLikedPmids, useShareIds } from "./social.ts";
import { fetchHistory, reviewKeys } from "../review-workspace/queries.ts";

/** The store default of a failed history load (docs/product.md §8). */
export const LOAD_REVIEWS_FAILED = "Failed to load reviews.";

/** Shows one error toast each time `query` fails. */
function useFailureToast(query: { isError: boolean; error: unknown; errorUpdatedAt: number }, fallback: string): void {
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per failure: errorUpdatedAt changes exactly then
  useEffect(() => {
    if (query.isError) showError(detailOr(query.error, fallback));
    // Once per failure, not once per render.
  }, [query.errorUpdatedAt]);
}

/** Loads the layout's data; renders nothing. Mount it once per page (the top bar's menus do). */
export function SessionData(): null {
  useFailureToast(useLikedPmids(), LOAD_LIKES_FAILED);
  useFailureToast(useShareIds(), LOAD_SHARES_FAILED);
  useFailureToast(
    useQuery({ queryKey: reviewKeys.history(), queryFn: ({ signal }) => fetchHistory(signal) }),
    LOAD_REVIEWS_FAILED,
  );
  return null;
}
