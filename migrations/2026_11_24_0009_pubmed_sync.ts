import { sql, type Kysely } from "kysely";

// Frozen in time: this file never imports application code.
// The PubMed files `npm run pubmed:sync` has ingested (NLM's baseline and daily update files), so that a rerun or a
// run after a crash resumes where it stopped and never applies a file twice.

/** Creates pubmed_sync_files. */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE pubmed_sync_files (
      name text PRIMARY KEY,
      kind text NOT NULL,
      -- ingesting (claimed by a run: a crash leaves it so, and a later run takes it over), ingested, failed
      status text NOT NULL,
      md5 text,
      records integer NOT NULL DEFAULT 0,
      inserted integer NOT NULL DEFAULT 0,
      updated integer NOT NULL DEFAULT 0,
      deleted integer NOT NULL DEFAULT 0,
      error text,
      started_at timestamptz NOT NULL DEFAULT now(),
      finished_at timestamptz
    )`.execute(db);
}

/** Drops it again. */
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE IF EXISTS pubmed_sync_files`.execute(db);
}
