import { useEffect, useLayoutEffect, useRef, type ReactNode } from "react";
import { ArticleCard } from "../article-card/ArticleCard.tsx";
import { Pagination } from "../article-card/Pagination.tsx";
import { Icon } from "../article-card/icons.tsx";
import * as cardCss from "../article-card/ArticleCard.css.ts";
import { formatDate } from "../lib/format.ts";
import type { KeptArticle } from "../lib/social.ts";
import { SocialActions } from "../social/SocialActions.tsx";
import { REMOVED_TEXT, UNDO_LABEL, useHeldLikes } from "./held-likes.tsx";
import * as css from "./dashboard.css.ts";

export { ExportLinks } from "../export/ExportLinks.tsx";

/** When an article was liked, or who shared it and when. */
export type KeptNote =
  | { likedAt: string }
  | { sharer: { full_name: string | null; email: string } | null; sharedAt: string };

/** 'Shared by {sharer full name, else e-mail, else Unknown User} on {date}' (docs/product.md §2). */
export function sharedByText(sharer: { full_name: string | null; email: string } | null, sharedAt: string): string {
  return `Shared by ${sharer?.full_name || sharer?.email || "Unknown User"} on ${formatDate(sharedAt)}`;
}

/** 'Liked on {date}' (docs/product.md §2). */
export function likedOnText(likedAt: string): string {
  return `Liked on ${formatDate(likedAt)}`;
}

/** The text of a card's note: `likedOnText` or `sharedByText`. */
export function noteText(note: KeptNote): string {
  return "likedAt" in note ? likedOnText(note.likedAt) : sharedByText(note.sharer, note.sharedAt);
}

/** One entry of a dashboard list. */
export interface KeptItem {
  key: string;
  article: KeptArticle;
  /** The line under the card, formatted here (with the cards, not in the first paint): see `noteText`. */
  note: KeptNote;
  /** Received shares: deletes the share (the trash button beside the card's actions). */
  onDelete?: () => void;
  /**
   * Set when the article was just unliked: 'Removed from your likes' with Undo over its hidden card (held-likes.tsx).
   */
  onUndo?: () => void;
}

/** The props of KeptCards. */
export interface KeptCardsProps {
  testId: string;
  items: KeptItem[];
  start: number;
  openIndex: number;
  onOpened: () => void;
  page: number;
  pageCount: number;
  onPageChange: (page: number) => void;
}

/**
 * The liked articles' page (`items`, as loaded): an article unliked in it keeps its place, as 'Removed from your
 * likes' with Undo, until the pointer and focus leave the list (issue 24, ./held-likes.tsx). Choosing another page
 * lets the list close up first. `liked`: the PMIDs liked now (the layout's cache).
 */
export function LikedCards(props: KeptCardsProps & { liked: readonly number[] }): ReactNode {
  const { liked, onPageChange, ...rest } = props;
  const held = useHeldLikes(props.items, liked);
  return (
    <div {...held.handlers}>
      <KeptCards
        {...rest}
        items={held.items.map((i) => ({ ...i, onUndo: i.removed ? () => held.undo(i.article) : undefined }))}
        onPageChange={(page) => {
          held.release();
          onPageChange(page);
        }}
      />
    </div>
  );
}

/**
 * A page of a dashboard list once loaded (./Dashboard.tsx, loaded lazily): the article cards with their like/share
 * actions (and a received share's delete button), then the pagination. `start` is the index of `items[0]` in the
 * list, `openIndex` the index of the article whose dialog opens (from `?article=`; -1 for none).
 */
export function KeptCards(props: KeptCardsProps): ReactNode {
  const { testId, items, start, openIndex, onOpened } = props;
  const opening = openIndex >= start && openIndex < start + items.length;
  // The link's article is used up once its card has mounted open: after the commit, never during a render (this
  // chunk's first render is a Suspense retry, which React may interrupt, and a card then remounts closed).
  useEffect(() => {
    if (opening) onOpened();
  }, [opening, onOpened]);
  return (
    <>
      <ul className={cardCss.list} data-testid={testId}>
        {items.map((item, i) => {
          const open = start + i === openIndex;
          return (
            <li key={item.key} className={item.onUndo ? css.removedItem : undefined}>
              {item.onUndo ? <RemovedPlaceholder onUndo={item.onUndo} /> : null}
              <ArticleCard
                article={item.article}
                note={noteText(item.note)}
                initiallyOpen={open}
                actions={
                  <>
                    {item.article.in_index === false ? null : <SocialActions article={item.article} />}
                    {item.onDelete ? (
                      <button
                        type="button"
                        className={css.deleteButton}
                        aria-label="Delete share"
                        title="Delete share"
                        data-testid="share-delete"
                        onClick={item.onDelete}
                      >
                        <Icon name="trash" />
                      </button>
                    ) : null}
                  </>
                }
              />
            </li>
          );
        })}
      </ul>
      <Pagination
        page={props.page}
        pageCount={props.pageCount}
        onPageChange={props.onPageChange}
        label={`${testId === "liked-list" ? "Liked articles" : "Received shares"} pages`}
        testId="dashboard-pagination"
      />
    </>
  );
}

/**
 * 'Removed from your likes · Undo' over the hidden card it replaces (same size: nothing below moves). Takes the focus
 * if it was on the card (its Unlike button is hidden now), so the keyboard stays in place.
 */
export function RemovedPlaceholder({ onUndo }: { onUndo: () => void }) {
  const undoRef = useRef<HTMLButtonElement>(null);
  useLayoutEffect(() => {
    const active = document.activeElement;
    const item = undoRef.current?.closest("li");
    if (!active || active === document.body || item?.contains(active)) undoRef.current?.focus({ preventScroll: true });
    // Undone: the card comes back, and the focus that was on Undo goes to its Unlike button, once it is visible again.
    return () => {
      requestAnimationFrame(() => {
        const lost = !document.activeElement || document.activeElement === document.body;
        const unlike = item?.isConnected ? item.querySelector<HTMLElement>('[data-testid="like-button"]') : null;
        if (lost) unlike?.focus({ preventScroll: true });
      });
    };
  }, []);
  return (
    <div className={css.removedPlaceholder} data-testid="removed-placeholder">
      <span>{REMOVED_TEXT}</span>
      <span aria-hidden="true">·</span>
      <button ref={undoRef} type="button" className={css.undoButton} onClick={onUndo} data-testid="removed-undo">
        {UNDO_LABEL}
      </button>
    </div>
  );
}
