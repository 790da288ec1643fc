import { sql, type Kysely } from "kysely";

// Frozen in time: this file never imports application code.
// Accounts: the e-mail outbox, password reset tokens and the counters of the rate limiter.

/** Creates email_outbox, password_reset_tokens and rate_limits. */
export async function up(db: Kysely<any>): Promise<void> {
  // Every message the application sends. Without SMTP the outbox is where messages go (a developer reads them
  // with scripts/outbox.ts); with SMTP it is a record of deliveries. status: 'stored' (no SMTP configured),
  // 'sent', 'failed' (error says why). The body is kept only for messages that were not delivered.
  await sql`
    CREATE TABLE email_outbox (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      "to" text NOT NULL,
      subject text NOT NULL,
      html text,
      text text,
      status text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      sent_at timestamptz,
      error text
    )`.execute(db);
  await sql`CREATE INDEX email_outbox_created_idx ON email_outbox (created_at DESC)`.execute(db);

  // Password reset tokens. Only a SHA-256 of the token is stored, so a copy of the database cannot be used to
  // reset passwords. A token is single use (used_at) and short-lived (expires_at).
  await sql`
    CREATE TABLE password_reset_tokens (
      token_hash text PRIMARY KEY,
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      used_at timestamptz
    )`.execute(db);
  await sql`CREATE INDEX password_reset_tokens_user_idx ON password_reset_tokens (user_id)`.execute(db);

  // Fixed-window counters of the rate limiter, one row per limited subject (e.g. 'login-ip:203.0.113.7').
  // Kept in the database, not in memory, so that limits hold across restarts and across processes.
  await sql`
    CREATE TABLE rate_limits (
      key text PRIMARY KEY,
      hits integer NOT NULL,
      window_started_at timestamptz NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX rate_limits_window_idx ON rate_limits (window_started_at)`.execute(db);
}

/** Drops the three tables again. */
export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ["rate_limits", "password_reset_tokens", "email_outbox"])
    await sql`DROP TABLE IF EXISTS ${sql.ref(t)}`.execute(db);
}
