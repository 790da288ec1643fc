/**
 * /dashboard, 'My Dashboard' (docs/product.md §2): two vertical tabs, Liked Articles (default) and Received Shares, a WAI-ARIA tab
 * list (arrow keys move and select, Home/End, one tab stop). Each list is newest first, paged 5, 7 or 10 by screen
 * width, and reads the layout's cache (islands/lib/social.ts), so a like or unlike anywhere on the page shows here
 * at once. Liked articles are loaded a page at a time (keyset: after the PMID that ends the previous page, which the
 * layout's set of liked PMIDs gives for any page), never the whole list. Deleting a received share is optimistic and
 * rolled back on failure.
 * `?tab=shares` opens Received Shares; `&article=PMID` (the link of a share e-mail) also opens that article's dialog.
 *
 * Test ids: `dashboard-tab-likes`, `dashboard-tab-shares`, `liked-list`, `shares-list` (cards inside are
 * `article-card`), `liked-list-empty`, `shares-list-empty`, `dashboard-error`, `share-delete`, `dashboard-pagination`.
 */
import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { ArticleCard } from "../article-card/ArticleCard.tsx";
import { Pagination } from "../article-card/Pagination.tsx";
import { Icon } from "../article-card/icons.tsx";
import { clampPage, pageCount, pageSlice } from "../article-card/paging.ts";
import * as cardCss from "../article-card/ArticleCard.css.ts";
import { formatDate } from "../lib/format.ts";
import {
  deleteShare,
  useLikedPmids,
  useLikesPage,
  useShareIds,
  useSharesPage,
  type KeptArticle,
} from "../lib/social.ts";
import { SocialActions } from "../social/SocialActions.tsx";
import { ExportLinks } from "../export/ExportLinks.tsx";
import { useDashboardPageSize } from "./page-size.ts";
import { RemovedPlaceholder, useHeldLikes } from "./held-likes.tsx";
import * as css from "./dashboard.css.ts";

export type DashboardTab = "likes" | "shares";

const TABS: { id: DashboardTab; label: string }[] = [
  { id: "likes", label: "Liked Articles" },
  { id: "shares", label: "Received Shares" },
];

export const EMPTY_LIKES = "No liked articles found.";
export const EMPTY_SHARES = "No received shares found.";
export const LIKES_FAILED = "Failed to load likes.";
export const SHARES_FAILED = "Failed to load shares.";

/** 'Shared by {sharer full name, else e-mail, else Unknown User} on {date}' (docs/product.md §2). */
export function sharedByText(sharer: { full_name: string | null; email: string } | null, sharedAt: string): string {
  return `Shared by ${sharer?.full_name || sharer?.email || "Unknown User"} on ${formatDate(sharedAt)}`;
}

/** 'Liked on {date}' (docs/product.md §2). */
export function likedOnText(likedAt: string): string {
  return `Liked on ${formatDate(likedAt)}`;
}

export interface DashboardProps {
  initialTab: DashboardTab;
  /** A PMID whose dialog opens once its list has loaded (from `?article=`). */
  openPmid: string | null;
}

