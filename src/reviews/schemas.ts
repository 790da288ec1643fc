import {
  checkStrategyLimits,
  isPubmedSyntax,
  MAX_STRATEGY_DEPTH,
  MAX_STRATEGY_DISTINCT_CHARACTERS,
  MAX_STRATEGY_TERMS,
  parsePubmedQuery,
  PubmedQuerySyntaxError,
} from "../../search/pubmed/query-syntax.ts";
import { z } from "@hono/zod-openapi";
import { MAX_SKIP, paginationSchema } from "../users/schemas.ts";
import { ArticlePublicSchema } from "../articles/schemas.ts";
import { filterQueryFields, YEAR_RANGE_BACKWARDS } from "./filters.ts";
import { SearchReportSchema } from "./report.ts";
import { type EvidenceRow, EvidenceRowSchema } from "./evidence/schemas.ts";
import { NO_APPRAISAL } from "./evidence/types.ts";
import { REVIEW_STATUSES } from "../db/column-types.ts";
import {
  EMPTY_TOPIC,
  MAX_QUERY_LENGTH,
  MAX_STRATEGY_LENGTH,
  topicLimit,
  topicTooLongMessage,
} from "../rules/review-topic.ts";

export { ArticlePublicSchema, type ArticlePublic } from "../articles/schemas.ts";

export { MAX_QUERY_LENGTH, MAX_STRATEGY_LENGTH } from "../rules/review-topic.ts";

/** Statuses in which the pipeline still has work to do. */
export const PIPELINE_STATUSES = ["searching", "sorting", "summarizing"] as const;

/** GET /history: `skip` (default 0) and `limit` (default 100, at most 1000), as every list of the API. */
export const historyQuerySchema = paginationSchema;

/**
 * Why a topic written in PubMed's search syntax cannot be read, or is beyond what a strategy may hold (its terms,
 * nesting and characters, search/pubmed/query-syntax/limits.ts): "Search strategy: …"; null when it can be read or is
 * plain.
 */
function pubmedSyntaxError(topic: string): string | null {
  if (!isPubmedSyntax(topic)) return null;
  try {
    checkStrategyLimits(topic, parsePubmedQuery(topic));
    return null;
  } catch (err) {
    if (err instanceof PubmedQuerySyntaxError)
      return `Search strategy: ${err.message.charAt(0).toLowerCase()}${err.message.slice(1)}`;
    throw err;
  }
}

/**
 * POST /start/{id}: the topic, trimmed; blank or missing is refused with the page's own message (docs/product.md §5);
 * and the optional filters (src/reviews/filters.ts), absent meaning none.
 */
export const startQuerySchema = z
  .object({
    user_query: z
      .string({ error: EMPTY_TOPIC })
      .trim()
      .min(1, EMPTY_TOPIC)
      .superRefine((topic, ctx) => {
        // A plain topic is a few words; a search strategy in PubMed's syntax may be longer, and one that does not parse
        // is refused with the reason, rather than read as words.
        const strategy = isPubmedSyntax(topic);
        const max = topicLimit(strategy);
        if (topic.length > max) {
          const message = topicTooLongMessage(strategy);
          ctx.addIssue({ code: "too_big", origin: "string", maximum: max, inclusive: true, input: topic, message });
          return;
        }
        const error = pubmedSyntaxError(topic);
        if (error) ctx.addIssue({ code: "custom", message: error });
      })
      .openapi({
        description:
          `The topic or keywords, 1 to ${MAX_QUERY_LENGTH} characters after trimming. "quoted phrases" rank higher; -word excludes. ` +
          `A search strategy in PubMed's syntax (field tags such as [tiab] or [mh], AND/OR/NOT with parentheses, word*), up to ${MAX_STRATEGY_LENGTH} characters, ` +
          `${MAX_STRATEGY_TERMS} terms, ${MAX_STRATEGY_DEPTH} levels of nesting and ${MAX_STRATEGY_DISTINCT_CHARACTERS} different characters (not counting case), is evaluated as PubMed does.`,
        example: "risk factors for nasopharyngeal carcinoma",
        maxLength: MAX_STRATEGY_LENGTH,
      }),
    ...filterQueryFields,
  })
  .refine((q) => q.year_from === undefined || q.year_to === undefined || q.year_from <= q.year_to, {
    message: YEAR_RANGE_BACKWARDS,
    path: ["year_from"],
  });

/** The `{lit_review_id}` path parameter. Not validated as a uuid: any id that is not the user's review is 404. */
export const reviewIdParamSchema = z.object({
  lit_review_id: z
    .string()
    .max(100, "Review id must be at most 100 characters")
    .openapi({ param: { name: "lit_review_id", in: "path" }, format: "uuid" }),
});

/** GET /details/{id}: paging of the relevant-articles list (the page shows 6 at a time, docs/product.md §9). */
export const detailsQuerySchema = z.object({
  fts_skip: z.coerce
    .number({ error: "fts_skip must be a number" })
    .int()
    .min(0)
    .max(MAX_SKIP, `fts_skip must be at most ${MAX_SKIP}`)
    .default(0),
  fts_limit: z.coerce.number({ error: "fts_limit must be a number" }).int().min(1).max(1000).default(6),
});

/** The status of a review (docs/product.md §4). */
const StatusSchema = z.enum(REVIEW_STATUSES);

