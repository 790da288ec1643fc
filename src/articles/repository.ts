import { sql } from "kysely";
import type { ArticlePublic } from "./schemas.ts";

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
] as const;

type ArticleColumnsRow = Omit<ArticlePublic, "abstract_sections" | "publication_date_precision"> & {
  abstract_sections: unknown;
  publication_date_precision: string | null;
};

/** A row selected with `articleColumns` as ArticlePublic (abstract sections parsed whichever driver read them). */
export function toArticlePublic<R extends ArticleColumnsRow>(row: R): Omit<R, "abstract_sections" | "publication_date_precision"> & ArticlePublic {
  const sections = typeof row.abstract_sections === "string" ? JSON.parse(row.abstract_sections) : row.abstract_sections;
  const p = row.publication_date_precision;
  return {
    ...row,
    abstract_sections: Array.isArray(sections) ? sections : [],
    publication_date_precision: p === "day" || p === "month" || p === "year" ? p : null,
  };
}