export function Dashboard({ initialTab, openPmid }: DashboardProps) {
  const [tab, setTab] = useState<DashboardTab>(initialTab);
  const [toOpen, setToOpen] = useState(openPmid);
  const id = useId();
  const tabRefs = useRef<Record<DashboardTab, HTMLButtonElement | null>>({ likes: null, shares: null });
  const likedPmids = useLikedPmids();
  const shareIds = useShareIds();
  const counts: Record<DashboardTab, number | undefined> = {
    likes: likedPmids.data?.length,
    shares: shareIds.data?.length,
  };

  const select = (next: DashboardTab, focus = false) => {
    setTab(next);
    if (focus) tabRefs.current[next]?.focus();
    // The address names the tab, so a reload or a shared link comes back to it.
    const url = new URL(window.location.href);
    if (next === "likes") url.searchParams.delete("tab");
    else url.searchParams.set("tab", next);
    url.searchParams.delete("article");
    window.history.replaceState(window.history.state, "", url);
  };

  const onKeyDown = (e: KeyboardEvent) => {
    const i = TABS.findIndex((t) => t.id === tab);
    const last = TABS.length - 1;
    const target = { ArrowDown: i + 1, ArrowRight: i + 1, ArrowUp: i - 1, ArrowLeft: i - 1, Home: 0, End: last }[e.key];
    if (target === undefined) return;
    e.preventDefault();
    select(TABS[(target + TABS.length) % TABS.length]!.id, true);
  };

  return (
    <div className={css.layout}>
      <div
        role="tablist"
        aria-label="Dashboard"
        aria-orientation="vertical"
        className={css.tabList}
        onKeyDown={onKeyDown}
      >
        {TABS.map((t) => (
          <button
            key={t.id}
            ref={(el) => {
              tabRefs.current[t.id] = el;
            }}
            type="button"
            role="tab"
            id={`${id}-tab-${t.id}`}
            aria-selected={tab === t.id}
            aria-controls={`${id}-panel-${t.id}`}
            tabIndex={tab === t.id ? 0 : -1}
            className={css.tab}
            data-testid={`dashboard-tab-${t.id}`}
            onClick={() => select(t.id)}
          >
            <span>{t.label}</span>
            {counts[t.id] !== undefined ? <span className={css.count}>{counts[t.id]}</span> : null}
          </button>
        ))}
      </div>
      {TABS.map((t) => (
        <div
          key={t.id}
          role="tabpanel"
          id={`${id}-panel-${t.id}`}
          aria-labelledby={`${id}-tab-${t.id}`}
          hidden={tab !== t.id}
          className={css.panel}
          tabIndex={0}
        >
          {tab !== t.id ? null : t.id === "likes" ? (
            <>
              {(likedPmids.data ?? []).length > 0 ? (
                <ExportLinks label="Export liked articles:" path="/likes" testId="export-likes" />
              ) : null}
              <LikesList openPmid={toOpen} onOpened={() => setToOpen(null)} pmids={likedPmids} />
            </>
          ) : (
            <SharesList openPmid={toOpen} onOpened={() => setToOpen(null)} ids={shareIds} />
          )}
        </div>
      ))}
    </div>
  );
}

/**
 * The liked articles, one page loaded at a time: the page after the PMID that ends the previous one (taken from the
 * set of liked PMIDs, which also gives the count and the page of a linked article).
 */
function LikesList(props: { pmids: ReturnType<typeof useLikedPmids>; openPmid: string | null; onOpened: () => void }) {
  const { pmids, openPmid, onOpened } = props;
  const pageSize = useDashboardPageSize();
  const [page, setPage] = useState(0);
  const all = pmids.data ?? [];
  const current = clampPage(page, pageCount(all.length, pageSize));
  const after = current === 0 ? null : (all[current * pageSize - 1] ?? null);
  const shown = useLikesPage(after, pageSize, pmids.data !== undefined && all.length > 0);
  const openIndex = openPmid ? all.indexOf(Number(openPmid)) : -1;

  // A linked article opens on its own page, once.
  useEffect(() => {
    if (openIndex >= 0) setPage(Math.floor(openIndex / pageSize));
  }, [openIndex, pageSize]);

  // An article unliked here keeps its place until the pointer and focus leave the list (issue 24, held-likes.tsx).
  const live = (shown.data ?? []).map((a) => ({ key: String(a.pmid), article: a, note: likedOnText(a.liked_at) }));
  const held = useHeldLikes(live, pmids.data);

  return (
    <div {...held.handlers}>
      <KeptList
        testId="liked-list"
        query={{
          isPending: pmids.isPending || (all.length > 0 && shown.isPending),
          isError: pmids.isError || shown.isError,
        }}
        emptyText={EMPTY_LIKES}
        errorText={LIKES_FAILED}
        openPmid={openPmid}
        onOpened={onOpened}
        paging={{
          total: all.length,
          page: current,
          setPage: (p) => {
            held.release();
            setPage(p);
          },
        }}
        items={held.items.map((i) => ({
          ...i,
          removed: i.removed ? <RemovedPlaceholder onUndo={() => held.undo(i.article)} /> : undefined,
        }))}
      />
    </div>
  );
}

/**
 * The received shares, one page loaded at a time: the page after the share id that ends the previous one (taken from
 * the layout's share ids, which also give the count and the page of a linked article, `?article=PMID`).
 */
