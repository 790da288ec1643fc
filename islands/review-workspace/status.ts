/**
 * Literature review statuses (docs/product.md §4): which ones are in progress or terminal, and how often a review in
 * progress is polled. Pure, so the workspace, the polling rule and tests share one definition. What the status bubble
 * shows for each status is in ./status-label.ts, loaded with the review's view rather than with the first paint.
 */
import type { components } from "../lib/api-types.gen.ts";

/**
 * The statuses the API declares for a review (the server's REVIEW_STATUSES, through the generated API types), so a
 * status added on the server fails the type check here until the workspace knows it. The server may still send
 * others at run time; they are shown as 'Unknown status'.
 */
export type ReviewStatus = components["schemas"]["LiteratureReview"]["status"];

const TERMINAL = new Set<string>(["complete", "canceled", "error", "no_articles_found"] satisfies ReviewStatus[]);
const IN_PROGRESS = new Set<string>(["initial", "searching", "sorting", "summarizing"] satisfies ReviewStatus[]);

/** True for complete, canceled, error and no_articles_found: the review will not change any more. */
export function isTerminal(status: string | null | undefined): boolean {
  return !!status && TERMINAL.has(status);
}

/** True for initial, searching, sorting and summarizing. */
export function isInProgress(status: string | null | undefined): boolean {
  return !!status && IN_PROGRESS.has(status);
}

/** How often an in-progress review is polled (docs/product.md §9). */
export const POLL_INTERVAL_MS = 5000;
