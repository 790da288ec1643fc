/**
 * The /literature_management workspace (docs/product.md §2, §4, §8): the review history sidebar and the selected
 * review. Rendered as the island "ReviewWorkspace" with props `{}` inside a QueryClientProvider; server state lives in
 * react-query (keys in ./queries.ts), the selection and the error banner in this component.
 *
 * Selectors for browser tests (stable; prefer them over text where text repeats):
 *   [data-testid="review-workspace"]             root
 *   [data-testid="new-review-button"]            'New Review' (data-flash="true" for 150 ms after a press)
 *   [data-testid="review-history"]               the history <ul>; empty: [data-testid="review-history-empty"];
 *                                                load failure: [data-testid="review-history-error"]
 *   [data-testid="review-history-item"]          one <li>, with data-review-id and data-selected="true|false"
 *     [data-testid="review-history-select"]      its toggle button (aria-pressed), text = title + 'Created: …'
 *     [data-testid="review-delete-button"]       its delete button, role button named 'Delete Review'
 *   [data-testid="review-empty-selection"]       'Select a review to see its details or create a new one.'
 *   [data-testid="review-error-banner"]          role alert titled 'Error'; dismiss: button 'Dismiss error'
 *   [data-testid="review-detail"]                the selected review, with data-review-id and data-status
 *     [data-testid="review-topic-input"]         textbox 'Review topic'; [data-testid="review-topic-submit"];
 *                                                [data-testid="review-topic-error"]
 *     [data-testid="review-query-bubble"]        the submitted query
 *     [data-testid="review-status-bubble"]       role status, data-status; text = status label
 *     [data-testid="review-summary"]             data-revealing="false" once fully shown
 *       [data-testid="citation-ref"][data-ref="n"]   reference button n; hover → [data-testid="citation-preview"]
 *                                                    (portal in <body>, data-ref="n"); click → role dialog
 *                                                    [data-testid="article-dialog"] named with the title
 *       [data-testid="citation-invalid"]         an unknown reference number
 *     [data-testid="review-no-summary"], [data-testid="review-no-articles"]
 *     [data-testid="cited-articles"]             <details> 'Cited Articles' (open); count: cited-articles-count;
 *                                                pages: cited-articles-pagination (buttons 'Next page', …)
 *     [data-testid="all-articles"]               <details> 'All Relevant Articles' (closed: click its summary);
 *                                                count: all-articles-count; pages: all-articles-pagination
 *     [data-testid="article-card"][data-pmid]    an article card (see islands/article-card/ArticleCard.tsx)
 *   toasts: [data-testid="toast-success"], [data-testid="toast-error"] (islands/lib/toast.tsx)
 *
 * Overlays use the platform rather than a component library: `<dialog>` for dialogs, `<details>` for the
 * collapsible lists, a CSS tooltip, and a small fixed-position hover card. The page must ship at most 100 KB
 * gzip of JavaScript with React, react-dom and react-query already taking about 80 KB of it.
 */
import { Suspense, lazy, useCallback, useEffect, useRef, useState } from "react";
import { Icon } from "../article-card/icons.tsx";
import { corpusText, MSG } from "./messages.ts";
import { awaitsTopic } from "./queries.ts";
import type { ReviewDraft } from "./review-draft.ts";
import { useCreateReview, useDeleteReview, useReviewHistory } from "./review-history.ts";
import { ReviewSidebar } from "./ReviewSidebar.tsx";
import * as css from "./ReviewWorkspace.css.ts";

/**
 * The selected review, loaded as its own chunk: the page opens with no review selected (the server never renders one),
 * so the detail view, the summary, the article cards and their dialogs are not needed for the first paint. The chunk
 * is fetched as soon as the workspace has hydrated (loadDetail below), so a first click rarely waits for it.
 */
const loadDetail = () => import("./ReviewDetail.tsx");
const ReviewDetail = lazy(() => loadDetail().then((m) => ({ default: m.ReviewDetail })));

/** Props of {@link ReviewWorkspace}, given by the server. */
export interface ReviewWorkspaceProps {
  /** What the reviews run on, shown while no review is selected so an empty answer is not taken for a broken tool. */
  corpus?: { records: number; approximate: boolean; lastUpdated: string | null };
}

