import type { SummaryArticle } from "../reviews/summary/types.ts";
import { sql, type Selectable } from "kysely";
import type { ArticlesTable } from "../db/types.ts";
import type { Database } from "../db/database.ts";
import type { ArticleCitation, ArticleEvidence, ArticlePublic, AuthorEntry, KeptArticle } from "./schemas.ts";
import { DESIGN_INFO, isRetracted, studyDesign, subjectsOf } from "./evidence.ts";
import { CITATION_COLUMNS, nlmCitation, pagesOf, type CitationSource } from "./citation.ts";

// How the API reads an article row (table alias "a"), shared by every domain that lists articles.

/** The columns the citation fields of ArticlePublic are computed from (citationOf). */
const CITATION_SOURCE_COLUMNS = [...CITATION_COLUMNS, "author_list"] as const;

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
  // The citation fields (ArticleCitation is made of them).
  ...CITATION_SOURCE_COLUMNS.map((c) => `a.${c}` as const),
] as const;

/** The stored columns the citation fields of ArticlePublic are computed from. */
type CitationColumns = Pick<Selectable<ArticlesTable>, (typeof CITATION_SOURCE_COLUMNS)[number]>;
/** Columns read only to compute others: not in the API's article. */
type RawCitationColumn = Exclude<keyof CitationColumns, keyof ArticleCitation>;

type ArticleColumnsRow = Omit<
  ArticlePublic,
  "abstract_sections" | "publication_date_precision" | keyof ArticleEvidence | keyof ArticleCitation
> &
  CitationColumns & {
    abstract_sections: unknown;
    publication_date_precision: string | null;
    mesh_terms: string[];
    retraction_notice_pmid: number | null;
  };

/** `author_list` as read (jsonb: parsed by one driver, text by the other), checked entry by entry. */
function authorListOf(value: unknown): AuthorEntry[] {
  const list = typeof value === "string" ? JSON.parse(value) : value;
  if (!Array.isArray(list)) return [];
  return list.filter(
    (e): e is AuthorEntry =>
      e !== null && typeof e === "object" && (typeof e.group === "string" || typeof e.family === "string"),
  );
}

/**
 * The citation fields of an article (src/articles/citation.ts): pages in full, the journal's abbreviation, PubMed's
 * citation line, the structured authors. Computed here, on the server, so the browser ships no formatter.
 */
export function citationOf(row: CitationSource & { author_list?: unknown }): ArticleCitation {
  const kind = row.record_kind === "book" || row.record_kind === "chapter" ? row.record_kind : "article";
  return {
    volume: row.volume ?? null,
    issue: row.issue ?? null,
    pages: pagesOf(row),
    medline_pages: row.medline_pages ?? null,
    journal_abbreviation: row.journal_iso_abbreviation || row.journal_medline_ta || null,
    citation: nlmCitation({ ...row, record_kind: kind }),
    author_list: authorListOf(row.author_list),
    record_kind: kind,
  };
}

/** Drops the columns that only feed computed fields. */
function withoutRawCitation<R extends CitationColumns>(
  row: R,
): Omit<R, RawCitationColumn | "author_list" | "record_kind"> {
  const {
    start_page: _s,
    end_page: _e,
    elocation_pii: _p,
    journal_iso_abbreviation: _i,
    journal_medline_ta: _t,
    book_title: _b,
    book_publisher: _u,
    book_publisher_place: _l,
    author_list: _a,
    record_kind: _k,
    ...rest
  } = row;
  return rest;
}

/**
 * The evidence fields of an article (study design, subjects, retraction) from its publication types, MeSH headings
 * and retraction notice (src/articles/evidence.ts).
 */
export function evidenceOf(
  publicationTypes: readonly string[],
  meshTerms: readonly string[],
  retractionNoticePmid: number | null,
): ArticleEvidence {
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
export function toArticlePublic<R extends ArticleColumnsRow>(
  row: R,
): Omit<R, "abstract_sections" | "publication_date_precision" | "mesh_terms" | keyof CitationColumns> & ArticlePublic {
  const { mesh_terms, ...rest } = withoutRawCitation(row);
  const sections =
    typeof row.abstract_sections === "string" ? JSON.parse(row.abstract_sections) : row.abstract_sections;
  const p = row.publication_date_precision;
  return {
    ...rest,
    abstract_sections: Array.isArray(sections) ? sections : [],
    publication_date_precision: p === "day" || p === "month" || p === "year" ? p : null,
    ...citationOf(row),
    ...evidenceOf(row.publication_types ?? [], mesh_terms ?? [], row.retraction_notice_pmid ?? null),
  } as unknown as Omit<R, "abstract_sections" | "publication_date_precision" | "mesh_terms" | keyof CitationColumns> &
    ArticlePublic;
}

/** The columns of a kept article (KeptArticleSchema): articleColumns without the structured abstract's sections. */
export const keptArticleColumns = articleColumns.filter((c) => c !== "a.abstract_sections") as unknown as Exclude<
  (typeof articleColumns)[number],
  "a.abstract_sections"
>[];

/** A row of `keptArticleColumns` read through a LEFT JOIN (every column may be null), with the kept PMID. */
export type KeptArticleRow = {
  [K in Exclude<keyof ArticleColumnsRow, "abstract_sections">]?: ArticleColumnsRow[K] | null;
} & { article_pmid: number; a_pmid: number | null };

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
    ...citationOf(row),
    ...evidenceOf(row.publication_types ?? [], row.mesh_terms ?? [], row.retraction_notice_pmid ?? null),
    in_index: row.a_pmid !== null,
  };
}

/** Reads one article as ArticlePublic, or undefined when the index does not hold it. */
export async function readArticle(db: Database, pmid: number): Promise<ArticlePublic | undefined> {
  const row = await db.selectFrom("articles as a").select(articleColumns).where("a.pmid", "=", pmid).executeTakeFirst();
  return row ? toArticlePublic(row) : undefined;
}

/**
 * One article as the evidence extractor reads it (abstract, sections, publication types, MeSH), or undefined when
 * the index does not hold it.
 */
export async function readSummaryArticle(db: Database, pmid: number): Promise<SummaryArticle | undefined> {
  const row = await db
    .selectFrom("articles")
    .select([
      "pmid",
      "title",
      "abstract",
      "abstract_sections",
      "publication_year",
      "publication_types",
      "mesh_terms",
      "retraction_notice_pmid",
    ])
    .where("pmid", "=", pmid)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    ...row,
    // A driver that leaves jsonb as text gives a string; the extractor then reads the plain abstract.
    abstract_sections: Array.isArray(row.abstract_sections) ? row.abstract_sections : [],
    publication_types: row.publication_types ?? [],
    mesh_terms: row.mesh_terms ?? [],
  };
}
