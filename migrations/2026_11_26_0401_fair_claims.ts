import { sql, type Kysely } from "kysely";

// Frozen in time: this file never imports application code.
// Fair claims (issue 22, item 5; docs/decisions/0034-fair-claims-and-stream-push.md). A job's place in the queue,
// `fair_at`, is its run_at pushed back by one step per job its user already had queued or running when it was
// enqueued, so every user's first job comes before anyone's second. Workers walk the due queue along
// (fair_at, id); the per-user cap and the rank count a user's queued and running jobs along the second index.

/** Adds jobs.fair_at with its due-queue index, and an index of each key's queued and running jobs. */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE jobs ADD COLUMN fair_at timestamptz`.execute(db);
  await sql`UPDATE jobs SET fair_at = run_at`.execute(db);
  await sql`ALTER TABLE jobs ALTER COLUMN fair_at SET DEFAULT now(), ALTER COLUMN fair_at SET NOT NULL`.execute(db);
  await sql`CREATE INDEX jobs_fair_due_idx ON jobs (fair_at, id) WHERE status = 'queued'`.execute(db);
  await sql`CREATE INDEX jobs_active_key_idx ON jobs (fairness_key) WHERE status IN ('queued', 'running')`.execute(db);
  await sql`DROP INDEX IF EXISTS jobs_due_idx`.execute(db);
  await sql`DROP INDEX IF EXISTS jobs_running_fairness_idx`.execute(db);
}

/** Puts the previous indexes back and drops the column. */
export async function down(db: Kysely<any>): Promise<void> {
  await sql`CREATE INDEX IF NOT EXISTS jobs_due_idx ON jobs (run_at, id) WHERE status = 'queued'`.execute(db);
  await sql`
    CREATE INDEX IF NOT EXISTS jobs_running_fairness_idx ON jobs (fairness_key) WHERE status = 'running'`.execute(db);
  await sql`DROP INDEX IF EXISTS jobs_active_key_idx`.execute(db);
  await sql`DROP INDEX IF EXISTS jobs_fair_due_idx`.execute(db);
  await sql`ALTER TABLE jobs DROP COLUMN IF EXISTS fair_at`.execute(db);
}
