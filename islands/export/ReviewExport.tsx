/**
 * A completed review's "how it was made" line and its exports (issue 13): which engine wrote the summary, its cited
 * and all relevant articles for reference managers, and its summary with Vancouver references to the clipboard. Loaded
 * on demand by the review page (its JavaScript budget).
 */
import { ExportLinks } from "./ExportLinks.tsx";
import { CopySummary } from "./CopySummary.tsx";
import * as css from "./export.css.ts";

/** How the summary was written (issue 13: the review says which engine wrote it). */
export function engineText(engine: string): string {
  return engine === "extractive"
    ? "Summary written by the extractive summarizer: every sentence is quoted from the abstract it cites."
    : `Summary written by a ${engine}; each sentence was checked against the abstracts it cites.`;
}

export function ReviewExport({ reviewId, engine }: { reviewId: string; engine: string | null }) {
  const id = encodeURIComponent(reviewId);
  return (
    <>
      {engine ? (
        <p className={css.label} data-testid="summary-engine">
          {engineText(engine)}
        </p>
      ) : null}
      <ExportLinks label="Export cited articles:" path={`/reviews/${id}?list=cited`} testId="export-cited" />
      <ExportLinks
        label="Export all relevant articles:"
        path={`/reviews/${id}?list=relevant`}
        testId="export-relevant"
      />
      <CopySummary reviewId={reviewId} />
    </>
  );
}
