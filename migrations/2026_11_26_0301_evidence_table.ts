import { sql, type Kysely } from "kysely";

// Frozen in time: this file never imports application code.
// Issue 21, the evidence table: one row per cited study (design and evidence level, participants, PICO spans, the main
// result and every stated effect estimate), written with the summary. Null for reviews summarised before it existed.

/** Adds literature_reviews.evidence_table. */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE literature_reviews ADD COLUMN evidence_table jsonb`.execute(db);
}

/** Drops it again. */
export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE literature_reviews DROP COLUMN IF EXISTS evidence_table`.execute(db);
}
