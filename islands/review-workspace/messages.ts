/**
 * The workspace's user-facing texts (docs/product.md §2, §5, §8), word for word, and how a failure becomes a toast or a
 * banner message. Toasts say what went wrong (the server's detail when it gave one); the banner titled
 * 'Error' says what it means for the user and stays until dismissed.
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
  topicPlaceholder: "Enter review topic...",
  topicEmpty: "Review topic cannot be empty.",
  noSummary: "No summary was generated for this review.",
  noArticlesTitle: "No Articles Found",
  noArticlesHint: "Please create a new review with different search terms from the sidebar.",
  // Success toasts
  created: "New literature review entry created.",
  deleted: "Review deleted successfully.",
  started: "Literature review process started.",
  // Error toasts when the server gave no detail
  loadReviewsFailed: "Failed to load reviews.",
  loadDetailsFailed: "Failed to load review details.",
  createFailed: "Failed to create review.",
  deleteFailed: "Failed to delete review.",
  startProcessingFailed: "Failed to start review processing.",
  startProcessFailed: "Failed to start literature review process.",
  // Banners and inline alerts
  historyFailed: "Could not load review history.",
  createBanner: "Could not create a new literature review.",
  deleteNotFound: "Review not found or you do not have permission to delete it.",
  deleteBanner: "Could not delete the literature review. Please try again.",
} as const;

const count = (n: number) => n.toLocaleString("en-US");

/**
 * What 'All Relevant Articles' is a list of (issue 8): its size is a cap, not a count, so the caption says how many
 * articles in the index address the whole topic, and that partial matches follow them.
 * @param listed articles in the list (at most 100); @param matching articles in the index covering every concept
 *   (null for reviews made before the count existed: no caption).
 */
export function relevantListCaption(
  listed: number,
  matching: number | null | undefined,
  concepts: readonly string[],
): string | null {
  if (matching === null || matching === undefined || listed <= 0) return null;
  const topic = concepts.length ? concepts.join(", ") : "the topic";
  if (matching >= listed)
    return `The ${count(listed)} most relevant of ${count(matching)} matching articles (addressing all of: ${topic}).`;
  const partial = listed - matching;
  return (
    `${count(matching)} ${matching === 1 ? "article addresses" : "articles address"} all of: ${topic}; ` +
    `the other ${count(partial)} listed ${partial === 1 ? "is a partial match" : "are partial matches"}, addressing only some of it.`
  );
}

/**
 * "The index holds 3,453 PubMed records, last updated Nov 24, 2026." (issue 8): said where no review is selected,
 * so that a small corpus explains an empty answer.
 */
export function corpusText(corpus: { records: number; approximate: boolean; lastUpdated: string | null }): string {
  const n = `${corpus.approximate ? "about " : ""}${count(corpus.records)} PubMed ${corpus.records === 1 ? "record" : "records"}`;
  const when = corpus.lastUpdated ? `, last updated ${formatDate(corpus.lastUpdated)}` : "";
  return `The index holds ${n}${when}.`;
}

/** 'Your query "{query}" did not return any articles.' */
export function noArticlesText(query: string | null | undefined): string {
  return `Your query "${query ?? ""}" did not return any articles.`;
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

/** Banner after the details of a review could not be loaded. */
export function detailsBanner(err: unknown): string {
  return `Could not load the review information (Status: ${statusOf(err) ?? "N/A"}).`;
}

/** Banner after the start call failed. */
export function startBanner(err: unknown): string {
  return `Could not start the review process: ${detailOr(err, MSG.startProcessingFailed)}`;
}

/** Banner after a delete failed: 404 means it is gone or not the user's (the history is then reloaded). */
export function deleteBanner(err: unknown): string {
  return statusOf(err) === 404 ? MSG.deleteNotFound : MSG.deleteBanner;
}
