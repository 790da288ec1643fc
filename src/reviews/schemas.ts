import { z } from "zod";
import type { AbstractSection } from "../db/types.ts";
import { paginationSchema } from "../users/schemas.ts";

/** Longest review topic accepted (a topic or a few keywords, not a document). */
export const MAX_QUERY_LENGTH = 500;

/** Statuses in which the pipeline still has work to do. */
export const PIPELINE_STATUSES = ["searching", "sorting", "summarizing"] as const;

/** GET /history: `skip` (default 0) and `limit` (default 100, at most 1000), as every list of the API. */
export const historyQuerySchema = paginationSchema;

const EMPTY_TOPIC = "Review topic cannot be empty.";

/** POST /start/{id}: the topic, trimmed; blank or missing is refused with the page's own message (spec §5). */
export const startQuerySchema = z.object({
  user_query: z
    .string({ error: EMPTY_TOPIC })
    .trim()
    .min(1, EMPTY_TOPIC)
    .max(MAX_QUERY_LENGTH, `Review topic must be at most ${MAX_QUERY_LENGTH} characters.`),
});

/** GET /details/{id}: paging of the relevant-articles list (the page shows 6 at a time, spec §9). */
export const detailsQuerySchema = z.object({
  fts_skip: z.coerce.number({ error: "fts_skip must be a number" }).int().min(0).default(0),
  fts_limit: z.coerce.number({ error: "fts_limit must be a number" }).int().min(1).max(1000).default(6),
});

/** A review as the history list and create/start responses show it (spec §3). */
export interface ReviewPublic {
  id: string;
  user_query: string | null;
  status: string;
  created_at: Date;
  updated_at: Date;
}

/** GET /status/{id}: what a poll needs. */
export interface ReviewStatusPublic {
  id: string;
  status: string;
  user_query: string | null;
  updated_at: Date;
}

/**
 * An article as the review lists show it (spec §3), plus publication types and structured abstract sections,
 * which the cards and the reference dialog can use.
 */
export interface ArticlePublic {
  pmid: number;
  title: string | null;
  authors: string | null;
  abstract: string | null;
  journal: string | null;
  /** YYYY-MM-DD or null. */
  publication_date: string | null;
  doi: string | null;
  full_text_link: string | null;
  pdf_free_link: string | null;
  publication_types: string[];
  abstract_sections: AbstractSection[];
}

/** GET /details/{id} (spec §3). */
export interface ReviewDetails {
  id: string;
  status: string;
  user_query: string | null;
  summary: string | null;
  /** Cited articles in citation order: the summary's [n] is articles_refs[n - 1]. */
  articles_refs: ArticlePublic[];
  /** One page of all relevant articles, best first. */
  fts_articles_refs: ArticlePublic[];
  fts_articles_total_count: number;
  created_at: Date;
  updated_at: Date;
}
