/**
 * The article detail dialog (docs/product.md §2 Article card): titled with the article's title, or 'Article Details'
 * when it has none, showing the full abstract. Opened from an article card and from a summary citation.
 */
import { abstractOf, authorsOf, journalOf, publicationDateOf, pubmedUrl } from "./article-text.ts";
import { ArticleLinks } from "./ArticleLinks.tsx";
import { Dialog } from "./Dialog.tsx";
import type { Article } from "./types.ts";
import * as css from "./ArticleCard.css.ts";

/** The detail dialog of one article; render it only while open. */
export function ArticleDialog({ article, onClose }: { article: Article; onClose: () => void }) {
  const title = article.title?.trim() || "Article Details";
  return (
    <Dialog title={title} onClose={onClose} testId="article-dialog">
      {article.citation ? (
        <p className={css.citation} data-testid="article-dialog-citation">
          {article.citation}
        </p>
      ) : null}
      <p className={css.detailMeta}>{authorsOf(article)}</p>
      <p className={css.detailMeta}>
        <span className={css.journal}>{journalOf(article)}</span> ·{" "}
        <span suppressHydrationWarning>{publicationDateOf(article)}</span>
        {article.pmid ? (
          <>
            {" · "}
            <a
              href={pubmedUrl(article.pmid)}
              target="_blank"
              rel="noopener noreferrer"
              data-testid="article-dialog-pmid"
            >
              PMID {article.pmid}
            </a>
          </>
        ) : null}
      </p>
      <p className={css.fullAbstract} data-testid="article-dialog-abstract">
        {abstractOf(article)}
      </p>
      <ArticleLinks article={article} />
    </Dialog>
  );
}
