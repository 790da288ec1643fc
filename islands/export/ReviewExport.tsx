/**
 * A completed review's exports (issue 13): its cited and all relevant articles for reference managers, and its
 * summary with Vancouver references to the clipboard. Loaded on demand by the review page (its JavaScript budget).
 */
import { ExportLinks } from "./ExportLinks.tsx";
import { CopySummary } from "./CopySummary.tsx";

export function ReviewExport({ reviewId }: { reviewId: string }) {
  const id = encodeURIComponent(reviewId);
  return (
    <>
      <ExportLinks label="Export cited articles:" path={`/reviews/${id}?list=cited`} testId="export-cited" />
      <ExportLinks label="Export all relevant articles:" path={`/reviews/${id}?list=relevant`} testId="export-relevant" />
      <CopySummary reviewId={reviewId} />
    </>
  );
}
