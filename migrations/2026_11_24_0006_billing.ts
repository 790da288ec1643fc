import { sql, type Kysely } from "kysely";

// Frozen in time: this file never imports application code.
// Billing with Stripe: where a subscription comes from, its optimistic-concurrency revision, the trial e-mails
// already sent, each user's Stripe customer, and the Stripe webhook events already applied.

/** Adds the billing columns to subscriptions and creates stripe_customers and stripe_events. */
export async function up(db: Kysely<any>): Promise<void> {
  // source: who decides this row. 'trial' (the signup trial), 'stripe' (mirrors a Stripe subscription), 'operator'
  // (granted or ended with `npm run subscription`). revision: bumped by every write, so that a webhook that read
  // the row before asking Stripe writes only if nobody wrote meanwhile. The two *_at columns record the trial
  // e-mails already queued, so each is sent once.
  await sql`
    ALTER TABLE subscriptions
      ADD COLUMN source text NOT NULL DEFAULT 'trial',
      ADD COLUMN revision integer NOT NULL DEFAULT 0,
      ADD COLUMN trial_reminder_sent_at timestamptz,
      ADD COLUMN trial_ended_notice_at timestamptz`.execute(db);
  await sql`
    UPDATE subscriptions SET source = CASE
      WHEN stripe_subscription_id IS NOT NULL THEN 'stripe'
      WHEN is_trial THEN 'trial'
      ELSE 'operator' END`.execute(db);
  // Trials that ended before this release get no "your trial has ended" message weeks later.
  await sql`UPDATE subscriptions SET trial_ended_notice_at = now() WHERE is_trial AND trial_ends_at <= now()`.execute(
    db,
  );
  await sql`
    CREATE UNIQUE INDEX subscriptions_stripe_subscription_key ON subscriptions (stripe_subscription_id)
      WHERE stripe_subscription_id IS NOT NULL`.execute(db);
  // The trial sweep reads only trials whose e-mails are not all sent yet: a small, shrinking part of the table.
  await sql`
    CREATE INDEX subscriptions_trial_due_idx ON subscriptions (trial_ends_at)
      WHERE is_trial AND trial_ended_notice_at IS NULL`.execute(db);

  // One Stripe customer per user, created on the first checkout and reused afterwards.
  await sql`
    CREATE TABLE stripe_customers (
      user_id uuid PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
      customer_id text NOT NULL UNIQUE,
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);

  // Webhook events already applied, by Stripe's event id, written in the transaction of their effect so that a
  // second delivery of the same event changes nothing. Kept 30 days (Stripe retries for up to 3 days).
  await sql`
    CREATE TABLE stripe_events (
      id text PRIMARY KEY,
      type text NOT NULL,
      stripe_created_at timestamptz NOT NULL,
      received_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE INDEX stripe_events_received_idx ON stripe_events (received_at)`.execute(db);
}

/** Removes them again. */
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE IF EXISTS stripe_events`.execute(db);
  await sql`DROP TABLE IF EXISTS stripe_customers`.execute(db);
  await sql`DROP INDEX IF EXISTS subscriptions_trial_due_idx`.execute(db);
  await sql`DROP INDEX IF EXISTS subscriptions_stripe_subscription_key`.execute(db);
  await sql`
    ALTER TABLE subscriptions
      DROP COLUMN IF EXISTS trial_ended_notice_at,
      DROP COLUMN IF EXISTS trial_reminder_sent_at,
      DROP COLUMN IF EXISTS revision,
      DROP COLUMN IF EXISTS source`.execute(db);
}
