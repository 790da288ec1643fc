import { sql } from "kysely";
import type { Database } from "../db/database.ts";
import type { ArticleEvidence, ArticlePublic, KeptArticle } from "./schemas.ts";
import { DESIGN_INFO, isRetracted, studyDesign, subjectsOf } from "./evidence.ts";

// How the API reads an article row (table alias "a"), shared by every domain that lists articles.

/** The `articles` columns of ArticlePublic, for a query that aliases the table as "a". */
export const articleColumns = [
  "a.pmid",
  "a.title",
  "a.authors",
  "a.abstract",
  "a.journal",
  sql<string | null>`a.publication_date::text`.as("publication_date"),
  "a.publication_date_precision",
  "a.doi",
  "a.full_text_link",
  "a.pdf_free_link",
  "a.publication_types",
  "a.abstract_sections",
  "a.mesh_terms",
  "a.retraction_notice_pmid",
] as const;

type ArticleColumnsRow = Omit<ArticlePublic, "abstract_sections" | "publication_date_precision" | keyof ArticleEvidence> & {
  abstract_sections: unknown;
  publication_date_precision: string | null;
  mesh_terms: string[];
  retraction_notice_pmid: number | null;
};

/**
 * The evidence fields of an article (study design, subjects, retraction) from its publication types, MeSH headings
 * and retraction notice (src/articles/evidence.ts).
 */
export function evidenceOf(publicationTypes: readonly string[], meshTerms: readonly string[], retractionNoticePmid: number | null): ArticleEvidence {
  const design = studyDesign(publicationTypes, meshTerms);
  return {
    study_design: design,
    study_design_label: design && DESIGN_INFO[design].label,
    study_design_abbreviation: design && DESIGN_INFO[design].abbreviation,
    subjects: subjectsOf(meshTerms),
    retracted: isRetracted(publicationTypes, retractionNoticePmid),
    retraction_notice_pmid: retractionNoticePmid,
  };
}

/** A row selected with `articleColumns` as ArticlePublic (abstract sections parsed whichever driver read them). */
export function toArticlePublic<R extends ArticleColumnsRow>(row: R): Omit<R, "abstract_sections" | "publication_date_precision" | "mesh_terms"> & ArticlePublic {
  const { mesh_terms, ...rest } = row;
  const sections = typeof row.abstract_sections === "string" ? JSON.parse(row.abstract_sections) : row.abstract_sections;
  const p = row.publication_date_precision;
  return {
    ...rest,
    abstract_sections: Array.isArray(sections) ? sections : [],
    publication_date_precision: p === "day" || p === "month" || p === "year" ? p : null,
    ...evidenceOf(row.publication_types ?? [], mesh_terms ?? [], row.retraction_notice_pmid ?? null),
  } as Omit<R, "abstract_sections" | "publication_date_precision" | "mesh_terms"> & ArticlePublic;
}

/** The columns of a kept article (KeptArticleSchema): articleColumns without the structured abstract's sections. */
export const keptArticleColumns = articleColumns.filter((c) => c !== "a.abstract_sections") as unknown as Exclude<(typeof articleColumns)[number], "a.abstract_sections">[];

/** A row of `keptArticleColumns` read through a LEFT JOIN (every column may be null), with the kept PMID. */
export type KeptArticleRow = { [K in Exclude<keyof ArticleColumnsRow, "abstract_sections">]?: ArticleColumnsRow[K] | null } & { article_pmid: number; a_pmid: number | null };

/**
 * A kept article (like, share) read through `LEFT JOIN articles a`: the article's columns when the record is still
 * in the index, else only its PMID with `in_index` false. `row.a_pmid` is null exactly when the record is gone.
 */
export function toKeptArticle(row: KeptArticleRow): KeptArticle {
  const p = row.publication_date_precision;
  return {
    pmid: row.article_pmid,
    title: row.title ?? null,
    authors: row.authors ?? null,
    abstract: row.abstract ?? null,
    journal: row.journal ?? null,
    publication_date: row.publication_date ?? null,
    publication_date_precision: p === "day" || p === "month" || p === "year" ? p : null,
    doi: row.doi ?? null,
    full_text_link: row.full_text_link ?? null,
    pdf_free_link: row.pdf_free_link ?? null,
    publication_types: row.publication_types ?? [],
    ...evidenceOf(row.publication_types ?? [], row.mesh_terms ?? [], row.retraction_notice_pmid ?? null),
    in_index: row.a_pmid !== null,
  };
}

/** Reads one article as ArticlePublic, or undefined when the index does not hold it. */
export async function readArticle(db: Database, pmid: number): Promise<ArticlePublic | undefined> {
  const row = await db.selectFrom("articles as a").select(articleColumns).where("a.pmid", "=", pmid).executeTakeFirst();
  return row ? toArticlePublic(row) : undefined;
}
