import { Suspense, lazy, useState } from "react";
import { ArticleCard } from "../article-card/ArticleCard.tsx";
import { Pagination } from "../article-card/Pagination.tsx";
import { clampPage, pageCount, pageSlice } from "../article-card/paging.ts";
import { SocialActions } from "../social/SocialActions.tsx";
import type { SectionKey, SuggestedArticle } from "./suggestion-types.ts";
import { visuallyHidden } from "../lib/visually-hidden.css.ts";
import * as css from "./suggestions.css.ts";

// The summaries' citations (the review page's, about 3 KB gzip); Suggestions.tsx starts loading them with the request.
const SectionSummary = lazy(() => import("./SectionSummary.tsx").then((m) => ({ default: m.SectionSummary })));

/**
 * One section of the weekly suggestions (./Suggestions.tsx, which loads this once the suggestions have arrived): its
 * title and count, the summary with citations, and its articles two to a page with like/share actions.
 */
export function SuggestionSection(props: {
  sectionKey: SectionKey;
  title: string;
  /** The section's empty text, followed by the common follow-up (EMPTY_FOLLOW_UP in ./Suggestions.tsx). */
  emptyText: string;
  /** Cards per page (pageSize in ./Suggestions.tsx). */
  pageSize: number;
  articles: SuggestedArticle[];
  summary: string | null;
}) {
  const { sectionKey, title, emptyText, pageSize, articles, summary } = props;
  const [page, setPage] = useState(0);
  const count = pageCount(articles.length, pageSize);
  const current = clampPage(page, count);
  return (
    <details className={css.section} open data-testid="suggestions-section" data-section={sectionKey}>
      <summary className={css.sectionSummary}>
        <span>{title}</span>
        <span className={css.count} data-testid="section-count" aria-hidden="true">
          {articles.length}
        </span>
        <span className={visuallyHidden}>{`${articles.length} articles`}</span>
      </summary>
      <div className={css.body}>
        {articles.length === 0 ? (
          <p className={css.empty} data-testid="section-empty">
            {emptyText}
          </p>
        ) : (
          <>
            {summary ? (
              <Suspense fallback={null}>
                <SectionSummary text={summary} articles={articles} className={css.summary} />
              </Suspense>
            ) : null}
            <ul className={css.grid}>
              {pageSlice(articles, current, pageSize).map((a) => (
                <li key={a.pmid}>
                  <ArticleCard
                    article={a}
                    abstractLines={2}
                    note={a.reason}
                    actions={a.in_index === false ? null : <SocialActions article={a} />}
                  />
                </li>
              ))}
            </ul>
            <Pagination
              page={current}
              pageCount={count}
              onPageChange={setPage}
              label={`${title} pages`}
              testId="section-pagination"
            />
          </>
        )}
      </div>
    </details>
  );
}
