/**
 * Server state of the literature review workspace: types, react-query keys and the API calls of docs/product.md §7.
 * Page loaders that prefetch on the server use the same keys so the island hydrates without refetching.
 */
import { api } from "../lib/api.ts";
import type { Article } from "../article-card/types.ts";
import type { SearchReport } from "../review-method/HowMade.tsx";
import type { EvidenceRow } from "../../src/reviews/evidence/types.ts";
import { skipFor } from "../article-card/paging.ts";
import { isInProgress } from "./status.ts";

/** A review in the history list (docs/product.md §3). */
export interface ReviewSummary {
  id: string;
  user_query: string | null;
  status: string;
  /** The filters the review was started with, as phrases ("Humans only"); empty or absent when none. */
  filters?: string[];
  created_at: string;
  updated_at: string;
}

/** One page of the review history. */
export interface ReviewHistory {
  data: ReviewSummary[];
  count: number;
}

/** A review with its summary and article lists (docs/product.md §3). */
export interface ReviewDetails {
  id: string;
  status: string;
  user_query: string | null;
  /** What the current step is doing ("Fetching 143 records from PubMed…"), shown under the status; null when nothing. */
  progress?: string | null;
  summary: string | null;
  /** Which engine wrote the summary ("extractive", or a language model with its verified sentences). */
  summary_engine?: string | null;
  /** Cited articles in citation order: citation number n is articles_refs[n-1]. */
  articles_refs: Article[];
  /** One page of all relevant articles (server-paged). */
  fts_articles_refs: Article[];
  fts_articles_total_count: number;
  /** Articles in the index that address every concept of the topic; null for older reviews. */
  matching_articles_count?: number | null;
  /** The concepts the topic was read as. */
  topic_concepts?: string[];
  /** The filters the review was started with, as phrases ("Humans only"). */
  filters?: string[];
  /** How the review was made (query reading, counts, corpus); null before it ran. */
  search_report?: SearchReport | null;
  /** One row per cited study, in citation order (issue 21); null for reviews made before the table existed. */
  evidence_table?: EvidenceRow[] | null;
}

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

const base = "/literature_review";
const idPath = (id: string) => encodeURIComponent(id);

/** GET /literature_review/history, newest first. */
export async function fetchHistory(signal?: AbortSignal): Promise<ReviewHistory> {
  const page = await api<ReviewHistory>("GET", `${base}/history`, { query: { skip: 0, limit: HISTORY_LIMIT }, signal });
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
  return api<ReviewDetails>("GET", `${base}/details/${idPath(id)}`, {
    query: { fts_skip: skipFor(ftsPage, FTS_PAGE_SIZE), fts_limit: FTS_PAGE_SIZE },
    signal,
  });
}

/** POST /literature_review/create: a new review in status initial. */
export function createReview(): Promise<ReviewSummary> {
  return api<ReviewSummary>("POST", `${base}/create`);
}

/** POST /literature_review/start/{id}?user_query=…: queues the review. */
export function startReview(
  id: string,
  userQuery: string,
  filters: Record<string, string> = {},
): Promise<Partial<ReviewSummary>> {
  return api<Partial<ReviewSummary>>("POST", `${base}/start/${idPath(id)}`, {
    query: { ...filters, user_query: userQuery },
  });
}

/** DELETE /literature_review/delete/{id}. */
export function deleteReview(id: string): Promise<unknown> {
  return api<unknown>("DELETE", `${base}/delete/${idPath(id)}`);
}

/** The details a brand-new review has, so selecting it shows the topic input at once. */
export function emptyDetails(review: ReviewSummary): ReviewDetails {
  return {
    id: review.id,
    status: review.status,
    user_query: review.user_query,
    summary: null,
    articles_refs: [],
    fts_articles_refs: [],
    fts_articles_total_count: 0,
  };
}

/** True while a review waits for its topic: status initial and no query yet (docs/product.md §2: only then the input shows). */
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
