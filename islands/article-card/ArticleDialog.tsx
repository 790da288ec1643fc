/**
 * The article detail dialog (docs/product.md §2 Article card): titled with the article's title, or 'Article Details'
 * when it has none, showing the full abstract. Opened from an article card and from a summary citation. It shows what
 * the evidence extractor reads from the abstract (ArticleEvidence) and marks in the abstract the sentences those
 * numbers come from, and the sentence the summary quoted when opened from a citation (`quote`).
 */
import { WithQueries } from "../lib/query-root.tsx";
import { abstractOf, authorsOf, journalOf, publicationDateOf, pubmedUrl } from "./article-text.ts";
import { ArticleEvidence, evidenceSources, useArticleEvidence } from "./ArticleEvidence.tsx";
import { ArticleLinks } from "./ArticleLinks.tsx";
import { Dialog } from "./Dialog.tsx";
import { markPassages } from "./highlight.ts";
import type { Article } from "./types.ts";
import * as css from "./ArticleCard.css.ts";

/** Props of the dialog: the article, and the summary's quoted sentence when opened from a citation. */
export interface ArticleDialogProps {
  article: Article;
  onClose: () => void;
  quote?: string | null;
}

/** The detail dialog of one article; render it only while open. */
export function ArticleDialog(props: ArticleDialogProps) {
  return (
    <WithQueries>
      <ArticleDialogBody {...props} />
    </WithQueries>
  );
}

function ArticleDialogBody({ article, onClose, quote }: ArticleDialogProps) {
  const title = article.title?.trim() || "Article Details";
  const { data: evidence } = useArticleEvidence(article.abstract ? article.pmid : null);
  const runs = markPassages(abstractOf(article), [quote, ...evidenceSources(evidence)]);
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
      <ArticleEvidence evidence={evidence} />
      <p className={css.fullAbstract} data-testid="article-dialog-abstract">
        {runs.map((r, i) =>
          r.marked ? (
            // biome-ignore lint/suspicious/noArrayIndexKey: runs of a fixed text
            <mark key={i} className={css.marked} data-testid="article-dialog-mark">
              {r.text}
            </mark>
          ) : (
            r.text
          ),
        )}
      </p>
      <ArticleLinks article={article} />
    </Dialog>
  );
}
