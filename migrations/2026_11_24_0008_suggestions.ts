import { sql, type Kysely } from "kysely";

// Frozen in time: this file never imports application code.
// Weekly suggestions (docs/product.md §1, §3): one batch per user and ISO week, its four sections' articles with
// why-lines, the MeSH statistics the "Potentially Disruptive" signal reads, and the weekly digest opt-out.

/** Creates weekly_suggestions, suggestion_articles, mesh_heading_stats and users.weekly_digest. */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE weekly_suggestions (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      -- ISO 8601 week, e.g. 2026-W48: the weekly job's unit of idempotence.
      week text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      new_weekly_articles_summary text,
      new_yearly_articles_summary text,
      pertinent_articles_summary text,
      disruptive_articles_summary text,
      -- Set in the transaction that queues the digest e-mail: a week's digest goes out at most once.
      digest_queued_at timestamptz,
      UNIQUE (user_id, week)
    )`.execute(db);
  await sql`CREATE INDEX weekly_suggestions_user_recent_idx ON weekly_suggestions (user_id, created_at DESC)`.execute(
    db,
  );
  await sql`
    CREATE TABLE suggestion_articles (
      suggestion_id uuid NOT NULL REFERENCES weekly_suggestions(id) ON DELETE CASCADE,
      section text NOT NULL,
      rank integer NOT NULL,
      -- No foreign key to articles: a record deleted from PubMed stays in the batch as its PMID (ADR 0016).
      article_pmid integer NOT NULL,
      reason text NOT NULL,
      signal text NOT NULL,
      PRIMARY KEY (suggestion_id, section, rank)
    )`.execute(db);
  await sql`
    CREATE TABLE mesh_heading_stats (
      heading text PRIMARY KEY,
      -- Earliest publication year of an article with this heading in the index, and how many articles have it.
      first_year integer NOT NULL,
      df integer NOT NULL
    )`.execute(db);
  await sql`ALTER TABLE users ADD COLUMN weekly_digest boolean NOT NULL DEFAULT true`.execute(db);
}

/** Drops them again. */
export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE users DROP COLUMN IF EXISTS weekly_digest`.execute(db);
  await sql`DROP TABLE IF EXISTS mesh_heading_stats`.execute(db);
  await sql`DROP TABLE IF EXISTS suggestion_articles`.execute(db);
  await sql`DROP TABLE IF EXISTS weekly_suggestions`.execute(db);
}
