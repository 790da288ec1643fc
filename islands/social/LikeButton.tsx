/**
 * The Like/Unlike toggle of an article card (docs/product.md §2, §3): `aria-pressed` tells the state, every card of the
 * same PMID shows it (one cache, islands/lib/social.ts), clicks while its call runs are ignored.
 * Test id: `like-button`.
 */
import type { Article } from "../article-card/types.ts";
import { Icon } from "../article-card/icons.tsx";
import { useLike } from "../lib/social-actions.ts";
import * as css from "./social.css.ts";

export function LikeButton({ article }: { article: Article }) {
  const { liked, busy, toggle } = useLike(article);
  return (
    <button
      type="button"
      className={liked ? `${css.actionButton} ${css.liked}` : css.actionButton}
      aria-pressed={liked}
      aria-busy={busy || undefined}
      data-testid="like-button"
      title={liked ? "Unlike this article" : "Like this article"}
      onClick={() => void toggle()}
    >
      <Icon name="heart" className={liked ? css.heartFilled : undefined} />
      {liked ? "Unlike" : "Like"}
    </button>
  );
}
