/**
 * Page arithmetic for article lists. Pages are numbered from 0 in code and from 1 on screen ('Page X of Y').
 */

/** Number of pages needed for `total` items; at least 1, so an empty list still reads 'Page 1 of 1'. */
export function pageCount(total: number, pageSize: number): number {
  if (!(total > 0) || !(pageSize > 0)) return 1;
  return Math.ceil(total / pageSize);
}

/** Keeps a page index inside [0, count - 1], e.g. after the list shrank under the current page. */
export function clampPage(page: number, count: number): number {
  if (!Number.isFinite(page)) return 0;
  return Math.min(Math.max(0, Math.floor(page)), Math.max(0, count - 1));
}

/** The items of one page of a list held in full by the client. */
export function pageSlice<T>(items: readonly T[], page: number, pageSize: number): T[] {
  const p = clampPage(page, pageCount(items.length, pageSize));
  return items.slice(p * pageSize, p * pageSize + pageSize);
}

/** The `skip` value that asks the server for one page. */
export function skipFor(page: number, pageSize: number): number {
  return Math.max(0, Math.floor(page)) * pageSize;
}
