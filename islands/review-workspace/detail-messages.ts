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
