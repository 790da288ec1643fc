import { sql, type Kysely } from "kysely";

// Frozen in time: this file never imports application code.
// Issue 22, data retention and the user's own data (docs/decisions/0035-retention-and-data-export.md):
// - users.last_active_at: the last login (or the signup); an account without one for 2 years is deleted, after a
//   notice 30 days before (users.retention_notice_at).
// - account_archives: what proves a contract once its account is gone (billing identifiers and subscription
//   periods), kept 5 years in an archive no page reads, then deleted.
// - data_exports: "Download my data" files, produced by a job and downloadable by their owner until they expire.

/** Adds the retention columns and the two tables. */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    ALTER TABLE users
      ADD COLUMN last_active_at timestamptz NOT NULL DEFAULT now(),
      ADD COLUMN retention_notice_at timestamptz`.execute(db);
  // Accounts that existed before: their last sign of life we know of is their last change or a known login.
  await sql`
    UPDATE users u SET last_active_at = greatest(
      u.updated_at,
      coalesce((SELECT max(k.last_login_at) FROM known_login_clients k WHERE k.user_id = u.id), u.updated_at))`.execute(
    db,
  );
  await sql`CREATE INDEX users_last_active_idx ON users (last_active_at)`.execute(db);
  await sql`
    CREATE TABLE account_archives (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      -- No foreign key: the account is gone; the id links the archive to invoices held by the payment provider.
      user_id uuid NOT NULL,
      email text NOT NULL,
      reason text NOT NULL,
      record jsonb NOT NULL,
      archived_at timestamptz NOT NULL DEFAULT now(),
      delete_after timestamptz NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX account_archives_delete_after_idx ON account_archives (delete_after)`.execute(db);
  await sql`
    CREATE TABLE data_exports (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      status text NOT NULL DEFAULT 'queued',
      content jsonb,
      created_at timestamptz NOT NULL DEFAULT now(),
      ready_at timestamptz,
      expires_at timestamptz NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX data_exports_user_idx ON data_exports (user_id, created_at)`.execute(db);
}

/** Drops them again. */
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE IF EXISTS data_exports`.execute(db);
  await sql`DROP TABLE IF EXISTS account_archives`.execute(db);
  await sql`DROP INDEX IF EXISTS users_last_active_idx`.execute(db);
  await sql`ALTER TABLE users DROP COLUMN IF EXISTS retention_notice_at, DROP COLUMN IF EXISTS last_active_at`.execute(
    db,
  );
}
