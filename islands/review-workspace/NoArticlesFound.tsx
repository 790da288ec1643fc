/**
 * A review that found no articles (docs/product.md §4): the product's title and texts, with the reason the search
 * report gives (from the "How this review was made" module, loaded as its own chunk).
 */
import { lazy, Suspense } from "react";
import { DETAIL_MSG, noArticlesText } from "./detail-messages.ts";
import type { ReviewDetails } from "./queries.ts";
import * as css from "./ReviewWorkspace.css.ts";

const NoArticlesReason = lazy(() =>
  import("../review-method/HowMade.tsx").then((m) => ({ default: m.NoArticlesReason })),
);

/** The 'No Articles Found' panel of `data`. */
export function NoArticlesFound({ data }: { data: ReviewDetails }) {
  return (
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
  );
}
