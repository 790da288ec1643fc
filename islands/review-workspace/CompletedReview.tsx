/**
 * A completed review (docs/product.md §2, §4): PubMed's note on the search if any, the summary, the evidence table of
 * the cited studies (issue 21), "How this review was made" (issue 13), the export, the cited articles and 'All Relevant
 * Articles' (server-paged). The evidence table, the method panel and the export load as their own chunks once shown:
 * the page's first load stays within its JavaScript budget.
 */
import { lazy, Suspense, useState, type RefObject } from "react";
import { LazyArticleDialog } from "../article-card/LazyArticleDialog.tsx";
import { DETAIL_MSG } from "./detail-messages.ts";
import type { ReviewDetails } from "./queries.ts";
import { AllRelevantArticles, CitedArticles } from "./ReviewArticles.tsx";
import { Citation, ReviewSummary } from "./ReviewSummary.tsx";
import * as css from "./ReviewWorkspace.css.ts";

// Loaded once a completed review is shown: the page's first load stays within its JavaScript budget.
const ReviewExport = lazy(() => import("../export/ReviewExport.tsx").then((m) => ({ default: m.ReviewExport })));
// Loaded when opened: the "How this review was made" panel (issue 13).
const HowMade = lazy(() => import("../review-method/HowMade.tsx").then((m) => ({ default: m.HowMade })));
// Loaded once a completed review is shown: the evidence table of the cited studies (issue 21), collapsed.
const EvidencePanel = lazy(() => import("./EvidenceTable.tsx"));

/** Props of {@link CompletedReview}. */
export interface CompletedReviewProps {
  id: string;
  data: ReviewDetails;
  /** The details holding the page of 'All Relevant Articles' shown (`data` itself for the first page). */
  ftsData: ReviewDetails;
  /** The page of 'All Relevant Articles' shown, from 0, and how to ask for another. */
  ftsPage: number;
  onFtsPageChange: (page: number) => void;
  /** True while the page asked for loads (the previous one stays shown). */
  ftsLoading: boolean;
  /** The summary panel, which takes focus once shown after a submit. */
  summaryRef: RefObject<HTMLElement | null>;
  /** Reveal the summary progressively: the review completed while watched. */
  animateSummary: boolean;
}

/** The panels of a completed review; see the module's comment. */
export function CompletedReview(props: CompletedReviewProps) {
  const { id, data, ftsData, ftsPage, onFtsPageChange, ftsLoading, summaryRef, animateSummary } = props;
  return (
    <>
      {data.search_report?.pubmed?.note ? (
        <p className={css.noteLine} data-testid="review-pubmed-note">
          {data.search_report.pubmed.note}
        </p>
      ) : null}
      <section
        ref={summaryRef}
        tabIndex={-1}
        className={css.panel}
        aria-label="Summary"
        data-testid="review-summary-panel"
      >
        {data.summary?.trim() ? (
          <ReviewSummary summary={data.summary} refs={data.articles_refs ?? []} animate={animateSummary} />
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
      {data.search_report ? <HowMadePanel report={data.search_report} engine={data.summary_engine ?? null} /> : null}
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
          onPageChange={onFtsPageChange}
          loading={ftsLoading}
        />
      ) : null}
    </>
  );
}

/** "How this review was made", collapsed; its content loads when first opened. */
function HowMadePanel({
  report,
  engine,
}: {
  report: NonNullable<ReviewDetails["search_report"]>;
  engine: string | null;
}) {
  const [open, setOpen] = useState(false);
  return (
    <details className={css.panel} onToggle={(e) => setOpen(e.currentTarget.open)} data-testid="review-how-made-panel">
      <summary className={css.panelSummary}>How this review was made</summary>
      {open ? (
        <Suspense fallback={null}>
          <HowMade report={report} engine={engine} />
        </Suspense>
      ) : null}
    </details>
  );
}
