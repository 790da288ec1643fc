import { z } from "@hono/zod-openapi";
import { STUDY_DESIGNS } from "./evidence.ts";
import { RECORD_KINDS } from "../db/column-types.ts";

/** What a card shows of an article's evidence (src/articles/evidence.ts), derived from its PubMed record. */
export const ArticleEvidenceSchema = z
  .object({
    study_design: z.enum(STUDY_DESIGNS).nullable().openapi({
      description: "From publication types and study-design MeSH headings; null when the record names none",
      example: "rct",
    }),
    study_design_label: z.string().nullable().openapi({ example: "Randomized controlled trial" }),
    study_design_abbreviation: z
      .string()
      .nullable()
      .openapi({ description: "Short form for a citation badge", example: "RCT" }),
    subjects: z
      .enum(["humans", "animals", "humans_and_animals"])
      .nullable()
      .openapi({ description: "From the MeSH check tags Humans and Animals" }),
    retracted: z.boolean().openapi({ description: "PubMed marks the article retracted; it is never cited as support" }),
    retraction_notice_pmid: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "PMID of the retraction notice, when PubMed links one" }),
  })
  .openapi("ArticleEvidence");
export type ArticleEvidence = z.infer<typeof ArticleEvidenceSchema>;

/** One labelled part of a structured abstract (label "" when unlabelled). */
export const AbstractSectionSchema = z
  .object({ label: z.string(), nlm_category: z.string().nullable(), text: z.string() })
  .openapi("AbstractSection");

/** One author of an article: a person (family name, given name, initials, suffix, ORCID), or a group named whole. */
export const PersonAuthorSchema = z
  .object({
    family: z.string().openapi({ example: "Crawford" }),
    given: z.string().nullable().openapi({ example: "Charles H" }),
    initials: z
      .string()
      .nullable()
      .openapi({ description: "As PubMed gives them, non-ASCII letters kept", example: "CH" }),
    suffix: z.string().nullable().openapi({ example: "3rd" }),
    orcid: z
      .string()
      .nullable()
      .openapi({ description: "ORCID iD, 0000-0000-0000-000X", example: "0000-0002-1825-0097" }),
  })
  .openapi("PersonAuthor");
export const GroupAuthorSchema = z
  .object({
    group: z.string().openapi({
      description: "A collective author's name, whole (commas included)",
      example: "International Spine Study Group, Denver, CO",
    }),
  })
  .openapi("GroupAuthor");
export const AuthorEntrySchema = z.union([PersonAuthorSchema, GroupAuthorSchema]).openapi("AuthorEntry");
export type AuthorEntry = z.infer<typeof AuthorEntrySchema>;

/** What a reference manager needs to cite an article (issue 20), from its PubMed record. */
export const ArticleCitationSchema = z.object({
  volume: z.string().nullable().openapi({ example: "32" }),
  issue: z.string().nullable().openapi({ description: "A supplement included", example: "19 Suppl" }),
  pages: z.string().nullable().openapi({
    description: "Written out in full (MEDLINE's pages, else start-end page, else an e-only article's location id)",
    example: "S120-S125",
  }),
  medline_pages: z
    .string()
    .nullable()
    .openapi({ description: "MEDLINE's page text as given, end page abbreviated", example: "S120-5" }),
  journal_abbreviation: z
    .string()
    .nullable()
    .openapi({ description: "ISO abbreviation, else NLM's title abbreviation", example: "Spine" }),
  citation: z.string().nullable().openapi({
    description: "The citation line as PubMed shows it (NLM style)",
    example: "Spine (Phila Pa 1976). 2007 Sep 1;32(19 Suppl):S120-5.",
  }),
  author_list: z
    .array(AuthorEntrySchema)
    .openapi({ description: "The authors, structured, in order; `authors` is the same list as one display string" }),
  record_kind: z.enum(RECORD_KINDS).openapi({ description: "A journal article, a whole book, or a part of a book" }),
});
export type ArticleCitation = z.infer<typeof ArticleCitationSchema>;

/**
 * An article as every list of the API shows it (docs/product.md §3: review lists, likes, shares, suggestions), plus
 * what the cards use besides: publication types, structured abstract sections, and how precise the publication date is.
 */
export const ArticlePublicSchema = z
  .object({
    pmid: z.number().int(),
    title: z.string().nullable(),
    authors: z.string().nullable(),
    abstract: z.string().nullable(),
    journal: z.string().nullable(),
    publication_date: z.string().nullable().openapi({
      description:
        "YYYY-MM-DD. When the record gives only a month or a year, the first day of it: see publication_date_precision",
      example: "2019-06-01",
    }),
    publication_date_precision: z.enum(["day", "month", "year"]).nullable().openapi({
      description:
        "What the PubMed record states of the date: show 'Jun 2019' for month, '2019' for year; null when unknown",
    }),
    doi: z.string().nullable(),
    full_text_link: z.string().nullable(),
    pdf_free_link: z.string().nullable(),
    publication_types: z.array(z.string()),
    abstract_sections: z.array(AbstractSectionSchema),
  })
  .extend(ArticleCitationSchema.shape)
  .extend(ArticleEvidenceSchema.shape)
  .openapi("Article");
export type ArticlePublic = z.infer<typeof ArticlePublicSchema>;

/**
 * An article a user keeps (a like, a received share). It outlives the record: when PubMed deletes the record
 * (DeleteCitation on ingest) the entry stays, with `in_index` false and only its PMID
 * (docs/decisions/0016-likes-and-shares.md). Without the structured abstract's sections, which repeat the abstract:
 * these lists are loaded whole by every page of the layout.
 */
export const KeptArticleSchema = ArticlePublicSchema.omit({ abstract_sections: true })
  .extend({
    in_index: z
      .boolean()
      .openapi({ description: "false when the record has since been removed from the index (then only pmid is set)" }),
  })
  .openapi("KeptArticle");
export type KeptArticle = z.infer<typeof KeptArticleSchema>;

/** The `{article_pmid}` path parameter: a PubMed identifier, a positive integer of at most 9 digits. */
export const pmidParamSchema = z.object({
  article_pmid: z.coerce
    .number({ error: "PMID must be a number" })
    .int("PMID must be a whole number")
    .min(1, "PMID must be positive")
    .max(999_999_999, "PMID must have at most 9 digits")
    .openapi({ param: { name: "article_pmid", in: "path" }, example: 31_452_104 }),
});