function SharesList(props: { ids: ReturnType<typeof useShareIds>; openPmid: string | null; onOpened: () => void }) {
  const { ids, openPmid, onOpened } = props;
  const client = useQueryClient();
  const pageSize = useDashboardPageSize();
  const [page, setPage] = useState(0);
  const all = ids.data ?? [];
  const current = clampPage(page, pageCount(all.length, pageSize));
  const after = current === 0 ? null : (all[current * pageSize - 1]?.id ?? null);
  const shown = useSharesPage(after, pageSize, ids.data !== undefined && all.length > 0);
  const openIndex = openPmid ? all.findIndex((s) => String(s.article_pmid) === openPmid) : -1;

  // A linked article opens on its own page, once.
  useEffect(() => {
    if (openIndex >= 0) setPage(Math.floor(openIndex / pageSize));
  }, [openIndex, pageSize]);

  return (
    <KeptList
      testId="shares-list"
      query={{
        isPending: ids.isPending || (all.length > 0 && shown.isPending),
        isError: ids.isError || shown.isError,
      }}
      emptyText={EMPTY_SHARES}
      errorText={SHARES_FAILED}
      openPmid={openPmid}
      onOpened={onOpened}
      paging={{ total: all.length, page: current, setPage }}
      items={(all.length > 0 ? (shown.data ?? []) : []).map((s) => ({
        key: s.id,
        article: s.article,
        note: sharedByText(s.sharer, s.shared_at),
        extra: (
          <button
            type="button"
            className={css.deleteButton}
            aria-label="Delete share"
            title="Delete share"
            data-testid="share-delete"
            onClick={() => void deleteShare(client, s.id)}
          >
            <Icon name="trash" />
          </button>
        ),
      }))}
    />
  );
}

interface KeptItem {
  key: string;
  article: KeptArticle;
  note: string;
  extra?: ReactNode;
  /** Set when the article was just unliked: shown over its hidden card, which keeps its place (held-likes.tsx). */
  removed?: ReactNode;
}

/** One tab's list: skeleton while loading, the error alert, the empty text, or a page of cards and the pagination. */
function KeptList(props: {
  testId: string;
  query: { isPending: boolean; isError: boolean };
  items: KeptItem[];
  emptyText: string;
  errorText: string;
  openPmid: string | null;
  onOpened: () => void;
  /** Paged by the caller: `items` is the current page of a list of `total` entries. Else `items` is the whole list. */
  paging?: { total: number; page: number; setPage: (page: number) => void };
}) {
  const { testId, query, items, emptyText, errorText, openPmid, onOpened, paging } = props;
  const pageSize = useDashboardPageSize();
  const [ownPage, setOwnPage] = useState(0);
  const total = paging?.total ?? items.length;
  const count = pageCount(total, pageSize);
  const current = clampPage(paging?.page ?? ownPage, count);
  const setPage = paging?.setPage ?? setOwnPage;
  const shownItems = paging ? items : pageSlice(items, current, pageSize);
  const start = paging ? 0 : current * pageSize;
  const openIndex = openPmid ? items.findIndex((i) => String(i.article.pmid) === openPmid) : -1;

  // A linked article opens on its own page, once (a caller that pages has already gone to it).
  const paged = paging !== undefined;
  useEffect(() => {
    if (!paged && openIndex >= 0) setOwnPage(Math.floor(openIndex / pageSize));
  }, [paged, openIndex, pageSize]);

  if (query.isError && items.length === 0) {
    return (
      <p role="alert" className={css.alert} data-testid="dashboard-error">
        {errorText}
      </p>
    );
  }
  if (query.isPending) {
    return (
      <ul className={cardCss.list} aria-busy="true" aria-label="Loading">
        {Array.from({ length: 3 }, (_, i) => (
          <li key={i} className={css.skeleton} />
        ))}
      </ul>
    );
  }
  if (total === 0) {
    return (
      <p className={cardCss.empty} data-testid={`${testId}-empty`}>
        {emptyText}
      </p>
    );
  }
  return (
    <>
      <ul className={cardCss.list} data-testid={testId}>
        {shownItems.map((item, i) => {
          const open = start + i === openIndex;
          if (open) queueMicrotask(onOpened);
          return (
            <li key={item.key} className={item.removed ? css.removedItem : undefined}>
              {item.removed}
              <ArticleCard
                article={item.article}
                note={item.note}
                initiallyOpen={open}
                actions={
                  <>
                    {item.article.in_index === false ? null : <SocialActions article={item.article} />}
                    {item.extra}
                  </>
                }
              />
            </li>
          );
        })}
      </ul>
      <Pagination
        page={current}
        pageCount={count}
        onPageChange={setPage}
        label={`${testId === "liked-list" ? "Liked articles" : "Received shares"} pages`}
        testId="dashboard-pagination"
      />
    </>
  );
}
