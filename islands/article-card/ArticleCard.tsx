/**
 * The article card shared by review lists, suggestions and the dashboard (docs/product.md §2 Article card).
 *
 * Selectors for browser tests: `[data-testid="article-card"][data-pmid="…"]`; the title is a button that opens
 * the detail dialog (`[data-testid="article-dialog"]`, role dialog named with the title); links are
 * `article-link-doi`, `article-link-full_text`, `article-link-pdf`; the citation line under the title is
 * `article-citation`.
 */
import { useState, type MouseEvent, type ReactNode } from "react";
import { abstractOf, authorsOf, journalOf, publicationDateOf, titleOf } from "./article-text.ts";
import { LazyArticleDialog } from "./LazyArticleDialog.tsx";
import { ArticleLinks } from "./ArticleLinks.tsx";
import type { Article } from "./types.ts";
import * as css from "./ArticleCard.css.ts";

/** Props of {@link ArticleCard}. */
export interface ArticleCardProps {
  article: Article;
  /**
   * Controls shown at the end of the card's footer: the slot for the Like/Unlike toggle and the Share
   * popover (docs/product.md §2), which the likes and shares work fills in. Clicks inside it never open the dialog.
   */
  actions?: ReactNode;
  /** Lines of abstract shown before it is cut off; suggestion cards use 2 (docs/product.md §2). */
  abstractLines?: 2 | 3 | 4;
  /** A line about the user's relation to the article, above the footer: 'Liked on …', 'Shared by … on …'. */
  note?: ReactNode;
  /** Opens the detail dialog on mount (a link to the article, such as a share e-mail's, lands here). */
  initiallyOpen?: boolean;
  /** The article's citation number in a review's summary, shown as "[n]" before its title (issue 35 item 6). */
  citation?: number;
  /**
   * What the review's evidence table read of the study (issue 37 item 1): its appraisal items and participants as
   * short labels ("Randomized", "Retrospective", "n = 55 (26 + 29)"); shown as a line under the meta line.
   */
  appraisal?: readonly string[];
}

/**
 * One article: title, PubMed's citation line, authors, clamped abstract, journal, localised publication date and its
 * icon links.
 * Clicking the card (or activating its title) opens a dialog with the full abstract.
 */
export function ArticleCard({
  article,
  actions,
  abstractLines = 3,
  note,
  initiallyOpen = false,
  citation,
  appraisal,
}: ArticleCardProps) {
  const [open, setOpen] = useState(initiallyOpen);

  const onCardClick = (e: MouseEvent<HTMLElement>) => {
    // Links, buttons and the actions slot do their own thing; a drag that selected text is not a click either.
    if ((e.target as Element).closest("a, button, input, [data-slot='article-actions']")) return;
    if (window.getSelection()?.toString()) return;
    setOpen(true);
  };

  return (
    <>
      {/* biome-ignore lint/a11y/useKeyWithClickEvents: a pointer shortcut; the title button does it by keyboard */}
      <article className={css.card} data-testid="article-card" data-pmid={article.pmid} onClick={onCardClick}>
        <h3 className={css.heading}>
          {citation !== undefined ? (
            <span className={css.citationNumber} data-testid="article-citation-number">{`[${citation}]`}</span>
          ) : null}
          <button type="button" className={css.titleButton} aria-haspopup="dialog" onClick={() => setOpen(true)}>
            {titleOf(article)}
          </button>
        </h3>
        {article.citation ? (
          <p className={css.citation} data-testid="article-citation">
            {article.citation}
          </p>
        ) : null}
        <p className={css.authors} title={authorsOf(article)}>
          {authorsOf(article)}
        </p>
        <p className={css.clamp[abstractLines]}>{abstractOf(article)}</p>
        <p className={css.meta}>
          <span className={css.journal}>{journalOf(article)}</span>
          {/* The server and the browser may format dates in different locales. */}
          <span suppressHydrationWarning>{publicationDateOf(article)}</span>
          {article.study_design_label ? (
            <span className={css.designBadge} data-testid="study-design">
              {article.study_design_label}
              {article.subjects === "animals" ? " (animals)" : ""}
            </span>
          ) : null}
          {article.covers_topic === false ? (
            <span
              className={css.partialBadge}
              title="This article addresses only some of the topic's concepts"
              data-testid="partial-match"
            >
              Partial match
            </span>
          ) : null}
        </p>
        {appraisal && appraisal.length > 0 ? (
          <p className={css.appraisal} data-testid="article-appraisal">
            {appraisal.join(" · ")}
          </p>
        ) : null}
        {article.retracted ? (
          <p className={css.retracted} data-testid="article-retracted">
            {"Retracted. "}
            {article.retraction_notice_pmid ? (
              <a
                href={`https://pubmed.ncbi.nlm.nih.gov/${article.retraction_notice_pmid}/`}
                target="_blank"
                rel="noopener noreferrer"
              >
                Retraction notice
              </a>
            ) : null}
          </p>
        ) : null}
        {article.in_index === false ? (
          <p className={css.note} data-testid="article-gone">
            {`This record (PMID ${article.pmid}) has been removed from PubMed and the index.`}
          </p>
        ) : null}
        {note ? (
          <p className={css.note} data-testid="article-note">
            {note}
          </p>
        ) : null}
        <div className={css.footer}>
          <ArticleLinks article={article} />
          {actions ? (
            <div className={css.actions} data-slot="article-actions">
              {actions}
            </div>
          ) : null}
        </div>
      </article>
      {/* Outside the card so that clicks inside the dialog (and on its backdrop) do not reach the card. */}
      {open ? <LazyArticleDialog article={article} onClose={() => setOpen(false)} /> : null}
    </>
  );
}
