import { sql, type Kysely } from "kysely";

// Frozen in time: this file never imports application code.
// Topic coverage (issue 8): the concepts a review's topic was read as, how many articles in the index cover all of
// them, and which listed articles do.

/**
 * Adds literature_reviews.topic_concepts and .matching_count, literature_review_articles.covers_topic, and
 * articles.publication_date_precision (what the record states of its date: day, month or year; NULL until the
 * record is ingested again).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE articles ADD COLUMN publication_date_precision text`.execute(db);
  // One row per ingest run that changed the corpus: when the index was last updated, for the pages that say what
  // the reviews run on.
  await sql`
    CREATE TABLE ingest_runs (
      id bigserial PRIMARY KEY,
      finished_at timestamptz NOT NULL DEFAULT now(),
      files integer NOT NULL,
      inserted integer NOT NULL,
      updated integer NOT NULL,
      deleted integer NOT NULL
    )`.execute(db);
  await sql`ALTER TABLE literature_reviews ADD COLUMN topic_concepts jsonb NOT NULL DEFAULT '[]'`.execute(db);
  // NULL for reviews made before coverage existed.
  await sql`ALTER TABLE literature_reviews ADD COLUMN matching_count integer`.execute(db);
  await sql`ALTER TABLE literature_review_articles ADD COLUMN covers_topic boolean NOT NULL DEFAULT true`.execute(db);
}

/** Removes them again. */
export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE literature_review_articles DROP COLUMN IF EXISTS covers_topic`.execute(db);
  await sql`ALTER TABLE literature_reviews DROP COLUMN IF EXISTS matching_count`.execute(db);
  await sql`ALTER TABLE literature_reviews DROP COLUMN IF EXISTS topic_concepts`.execute(db);
  await sql`DROP TABLE IF EXISTS ingest_runs`.execute(db);
  await sql`ALTER TABLE articles DROP COLUMN IF EXISTS publication_date_precision`.execute(db);
}
