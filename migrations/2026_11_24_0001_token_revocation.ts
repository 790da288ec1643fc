import { sql, type Kysely } from "kysely";

// Frozen in time: this file never imports application code.
// Logout revokes the one access token it is called with; user search matches the start of an address.

/** Creates revoked_access_tokens and the prefix index of user search. */
export async function up(db: Kysely<any>): Promise<void> {
  // The ids (jti) of access tokens ended by logout before their expiry. A row is needed only until the token would
  // have expired anyway (expires_at), after which it is deleted.
  await sql`
    CREATE TABLE revoked_access_tokens (
      jti text PRIMARY KEY,
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      expires_at timestamptz NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX revoked_access_tokens_expires_idx ON revoked_access_tokens (expires_at)`.execute(db);
  // Share recipients are found by the start of their address or name (LIKE 'q%'), which this index serves
  // whatever the database's collation.
  await sql`CREATE INDEX users_email_prefix_idx ON users (lower(email) text_pattern_ops)`.execute(db);
  await sql`CREATE INDEX users_full_name_prefix_idx ON users (lower(full_name) text_pattern_ops)`.execute(db);
}

/** Drops them again. */
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX IF EXISTS users_full_name_prefix_idx`.execute(db);
  await sql`DROP INDEX IF EXISTS users_email_prefix_idx`.execute(db);
  await sql`DROP TABLE IF EXISTS revoked_access_tokens`.execute(db);
}
