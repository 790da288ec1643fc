/**
 * The icon links of an article (docs/product.md §2 Article card): View on DOI, Full Text Link and Free PDF Link, each
 * only when the article has it, opening in a new tab.
 */
import { articleLinks } from "./article-text.ts";
import { Icon, type IconName } from "./icons.tsx";
import type { Article } from "./types.ts";
import * as css from "./ArticleCard.css.ts";

const ICONS: Record<string, IconName> = { doi: "link", full_text: "external", pdf: "file" };

/** The present links of `article` as a list of labelled icon links; renders nothing when there are none. */
export function ArticleLinks({ article }: { article: Article }) {
  const links = articleLinks(article);
  if (!links.length) return null;
  return (
    <ul className={css.links} aria-label="Article links">
      {links.map((l) => (
        <li key={l.kind}>
          <a
            className={css.iconLink}
            href={l.href}
            target="_blank"
            // A new tab must not get a handle on this page, nor learn which review linked to it.
            rel="noopener noreferrer"
            aria-label={l.label}
            title={l.label}
            data-testid={`article-link-${l.kind}`}
          >
            <Icon name={ICONS[l.kind] ?? "external"} />
          </a>
        </li>
      ))}
    </ul>
  );
}
