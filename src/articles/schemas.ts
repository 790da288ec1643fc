import { z } from "@hono/zod-openapi";

/** One labelled part of a structured abstract (label "" when unlabelled). */
export const AbstractSectionSchema = z.object({ label: z.string(), nlm_category: z.string().nullable(), text: z.string() }).openapi("AbstractSection");

/**
 * An article as every list of the API shows it (spec §3: review lists, likes, shares, suggestions), plus what the
 * cards use besides: publication types, structured abstract sections, and how precise the publication date is.
 */
export const ArticlePublicSchema = z
  .object({
    pmid: z.number().int(),
    title: z.string().nullable(),
    authors: z.string().nullable(),
    abstract: z.string().nullable(),
    journal: z.string().nullable(),
    publication_date: z
      .string()
      .nullable()
      .openapi({ description: "YYYY-MM-DD. When the record gives only a month or a year, the first day of it: see publication_date_precision", example: "2019-06-01" }),
    publication_date_precision: z
      .enum(["day", "month", "year"])
      .nullable()
      .openapi({ description: "What the PubMed record states of the date: show 'Jun 2019' for month, '2019' for year; null when unknown" }),
    doi: z.string().nullable(),
    full_text_link: z.string().nullable(),
    pdf_free_link: z.string().nullable(),
    publication_types: z.array(z.string()),
    abstract_sections: z.array(AbstractSectionSchema),
  })
  .openapi("Article");
export type ArticlePublic = z.infer<typeof ArticlePublicSchema>;
