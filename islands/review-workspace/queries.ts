/**
 * Server state of the literature review workspace: types, react-query keys and the API calls of docs/product.md §7.
 * Page loaders that prefetch on the server use the same keys so the island hydrates without refetching.
 */
import { api } from "../lib/api.ts";
import type { components } from "../lib/api-types.gen.ts";
import { skipFor } from "../article-card/paging.ts";
import { isInProgress } from "./status.ts";

/** A review in the history list (docs/product.md §3). */
export type ReviewSummary = components["schemas"]["LiteratureReview"];

/** One page of the review history. */
export type ReviewHistory = components["schemas"]["LiteratureReviews"];

/**
 * A review with its summary and article lists (docs/product.md §3): citation number n is articles_refs[n-1];
 * fts_articles_refs is one page of all relevant articles (server-paged).
 */
export type ReviewDetails = components["schemas"]["LiteratureReviewDetails"];

/** Cited articles shown per page (client-paged, docs/product.md §9). */
export const CITED_PAGE_SIZE = 6;
/** All-relevant articles per page (server-paged through fts_skip/fts_limit, docs/product.md §9). */
export const FTS_PAGE_SIZE = 6;
/** Reviews asked for in one history call. docs/product.md gives no default; a researcher's list stays well under it. */
export const HISTORY_LIMIT = 100;

/** Query keys. Everything about reviews sits under `reviewKeys.all` so it can be dropped at once. */
export const reviewKeys = {
  all: ["literature_review"] as const,
  history: () => ["literature_review", "history"] as const,
  /** Every cached page of one review's details. */
  detailsOf: (id: string) => ["literature_review", "details", id] as const,
  /** One review's details with one page of all-relevant articles. */
  details: (id: string, ftsPage: number) => ["literature_review", "details", id, ftsPage] as const,
};

/** GET /literature_review/history, newest first. */
export async function fetchHistory(signal?: AbortSignal): Promise<ReviewHistory> {
  const page = await api("GET", "/literature_review/history", { query: { skip: 0, limit: HISTORY_LIMIT }, signal });
  return { ...page, data: sortNewestFirst(page.data ?? []) };
}

/** Orders reviews by creation time, newest first, whatever order the server used. */
export function sortNewestFirst(reviews: readonly ReviewSummary[]): ReviewSummary[] {
  const time = (r: ReviewSummary) => {
    const t = Date.parse(r.created_at);
    return Number.isNaN(t) ? 0 : t;
  };
  return [...reviews].sort((a, b) => time(b) - time(a));
}

/** GET /literature_review/details/{id} with the given page (from 0) of all-relevant articles. */
export function fetchDetails(id: string, ftsPage: number, signal?: AbortSignal): Promise<ReviewDetails> {
  return api("GET", "/literature_review/details/{lit_review_id}", {
    path: { lit_review_id: id },
    query: { fts_skip: skipFor(ftsPage, FTS_PAGE_SIZE), fts_limit: FTS_PAGE_SIZE },
    signal,
  });
}

/** POST /literature_review/create: a new review in status initial. */
export function createReview(): Promise<ReviewSummary> {
  return api("POST", "/literature_review/create");
}

/** POST /literature_review/start/{id}?user_query=…: queues the review. */
export function startReview(
  id: string,
  userQuery: string,
  filters: Record<string, string> = {},
): Promise<ReviewSummary> {
  return api("POST", "/literature_review/start/{lit_review_id}", {
    path: { lit_review_id: id },
    query: { ...filters, user_query: userQuery },
  });
}

/** DELETE /literature_review/delete/{id}. */
export function deleteReview(id: string): Promise<unknown> {
  return api("DELETE", "/literature_review/delete/{lit_review_id}", { path: { lit_review_id: id } });
}

/** The details a brand-new review has, so selecting it shows the topic input at once. */
export function emptyDetails(review: ReviewSummary): ReviewDetails {
  return {
    ...review,
    progress: null,
    summary: null,
    summary_engine: null,
    articles_refs: [],
    fts_articles_refs: [],
    fts_articles_total_count: 0,
    matching_articles_count: null,
    topic_concepts: [],
    search_report: null,
    evidence_table: null,
  };
}

/**
 * True while a review waits for its topic: status initial and no query yet (docs/product.md §2: only then the input
 * shows).
 */
export function awaitsTopic(d: Pick<ReviewDetails, "status" | "user_query">): boolean {
  return d.status === "initial" && !d.user_query?.trim();
}

/**
 * Whether a review's details should be polled: while the server works on it, including a started review the
 * queue has not picked up yet (initial with a query), but not while it waits for the user's topic.
 */
export function shouldPoll(d: Pick<ReviewDetails, "status" | "user_query"> | undefined): boolean {
  return !!d && isInProgress(d.status) && !awaitsTopic(d);
}
