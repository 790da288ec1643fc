import { z } from "@hono/zod-openapi";
import { DESIGN_INFO, RECORD_DESIGNS, type RecordDesign, studyDesign } from "../articles/evidence.ts";

/**
 * Optional filters of a review (issue 13): publication years, study designs, humans only, free full text. They are
 * optional query parameters of the start call; absent, a review runs as before. They are stored with the review and
 * shown under its query. The year range is applied by the search index itself (every adapter supports it); the
 * others are read from the article rows of the candidates (see pipeline.ts), because they are record attributes
 * the full-text index does not hold.
 */
export interface ReviewFilters {
  year_from?: number;
  year_to?: number;
  /** Keep only articles of these designs (src/articles/evidence.ts codes). */
  study_designs?: RecordDesign[];
  /** Keep only articles with the MeSH check tag Humans. */
  humans_only?: boolean;
  /** Keep only articles with free full text (PubMed Central, or the NCBI Bookshelf for books). */
  free_full_text?: boolean;
}

/** Earliest publication year a filter accepts (PubMed's oldest records are from the late 18th century). */
export const MIN_FILTER_YEAR = 1780;
/** Latest: next year (records of issues dated next year appear in December). */
export const maxFilterYear = () => new Date().getUTCFullYear() + 1;

/** A year as the filter takes it: four plain ASCII digits, nothing else (no sign, space, point, exponent or "0x"). */
const YEAR_DIGITS = /^[0-9]{4}$/;

// Plain digits only: a number coercion would also take "0x7E0", "2e3", " 2020" or "2020.0" as years, so the text is
// checked first and only then read as a number.
const year = (name: string) =>
  z
    .string({ error: `${name} must be a year` })
    .regex(YEAR_DIGITS, `${name} must be a year written as four digits, such as 2020`)
    .transform(Number)
    .pipe(z.number().int().min(MIN_FILTER_YEAR, `${name} must be ${MIN_FILTER_YEAR} or later`))
    .refine((y) => y <= maxFilterYear(), `${name} must not be after next year`)
    .optional();

const flag = (name: string) =>
  z
    .enum(["true", "false", "1", "0"], { error: `${name} must be true or false` })
    .transform((v) => v === "true" || v === "1")
    .optional();

/** The filter query parameters of POST /start/{id}; see ReviewFilters. */
export const filterQueryFields = {
  year_from: year("year_from").openapi({
    description: "Earliest publication year, inclusive: four digits",
    example: "2010",
  }),
  year_to: year("year_to").openapi({ description: "Latest publication year, inclusive: four digits", example: "2024" }),
  study_designs: z
    .string()
    .max(400)
    .transform((v, ctx) => {
      const codes = [
        ...new Set(
          v
            .split(",")
            .map((s) => s.trim())
            .filter((s) => s !== ""),
        ),
      ];
      const unknown = codes.filter((c) => !(RECORD_DESIGNS as readonly string[]).includes(c));
      if (unknown.length > 0) {
        ctx.addIssue({
          code: "custom",
          message: `Unknown study design: ${unknown.join(", ")}. Use: ${RECORD_DESIGNS.join(", ")}.`,
        });
        return z.NEVER;
      }
      return codes as RecordDesign[];
    })
    .optional()
    .openapi({
      description: `Comma-separated study designs to keep: ${RECORD_DESIGNS.join(", ")}`,
      example: "meta-analysis,systematic-review,rct",
    }),
  humans_only: flag("humans_only").openapi({ description: "Only studies in humans (MeSH check tag Humans)" }),
  free_full_text: flag("free_full_text").openapi({ description: "Only articles with free full text" }),
};

/** The message of a year range given backwards. */
export const YEAR_RANGE_BACKWARDS = "year_from must not be after year_to.";

/** The filters that were given, or null when none was (the review then runs unfiltered, as before). */
export function normalizeFilters(input: ReviewFilters): ReviewFilters | null {
  const out: ReviewFilters = {};
  if (input.year_from !== undefined) out.year_from = input.year_from;
  if (input.year_to !== undefined) out.year_to = input.year_to;
  if (input.study_designs !== undefined && input.study_designs.length > 0)
    out.study_designs = [...input.study_designs].sort();
  if (input.humans_only) out.humans_only = true;
  if (input.free_full_text) out.free_full_text = true;
  return Object.keys(out).length > 0 ? out : null;
}

/** Stored filters (literature_reviews.search_filters, jsonb) as ReviewFilters; anything malformed is dropped. */
export function storedFilters(value: unknown): ReviewFilters | null {
  const parsed = typeof value === "string" ? (JSON.parse(value) as unknown) : value;
  if (!parsed || typeof parsed !== "object") return null;
  const v = parsed as Record<string, unknown>;
  return normalizeFilters({
    year_from: typeof v.year_from === "number" ? v.year_from : undefined,
    year_to: typeof v.year_to === "number" ? v.year_to : undefined,
    study_designs: Array.isArray(v.study_designs)
      ? v.study_designs.filter((d): d is RecordDesign => (RECORD_DESIGNS as readonly unknown[]).includes(d))
      : undefined,
    humans_only: v.humans_only === true,
    free_full_text: v.free_full_text === true,
  });
}

/** Whether the filters need the article rows (anything besides the year range, which the index applies). */
export function needsArticleFilter(filters: ReviewFilters | null): boolean {
  return (
    !!filters &&
    (filters.study_designs !== undefined || filters.humans_only === true || filters.free_full_text === true)
  );
}

/** What an article must have for the row filters. */
export interface FilterableArticle {
  publication_types: string[];
  mesh_terms: string[];
  pmc_id: string | null;
  full_text_link: string | null;
}

/** Whether an article passes the row filters (designs, humans only, free full text). */
export function passesFilters(filters: ReviewFilters | null, article: FilterableArticle): boolean {
  if (!filters) return true;
  if (filters.study_designs) {
    const design = studyDesign(article.publication_types ?? [], article.mesh_terms ?? []);
    if (design === null || !filters.study_designs.includes(design)) return false;
  }
  if (filters.humans_only && !(article.mesh_terms ?? []).includes("Humans")) return false;
  if (filters.free_full_text && !article.pmc_id && !article.full_text_link) return false;
  return true;
}

/** The filters as a reader sees them, one phrase each ("Published 2010–2024", "Humans only"). */
export function describeFilters(filters: ReviewFilters | null): string[] {
  if (!filters) return [];
  const out: string[] = [];
  const { year_from: from, year_to: to } = filters;
  if (from !== undefined && to !== undefined)
    out.push(from === to ? `Published in ${from}` : `Published ${from}–${to}`);
  else if (from !== undefined) out.push(`Published ${from} or later`);
  else if (to !== undefined) out.push(`Published ${to} or earlier`);
  if (filters.study_designs) out.push(filters.study_designs.map((d) => DESIGN_INFO[d].label).join(", "));
  if (filters.humans_only) out.push("Humans only");
  if (filters.free_full_text) out.push("Free full text");
  return out;
}
