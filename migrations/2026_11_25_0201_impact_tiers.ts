import { sql, type Kysely } from "kysely";

// Frozen in time: this file never imports application code.
// Impact tiers (docs/decisions/0024-impact-tiers.md): for every article, the lexemes whose BM25 impact in it is high,
// each tagged with its impact level, in a vector with its own GIN index. A query of several frequent words reads the
// documents where all of them weigh heavily ("cancer 39 & treatment 38") level by level, best first; the impact lists
// (2026_11_25_0101) only hold the documents where one word weighs most.
//
// article_search_tiers: (pmid, tiers), one row per row of article_search, written by the adapter's index() in the
// statement that writes article_search and removed with it (ON DELETE CASCADE).
//   tiers  tokens 'lexeme level' (a space cannot occur in a lexeme the 'english' configuration produces), level =
//          floor(20 · impact) for impact ≥ 1.6 (levels 32 to 43; the impact, tf·2.2/(tf + 0.3 + 0.9·dl/avgdl), lies
//          below 2.2), at a reference mean length of 140 (the sample's and the benchmark corpora's mean is 140–143).
//          A fixed reference keeps a document's tokens independent of when it was indexed; the search scores its
//          candidates exactly at the index's actual mean, so the tiers only choose what to score.

/** Creates the tier function and table, fills it from article_search, then indexes it. */
export async function up(db: Kysely<any>): Promise<void> {
  // Most lexemes of an abstract occur once outside the title: tf ≤ 1.5, an impact below 1.6 unless dl < 44. They are
  // passed over before the impact is computed.
  await sql`
    CREATE FUNCTION search_tiers(document tsvector, dl float8) RETURNS tsvector
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$SELECT coalesce(array_to_tsvector(array_agg(t.lexeme || ' ' || t.level)), ''::tsvector)
      FROM (
        SELECT u.lexeme, floor(20 * search_impact(search_tf(u.weights), dl, 140))::integer AS level FROM unnest(document) u
        WHERE cardinality(u.weights) > 1 OR u.weights[1] = 'A' OR dl < 44
      ) t
      WHERE t.level >= 32$$`.execute(db);
  await sql`
    CREATE TABLE article_search_tiers (
      pmid integer PRIMARY KEY REFERENCES article_search(pmid) ON DELETE CASCADE,
      tiers tsvector NOT NULL
    )`.execute(db);
  await sql`INSERT INTO article_search_tiers (pmid, tiers) SELECT pmid, search_tiers(document, doc_length) FROM article_search`.execute(
    db,
  );
  await sql`CREATE INDEX article_search_tiers_idx ON article_search_tiers USING gin (tiers)`.execute(db);
}

/** Drops the table and the function. */
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE IF EXISTS article_search_tiers`.execute(db);
  await sql`DROP FUNCTION IF EXISTS search_tiers(tsvector, float8)`.execute(db);
}
