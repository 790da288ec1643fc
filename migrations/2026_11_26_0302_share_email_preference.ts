import { sql, type Kysely } from "kysely";

// Frozen in time: this file never imports application code.
// Issue 22, shares that reveal no directory and e-mails one can turn off
// (docs/decisions/0032-share-privacy-and-preferences.md):
// - users.share_emails: whether the user is e-mailed when someone shares an article with them (on by default, as
//   before; the settings page and the e-mail's one-click unsubscribe turn it off).
// - share_invitations: a share to an address without an active account. It stores no address, only a keyed hash of
//   it (HMAC-SHA-256 with the server's key), so that sharing the same article with the same address again is refused
//   alike whether or not the address has an account, without keeping a list of strangers' addresses.

/** Adds the preference column and the invitations table. */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE users ADD COLUMN share_emails boolean NOT NULL DEFAULT true`.execute(db);
  await sql`
    CREATE TABLE share_invitations (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      sharer_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      recipient_hash text NOT NULL,
      article_pmid integer NOT NULL,
      invited_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`
    CREATE UNIQUE INDEX share_invitations_once_idx
      ON share_invitations (sharer_id, recipient_hash, article_pmid)`.execute(db);
  // Old invitations are removed after the prospect-data period; this index keeps that delete a range scan.
  await sql`CREATE INDEX share_invitations_age_idx ON share_invitations (invited_at)`.execute(db);
}

/** Drops them again. */
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE IF EXISTS share_invitations`.execute(db);
  await sql`ALTER TABLE users DROP COLUMN IF EXISTS share_emails`.execute(db);
}
