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
 */
import { lazy, Suspense, useEffect, useRef, useState, type FormEvent } from "react";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { showError, showSuccess } from "../lib/toast.tsx";
import { detailOr, reviewTitle, statusOf } from "./messages.ts";
import { isPubmedSyntax } from "../../search/pubmed/query-syntax/parse.ts";
import { topicLimit, topicTooLongMessage } from "../../src/rules/review-topic.ts";
import { DETAIL_MSG, detailsBanner, noArticlesText, startBanner } from "./detail-messages.ts";
import {
  awaitsTopic,
  fetchDetails,
  reviewKeys,
  shouldPoll,
  startReview,
  type ReviewDetails,
  type ReviewHistory,
} from "./queries.ts";
import { AllRelevantArticles, CitedArticles } from "./ReviewArticles.tsx";
import { Citation, ReviewSummary } from "./ReviewSummary.tsx";
import { LazyArticleDialog } from "../article-card/LazyArticleDialog.tsx";
// Loaded once a completed review is shown: the page's first load stays within its JavaScript budget.
const ReviewExport = lazy(() => import("../export/ReviewExport.tsx").then((m) => ({ default: m.ReviewExport })));
// Loaded when opened: the optional filters of a new review and the "How this review was made" panel (issue 13).
const FilterFields = lazy(() => import("../review-method/FilterFields.tsx").then((m) => ({ default: m.FilterFields })));
const HowMade = lazy(() => import("../review-method/HowMade.tsx").then((m) => ({ default: m.HowMade })));
const NoArticlesReason = lazy(() =>
  import("../review-method/HowMade.tsx").then((m) => ({ default: m.NoArticlesReason })),
);
// Loaded once a completed review is shown: the evidence table of the cited studies (issue 21), collapsed.
const EvidencePanel = lazy(() => import("./EvidenceTable.tsx"));
import { filterQuery, type FilterValues } from "../review-method/filter-values.ts";
import { useStatusStream } from "./status-stream.ts";
import { isInProgress, POLL_INTERVAL_MS, showsSpinner, statusLabel } from "./status.ts";
import * as css from "./ReviewWorkspace.css.ts";

/** What was typed into a review's topic form and not yet submitted. */
export interface ReviewDraft {
  topic: string;
  filters: FilterValues;
}

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

