/**
 * The Like/Unlike toggle and the Share popover, for an article card's actions slot (docs/product.md §2 Article card).
 */
import type { Article } from "../article-card/types.ts";
import { LikeButton } from "./LikeButton.tsx";
import { ShareButton } from "./ShareButton.tsx";

export function SocialActions({ article }: { article: Article }) {
  return (
    <>
      <LikeButton article={article} />
      <ShareButton article={article} />
    </>
  );
}
