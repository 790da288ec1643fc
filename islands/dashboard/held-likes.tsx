/**
 * A stable list of liked articles while the user works in it (issue 24): an article unliked on the dashboard keeps
 * its place, as a placeholder 'Removed from your likes' with Undo the size of its card, until the pointer and the
 * keyboard focus have both left the list (or the page is left); only then does the list close up. Without this the
 * next card's Unlike slid under the pointer, and a second click unliked an article the user never meant to.
 * A toast says the same, with Undo too (it re-likes; the like then counts as new, so it is listed first next time).
 */
import { useCallback, useLayoutEffect, useMemo, useRef, useState, type FocusEvent } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { showAction } from "../lib/toast.tsx";
import type { Article } from "../article-card/types.ts";

/** The toast and the placeholder's words. */
export const REMOVED_TEXT = "Removed from your likes";
export const UNDO_LABEL = "Undo";
const UNDO_POLL_MS = 100;

/** An entry of the list: any item with its article. */
export interface HeldItem {
  key: string;
  article: Article;
}

/**
 * Re-likes `article` (Undo). An unlike whose call is still running is waited for first (its toggle would ignore the
 * press), and nothing happens if the article is liked again meanwhile.
 */
export async function undoUnlike(
  client: ReturnType<typeof useQueryClient>,
  article: Article,
  liked: () => boolean,
): Promise<void> {
  // Loaded on use: the list's first paint has no like to undo (docs/decisions/0043-first-paint-javascript.md).
  const { likePending, toggleLike } = await import("../lib/social-actions.ts");
  const pmid = String(article.pmid ?? "");
  while (likePending(pmid)) await new Promise((r) => setTimeout(r, UNDO_POLL_MS));
  if (!liked()) await toggleLike(client, article);
}

/**
 * The list to show: `live` (the loaded page) while nothing was unliked in it; from the first unlike, that list as it
 * was, held until the pointer and focus leave it (bind `handlers` to the element around the list).
 * @param liked the PMIDs liked now (the layout's cache)
 * @returns `items` with `removed` set on each unliked one (render it as RemovedPlaceholder, ./KeptCards.tsx), and
 *   `handlers`.
 */
export function useHeldLikes<T extends HeldItem>(live: T[], liked: readonly number[] | undefined) {
  const client = useQueryClient();
  const likedSet = useMemo(() => new Set(liked ?? []), [liked]);
  const likedRef = useRef(likedSet);
  likedRef.current = likedSet;
  const [held, setHeld] = useState<T[] | null>(null);
  // The liked set when the list was last let go: an article not liked then is gone from the list for good.
  const [releasedWith, setReleasedWith] = useState<ReadonlySet<number> | null>(null);
  const inside = useRef({ pointer: false, focus: false });
  const notified = useRef(new Set<number>());

  const isLiked = (a: Article) => likedSet.has(Number(a.pmid));
  const listed = (held ?? live).filter(
    (i) => isLiked(i.article) || (releasedWith?.has(Number(i.article.pmid)) ?? true),
  );
  const removed = listed.filter((i) => !isLiked(i.article));
  const removedKey = removed.map((i) => i.key).join(" ");

  const release = useCallback(() => {
    setHeld(null);
    setReleasedWith(likedRef.current);
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the removed set changes (removedKey)
  useLayoutEffect(() => {
    for (const pmid of notified.current) if (likedSet.has(pmid)) notified.current.delete(pmid);
    for (const item of removed) {
      const pmid = Number(item.article.pmid);
      if (notified.current.has(pmid)) continue;
      notified.current.add(pmid);
      showAction(`${REMOVED_TEXT}.`, {
        label: UNDO_LABEL,
        run: () => void undoUnlike(client, item.article, () => likedRef.current.has(pmid)),
      });
    }
    if (removed.length === 0) return;
    // Unliked while the user is in the list: hold it as it is. Otherwise (nobody is there) it may close up at once.
    if (inside.current.pointer || inside.current.focus) setHeld((h) => h ?? listed);
    else release();
  }, [removedKey]);

  const handlers = {
    onMouseEnter: () => {
      inside.current.pointer = true;
    },
    onMouseLeave: () => {
      inside.current.pointer = false;
      if (!inside.current.focus) release();
    },
    onFocus: () => {
      inside.current.focus = true;
    },
    onBlur: (e: FocusEvent<HTMLElement>) => {
      if (e.currentTarget.contains(e.relatedTarget as Node | null)) return;
      inside.current.focus = false;
      if (!inside.current.pointer) release();
    },
  };

  return {
    items: listed.map((i) => ({ ...i, removed: !isLiked(i.article) })),
    handlers,
    /** Lets the list close up now (another page was chosen). */
    release,
    undo: (article: Article) => void undoUnlike(client, article, () => likedRef.current.has(Number(article.pmid))),
  };
}
