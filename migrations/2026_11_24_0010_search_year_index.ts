import { sql, type Kysely } from "kysely";

// Frozen in time: this file never imports application code.
// Year-restricted searches (the weekly suggestions' "new" sections) count the articles of a year range first: a btree
// on article_search.publication_year makes that an index range scan instead of a pass over every row.

/** Creates article_search_year_idx. */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE INDEX IF NOT EXISTS article_search_year_idx ON article_search (publication_year)`.execute(db);
}

/** Drops it again. */
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX IF EXISTS article_search_year_idx`.execute(db);
}
