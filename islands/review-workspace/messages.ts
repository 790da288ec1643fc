/**
 * The workspace's user-facing texts that its first paint needs (the review's own view has its texts in
 * ./detail-messages.ts, loaded with it: docs/decisions/0043-first-paint-javascript.md) (docs/product.md §2, §5, §8),
 * word for word, and how a failure becomes a toast or a banner message. Toasts say what went wrong (the server's detail
 * when it gave one); the banner titled 'Error' says what it means for the user and stays until dismissed.
 */
import { ApiRequestError, detailOr } from "../lib/api.ts";
import { formatDate } from "../lib/format.ts";

/** Fixed texts of the workspace, as docs/product.md words them. */
export const MSG = {
  noSelection: "Select a review to see its details or create a new one.",
  /** While the selected review's view loads (its code comes as a separate chunk). */
  loadingDetail: "Loading the review…",
  emptyHistory: "No review history found.",
  untitled: "Untitled Review",
  // Success toasts
  created: "New literature review entry created.",
  deleted: "Review deleted successfully.",
  // Error toasts when the server gave no detail
  loadReviewsFailed: "Failed to load reviews.",
  createFailed: "Failed to create review.",
  deleteFailed: "Failed to delete review.",
  // Banners and inline alerts
  historyFailed: "Could not load review history.",
  createBanner: "Could not create a new literature review.",
  deleteNotFound: "Review not found or you do not have permission to delete it.",
  deleteBanner: "Could not delete the literature review. Please try again.",
} as const;

const count = (n: number) => n.toLocaleString("en-US");

/**
 * "The index holds 2,869 articles (distinct PubMed records, one per PMID), last updated Nov 24, 2026." (issue 8): said
 * where no review is selected, so that a small corpus explains an empty answer. It counts rows of `articles`, one per
 * PMID, which is fewer than the records read from files that repeat a record (issue 35: the bundled sample's 3,453
 * records are 2,869 articles), so it says what it counts.
 */
export function corpusText(corpus: { records: number; approximate: boolean; lastUpdated: string | null }): string {
  const n = `${corpus.approximate ? "about " : ""}${count(corpus.records)} ${corpus.records === 1 ? "article" : "articles"}`;
  const when = corpus.lastUpdated ? `, last updated ${formatDate(corpus.lastUpdated)}` : "";
  return `The index holds ${n} (distinct PubMed records, one per PMID)${when}.`;
}

/** 'Created: {date}' for a history entry. */
export function createdText(date: string): string {
  return `Created: ${date}`;
}

/** The history entry's title: its query, or 'Untitled Review'. */
export function reviewTitle(userQuery: string | null | undefined): string {
  return userQuery?.trim() || MSG.untitled;
}

export { detailOr };

/** HTTP status of a failed call, or null when the request never got an answer. */
export function statusOf(err: unknown): number | null {
  return err instanceof ApiRequestError ? err.status : null;
}

/** Banner after a delete failed: 404 means it is gone or not the user's (the history is then reloaded). */
export function deleteBanner(err: unknown): string {
  return statusOf(err) === 404 ? MSG.deleteNotFound : MSG.deleteBanner;
}