const count = (n: number) => n.toLocaleString("en-US");

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
  const qc = useQueryClient();
  const mainKey = reviewKeys.details(id, 0);
  const [ftsPage, setFtsPage] = useState(0);
  const lastGoodFtsPage = useRef(0);
  const [topic, setTopicState] = useState(draft?.topic ?? "");
  const [topicError, setTopicError] = useState<string | null>(null);
  const [filters, setFiltersState] = useState<FilterValues>(draft?.filters ?? {});
  const setTopic = (value: string) => {
    setTopicState(value);
    onDraftChange?.({ topic: value, filters });
  };
  const setFilters = (value: FilterValues) => {
    setFiltersState(value);
    onDraftChange?.({ topic, filters: value });
  };
  const topicInput = useRef<HTMLInputElement>(null);
  // Set when the user closes the banner from the topic form: the input, enabled again, then takes focus.
  const focusTopicWhenUnlocked = useRef(false);
  useEffect(() => {
    if (!bannerShown && focusTopicWhenUnlocked.current) {
      focusTopicWhenUnlocked.current = false;
      topicInput.current?.focus();
    }
  }, [bannerShown]);
  // Open when filters were set before: what applies to the next submit stays in view.
  const [filtersOpen, setFiltersOpen] = useState(() => Object.keys(filterQuery(draft?.filters ?? {})).length > 0);
  const [howMadeOpen, setHowMadeOpen] = useState(false);
  // Set once the review has been seen in progress during this visit (submitted here, or opened while the
  // server worked on it): only then is a completion "just now" and its summary revealed progressively. It is
  // state, not a ref, so that the very render that first shows the summary already knows to animate it.
  const [watchedInProgress, setWatchedInProgress] = useState(false);
  const refetchedOnComplete = useRef(false);
  // Where focus goes after a submit (issue 24): to the status bubble at once, then to the summary when it is shown,
  // unless the user has moved focus elsewhere meanwhile. Without this, focus fell to the page body with the form.
  const focusNext = useRef<"status" | "summary" | null>(null);
  const statusRef = useRef<HTMLParagraphElement>(null);
  const summaryRef = useRef<HTMLElement>(null);
  useEffect(() => {
    if (focusNext.current === "status" && statusRef.current) {
      statusRef.current.focus();
      focusNext.current = "summary";
    } else if (focusNext.current === "summary" && summaryRef.current) {
      const active = document.activeElement;
      if (!active || active === document.body || active === statusRef.current) summaryRef.current.focus();
      focusNext.current = null;
    }
  });

  const start = useMutation({
    mutationFn: (query: string) => startReview(id, query, filterQuery(filters)),
    onMutate: async (query) => {
      setWatchedInProgress(true);
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
      onDraftChange?.(undefined);
      void qc.invalidateQueries({ queryKey: reviewKeys.history() });
    },
    onError: (err, _query, context) => {
      setWatchedInProgress(false);
      // The form comes back and its input takes focus (autoFocus).
      focusNext.current = null;
      if (context?.previousDetails) qc.setQueryData(mainKey, context.previousDetails);
      if (context?.previousHistory) qc.setQueryData(reviewKeys.history(), context.previousHistory);
      // Each failure is said once, in one place (issue 35: the box and a toast said it twice). A topic the server
      // refused (422) is the topic's error, under the field like an empty topic's: the form stays usable and the error
      // clears as the topic is edited. Any other failure is the banner's, which keeps the form disabled until closed
      // (docs/product.md §5), and the form says so and offers to close it.
      if (statusOf(err) === 422) setTopicError(detailOr(err, DETAIL_MSG.startProcessFailed));
      else showBanner(startBanner(err));
    },
  });

  // The status pushed by the server as it is stored (status-stream.ts); polling is the fallback while no stream
  // is open (docs/product.md §4's 5 s).
  const following = !start.isPending && shouldPoll(qc.getQueryData<ReviewDetails>(mainKey));
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
      !streaming && !start.isPending && query.state.status !== "error" && shouldPoll(query.state.data)
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

  const data = details.data;

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

  // biome-ignore lint/correctness/useExhaustiveDependencies: on a change of status or topic only
  useEffect(() => {
    if (!data) return;
    if (shouldPoll(data)) setWatchedInProgress(true);
    else if (data.status === "complete" && watchedInProgress && !refetchedOnComplete.current) {
      refetchedOnComplete.current = true;
      // Completed while watched: fetch once more so the summary and lists are the final ones.
      void qc.invalidateQueries({ queryKey: reviewKeys.detailsOf(id) });
      void qc.invalidateQueries({ queryKey: reviewKeys.history() });
    }
  }, [data?.status, data?.user_query]);

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

  // The limit shown as the user types is the server's (src/rules/review-topic.ts): 500 characters for a plain topic,
  // 2,000 for a search strategy in PubMed's syntax, counted on the trimmed topic as the server counts it.
  const query = topic.trim();
  const strategy = isPubmedSyntax(query);
  const limit = topicLimit(strategy);
  const tooLong = query.length > limit ? topicTooLongMessage(strategy) : null;
  const fieldError = topicError ?? tooLong;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (start.isPending || bannerShown) return;
    if (!query) {
      setTopicError(DETAIL_MSG.topicEmpty);
      return;
    }
    if (tooLong) {
      // Refused here, with the server's own message, rather than sent to be refused.
      topicInput.current?.focus();
      return;
    }
    focusNext.current = "status";
    start.mutate(query);
  };

  const ftsData = ftsPage === 0 ? data : (ftsQuery.data ?? data);

  return (
    <article
      className={css.detail}
      data-testid="review-detail"
      data-review-id={id}
      data-status={data.status}
      aria-label={reviewTitle(data.user_query)}
    >
      {awaitsTopic(data) ? (
        <form className={css.topicForm} onSubmit={submit} noValidate data-testid="review-topic-form">
          <div className={css.topicRow}>
            <input
              ref={topicInput}
              className={css.topicInput}
              type="text"
              name="user_query"
              aria-label="Review topic"
              placeholder={DETAIL_MSG.topicPlaceholder}
              value={topic}
              onChange={(e) => {
                setTopic(e.target.value);
                setTopicError(null);
              }}
              disabled={bannerShown || start.isPending}
              aria-invalid={fieldError ? true : undefined}
              aria-describedby={`${id}-topic-count${fieldError ? ` ${id}-topic-error` : ""}${bannerShown ? ` ${id}-topic-locked` : ""}`}
              autoComplete="off"
              // Shown right after the user pressed New Review or picked a waiting review: typing is next.
              // biome-ignore lint/a11y/noAutofocus: shown on New Review: typing is next
              autoFocus
              data-testid="review-topic-input"
            />
            <button
              type="submit"
              className={css.primaryButton}
              disabled={bannerShown || start.isPending}
              data-testid="review-topic-submit"
            >
              Submit Review
            </button>
          </div>
          <p
            id={`${id}-topic-count`}
            className={tooLong ? css.topicCountOver : css.topicCount}
            data-testid="review-topic-count"
            data-over={tooLong ? "true" : "false"}
          >
            {`${count(query.length)} / ${count(limit)} characters${strategy ? " (a search strategy in PubMed's syntax)" : ""}`}
          </p>
          {fieldError ? (
            <p id={`${id}-topic-error`} className={css.fieldError} role="alert" data-testid="review-topic-error">
              {fieldError}
            </p>
          ) : null}
          {bannerShown ? (
            <p id={`${id}-topic-locked`} className={css.lockedNote} data-testid="review-topic-locked">
              The topic can be edited again once the error above is closed.{" "}
              <button
                type="button"
                className={css.linkButton}
                onClick={() => {
                  focusTopicWhenUnlocked.current = true;
                  dismissBanner?.();
                }}
              >
                Close the error and edit the topic
              </button>
            </p>
          ) : null}
          <details
            className={css.filtersDisclosure}
            open={filtersOpen}
            onToggle={(e) => setFiltersOpen(e.currentTarget.open)}
          >
            <summary data-testid="review-filters-toggle">Filters (optional)</summary>
            {filtersOpen ? (
              <Suspense fallback={null}>
                <FilterFields value={filters} onChange={setFilters} disabled={bannerShown || start.isPending} />
              </Suspense>
            ) : null}
          </details>
        </form>
      ) : (
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
      )}

      {data.status === "complete" && data.search_report?.pubmed?.note ? (
        <p className={css.noteLine} data-testid="review-pubmed-note">
          {data.search_report.pubmed.note}
        </p>
      ) : null}
      {data.status === "complete" ? (
        <>
          <section
            ref={summaryRef}
            tabIndex={-1}
            className={css.panel}
            aria-label="Summary"
            data-testid="review-summary-panel"
          >
            {data.summary?.trim() ? (
              <ReviewSummary summary={data.summary} refs={data.articles_refs ?? []} animate={watchedInProgress} />
            ) : (
              <p className={css.mutedText} data-testid="review-no-summary">
                {DETAIL_MSG.noSummary}
              </p>
            )}
          </section>
          <Suspense fallback={null}>
            <EvidencePanel
              reviewId={id}
              rows={data.evidence_table}
              refs={data.articles_refs}
              Citation={Citation}
              Dialog={LazyArticleDialog}
            />
          </Suspense>
          {data.search_report ? (
            <details
              className={css.panel}
              onToggle={(e) => setHowMadeOpen(e.currentTarget.open)}
              data-testid="review-how-made-panel"
            >
              <summary className={css.panelSummary}>How this review was made</summary>
              {howMadeOpen ? (
                <Suspense fallback={null}>
                  <HowMade report={data.search_report} engine={data.summary_engine ?? null} />
                </Suspense>
              ) : null}
            </details>
          ) : null}
          {(data.articles_refs ?? []).length > 0 ? (
            <section className={css.panel} aria-label="Export">
              <Suspense fallback={null}>
                <ReviewExport reviewId={id} engine={data.summary_engine ?? null} />
              </Suspense>
            </section>
          ) : null}
          <CitedArticles articles={data.articles_refs ?? []} evidence={data.evidence_table} />
          {(ftsData.fts_articles_total_count ?? 0) > 0 ? (
            <AllRelevantArticles
              articles={ftsData.fts_articles_refs ?? []}
              total={ftsData.fts_articles_total_count}
              matching={data.matching_articles_count}
              concepts={data.topic_concepts}
              relevant={data.search_report?.counts.relevant}
              page={ftsPage}
              onPageChange={setFtsPage}
              loading={ftsPage > 0 && ftsQuery.isPlaceholderData}
            />
          ) : null}
        </>
      ) : null}

      {data.status === "no_articles_found" ? (
        <section className={css.panel} data-testid="review-no-articles">
          <h2 className={css.panelTitle}>{DETAIL_MSG.noArticlesTitle}</h2>
          <p className={css.mutedText}>{noArticlesText(data.user_query)}</p>
          <p className={css.mutedText}>
            <Suspense fallback={null}>
              <NoArticlesReason report={data.search_report ?? null} />
            </Suspense>
          </p>
          <p className={css.mutedText}>{DETAIL_MSG.noArticlesHint}</p>
        </section>
      ) : null}
    </article>
  );
}
