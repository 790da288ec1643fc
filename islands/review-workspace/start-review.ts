/**
 * Starting a review with its topic (docs/product.md §4): the status shows 'searching' at once, in the details and in
 * the history (optimistic), the start call goes out, and the server's answer replaces the optimistic status. If the
 * call fails, the previous status and query come back.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { showSuccess } from "../lib/toast.tsx";
import { filterQuery, type FilterValues } from "../review-method/filter-values.ts";
import { DETAIL_MSG } from "./detail-messages.ts";
import { reviewKeys, startReview, type ReviewDetails, type ReviewHistory } from "./queries.ts";

/** What the review's view gives {@link useStartReview}. */
export interface StartReviewOptions {
  /** The filters of the form, sent with the topic. */
  filters: FilterValues;
  /** Told with true as the start goes out (the review is then watched in progress), with false if it failed. */
  setWatching: (on: boolean) => void;
  /** After the server accepted the start (its toast is shown). */
  onStarted: () => void;
  /** After a failed start, once the previous state is back: says what failed. */
  onFailed: (err: unknown) => void;
}

/** The start of review `id`; `mutate(query)` starts it with the trimmed topic. */
export function useStartReview(id: string, { filters, setWatching, onStarted, onFailed }: StartReviewOptions) {
  const qc = useQueryClient();
  const mainKey = reviewKeys.details(id, 0);
  return useMutation({
    mutationFn: (query: string) => startReview(id, query, filterQuery(filters)),
    onMutate: async (query) => {
      setWatching(true);
      // A poll landing now would overwrite the optimistic status with the old one.
      await qc.cancelQueries({ queryKey: reviewKeys.detailsOf(id) });
      const previousDetails = qc.getQueryData<ReviewDetails>(mainKey);
      const previousHistory = qc.getQueryData<ReviewHistory>(reviewKeys.history());
      qc.setQueryData<ReviewDetails>(mainKey, (d) => d && { ...d, status: "searching", user_query: query });
      qc.setQueryData<ReviewHistory>(
        reviewKeys.history(),
        (h) =>
          h && { ...h, data: h.data.map((r) => (r.id === id ? { ...r, status: "searching", user_query: query } : r)) },
      );
      return { previousDetails, previousHistory };
    },
    onSuccess: (review, query) => {
      // The server's word on the status wins, e.g. 'initial' while the job waits in the queue.
      qc.setQueryData<ReviewDetails>(
        mainKey,
        (d) => d && { ...d, status: review?.status ?? d.status, user_query: review?.user_query ?? query },
      );
      showSuccess(DETAIL_MSG.started);
      onStarted();
      void qc.invalidateQueries({ queryKey: reviewKeys.history() });
    },
    onError: (err, _query, context) => {
      setWatching(false);
      if (context?.previousDetails) qc.setQueryData(mainKey, context.previousDetails);
      if (context?.previousHistory) qc.setQueryData(reviewKeys.history(), context.previousHistory);
      onFailed(err);
    },
  });
}
