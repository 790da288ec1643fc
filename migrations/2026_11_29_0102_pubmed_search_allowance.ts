import { sql, type Kysely } from "kysely";

// Frozen in time: this file never imports application code.
// PubMed look-ups count against a user's daily allowance (issue 34;
// docs/decisions/0048-bounded-strategy-evaluation.md): pubmed_fetch_usage counted only the records a user's reviews
// fetched; it now also counts the esearch requests sent to NCBI on the user's behalf (an answer from the cache costs
// nothing).

/** Adds pubmed_fetch_usage.searches. */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE pubmed_fetch_usage ADD COLUMN searches integer NOT NULL DEFAULT 0`.execute(db);
  await sql`COMMENT ON COLUMN pubmed_fetch_usage.searches IS ${sql.lit(
    "esearch requests sent to NCBI for the user that UTC day (answers from the cache not counted).",
  )}`.execute(db);
}

/** Removes it. */
export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE pubmed_fetch_usage DROP COLUMN IF EXISTS searches`.execute(db);
}
