/**
 * /dashboard, 'My Dashboard' (docs/product.md §2): two vertical tabs, Liked Articles (default) and Received Shares, a
 * WAI-ARIA tab list (arrow keys move and select, Home/End, one tab stop). Each list is newest first, paged 5, 7 or 10
 * by screen width, and reads the layout's cache (islands/lib/social.ts), so a like or unlike anywhere on the page shows
 * here at once. Liked articles are loaded a page at a time (keyset: after the PMID that ends the previous page, which
 * the layout's set of liked PMIDs gives for any page), never the whole list. Deleting a received share is optimistic
 * and rolled back on failure.
 * `?tab=shares` opens Received Shares; `&article=PMID` (the link of a share e-mail) also opens that article's dialog.
 *
 * Test ids: `dashboard-tab-likes`, `dashboard-tab-shares`, `liked-list`, `shares-list` (cards inside are
 * `article-card`), `liked-list-empty`, `shares-list-empty`, `dashboard-error`, `share-delete`, `dashboard-pagination`.
 */
import { Suspense, lazy, useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { clampPage, pageCount, pageSlice } from "../article-card/paging.ts";
import * as cardCss from "../article-card/ArticleCard.css.ts";
import { useLikedPmids, useLikesPage, useShareIds, useSharesPage } from "../lib/social.ts";
import { useDashboardPageSize } from "./page-size.ts";
import type { KeptItem } from "./KeptCards.tsx";
import * as css from "./dashboard.css.ts";

// The cards, their actions and the export links show only once the lists have loaded in the browser (the server and
// the first paint show the skeleton), so they load with the data (docs/decisions/0043-first-paint-javascript.md).
const KeptCards = lazy(() => import("./KeptCards.tsx").then((m) => ({ default: m.KeptCards })));
// The liked list's cards hold their place while the user unlikes in them (./held-likes.tsx); that logic has nothing
// to do before the cards are drawn, so it loads with them.
const LikedCards = lazy(() => import("./KeptCards.tsx").then((m) => ({ default: m.LikedCards })));
const ExportLinks = lazy(() => import("./KeptCards.tsx").then((m) => ({ default: m.ExportLinks })));

export type DashboardTab = "likes" | "shares";

const TABS: { id: DashboardTab; label: string }[] = [
  { id: "likes", label: "Liked Articles" },
  { id: "shares", label: "Received Shares" },
];

export const EMPTY_LIKES = "No liked articles found.";
export const EMPTY_SHARES = "No received shares found.";
export const LIKES_FAILED = "Failed to load likes.";
export const SHARES_FAILED = "Failed to load shares.";

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
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a tab panel takes focus (WAI-ARIA Tabs pattern)
          tabIndex={0}
        >
          {tab !== t.id ? null : t.id === "likes" ? (
            <>
              {(likedPmids.data ?? []).length > 0 ? (
                <Suspense fallback={null}>
                  <ExportLinks label="Export liked articles:" path="/likes" testId="export-likes" />
                </Suspense>
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

  // An article unliked here keeps its place until the pointer and focus leave the list (issue 24, held-likes.tsx,
  // applied by LikedCards).
  const live = (shown.data ?? []).map((a) => ({ key: String(a.pmid), article: a, note: { likedAt: a.liked_at } }));

  return (
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
      paging={{ total: all.length, page: current, setPage }}
      items={live}
      liked={pmids.data}
    />
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
        note: { sharer: s.sharer, sharedAt: s.shared_at },
        // The delete logic loads with the first click (docs/decisions/0043-first-paint-javascript.md).
        onDelete: () => void import("../lib/social-actions.ts").then((m) => m.deleteShare(client, s.id)),
      }))}
    />
  );
}

/** The list while it loads (its data, or the cards' chunk): three grey cards. */
const SKELETON = (
  <ul className={cardCss.list} aria-busy="true" aria-label="Loading">
    {Array.from({ length: 3 }, (_, i) => (
      // biome-ignore lint/suspicious/noArrayIndexKey: identical placeholders
      <li key={i} className={css.skeleton} />
    ))}
  </ul>
);

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
  /** The liked list: the PMIDs liked now. Its cards then hold their place after an unlike (LikedCards). */
  liked?: readonly number[];
}) {
  const { testId, query, items, emptyText, errorText, openPmid, onOpened, paging, liked } = props;
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
  if (query.isPending) return SKELETON;
  if (total === 0) {
    return (
      <p className={cardCss.empty} data-testid={`${testId}-empty`}>
        {emptyText}
      </p>
    );
  }
  const cards = {
    testId,
    items: shownItems,
    start,
    openIndex,
    onOpened,
    page: current,
    pageCount: count,
    onPageChange: setPage,
  };
  return (
    <Suspense fallback={SKELETON}>
      {liked ? <LikedCards {...cards} liked={liked} /> : <KeptCards {...cards} />}
    </Suspense>
  );
}
