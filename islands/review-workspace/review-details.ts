/**
 * A selected review's details as server state (docs/product.md §4): the details with the first page of 'All Relevant
 * Articles', the status pushed by the server's event stream with the product's 5-second polling as the fallback while
 * no stream is open, the later pages of 'All Relevant Articles', and what a failure to load them shows.
 */
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { showError } from "../lib/toast.tsx";
import { detailOr } from "./messages.ts";
import { DETAIL_MSG, detailsBanner } from "./detail-messages.ts";
import { fetchDetails, reviewKeys, shouldPoll, type ReviewDetails } from "./queries.ts";
import { useStatusStream } from "./status-stream.ts";
import { POLL_INTERVAL_MS } from "./status.ts";

/**
 * The details of review `id`, followed until a terminal status; `starting` (a start call under way) holds polling and
 * the stream back. Polling stops at a terminal status and after a failed poll (only a warning: what is shown stays).
 * A failure to load the details or a page shows a toast and, unless one is up, the banner (`showBannerIfNone`).
 * @returns the details query, the page of 'All Relevant Articles' asked for (from 0) with its setter, and its query.
 */
export function useReviewDetails(id: string, starting: boolean, showBannerIfNone: (message: string) => void) {
  const qc = useQueryClient();
  const mainKey = reviewKeys.details(id, 0);
  const [ftsPage, setFtsPage] = useState(0);
  const lastGoodFtsPage = useRef(0);

  // The status pushed by the server as it is stored (status-stream.ts); polling is the fallback while no stream
  // is open (docs/product.md §4's 5 s).
  const following = !starting && shouldPoll(qc.getQueryData<ReviewDetails>(mainKey));
  const streaming = useStatusStream(id, following, (event) => {
    qc.setQueryData<ReviewDetails>(
      mainKey,
      (d) =>
        d && {
          ...d,
          status: event.status,
          user_query: event.user_query ?? d.user_query,
          progress: event.progress ?? null,
        },
    );
  });

  const details = useQuery({
    queryKey: mainKey,
    queryFn: ({ signal }) => fetchDetails(id, 0, signal),
    refetchInterval: (query) =>
      !streaming && !starting && query.state.status !== "error" && shouldPoll(query.state.data)
        ? POLL_INTERVAL_MS
        : false,
  });

  // Later pages of 'All Relevant Articles'; page 0 comes with the details above.
  const ftsQuery = useQuery({
    queryKey: reviewKeys.details(id, ftsPage),
    queryFn: ({ signal }) => fetchDetails(id, ftsPage, signal),
    enabled: ftsPage > 0,
    placeholderData: keepPreviousData,
  });

  // Details cached from an earlier visit are shown at once, but the fetch made on selection still counts as
  // loading them: only a failure after a fetch of this visit succeeded is a background poll failure.
  const selectedAt = useRef(Date.now());

  // biome-ignore lint/correctness/useExhaustiveDependencies: one report per failure (errorUpdatedAt)
  useEffect(() => {
    if (!details.isError) return;
    if (details.data === undefined || details.dataUpdatedAt < selectedAt.current) {
      showError(detailOr(details.error, DETAIL_MSG.loadDetailsFailed));
      showBannerIfNone(detailsBanner(details.error));
    } else {
      console.warn(
        "Refreshing the review failed; polling stopped and the last known state stays on screen.",
        details.error,
      );
    }
    // One report per failure: errorUpdatedAt changes exactly when a new error is recorded.
  }, [details.errorUpdatedAt]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: when the page query settles or the page changes
  useEffect(() => {
    if (ftsPage === 0) return;
    if (ftsQuery.isSuccess && !ftsQuery.isPlaceholderData) lastGoodFtsPage.current = ftsPage;
    if (ftsQuery.isError) {
      showError(detailOr(ftsQuery.error, DETAIL_MSG.loadDetailsFailed));
      showBannerIfNone(detailsBanner(ftsQuery.error));
      // Back to the page that loaded; asking for the failed page again retries it.
      setFtsPage(lastGoodFtsPage.current);
    }
  }, [ftsQuery.status, ftsQuery.isPlaceholderData, ftsPage]);

  return { details, ftsPage, setFtsPage, ftsQuery };
}

/**
 * A review seen in progress during this visit (`watched`, set here while it is) that completes is fetched once more,
 * with the history, so the summary and lists shown are the final ones.
 */
export function useRefreshOnCompletion(
  id: string,
  data: ReviewDetails | undefined,
  watched: boolean,
  setWatched: (on: boolean) => void,
): void {
  const qc = useQueryClient();
  const refetchedOnComplete = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: on a change of status or topic only
  useEffect(() => {
    if (!data) return;
    if (shouldPoll(data)) setWatched(true);
    else if (data.status === "complete" && watched && !refetchedOnComplete.current) {
      refetchedOnComplete.current = true;
      // Completed while watched: fetch once more so the summary and lists are the final ones.
      void qc.invalidateQueries({ queryKey: reviewKeys.detailsOf(id) });
      void qc.invalidateQueries({ queryKey: reviewKeys.history() });
    }
  }, [data?.status, data?.user_query]);
}
