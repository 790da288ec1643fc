/**
 * What the status bubble of a review shows (docs/product.md §4): the label of each status, and whether a spinner goes
 * beside it. Only the review's view needs these, so they load with it, not with the workspace's first paint
 * (docs/decisions/0043-first-paint-javascript.md).
 */
import type { ReviewStatus } from "./status.ts";

// A Record over every status: a status added to the API fails the type check until it has its label.
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

const SPINNER = new Set<string>(["initial", "searching", "sorting"] satisfies ReviewStatus[]);

/** The label shown in the status bubble; 'Unknown status' for anything docs/product.md does not name. */
export function statusLabel(status: string | null | undefined): string {
  return status && Object.hasOwn(LABELS, status) ? LABELS[status as ReviewStatus] : "Unknown status";
}

/** docs/product.md shows a spinner beside the label for initial, searching and sorting only. */
export function showsSpinner(status: string | null | undefined): boolean {
  return !!status && SPINNER.has(status);
}