/** The whole literature review workspace island: the history sidebar and the selected review or a placeholder. */
export function ReviewWorkspace({ corpus }: ReviewWorkspaceProps = {}) {
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [banner, setBanner] = useState<string | null>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  // Topics typed and not submitted, by review: kept while another review is shown (issue 35), for this page's life.
  const drafts = useRef(new Map<string, ReviewDraft>());
  // Warm the detail chunk once hydrated (see loadDetail); a failure here is retried by the lazy import on selection.
  useEffect(() => {
    loadDetail().catch(() => {});
  }, []);

  const history = useReviewHistory();

  const select = (id: string) => {
    if (id === selectedId) {
      // Clearing the selection only stops polling (docs/product.md §4); the banner stays.
      setSelectedId(null);
      return;
    }
    setBanner(null);
    setSelectedId(id);
  };

  const create = useCreateReview({ setSelectedId, setBanner });

  /**
   * New Review (issue 24): an untouched review (status initial, no topic) is selected instead of adding another
   * 'Untitled Review', so empty entries never pile up; only when there is none is one created (docs/product.md §4's
   * flow, with its toast). Nothing is created, so no toast: the entry is selected, scrolled into view, and its topic
   * input focused.
   */
  const newReview = () => {
    const waiting = history.data?.data.find((r) => awaitsTopic(r));
    if (!waiting) {
      create.mutate();
      return;
    }
    setBanner(null);
    setSelectedId(waiting.id);
    requestAnimationFrame(() => {
      const root = rootRef.current;
      const entry = root?.querySelector(`[data-testid="review-history-item"][data-review-id="${waiting.id}"]`);
      entry?.scrollIntoView({ block: "nearest" });
      // Already shown: its input is mounted and only needs focus (a newly shown one focuses itself, see ReviewDetail).
      root?.querySelector<HTMLInputElement>('[data-testid="review-topic-input"]')?.focus();
    });
  };

  const remove = useDeleteReview({ setSelectedId, setBanner });

  const showBanner = useCallback((message: string) => setBanner(message), []);
  const showBannerIfNone = useCallback((message: string) => setBanner((current) => current ?? message), []);
  const dismissBanner = useCallback(() => setBanner(null), []);
  const keepDraft = useCallback((id: string, draft: ReviewDraft | undefined) => {
    if (draft && (draft.topic || Object.keys(draft.filters).length > 0)) drafts.current.set(id, draft);
    else drafts.current.delete(id);
  }, []);

  return (
    <div className={css.workspace} data-testid="review-workspace" ref={rootRef}>
      <ReviewSidebar
        reviews={history.data?.data}
        loading={history.isPending}
        failed={history.isError}
        onRetry={() => void history.refetch()}
        selectedId={selectedId}
        onSelect={select}
        onCreate={newReview}
        creating={create.isPending}
        onDelete={(review) => {
          // One deletion at a time, so that a rollback never brings back another deleted review.
          if (!remove.isPending) remove.mutate(review);
        }}
        deleting={remove.isPending}
      />
      <section className={css.main} aria-label="Review details">
        {banner ? <ErrorBanner message={banner} onDismiss={dismissBanner} /> : null}
        {selectedId ? (
          <Suspense
            fallback={
              <p role="status" className={css.placeholder}>
                {MSG.loadingDetail}
              </p>
            }
          >
            <ReviewDetail
              key={selectedId}
              id={selectedId}
              bannerShown={banner !== null}
              showBanner={showBanner}
              showBannerIfNone={showBannerIfNone}
              dismissBanner={dismissBanner}
              draft={drafts.current.get(selectedId)}
              onDraftChange={(draft) => keepDraft(selectedId, draft)}
            />
          </Suspense>
        ) : (
          <NoSelection corpus={corpus} />
        )}
      </section>
    </div>
  );
}

/** The placeholder while no review is selected, with what the reviews run on. */
function NoSelection({ corpus }: ReviewWorkspaceProps) {
  return (
    <div className={css.placeholder}>
      <p data-testid="review-empty-selection">{MSG.noSelection}</p>
      {corpus ? (
        <p className={css.corpusNote} data-testid="review-corpus" suppressHydrationWarning>
          {corpusText(corpus)}
        </p>
      ) : null}
    </div>
  );
}

/** The dismissible error banner titled 'Error'. */
function ErrorBanner({ message, onDismiss }: { message: string; onDismiss: () => void }) {
  return (
    <div className={css.banner} role="alert" data-testid="review-error-banner">
      <div className={css.bannerBody}>
        <strong className={css.bannerTitle}>Error</strong>
        <span data-testid="review-error-message">{message}</span>
      </div>
      <button type="button" className={css.iconButton} aria-label="Dismiss error" onClick={onDismiss}>
        <Icon name="close" />
      </button>
    </div>
  );
}
