/**
 * A suggestion section's summary with the review page's citations (issue 24): [n] names the section's n-th article,
 * whichever page of cards shows, so each number is a button with the review page's hover preview and article dialog
 * (islands/review-workspace/ReviewSummary.tsx, reused as it is). Shown at once, never revealed progressively: the
 * summary was written days ago, there is nothing to wait for.
 */
import { ReviewSummary } from "../review-workspace/ReviewSummary.tsx";
import type { Article } from "../article-card/types.ts";

export function SectionSummary(props: { text: string; articles: readonly Article[]; className?: string }) {
  const { text, articles, className } = props;
  return (
    <div className={className} data-testid="section-summary">
      <ReviewSummary summary={text} refs={articles} animate={false} />
    </div>
  );
}
