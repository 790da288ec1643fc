import { sql, type Kysely } from "kysely";

// Frozen in time: this file never imports application code.
// Impact-ordered postings for frequent lexemes (docs/decisions/0022-impact-ordered-postings.md): for every lexeme in
// more than a few hundred documents, the documents where it weighs most in BM25, so that a query made only of
// frequent words scores its best candidates instead of the newest ones.
//
// search_term_lists: one row per listed lexeme.
//   floor     no document containing the lexeme and missing from its list has an impact above this (an upper bound,
//             in impact units at the list's avgdl; 0 when the list holds every document with the lexeme);
//   avgdl     the mean document length the impacts were ordered with (when the index's mean drifts, the bound
//             scales by at most max(1, avgdl now / avgdl then); see search/postgres/impacts.ts);
//   entries   rows the list has in search_term_impacts;
//   capacity  the size it was built for; a list that grows past 1.5 × capacity is cut back to it.
// search_term_impacts: (lexeme, pmid) with the field-weighted term frequency and the document length, from which
//   the impact, the term's BM25 saturation tf·(k1+1)/(tf + k1·(1 − b + b·dl/avgdl)), follows for any avgdl.
//
// Lists are built by the adapter's refresh(); from then on the trigger below keeps them right under inserts,
// updates and deletes (deletes cascading from articles included), under the statistics trigger's advisory lock.

