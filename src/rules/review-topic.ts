/**
 * Review topic limits and messages (docs/product.md §5, §9): a plain topic is a few words, a search strategy in
 * PubMed's syntax may be longer. Shared by the topic form (islands/review-workspace/TopicForm.tsx), which shows the
 * limit as the user types and refuses an over-long topic before sending it, and the server's validation
 * (src/reviews/schemas.ts), so that both count and word it alike (issue 35: a 602-character topic was accepted by the
 * field and refused by the server). Lengths are counted as the server counts them: UTF-16 code units of the trimmed
 * topic. Imports nothing (docs/decisions/0038): whether a topic is written in PubMed's syntax is the caller's to say
 * (search/pubmed/query-syntax.ts `isPubmedSyntax`).
 */

/** Longest review topic accepted (a topic or a few keywords, not a document). */
export const MAX_QUERY_LENGTH = 500;
/**
 * Longest search strategy in PubMed's syntax accepted: researchers paste strategies of several hundred to a few
 * thousand characters; 2,000 keeps the start request's URL (the topic travels in the query string) well under the
 * 8 KB URL limit even when every character is percent-encoded.
 */
export const MAX_STRATEGY_LENGTH = 2_000;

/** docs/product.md §5's message for a blank topic. */
export const EMPTY_TOPIC = "Review topic cannot be empty.";

/** The most characters a topic may have: MAX_STRATEGY_LENGTH when written in PubMed's syntax, else MAX_QUERY_LENGTH. */
export function topicLimit(strategy: boolean): number {
  return strategy ? MAX_STRATEGY_LENGTH : MAX_QUERY_LENGTH;
}

/** The message refusing a topic longer than `topicLimit(strategy)`. */
export function topicTooLongMessage(strategy: boolean): string {
  return strategy
    ? `A search strategy must be at most ${MAX_STRATEGY_LENGTH} characters.`
    : `Review topic must be at most ${MAX_QUERY_LENGTH} characters.`;
}
