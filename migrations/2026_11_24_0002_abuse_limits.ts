import { sql, type Kysely } from "kysely";

// Frozen in time: this file never imports application code.
// Abuse limits (issue 7): progressive login delays, the clients an account has logged in from, and fair claiming of
// jobs across users.

/** Adds rate_limits.last_hit_at, known_login_clients and jobs.fairness_key. */
export async function up(db: Kysely<any>): Promise<void> {
  // The time of the last counted hit, from which a progressive delay is measured.
  await sql`ALTER TABLE rate_limits ADD COLUMN last_hit_at timestamptz`.execute(db);
  // Clients (an IPv4 address or an IPv6 /64) from which an account logged in successfully: while strangers'
  // failures throttle the account, these still get in.
  await sql`
    CREATE TABLE known_login_clients (
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      client_key text NOT NULL,
      last_login_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (user_id, client_key)
    )`.execute(db);
  await sql`CREATE INDEX known_login_clients_last_idx ON known_login_clients (last_login_at)`.execute(db);
  // Whose job this is (the user, for reviews): workers take the jobs of the keys with the fewest running first.
  await sql`ALTER TABLE jobs ADD COLUMN fairness_key text`.execute(db);
  await sql`CREATE INDEX jobs_running_fairness_idx ON jobs (fairness_key) WHERE status = 'running'`.execute(db);
}

/** Removes them again. */
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX IF EXISTS jobs_running_fairness_idx`.execute(db);
  await sql`ALTER TABLE jobs DROP COLUMN IF EXISTS fairness_key`.execute(db);
  await sql`DROP TABLE IF EXISTS known_login_clients`.execute(db);
  await sql`ALTER TABLE rate_limits DROP COLUMN IF EXISTS last_hit_at`.execute(db);
}
