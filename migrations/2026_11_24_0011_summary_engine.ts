import { sql, type Kysely } from "kysely";

// Frozen in time: this file never imports application code.
// Which engine wrote a review's summary (the extractive summarizer, or a language model whose sentences were
// verified): the review says so (issue 13).

/** Adds literature_reviews.summary_engine. */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE literature_reviews ADD COLUMN summary_engine text`.execute(db);
}

/** Drops it again. */
export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE literature_reviews DROP COLUMN IF EXISTS summary_engine`.execute(db);
}
