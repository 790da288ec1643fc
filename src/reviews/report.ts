import { z } from "@hono/zod-openapi";
import { sql } from "kysely";
import type { Database } from "../db/database.ts";
import { parseQuery } from "../../search/query.ts";
import type { TopicReading } from "../../search/concepts.ts";

/**
 * "How this review was made" (issue 13): the query as the engine read it, the counts from the index to the citations
 * (a PRISMA-style flow: Page et al., "The PRISMA 2020 statement", BMJ 2021;372:n71, adapted to one automated
 * search), the filters and the corpus the review ran on. Written by the pipeline, read by the review page.
 */
/** What the review's PubMed step did (issue 19, src/reviews/pubmed-step.ts); absent when PubMed was not asked. */
export const PubmedReportSchema = z
  .object({
    outcome: z.enum(["fetched", "budget", "timeout", "error"]).openapi({
      description:
        "fetched: PubMed answered (records may all have been held already); budget: the user's daily allowance capped the fetch; timeout, error: the review went on with the local index",
    }),
    term: z
      .string()
      .openapi({ description: "The query sent to PubMed: the topic as written, with the filters as field tags" }),
    query_translation: z.string().nullable().openapi({
      description: "The query as PubMed translated it (automatic term mapping); null when PubMed did not answer",
    }),
    total: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "PubMed's count of matching records; null when PubMed did not answer" }),
    considered: z.number().int().openapi({
      description: "Best-matching PMIDs PubMed returned (its Best Match order), at most the per-review cap",
    }),
    already_held: z.number().int().openapi({ description: "Of those, records the index already held" }),
    fetched: z
      .number()
      .int()
      .openapi({ description: "Records fetched from PubMed and added to the index for this review" }),
    failed: z.number().int().openapi({
      description:
        "Records that could not be fetched (PubMed failing after retries) or read (malformed or truncated XML)",
    }),
    searched_at: z.string().openapi({ description: "When PubMed was asked (ISO 8601)" }),
    note: z.string().nullable().openapi({
      description: "One plain sentence when the step fell short (PubMed slow or unreachable, the daily allowance)",
    }),
  })
  .openapi("PubmedReport");
export type PubmedReport = z.infer<typeof PubmedReportSchema>;

export const SearchReportSchema = z
  .object({
    query: z.object({
      concepts: z.array(z.object({ label: z.string(), alternatives: z.array(z.string()) })).openapi({
        description:
          "Concepts every cited article covers; alternatives include abbreviations' long forms learned from the corpus",
      }),
      generic_words: z
        .array(z.string())
        .openapi({ description: "Words that rank but are not required (too common to define the topic)" }),
      phrases: z
        .array(z.string())
        .openapi({ description: "Quoted phrases, which rank articles holding them exactly higher" }),
      excluded: z
        .array(z.string())
        .openapi({ description: "Words or phrases after a minus, which no article may contain" }),
      pubmed_syntax: z.string().nullable().optional().openapi({
        description:
          "A topic written in PubMed's search syntax, as evaluated on the local index (field tags, Boolean, phrases, truncation); null for a plain-language topic",
      }),
    }),
    pubmed_not_asked: z.string().nullable().optional().openapi({
      description:
        "Why PubMed was not asked, in one sentence (the index already held enough covering articles, or PubMed on demand is off); null when it was asked, absent for older reviews",
    }),
    filters: z.array(z.string()).openapi({
      description: "The filters, as phrases; empty when none",
      example: ["Published 2010–2024", "Humans only"],
    }),
    counts: z.object({
      matched: z.number().int().openapi({
        description: "Articles in the index that address every concept (within the year range, if any): exact",
      }),
      screened: z.number().int().openapi({ description: "Of those, the best-matching ones retrieved and re-ranked" }),
      after_filters: z.number().int().nullable().openapi({
        description:
          "Of those, the ones that pass the study-design, humans and full-text filters; null without such filters",
      }),
      relevant: z
        .number()
        .int()
        .openapi({ description: "Of the screened articles, those kept as relevant (they cover every concept)" }),
      partial: z.number().int().openapi({
        description:
          "Partial matches (some concepts only, above the relevance floor) listed after the relevant ones; never cited",
      }),
      summarized: z
        .number()
        .int()
        .openapi({ description: "Best-ranked covering articles the summary was written from" }),
      retracted_excluded: z.number().int().openapi({ description: "Of those, retracted articles, never cited" }),
      cited: z.number().int().openapi({ description: "Articles the summary cites" }),
    }),
    pubmed: PubmedReportSchema.nullable().optional().openapi({
      description:
        "What PubMed on demand did for this review; null or absent when PubMed was not asked (the index held enough, or on-demand is off)",
    }),
    corpus: z.object({
      records: z.number().int().openapi({ description: "Articles in the index when the review ran" }),
      last_updated: z.string().nullable().openapi({ description: "When the corpus last changed (ISO 8601)" }),
    }),
  })
  .openapi("SearchReport");
export type SearchReport = z.infer<typeof SearchReportSchema>;

/** The query part of the report from the topic's reading and the text as typed. */
export function queryReading(topic: string, reading: TopicReading): SearchReport["query"] {
  const segments = parseQuery(topic);
  return {
    concepts: reading.concepts.map((c) => ({ label: c.label, alternatives: [...c.alternatives] })),
    generic_words: [...reading.generic],
    phrases: segments.filter((s) => s.kind === "phrase").map((s) => s.text),
    excluded: segments.filter((s) => s.kind === "exclude").map((s) => s.text),
  };
}

/** The corpus now: its number of records and when a record last changed. One aggregate over `articles`. */
export async function corpusSnapshot(db: Database): Promise<SearchReport["corpus"]> {
  const row = await db
    .selectFrom("articles")
    .select([
      sql<number>`count(*)::int`.as("records"),
      sql<string | null>`to_char(max(updated_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`.as("last_updated"),
    ])
    .executeTakeFirstOrThrow();
  return { records: Number(row.records), last_updated: row.last_updated };
}

/** A stored report (literature_reviews.search_report, jsonb), or null when absent or not in this shape. */
export function storedReport(value: unknown): SearchReport | null {
  const parsed = typeof value === "string" ? (JSON.parse(value) as unknown) : value;
  const result = SearchReportSchema.safeParse(parsed);
  return result.success ? result.data : null;
}
