/**
 * /suggestions, the weekly suggestions (docs/product.md §2, §8): four collapsible sections (New This Week, New This Year,
 * Pertinent For You, Potentially Disruptive), each with its count, its cited summary (its citations open the
 * section's articles, as on the review page), a grid of article cards (2 per
 * page) whose note says why the article was suggested, and pagination. Page states: loading (spinner and 6 skeleton
 * cards), 'Suggestions Preparing' when the server has none yet (404), the error text with its toast, the fallback.
 *
 * Test ids: `suggestions-loading`, `suggestions-preparing`, `suggestions-error`, `suggestions-fallback`,
 * `suggestions-section` (data-section = the API's list name), `section-count`, `section-summary`, `section-empty`,
 * `section-pagination`; cards are `article-card` with the why-line as `article-note`.
 */
import { lazy, Suspense, useEffect, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { ArticleCard } from "../article-card/ArticleCard.tsx";
import { Pagination } from "../article-card/Pagination.tsx";
import { clampPage, pageCount, pageSlice } from "../article-card/paging.ts";
import { api, ApiRequestError } from "../lib/api.ts";
import { showError } from "../lib/toast.tsx";
import type { KeptArticle } from "../lib/social.ts";
import { SocialActions } from "../social/SocialActions.tsx";
import * as css from "./suggestions.css.ts";

/** A suggested article: the article and why it was suggested. */
export type SuggestedArticle = KeptArticle & { reason: string; signal: string };

/** GET /suggestions/weekly/latest (docs/product.md §3). */
export interface WeeklySuggestions {
  week: string;
  new_weekly_articles: SuggestedArticle[];
  new_yearly_articles: SuggestedArticle[];
  pertinent_articles: SuggestedArticle[];
  disruptive_articles: SuggestedArticle[];
  new_weekly_articles_summary: string | null;
  new_yearly_articles_summary: string | null;
  pertinent_articles_summary: string | null;
  disruptive_articles_summary: string | null;
}

type SectionKey = "new_weekly_articles" | "new_yearly_articles" | "pertinent_articles" | "disruptive_articles";

/** The four sections in the page's order, with the product's titles and empty texts (§2). */
export const SECTIONS: { key: SectionKey; title: string; empty: string }[] = [
  {
    key: "new_weekly_articles",
    title: "New This Week",
    empty: "No new articles this week that currently match your profile.",
  },
  {
    key: "new_yearly_articles",
    title: "New This Year",
    empty: "No new articles this year that currently match your profile.",
  },
  {
    key: "pertinent_articles",
    title: "Pertinent For You",
    empty: "No pertinent articles found based on your current profile.",
  },
  {
    key: "disruptive_articles",
    title: "Potentially Disruptive",
    empty: "No potentially disruptive articles found at the moment.",
  },
];

export const EMPTY_FOLLOW_UP =
  "Don't worry, your profile might not have fetched relevant content yet. Please check back next week for more. Consider broadening your profile description and liked articles for more results.";
export const LOAD_FAILED = "Failed to load suggestions. Please try again later.";
export const LOAD_FAILED_TOAST = "Could not retrieve suggestions.";
export const FALLBACK = "No suggestions available at the moment. Please check back later.";
/** Cards per page in a section (docs/product.md §9). */
export const SUGGESTIONS_PAGE_SIZE = 2;

export const SUGGESTIONS_KEY = ["suggestions", "weekly", "latest"] as const;

/**
 * The summaries' citations are the review page's (SectionSummary.tsx), about 3 KB gzip: loaded beside the
 * suggestions' request rather than before the first paint, which keeps the page within its JavaScript budget
 * (100 KB gzip; src/pages/routes.test.tsx). The request takes longer than the chunk, so the summary does not wait.
 */
const loadSectionSummary = () => import("./SectionSummary.tsx");
const SectionSummary = lazy(() => loadSectionSummary().then((m) => ({ default: m.SectionSummary })));

export function Suggestions() {
  const latest = useQuery({
    queryKey: SUGGESTIONS_KEY,
    queryFn: ({ signal }) => api<WeeklySuggestions | null>("GET", "/suggestions/weekly/latest", { signal }),
    // 404 means "not generated yet", not a failure to retry.
    retry: (n, err) => !(err instanceof ApiRequestError && err.status < 500) && n < 2,
  });
  const notReady = latest.error instanceof ApiRequestError && latest.error.status === 404;
  useEffect(() => {
    void loadSectionSummary();
  }, []);
  useEffect(() => {
    if (latest.isError && !notReady)
      showError(latest.error instanceof Error && latest.error.message ? latest.error.message : LOAD_FAILED_TOAST);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [latest.errorUpdatedAt]);

  if (latest.isPending) {
    return (
      <div className={css.stack} data-testid="suggestions-loading">
        <div className={css.state} role="status">
          <span className={css.spinner} aria-hidden="true" />
          <p>Loading suggestions…</p>
        </div>
        <ul className={css.grid} aria-hidden="true">
          {Array.from({ length: 6 }, (_, i) => (
            <li key={i} className={css.skeleton} />
          ))}
        </ul>
      </div>
    );
  }
  if (notReady) {
    return (
      <div className={css.state} data-testid="suggestions-preparing">
        <h2 className={css.stateTitle}>Suggestions Preparing</h2>
        <p>Your personalized weekly suggestions are being generated.</p>
        {/* One string, so that the formatter never wraps the product's text across lines. */}
        <p>
          {
            "Please check back by the end of the week. They are curated based on your latest liked articles and profile description."
          }
        </p>
      </div>
    );
  }
  if (latest.isError) {
    return (
      <p className={css.error} role="alert" data-testid="suggestions-error">
        {LOAD_FAILED}
      </p>
    );
  }
  const data = latest.data;
  if (!data || !SECTIONS.every((s) => Array.isArray(data[s.key]))) {
    return (
      <p className={css.state} data-testid="suggestions-fallback">
        {FALLBACK}
      </p>
    );
  }
  return (
    <div className={css.stack}>
      {SECTIONS.map((s) => (
        <SuggestionSection
          key={s.key}
          sectionKey={s.key}
          title={s.title}
          emptyText={s.empty}
          articles={data[s.key]}
          summary={data[`${s.key}_summary`]}
        />
      ))}
    </div>
  );
}

function SuggestionSection(props: {
  sectionKey: SectionKey;
  title: string;
  emptyText: string;
  articles: SuggestedArticle[];
  summary: string | null;
}) {
  const { sectionKey, title, emptyText, articles, summary } = props;
  const [page, setPage] = useState(0);
  const count = pageCount(articles.length, SUGGESTIONS_PAGE_SIZE);
  const current = clampPage(page, count);
  return (
    <details className={css.section} open data-testid="suggestions-section" data-section={sectionKey}>
      <summary className={css.sectionSummary}>
        <span>{title}</span>
        <span className={css.count} data-testid="section-count" aria-label={`${articles.length} articles`}>
          {articles.length}
        </span>
      </summary>
      <div className={css.body}>
        {articles.length === 0 ? (
          <p className={css.empty} data-testid="section-empty">
            {emptyText} {EMPTY_FOLLOW_UP}
          </p>
        ) : (
          <>
            {summary ? (
              <Suspense fallback={null}>
                <SectionSummary text={summary} articles={articles} className={css.summary} />
              </Suspense>
            ) : null}
            <ul className={css.grid}>
              {pageSlice(articles, current, SUGGESTIONS_PAGE_SIZE).map((a) => (
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
