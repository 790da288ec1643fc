import { sql, type Kysely } from "kysely";

// Frozen in time: this file never imports application code.
// The ranked candidates of a suggestion source (docs/decisions/0025-suggestion-source-cache.md): what the search index
// answered to a profile text (an interest, a liked article's title and headings, a reading list) over any date, kept
// for a few weeks and shared by every user whose profile holds the same text. Rows are written by the daily
// preparation and by a user's computation when one is missing, and read by the weekly run.
//   key          a SHA-256 of the text (hex);
//   computed_at  when the index was asked;
//   pmids        the ranked PMIDs, best first, with no user's exclusions applied.

/** Creates the cache table. */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE suggestion_source_cache (
      key text PRIMARY KEY,
      computed_at timestamptz NOT NULL,
      pmids integer[] NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX suggestion_source_cache_computed_idx ON suggestion_source_cache (computed_at)`.execute(db);
}

/** Drops it. */
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE IF EXISTS suggestion_source_cache`.execute(db);
}
