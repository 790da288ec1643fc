/**
 * /suggestions, the weekly suggestions (docs/product.md §2, §8): four collapsible sections (New This Week, New This
 * Year, Pertinent For You, Potentially Disruptive), each with its count, its cited summary (its citations open the
 * section's articles, as on the review page), a grid of article cards (2 per
 * page) whose note says why the article was suggested, and pagination. Page states: loading (spinner and 6 skeleton
 * cards), 'Suggestions Preparing' when the server has none yet (404), the error text with its toast, the fallback.
 *
 * Test ids: `suggestions-loading`, `suggestions-preparing`, `suggestions-error`, `suggestions-fallback`,
 * `suggestions-section` (data-section = the API's list name), `section-count`, `section-summary`, `section-empty`,
 * `section-pagination`; cards are `article-card` with the why-line as `article-note`.
 */
import { lazy, Suspense, useEffect } from "react";
import { useQuery } from "@tanstack/react-query";
import { api, ApiRequestError } from "../lib/api.ts";
import { showError } from "../lib/toast.tsx";
import type { SectionKey } from "./suggestion-types.ts";
import * as css from "./suggestions.css.ts";

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
/**
 * The sections' cards, actions and pagination show only once the suggestions have arrived (the server and the first
 * paint show the loading state), so they load beside the request too (docs/decisions/0043-first-paint-javascript.md).
 */
const loadSections = () => import("./SuggestionSection.tsx");
const SuggestionSection = lazy(() => loadSections().then((m) => ({ default: m.SuggestionSection })));

/** The loading state: also shown while the sections' chunk loads, so the layout does not move. */
const LOADING = (
  <div className={css.stack} data-testid="suggestions-loading">
    <div className={css.state} role="status">
      <span className={css.spinner} aria-hidden="true" />
      <p>Loading suggestions…</p>
    </div>
    <ul className={css.grid} aria-hidden="true">
      {Array.from({ length: 6 }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: identical placeholders
        <li key={i} className={css.skeleton} />
      ))}
    </ul>
  </div>
);

/** The /suggestions island (see the module's comment). Takes no props. */
export function Suggestions() {
  const latest = useQuery({
    queryKey: SUGGESTIONS_KEY,
    queryFn: ({ signal }) => api("GET", "/suggestions/weekly/latest", { signal }),
    // 404 means "not generated yet", not a failure to retry.
    retry: (n, err) => !(err instanceof ApiRequestError && err.status < 500) && n < 2,
  });
  const notReady = latest.error instanceof ApiRequestError && latest.error.status === 404;
  useEffect(() => {
    void loadSections();
    void loadSectionSummary();
  }, []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: one toast per failure: errorUpdatedAt changes exactly then
  useEffect(() => {
    if (latest.isError && !notReady)
      showError(latest.error instanceof Error && latest.error.message ? latest.error.message : LOAD_FAILED_TOAST);
  }, [latest.errorUpdatedAt]);

  if (latest.isPending) return LOADING;
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
    <Suspense fallback={LOADING}>
      <div className={css.stack}>
        {SECTIONS.map((s) => (
          <SuggestionSection
            key={s.key}
            sectionKey={s.key}
            title={s.title}
            emptyText={`${s.empty} ${EMPTY_FOLLOW_UP}`}
            pageSize={SUGGESTIONS_PAGE_SIZE}
            articles={data[s.key]}
            summary={data[`${s.key}_summary`]}
          />
        ))}
      </div>
    </Suspense>
  );
}
