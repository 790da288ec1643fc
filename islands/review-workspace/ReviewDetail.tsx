/**
 * One selected review (docs/product.md §2 and §4): the topic input while it waits for a topic, then the user's query
 * and the status as chat bubbles, and, once complete, the summary and the article lists.
 *
 * Flow on submit: the status shows 'searching' at once (optimistic), the start call goes out, the history is
 * refreshed and the status follows the server's event stream (each status the moment it is stored), with the product's
 * 5-second polling of the details as the fallback while no stream is open, until a terminal status. A review that
 * completes while it is watched here is fetched once more and its summary revealed progressively. If the start call
 * fails, the previous status and query come back. Polling stops at a terminal status, after a failed poll (only a
 * warning: what is shown stays), and when another review is selected (this component is keyed by the review's id).
 *
 * This component ties the parts together: the topic form (./TopicForm.tsx, its state in ./topic-draft.ts), the start
 * (./start-review.ts), the details and their polling (./review-details.ts), the focus after a submit
 * (./submit-focus.ts), and the views of a started, completed or empty review (./ReviewConversation.tsx,
 * ./CompletedReview.tsx, ./NoArticlesFound.tsx).
 */
import { useState } from "react";
import { detailOr, reviewTitle, statusOf } from "./messages.ts";
import { DETAIL_MSG, startBanner } from "./detail-messages.ts";
import { awaitsTopic } from "./queries.ts";
import type { ReviewDraft } from "./review-draft.ts";
import { useRefreshOnCompletion, useReviewDetails } from "./review-details.ts";
import { useStartReview } from "./start-review.ts";
import { useSubmitFocus } from "./submit-focus.ts";
import { useTopicDraft } from "./topic-draft.ts";
import { CompletedReview } from "./CompletedReview.tsx";
import { NoArticlesFound } from "./NoArticlesFound.tsx";
import { ReviewConversation } from "./ReviewConversation.tsx";
import { TopicForm } from "./TopicForm.tsx";
import * as css from "./ReviewWorkspace.css.ts";

/** Props of {@link ReviewDetail}. */
export interface ReviewDetailProps {
  id: string;
  /** True while the workspace's error banner is up: the topic input is then disabled (docs/product.md §5). */
  bannerShown: boolean;
  /** Shows the error banner, replacing any message in it. */
  showBanner: (message: string) => void;
  /** Shows the error banner only if it is not already up. */
  showBannerIfNone: (message: string) => void;
  /** Closes the error banner: the topic form offers it while the banner keeps the form disabled. */
  dismissBanner?: () => void;
  /**
   * The topic and filters typed here earlier and not submitted, which the workspace keeps while another review is
   * shown (issue 35: the typed topic was lost on switching to another review and back).
   */
  draft?: ReviewDraft;
  /** Told of every change to the topic or filters, and with undefined once the topic is submitted. */
  onDraftChange?: (draft: ReviewDraft | undefined) => void;
}

/** The detail pane of the review `id`. Key it by id so that selecting another review starts afresh. */
export function ReviewDetail({
  id,
  bannerShown,
  showBanner,
  showBannerIfNone,
  dismissBanner,
  draft,
  onDraftChange,
}: ReviewDetailProps) {
  const topicDraft = useTopicDraft(draft, onDraftChange);
  // Set once the review has been seen in progress during this visit (submitted here, or opened while the
  // server worked on it): only then is a completion "just now" and its summary revealed progressively. It is
  // state, not a ref, so that the very render that first shows the summary already knows to animate it.
  const [watchedInProgress, setWatchedInProgress] = useState(false);
  const { focusNext, statusRef, summaryRef } = useSubmitFocus();

  const start = useStartReview(id, {
    filters: topicDraft.filters,
    setWatching: setWatchedInProgress,
    onStarted: () => onDraftChange?.(undefined),
    onFailed: (err) => {
      // The form comes back and its input takes focus (autoFocus).
      focusNext.current = null;
      // Each failure is said once, in one place (issue 35: the box and a toast said it twice). A topic the server
      // refused (422) is the topic's error, under the field like an empty topic's: the form stays usable and the error
      // clears as the topic is edited. Any other failure is the banner's, which keeps the form disabled until closed
      // (docs/product.md §5), and the form says so and offers to close it.
      if (statusOf(err) === 422) topicDraft.setTopicError(detailOr(err, DETAIL_MSG.startProcessFailed));
      else showBanner(startBanner(err));
    },
  });

  const { details, ftsPage, setFtsPage, ftsQuery } = useReviewDetails(id, start.isPending, showBannerIfNone);
  const data = details.data;
  useRefreshOnCompletion(id, data, watchedInProgress, setWatchedInProgress);

  if (details.isPending) {
    return (
      <p className={css.loadingLine} role="status" data-testid="review-detail-loading">
        <span className={css.spinner} aria-hidden="true" />
        Loading review...
      </p>
    );
  }
  if (!data) {
    return (
      <p className={css.mutedText}>
        <button type="button" className={css.linkButton} onClick={() => void details.refetch()}>
          Try again
        </button>
      </p>
    );
  }

  return (
    <article
      className={css.detail}
      data-testid="review-detail"
      data-review-id={id}
      data-status={data.status}
      aria-label={reviewTitle(data.user_query)}
    >
      {awaitsTopic(data) ? (
        <TopicForm
          id={id}
          draft={topicDraft}
          bannerShown={bannerShown}
          pending={start.isPending}
          dismissBanner={dismissBanner}
          onSubmit={(query) => {
            focusNext.current = "status";
            start.mutate(query);
          }}
        />
      ) : (
        <ReviewConversation data={data} statusRef={statusRef} />
      )}
      {data.status === "complete" ? (
        <CompletedReview
          id={id}
          data={data}
          ftsData={ftsPage === 0 ? data : (ftsQuery.data ?? data)}
          ftsPage={ftsPage}
          onFtsPageChange={setFtsPage}
          ftsLoading={ftsPage > 0 && ftsQuery.isPlaceholderData}
          summaryRef={summaryRef}
          animateSummary={watchedInProgress}
        />
      ) : null}
      {data.status === "no_articles_found" ? <NoArticlesFound data={data} /> : null}
    </article>
  );
}
