import { sql, type Kysely } from "kysely";

// Frozen in time: this file never imports application code.
// Issue 13: the retraction notice of a retracted article (ingest fills it from CommentsCorrections RetractionIn;
// re-ingesting a file fills it for records already stored, since the content hash covers it), the optional filters
// a review was started with, and the record of how it was made (query reading, PRISMA-style counts, corpus).

/** Adds articles.retraction_notice_pmid, literature_reviews.search_filters and literature_reviews.search_report. */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE articles ADD COLUMN retraction_notice_pmid integer`.execute(db);
  await sql`ALTER TABLE literature_reviews ADD COLUMN search_filters jsonb`.execute(db);
  await sql`ALTER TABLE literature_reviews ADD COLUMN search_report jsonb`.execute(db);
}

/** Drops them again. */
export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE literature_reviews DROP COLUMN IF EXISTS search_report`.execute(db);
  await sql`ALTER TABLE literature_reviews DROP COLUMN IF EXISTS search_filters`.execute(db);
  await sql`ALTER TABLE articles DROP COLUMN IF EXISTS retraction_notice_pmid`.execute(db);
}