/** Creates the two tables, the impact function and the maintenance trigger. */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE search_term_lists (
      lexeme text PRIMARY KEY,
      floor real NOT NULL,
      avgdl float8 NOT NULL,
      entries integer NOT NULL,
      capacity integer NOT NULL
    ) WITH (fillfactor = 50)`.execute(db);
  await sql`
    CREATE TABLE search_term_impacts (
      lexeme text NOT NULL,
      pmid integer NOT NULL,
      tf real NOT NULL,
      doc_length integer NOT NULL,
      PRIMARY KEY (lexeme, pmid)
    )`.execute(db);
  // BM25 saturation of one term (k1 = 1.2, b = 0.75, as search/query.ts BM25): inlined by the planner.
  await sql`
    CREATE FUNCTION search_impact(tf float8, dl float8, avgdl float8) RETURNS float8
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS 'SELECT tf * 2.2::float8 / (tf + 0.3::float8 + 0.9::float8 * dl / avgdl)'`.execute(db);
  // The field-weighted term frequency of a lexeme in a document vector, from unnest(tsvector)'s weights: 3 per title
  // occurrence (A), 1.5 per MeSH/keyword occurrence (B), 1 per abstract occurrence (C): what ts_rank_cd with the
  // adapter's weights returns for the lexeme alone, times 3. The searches for A and B run only when there is one
  // (most occurrences are in abstracts), and everything is float8 (numeric arithmetic costs several times more).
  await sql`
    CREATE FUNCTION search_tf(weights text[]) RETURNS float8
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$SELECT cardinality(weights)::float8
      + CASE WHEN 'A' = ANY(weights) THEN 2 * cardinality(array_positions(weights, 'A')) ELSE 0 END
      + CASE WHEN 'B' = ANY(weights) THEN 0.5::float8 * cardinality(array_positions(weights, 'B')) ELSE 0 END$$`.execute(
    db,
  );
  // Whether an occurrence list can lift a document above a list's floor, tested cheaply first with 3 per occurrence
  // (every occurrence in the title: an upper bound of tf), then exactly.
  await sql`
    CREATE FUNCTION search_impact_above(weights text[], dl float8, avgdl float8, floor float8) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$SELECT CASE WHEN 6.6::float8 * cardinality(weights) > floor * (3 * cardinality(weights) + 0.3::float8 + 0.9::float8 * dl / avgdl)
      THEN search_impact(search_tf(weights), dl, avgdl) > floor ELSE false END$$`.execute(db);
  await sql`
    CREATE FUNCTION article_search_impacts_maintain() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      grown text[];
    BEGIN
      IF NOT EXISTS (SELECT 1 FROM search_term_lists) THEN
        RETURN NULL;
      END IF;
      -- The statistics trigger's lock (same key): one writer of lists at a time, and refresh() builds lists under it.
      PERFORM pg_advisory_xact_lock(8315159430931439468);
      IF TG_OP <> 'INSERT' THEN
        WITH gone AS (
          DELETE FROM search_term_impacts i
          USING (SELECT o.pmid, l AS lexeme FROM old_rows o, unnest(tsvector_to_array(o.document)) l) x
          WHERE i.lexeme = x.lexeme AND i.pmid = x.pmid
          RETURNING i.lexeme
        )
        UPDATE search_term_lists s SET entries = s.entries - g.n
        FROM (SELECT lexeme, count(*)::integer AS n FROM gone GROUP BY lexeme) g
        WHERE s.lexeme = g.lexeme;
      END IF;
      IF TG_OP <> 'DELETE' THEN
        WITH added AS (
          INSERT INTO search_term_impacts (lexeme, pmid, tf, doc_length)
          SELECT l.lexeme, n.pmid, search_tf(u.weights), n.doc_length
          FROM new_rows n CROSS JOIN LATERAL unnest(n.document) u
          JOIN search_term_lists l ON l.lexeme = u.lexeme
          WHERE search_impact_above(u.weights, n.doc_length, l.avgdl, l.floor)
          RETURNING lexeme
        ), counted AS (
          UPDATE search_term_lists s SET entries = s.entries + a.n
          FROM (SELECT lexeme, count(*)::integer AS n FROM added GROUP BY lexeme) a
          WHERE s.lexeme = a.lexeme
          RETURNING s.lexeme, s.entries, s.capacity
        )
        SELECT array_agg(lexeme) INTO grown FROM counted WHERE entries * 2 > capacity * 3;
        IF grown IS NOT NULL THEN
          -- Cut grown lists back to their capacity; the floor rises to the best impact cut.
          WITH ranked AS (
            SELECT i.lexeme, i.pmid, search_impact(i.tf, i.doc_length, l.avgdl) AS impact,
                   row_number() OVER (PARTITION BY i.lexeme ORDER BY search_impact(i.tf, i.doc_length, l.avgdl) DESC, i.pmid DESC) AS rank,
                   l.capacity
            FROM search_term_impacts i JOIN search_term_lists l ON l.lexeme = i.lexeme
            WHERE l.lexeme = ANY(grown)
          ), cut AS (
            DELETE FROM search_term_impacts i USING ranked r
            WHERE r.rank > r.capacity AND i.lexeme = r.lexeme AND i.pmid = r.pmid
            RETURNING r.lexeme, r.impact
          )
          UPDATE search_term_lists s SET entries = s.entries - c.n, floor = greatest(s.floor, c.best)
          FROM (SELECT lexeme, count(*)::integer AS n, max(impact) AS best FROM cut GROUP BY lexeme) c
          WHERE s.lexeme = c.lexeme;
        END IF;
      END IF;
      RETURN NULL;
    END $$`.execute(db);
  await sql`
    CREATE TRIGGER article_search_impacts_insert AFTER INSERT ON article_search
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION article_search_impacts_maintain()`.execute(
    db,
  );
  await sql`
    CREATE TRIGGER article_search_impacts_update AFTER UPDATE ON article_search
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION article_search_impacts_maintain()`.execute(db);
  await sql`
    CREATE TRIGGER article_search_impacts_delete AFTER DELETE ON article_search
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION article_search_impacts_maintain()`.execute(
    db,
  );
}

/** Drops the triggers, the functions and the tables. */
export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ["insert", "update", "delete"])
    await sql`DROP TRIGGER IF EXISTS ${sql.id(`article_search_impacts_${t}`)} ON article_search`.execute(db);
  await sql`DROP FUNCTION IF EXISTS article_search_impacts_maintain()`.execute(db);
  await sql`DROP FUNCTION IF EXISTS search_impact_above(text[], float8, float8, float8)`.execute(db);
  await sql`DROP FUNCTION IF EXISTS search_tf(text[])`.execute(db);
  await sql`DROP FUNCTION IF EXISTS search_impact(float8, float8, float8)`.execute(db);
  await sql`DROP TABLE IF EXISTS search_term_impacts`.execute(db);
  await sql`DROP TABLE IF EXISTS search_term_lists`.execute(db);
}
