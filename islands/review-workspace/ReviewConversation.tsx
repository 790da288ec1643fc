/**
 * A started review as a conversation (docs/product.md §4): the user's query and the filters it was started with, then
 * the status as a bubble (with a spinner while the review searches or sorts) and, while in progress, what the current
 * step is doing.
 */
import type { RefObject } from "react";
import type { ReviewDetails } from "./queries.ts";
import { isInProgress } from "./status.ts";
import { showsSpinner, statusLabel } from "./status-label.ts";
import * as css from "./ReviewWorkspace.css.ts";

/** The query and status bubbles of `data`; `statusRef` is the status bubble, which takes focus after a submit. */
export function ReviewConversation({
  data,
  statusRef,
}: {
  data: ReviewDetails;
  statusRef: RefObject<HTMLParagraphElement | null>;
}) {
  return (
    <div className={css.conversation}>
      {data.user_query ? (
        // Toasts step around it (islands/lib/toast.tsx): the user's own words stay readable after a submit.
        <p className={css.queryBubble} data-testid="review-query-bubble" data-toast-avoid="">
          {data.user_query}
        </p>
      ) : null}
      {data.filters?.length ? (
        <p className={css.filtersLine} data-testid="review-filters-line">
          {`Filters: ${data.filters.join(" · ")}`}
        </p>
      ) : null}
      <p
        ref={statusRef}
        // Focusable from script only: focus lands here after a submit (issue 24).
        tabIndex={-1}
        className={css.statusBubble}
        role="status"
        data-testid="review-status-bubble"
        data-status={data.status}
      >
        {showsSpinner(data.status) ? <span className={css.spinner} aria-hidden="true" /> : null}
        {statusLabel(data.status)}
      </p>
      {isInProgress(data.status) && data.progress ? (
        <p className={css.progressLine} data-testid="review-progress" aria-live="polite">
          {data.progress}
        </p>
      ) : null}
    </div>
  );
}
