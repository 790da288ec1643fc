import { sql, type Kysely } from "kysely";

// Frozen in time: this file never imports application code.
// Issue 19, PubMed on demand: the local index fills itself from NCBI's E-utilities.
// - articles.entrez_date: when the record entered PubMed (PubmedData/History/PubMedPubDate[@PubStatus="entrez"]);
//   "new this week" is read from it rather than from the publication date. articles.mesh_major_terms: the MeSH
//   headings marked as a major topic (MajorTopicYN="Y" on the descriptor or one of its qualifiers), for [majr].
// - ncbi_rate_gate: one row per request budget (NCBI's 3 or 10 requests a second are per deployment, not per
//   process): each request takes the next free slot with one atomic UPDATE, so every web and worker process keeps
//   the same budget.
// - pubmed_fetch_usage: records fetched per user and UTC day (the per-user daily budget).
// - pubmed_search_cache: answers of esearch kept for a while by a key of their parameters, so identical profile
//   queries of one weekly run are asked once.
// - literature_reviews.progress: the line a review shows under its status while a step works ("Fetching 143 records
//   from PubMed…"); cleared when the review moves on.

/** Adds the columns and tables of PubMed on demand. */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE articles ADD COLUMN entrez_date date`.execute(db);
  await sql`ALTER TABLE articles ADD COLUMN mesh_major_terms text[] NOT NULL DEFAULT '{}'`.execute(db);
  await sql`CREATE INDEX articles_entrez_date_idx ON articles (entrez_date) WHERE entrez_date IS NOT NULL`.execute(db);
  await sql`
    CREATE TABLE ncbi_rate_gate (
      name text PRIMARY KEY,
      -- The earliest time the next request of this budget may be sent.
      next_slot_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`
    CREATE TABLE pubmed_fetch_usage (
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      day date NOT NULL,
      records integer NOT NULL DEFAULT 0,
      PRIMARY KEY (user_id, day)
    )`.execute(db);
  await sql`
    CREATE TABLE pubmed_search_cache (
      key text PRIMARY KEY,
      pmids integer[] NOT NULL,
      total integer NOT NULL,
      query_translation text,
      searched_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`ALTER TABLE literature_reviews ADD COLUMN progress text`.execute(db);
}

/** Drops them again. */
export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE literature_reviews DROP COLUMN IF EXISTS progress`.execute(db);
  await sql`DROP TABLE IF EXISTS pubmed_search_cache`.execute(db);
  await sql`DROP TABLE IF EXISTS pubmed_fetch_usage`.execute(db);
  await sql`DROP TABLE IF EXISTS ncbi_rate_gate`.execute(db);
  await sql`DROP INDEX IF EXISTS articles_entrez_date_idx`.execute(db);
  await sql`ALTER TABLE articles DROP COLUMN IF EXISTS mesh_major_terms`.execute(db);
  await sql`ALTER TABLE articles DROP COLUMN IF EXISTS entrez_date`.execute(db);
}
