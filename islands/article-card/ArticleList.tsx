/**
 * A list of article cards (docs/product.md §2): a responsive grid, or 'No articles found or cited for this review.'
 * when there is nothing to show.
 */
import type { ReactNode } from "react";
import { ArticleCard } from "./ArticleCard.tsx";
import { SocialActions } from "../social/SocialActions.tsx";
import type { Article } from "./types.ts";
import * as css from "./ArticleCard.css.ts";

/** The product's text for an empty article list. */
export const EMPTY_ARTICLES = "No articles found or cited for this review.";

/** Props of {@link ArticleList}. */
export interface ArticleListProps {
  articles: readonly Article[];
  /** Text shown when the list is empty. */
  emptyText?: string;
  /** Per-article controls for the card's actions slot; by default Like/Unlike and Share (docs/product.md §2). */
  renderActions?: (article: Article) => ReactNode;
  abstractLines?: 2 | 3 | 4;
  testId?: string;
  /** The citation number of the i-th article of the list, for a review's cited articles. */
  citationOf?: (index: number) => number;
  /** What the evidence table read of an article, as short labels (ArticleCard's `appraisal`). */
  appraisalOf?: (article: Article) => readonly string[] | undefined;
}

/** Article cards as a list (one card per list item), or the empty-list text. */
export function ArticleList({
  articles,
  emptyText = EMPTY_ARTICLES,
  renderActions,
  abstractLines,
  testId = "article-list",
  citationOf,
  appraisalOf,
}: ArticleListProps) {
  if (!articles.length) {
    return (
      <p className={css.empty} data-testid={`${testId}-empty`}>
        {emptyText}
      </p>
    );
  }
  return (
    <ul className={css.list} data-testid={testId}>
      {articles.map((a, i) => (
        // The same article can appear twice in a badly formed list; the index keeps keys unique.
        // biome-ignore lint/suspicious/noArrayIndexKey: the PMID first; the index only parts duplicates
        <li key={`${a.pmid}-${i}`}>
          <ArticleCard
            article={a}
            actions={renderActions ? renderActions(a) : <SocialActions article={a} />}
            abstractLines={abstractLines}
            citation={citationOf?.(i)}
            appraisal={appraisalOf?.(a)}
          />
        </li>
      ))}
    </ul>
  );
}
