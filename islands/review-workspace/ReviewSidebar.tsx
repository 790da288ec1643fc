/**
 * The workspace's left sidebar (docs/product.md §2): the New Review button and the Review History list. Each entry is a
 * toggle button (pressing the selected entry again deselects it) with a delete icon button beside it.
 */
import { type ReactNode, useEffect, useId, useRef, useState } from "react";
import { Icon } from "../article-card/icons.tsx";
import { formatDate } from "../lib/format.ts";
import { MSG, createdText, reviewTitle } from "./messages.ts";
import type { ReviewSummary } from "./queries.ts";
import * as css from "./ReviewWorkspace.css.ts";

/** How long the New Review button flashes after a press (docs/product.md §9). */
export const NEW_REVIEW_FLASH_MS = 150;

/** Props of {@link ReviewSidebar}. */
export interface ReviewSidebarProps {
  reviews: ReviewSummary[] | undefined;
  loading: boolean;
  /** True when the history could not be loaded and there is nothing to show. */
  failed: boolean;
  onRetry: () => void;
  selectedId: string | null;
  onSelect: (id: string) => void;
  onCreate: () => void;
  creating: boolean;
  onDelete: (review: ReviewSummary) => void;
  deleting: boolean;
}

/** The sidebar with the New Review button and the history list. */
export function ReviewSidebar(props: ReviewSidebarProps) {
  const { reviews, loading, failed, onRetry, selectedId, onSelect, onCreate, creating, onDelete, deleting } = props;
  const headingId = useId();
  const bodyId = useId();
  // Small screens only: the history folds away so the selected review comes right after New Review (issue 8).
  const [historyOpen, setHistoryOpen] = useState(false);
  const [flash, setFlash] = useState(false);
  const flashTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(flashTimer.current), []);

  const onNewReview = () => {
    setFlash(true);
    clearTimeout(flashTimer.current);
    flashTimer.current = setTimeout(() => setFlash(false), NEW_REVIEW_FLASH_MS);
    // One creation at a time: presses while one is under way only flash.
    if (!creating) onCreate();
  };

  let content: ReactNode;
  if (reviews === undefined && loading) {
    content = (
      <p className={css.loadingLine} role="status">
        <span className={css.spinner} aria-hidden="true" />
        Loading reviews...
      </p>
    );
  } else if (reviews === undefined && failed) {
    content = (
      <div className={css.sidebarAlert} role="alert" data-testid="review-history-error">
        {MSG.historyFailed}
        <button type="button" className={css.linkButton} onClick={onRetry}>
          Try again
        </button>
      </div>
    );
  } else if (!reviews?.length) {
    content = (
      <p className={css.sidebarNote} data-testid="review-history-empty">
        {MSG.emptyHistory}
      </p>
    );
  } else {
    content = (
      <ul className={css.historyList} aria-labelledby={headingId} data-testid="review-history">
        {reviews.map((r) => (
          <HistoryItem
            key={r.id}
            review={r}
            selected={r.id === selectedId}
            onSelect={(id) => {
              setHistoryOpen(false);
              onSelect(id);
            }}
            onDelete={onDelete}
            deleting={deleting}
          />
        ))}
      </ul>
    );
  }

  return (
    <aside className={css.sidebar} aria-label="Literature reviews" data-testid="review-sidebar">
      <button
        type="button"
        className={css.primaryButton}
        onClick={onNewReview}
        data-flash={String(flash)}
        aria-busy={creating || undefined}
        data-testid="new-review-button"
      >
        <Icon name="plus" />
        New Review
      </button>
      <h2 id={headingId} className={css.sidebarHeading}>
        <span className={css.historyHeadingText}>Review History</span>
        <button
          type="button"
          className={css.historyToggle}
          aria-expanded={historyOpen}
          aria-controls={bodyId}
          onClick={() => setHistoryOpen((o) => !o)}
          data-testid="review-history-toggle"
        >
          Review History
          {reviews?.length ? <span className={css.count}>{reviews.length}</span> : null}
          <Icon name="chevron" className={css.chevron} />
        </button>
      </h2>
      <div id={bodyId} className={css.historyBody} data-open={String(historyOpen)}>
        {content}
      </div>
    </aside>
  );
}

function HistoryItem({
  review,
  selected,
  onSelect,
  onDelete,
  deleting,
}: {
  review: ReviewSummary;
  selected: boolean;
  onSelect: (id: string) => void;
  onDelete: (r: ReviewSummary) => void;
  deleting: boolean;
}) {
  const titleId = useId();
  const title = reviewTitle(review.user_query);
  return (
    <li
      className={css.historyItem}
      data-selected={String(selected)}
      data-review-id={review.id}
      data-testid="review-history-item"
    >
      <button
        type="button"
        className={css.historyButton}
        aria-pressed={selected}
        onClick={() => onSelect(review.id)}
        data-testid="review-history-select"
      >
        <span id={titleId} className={css.historyTitle} title={title}>
          {title}
        </span>
        {review.filters?.length ? (
          <span className={css.historyFilters} data-testid="review-history-filters">
            {`Filters: ${review.filters.join(" · ")}`}
          </span>
        ) : null}
        {/* The server and the browser may format dates in different locales. */}
        <span className={css.historyDate} suppressHydrationWarning>
          {createdText(formatDate(review.created_at))}
        </span>
      </button>
      <span className={css.deleteWrap}>
        <button
          type="button"
          className={css.deleteButton}
          aria-label="Delete Review"
          aria-describedby={titleId}
          disabled={deleting}
          onClick={() => onDelete(review)}
          data-testid="review-delete-button"
        >
          <Icon name="trash" />
        </button>
        <span className={css.tooltip} aria-hidden="true">
          Delete Review
        </span>
      </span>
    </li>
  );
}
