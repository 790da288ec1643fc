import { sql, type Kysely } from "kysely";

// Frozen in time: this file never imports application code.
// Likes and received shares (docs/product.md §3, §7). Neither references articles: a record removed from PubMed
// (DeleteCitation on ingest) must not take users' likes and shares with it (docs/decisions/0016-likes-and-shares.md).

/** Creates likes and shares with the indexes their lists read newest first. */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE likes (
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      article_pmid integer NOT NULL,
      liked_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (user_id, article_pmid)
    )`.execute(db);
  // GET /likes/my pages newest first: one index range scan, whatever the number of likes.
  await sql`CREATE INDEX likes_user_recent_idx ON likes (user_id, liked_at DESC, article_pmid DESC)`.execute(db);

  await sql`
    CREATE TABLE shares (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      article_pmid integer NOT NULL,
      -- The sharer may delete their account later: the share stays with the recipient ("Unknown User").
      sharer_id uuid REFERENCES users(id) ON DELETE SET NULL,
      recipient_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      shared_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE INDEX shares_recipient_recent_idx ON shares (recipient_id, shared_at DESC, id DESC)`.execute(db);
  // One share of an article from one person to another: sharing it again is a 409, not a second e-mail.
  await sql`CREATE UNIQUE INDEX shares_once_idx ON shares (sharer_id, recipient_id, article_pmid)`.execute(db);
}

/** Drops them again. */
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE IF EXISTS shares`.execute(db);
  await sql`DROP TABLE IF EXISTS likes`.execute(db);
}
