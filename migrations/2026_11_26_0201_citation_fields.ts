import { sql, type Kysely } from "kysely";

// Frozen in time: this file never imports application code.
// Issue 20, citation-grade records: what a reference manager needs to cite an article, kept from the PubMed XML.
// All nullable (or an empty array): records ingested before this migration have none until their file is ingested
// again (the content hash covers the new fields, so a re-ingest rewrites them).

/** Adds the citation columns to articles. */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    ALTER TABLE articles
      -- JournalIssue: Volume, Issue (a supplement stays in it, "19 Suppl"), as PubMed gives them.
      ADD COLUMN volume text,
      ADD COLUMN issue text,
      -- Pagination/MedlinePgn as given (MEDLINE abbreviates the end page: "123-9", "S120-5"), StartPage/EndPage when
      -- the record has them, and ELocationID of type pii (e-only articles' "page").
      ADD COLUMN medline_pages text,
      ADD COLUMN start_page text,
      ADD COLUMN end_page text,
      ADD COLUMN elocation_pii text,
      -- Journal/ISOAbbreviation, MedlineJournalInfo/MedlineTA (NLM's title abbreviation), Journal/ISSN.
      ADD COLUMN journal_iso_abbreviation text,
      ADD COLUMN journal_medline_ta text,
      ADD COLUMN issn text,
      -- ArticleDate DateType="Electronic" (ISO date).
      ADD COLUMN epub_date date,
      -- Every author as structured data, in order: {"family","given","initials","suffix","orcid"} or {"group"}.
      ADD COLUMN author_list jsonb NOT NULL DEFAULT '[]',
      -- Books (PubmedBookArticle): publisher, its place, the book's title, and whether the record is a chapter.
      ADD COLUMN book_publisher text,
      ADD COLUMN book_publisher_place text,
      ADD COLUMN book_title text,
      ADD COLUMN record_kind text NOT NULL DEFAULT 'article'`.execute(db);
}

/** Drops them again. */
export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    ALTER TABLE articles
      DROP COLUMN IF EXISTS volume, DROP COLUMN IF EXISTS issue, DROP COLUMN IF EXISTS medline_pages,
      DROP COLUMN IF EXISTS start_page, DROP COLUMN IF EXISTS end_page, DROP COLUMN IF EXISTS elocation_pii,
      DROP COLUMN IF EXISTS journal_iso_abbreviation, DROP COLUMN IF EXISTS journal_medline_ta, DROP COLUMN IF EXISTS issn,
      DROP COLUMN IF EXISTS epub_date, DROP COLUMN IF EXISTS author_list, DROP COLUMN IF EXISTS book_publisher,
      DROP COLUMN IF EXISTS book_publisher_place, DROP COLUMN IF EXISTS book_title, DROP COLUMN IF EXISTS record_kind`.execute(
    db,
  );
}
