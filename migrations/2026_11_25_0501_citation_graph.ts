import { sql, type Kysely } from "kysely";

// Frozen in time: this file never imports application code.
// Issue 11, "Potentially Disruptive": where records carry reference lists with PMIDs, the CD index of Funk and
// Owen-Smith (2017) is computed from the citations the corpus holds. Ingest fills articles.reference_pmids (an
// unchanged record without references keeps its content hash; one with references is re-written on its next ingest);
// the weekly run recomputes article_disruption from it, as it does mesh_heading_stats.

/** Adds articles.reference_pmids and article_disruption. */
export async function up(db: Kysely<any>): Promise<void> {
  // A constant default: PostgreSQL adds the column without rewriting the table.
  await sql`ALTER TABLE articles ADD COLUMN reference_pmids integer[] NOT NULL DEFAULT '{}'`.execute(db);
  await sql`
    CREATE TABLE article_disruption (
      pmid integer PRIMARY KEY,
      -- CD index in [-1, 1]: (cite_only_it - cite_both) / citing_articles.
      cd_index double precision NOT NULL,
      -- Later articles of the corpus citing it or one of its references (n of the CD index), those citing it but none
      -- of its references, and those citing it and one of its references.
      citing_articles integer NOT NULL,
      cite_only_it integer NOT NULL,
      cite_both integer NOT NULL
    )`.execute(db);
}

/** Drops them again. */
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE IF EXISTS article_disruption`.execute(db);
  await sql`ALTER TABLE articles DROP COLUMN IF EXISTS reference_pmids`.execute(db);
}
