/**
 * Pagination for article lists: first, previous, 'Page X of Y', next, last. Hidden when there is one page.
 */
import { Icon, type IconName } from "./icons.tsx";
import * as css from "./ArticleCard.css.ts";

/** Props of {@link Pagination}. `page` counts from 0. */
export interface PaginationProps {
  page: number;
  pageCount: number;
  onPageChange: (page: number) => void;
  /** Names the navigation landmark, e.g. 'Cited Articles pages'. */
  label: string;
  /** Disables the buttons, e.g. while the next page is loading. */
  busy?: boolean;
  testId?: string;
}

/** Page navigation; renders nothing when everything fits on one page. */
export function Pagination({
  page,
  pageCount,
  onPageChange,
  label,
  busy = false,
  testId = "pagination",
}: PaginationProps) {
  if (pageCount <= 1) return null;
  const last = pageCount - 1;
  const button = (icon: IconName, name: string, target: number, disabled: boolean) => (
    <button
      type="button"
      className={css.pageButton}
      aria-label={name}
      title={name}
      disabled={disabled || busy}
      onClick={() => onPageChange(target)}
    >
      <Icon name={icon} />
    </button>
  );
  return (
    <nav className={css.pagination} aria-label={label} data-testid={testId} aria-busy={busy || undefined}>
      {button("first", "First page", 0, page <= 0)}
      {button("prev", "Previous page", page - 1, page <= 0)}
      <span className={css.pageLabel} aria-live="polite">
        Page {page + 1} of {pageCount}
      </span>
      {button("next", "Next page", page + 1, page >= last)}
      {button("last", "Last page", last, page >= last)}
    </nav>
  );
}