/** A review as the history list and create/start responses show it (docs/product.md §3). */
export const ReviewPublicSchema = z
  .object({
    id: z.uuid(),
    user_query: z.string().nullable(),
    status: StatusSchema,
    // Beyond the product's history item: a filtered and an unfiltered review of one topic must be told apart in the
    // list.
    filters: z.array(z.string()).openapi({
      description: "The filters the review was started with, as phrases (as in the details); empty when none",
      example: ["Published 2010–2024", "Humans only"],
    }),
    created_at: z.date(),
    updated_at: z.date(),
  })
  .openapi("LiteratureReview");
export type ReviewPublic = z.infer<typeof ReviewPublicSchema>;

/** GET /history: a page of reviews, newest first, and the user's total. */
export const ReviewsPublicSchema = z
  .object({ data: z.array(ReviewPublicSchema), count: z.number().int() })
  .openapi("LiteratureReviews");

/** GET /status/{id}: what a poll needs. */
export const ReviewStatusSchema = z
  .object({
    id: z.uuid(),
    status: StatusSchema,
    user_query: z.string().nullable(),
    progress: z.string().nullable().openapi({
      description:
        'What the current step is doing, shown under the status while the review is in progress (e.g. "Fetching 143 records from PubMed…"); null when there is nothing to add',
      example: "Fetching 143 records from PubMed…",
    }),
    updated_at: z.date(),
  })
  .openapi("LiteratureReviewStatus");
export type ReviewStatusPublic = z.infer<typeof ReviewStatusSchema>;

/** An article of a review's relevant list: the article, and whether it covers every concept of the topic. */
export const ReviewArticleSchema = ArticlePublicSchema.extend({
  covers_topic: z
    .boolean()
    .openapi({ description: "false for a partial match: the article addresses only some of the topic's concepts" }),
}).openapi("ReviewArticle");
export type ReviewArticle = z.infer<typeof ReviewArticleSchema>;

/** A schema with its OpenAPI description. */
const described = <T extends z.ZodType>(schema: T, description: string) => schema.openapi({ description });

/** Measure codes of tables stored before measures had their full names ("odds_ratio" → "odds ratio"). */
function upgradeStoredRow(row: unknown): unknown {
  if (!row || typeof row !== "object") return row;
  const r = row as Record<string, unknown>;
  const effects = Array.isArray(r.effects)
    ? r.effects.map((e) =>
        e && typeof e === "object" && typeof (e as { measure?: unknown }).measure === "string"
          ? { ...e, measure: (e as { measure: string }).measure.replace(/_/gu, " ") }
          : e,
      )
    : r.effects;
  const appraisal =
    r.appraisal && typeof r.appraisal === "object" ? { sources: {}, ...(r.appraisal as object) } : NO_APPRAISAL;
  return {
    participants_arms: null,
    participants_text: null,
    same_cohort: [],
    ...r,
    appraisal,
    effects,
  };
}

/**
 * A stored evidence table (jsonb, read as an object or as text by the two drivers), or null when there is none or it
 * does not have the current shape. Tables stored before issue 33 (measure codes, no appraisal) are read with their
 * measures named and nothing appraised.
 */
export function storedEvidenceTable(value: unknown): EvidenceRow[] | null {
  if (value === null || value === undefined) return null;
  const raw = typeof value === "string" ? (JSON.parse(value) as unknown) : value;
  const parsed = Array.isArray(raw) ? raw.map(upgradeStoredRow) : raw;
  const result = z.array(EvidenceRowSchema).safeParse(parsed);
  return result.success ? result.data : null;
}

/** GET /details/{id} (docs/product.md §3). */
export const ReviewDetailsSchema = z
  .object({
    id: z.uuid(),
    status: StatusSchema,
    user_query: z.string().nullable(),
    progress: z.string().nullable().openapi({
      description:
        'What the current step is doing, shown under the status while the review is in progress (e.g. "Fetching 143 records from PubMed…"); null when there is nothing to add',
      example: "Fetching 143 records from PubMed…",
    }),
    summary: z
      .string()
      .nullable()
      .openapi({ description: 'Text with **bold**, "- " bullets and [n] citations; [n] is articles_refs[n - 1]' }),
    summary_engine: z.string().nullable().openapi({
      description:
        'Which engine wrote the summary: "extractive", or "language model <model> (<n> verified sentences)"; null for older reviews',
    }),
    articles_refs: z.array(ArticlePublicSchema).openapi({ description: "Cited articles in citation order" }),
    fts_articles_refs: z.array(ReviewArticleSchema).openapi({
      description: "One page of all relevant articles: those covering the whole topic best first, then partial matches",
    }),
    fts_articles_total_count: z.number().int().openapi({ description: "Articles in the relevant list (at most 100)" }),
    matching_articles_count: z.number().int().nullable().openapi({
      description:
        "Articles in the index that address every concept of the topic (exact); null for reviews made before this count existed",
    }),
    topic_concepts: z.array(z.string()).openapi({
      description: "The concepts the topic was read as, each required of a cited article",
      example: ["nasopharyngeal", "carcinoma"],
    }),
    filters: z.array(z.string()).openapi({
      description: "The filters the review was started with, as phrases; empty when none",
      example: ["Published 2010–2024", "Humans only"],
    }),
    search_report: SearchReportSchema.nullable().openapi({
      description: "How the review was made; null before the search ran and for older reviews",
    }),
    evidence_table: described(
      z.array(EvidenceRowSchema).nullable(),
      "One row per cited study, in citation order; every text cell is a span of its abstract or null. " +
        "Null for reviews made before the table existed and before the summary is written",
    ),
    created_at: z.date(),
    updated_at: z.date(),
  })
  .openapi("LiteratureReviewDetails");
export type ReviewDetails = z.infer<typeof ReviewDetailsSchema>;
