/**
 * The texts of a selected review's view (./ReviewDetail.tsx and its parts, loaded when a review is selected), word for
 * word as docs/product.md §2, §5, §8 give them; the rest of the workspace's texts are in ./messages.ts.
 */
import { detailOr, statusOf } from "./messages.ts";

/** Fixed texts of a review's view, as docs/product.md words them. */
export const DETAIL_MSG = {
  topicPlaceholder: "Enter review topic...",
  topicEmpty: "Review topic cannot be empty.",
  noSummary: "No summary was generated for this review.",
  noArticlesTitle: "No Articles Found",
  noArticlesHint: "Please create a new review with different search terms from the sidebar.",
  started: "Literature review process started.",
  loadDetailsFailed: "Failed to load review details.",
  startProcessingFailed: "Failed to start review processing.",
  startProcessFailed: "Failed to start literature review process.",
} as const;

const count = (n: number) => n.toLocaleString("en-US");

/**
 * What 'All Relevant Articles' is a list of (issue 8): its size is a cap, not a count, so the caption says how many
 * articles in the index address the whole topic, and that partial matches follow them. With the review's own count of
 * the listed articles that address the whole topic (`relevant`, the search report's "kept as relevant"), the caption
 * says how many of these do, so that it agrees with "How this review was made" (issue 35: the list's 86 beside 63 kept
 * as relevant, the other 23 being partial matches).
 * @param listed articles in the list (at most 100); @param matching articles in the index covering every concept
 *   (null for reviews made before the count existed: no caption); @param relevant of the listed ones, those covering
 *   every concept (null or absent when the review has no search report).
 */
export function relevantListCaption(
  listed: number,
  matching: number | null | undefined,
  concepts: readonly string[],
  relevant?: number | null,
): string | null {
  if (matching === null || matching === undefined || listed <= 0) return null;
  const topic = concepts.length ? concepts.join(", ") : "the topic";
  const covering = relevant ?? Math.min(listed, matching);
  const partial = listed - covering;
  if (partial <= 0)
    return matching > listed
      ? `The ${count(listed)} most relevant of ${count(matching)} matching articles (addressing all of: ${topic}).`
      : `All ${count(listed)} address all of: ${topic}.`;
  const best = relevant !== undefined && relevant !== null && matching > covering;
  return (
    `${count(covering)} ${covering === 1 ? "article addresses" : "articles address"} all of: ${topic}` +
    `${best ? ` (the best of the ${count(matching)} in the index that do)` : ""}; ` +
    `the other ${count(partial)} listed ${partial === 1 ? "is a partial match" : "are partial matches"}, addressing only some of it.`
  );
}

/** 'Your query "{query}" did not return any articles.' */
export function noArticlesText(query: string | null | undefined): string {
  return `Your query "${query ?? ""}" did not return any articles.`;
}

/** Banner after the details of a review could not be loaded. */
export function detailsBanner(err: unknown): string {
  return `Could not load the review information (Status: ${statusOf(err) ?? "N/A"}).`;
}

/** Banner after the start call failed. */
export function startBanner(err: unknown): string {
  return `Could not start the review process: ${detailOr(err, DETAIL_MSG.startProcessingFailed)}`;
}
