/**
 * The workspace's review history as server state (docs/product.md §4, §8): loading it, creating a review and deleting
 * one, each with its toast, its banner on failure and its update of the query cache (keys in ./queries.ts).
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, type Dispatch, type SetStateAction } from "react";
import { showError, showSuccess } from "../lib/toast.tsx";
import { MSG, deleteBanner, detailOr, statusOf } from "./messages.ts";
import {
  createReview,
  deleteReview,
  emptyDetails,
  fetchHistory,
  reviewKeys,
  type ReviewHistory,
  type ReviewSummary,
} from "./queries.ts";

/** The user's reviews, newest first; a failure to load them shows a toast, once per failure. */
export function useReviewHistory() {
  const history = useQuery({ queryKey: reviewKeys.history(), queryFn: ({ signal }) => fetchHistory(signal) });

  // biome-ignore lint/correctness/useExhaustiveDependencies: one toast per failure: errorUpdatedAt changes exactly then
  useEffect(() => {
    if (history.isError) showError(detailOr(history.error, MSG.loadReviewsFailed));
    // One toast per failure: errorUpdatedAt changes exactly when a new error is recorded.
  }, [history.errorUpdatedAt]);

  return history;
}

/** What a change to the history does to the workspace besides the cache: the selection and the error banner. */
export interface WorkspaceState {
  setSelectedId: Dispatch<SetStateAction<string | null>>;
  setBanner: (message: string | null) => void;
}

/**
 * Creates a review: once created it heads the history, is selected (its topic input shows without a round trip) and
 * a toast says so; a failure shows a toast and the banner.
 */
export function useCreateReview({ setSelectedId, setBanner }: WorkspaceState) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: createReview,
    onSuccess: (review) => {
      qc.setQueryData<ReviewHistory>(reviewKeys.history(), (h) =>
        h
          ? { data: [review, ...h.data.filter((r) => r.id !== review.id)], count: h.count + 1 }
          : { data: [review], count: 1 },
      );
      // The new review is known in full, so its topic input shows without a round trip.
      qc.setQueryData(reviewKeys.details(review.id, 0), emptyDetails(review));
      void qc.invalidateQueries({ queryKey: reviewKeys.history() });
      setBanner(null);
      setSelectedId(review.id);
      showSuccess(MSG.created);
    },
    onError: (err) => {
      showError(detailOr(err, MSG.createFailed));
      setBanner(MSG.createBanner);
    },
  });
}

/**
 * Deletes a review, optimistically: it leaves the history (and the selection) at once and comes back if the server
 * refuses, with a toast and the banner.
 */
export function useDeleteReview({ setSelectedId, setBanner }: WorkspaceState) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (review: ReviewSummary) => deleteReview(review.id),
    onMutate: async (review) => {
      await qc.cancelQueries({ queryKey: reviewKeys.history() });
      const previous = qc.getQueryData<ReviewHistory>(reviewKeys.history());
      qc.setQueryData<ReviewHistory>(
        reviewKeys.history(),
        (h) => h && { data: h.data.filter((r) => r.id !== review.id), count: Math.max(0, h.count - 1) },
      );
      setSelectedId((id) => (id === review.id ? null : id));
      return { previous };
    },
    onSuccess: (_result, review) => {
      qc.removeQueries({ queryKey: reviewKeys.detailsOf(review.id) });
      showSuccess(MSG.deleted);
    },
    onError: (err, _review, context) => {
      if (context?.previous) qc.setQueryData(reviewKeys.history(), context.previous);
      showError(detailOr(err, MSG.deleteFailed));
      setBanner(deleteBanner(err));
      // Gone or not ours: the list we show is out of date.
      if (statusOf(err) === 404) void qc.invalidateQueries({ queryKey: reviewKeys.history() });
    },
  });
}
