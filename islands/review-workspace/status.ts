/**
 * Literature review statuses (docs/product.md §4): labels, and which ones are in progress, terminal or show a spinner.
 * Pure, so the workspace, the polling rule and tests share one definition.
 */

/** The statuses docs/product.md names; the server may still send others, shown as 'Unknown status'. */
export type ReviewStatus =
  | "initial"
  | "searching"
  | "sorting"
  | "summarizing"
  | "complete"
  | "canceled"
  | "error"
  | "no_articles_found";

const LABELS: Record<ReviewStatus, string> = {
  initial: "Initializing review...",
  searching: "Searching for relevant articles...",
  sorting: "Sorting articles...",
  summarizing: "Generating summary...",
  complete: "Review complete.",
  canceled: "Review canceled.",
  error: "An error occurred during the review process.",
  no_articles_found: "No articles found for your query.",
};

const TERMINAL = new Set<string>(["complete", "canceled", "error", "no_articles_found"]);
const IN_PROGRESS = new Set<string>(["initial", "searching", "sorting", "summarizing"]);
const SPINNER = new Set<string>(["initial", "searching", "sorting"]);

/** The label shown in the status bubble; 'Unknown status' for anything docs/product.md does not name. */
export function statusLabel(status: string | null | undefined): string {
  return status && Object.hasOwn(LABELS, status) ? LABELS[status as ReviewStatus] : "Unknown status";
}

/** True for complete, canceled, error and no_articles_found: the review will not change any more. */
export function isTerminal(status: string | null | undefined): boolean {
  return !!status && TERMINAL.has(status);
}

/** True for initial, searching, sorting and summarizing. */
export function isInProgress(status: string | null | undefined): boolean {
  return !!status && IN_PROGRESS.has(status);
}

/** docs/product.md shows a spinner beside the label for initial, searching and sorting only. */
export function showsSpinner(status: string | null | undefined): boolean {
  return !!status && SPINNER.has(status);
}

/** How often an in-progress review is polled (docs/product.md §9). */
export const POLL_INTERVAL_MS = 5000;
