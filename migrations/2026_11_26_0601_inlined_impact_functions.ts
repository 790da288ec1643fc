import { sql, type Kysely } from "kysely";

// Frozen in time: this file never imports application code.
// Ingest throughput (docs/decisions/0045-ingest-throughput.md): the impact tiers (2026_11_25_0201) and the impact
// lists' trigger (2026_11_25_0101) computed search_impact(search_tf(weights), …) for each posting they examine.
// PostgreSQL inlines an SQL function only when a parameter used twice gets a cheap argument; search_impact uses tf
// twice, and its argument was the search_tf expression, so it ran as a function call per posting: the tiers of 10,000
// benchmark records took 11.0 s against 3.8–6.6 s with tf computed once (a busy machine; same tokens, byte for byte).
// Same results: the same float8 operations in the same order, only no longer behind a call.

/** Replaces search_tiers and search_impact_above with bodies that compute the impact in line. */
export async function up(db: Kysely<any>): Promise<void> {
  // tf once per posting, in a subquery (OFFSET 0 keeps the planner from pulling it up and repeating the expression).
  await sql`
    CREATE OR REPLACE FUNCTION search_tiers(document tsvector, dl float8) RETURNS tsvector
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$SELECT coalesce(array_to_tsvector(array_agg(t.lexeme || ' ' || t.level)), ''::tsvector)
      FROM (
        SELECT s.lexeme, floor(20 * (s.tf * 2.2::float8 / (s.tf + 0.3::float8 + 0.9::float8 * dl / 140)))::integer AS level
        FROM (
          SELECT u.lexeme, search_tf(u.weights) AS tf FROM unnest(document) u
          WHERE cardinality(u.weights) > 1 OR u.weights[1] = 'A' OR dl < 44
          OFFSET 0
        ) s
      ) t
      WHERE t.level >= 32$$`.execute(db);
  // search_tf twice, in line (array functions on a few elements), rather than one call of search_impact. The function
  // itself is inlined where the trigger uses it: its arguments are columns.
  await sql`
    CREATE OR REPLACE FUNCTION search_impact_above(weights text[], dl float8, avgdl float8, floor float8) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$SELECT CASE WHEN 6.6::float8 * cardinality(weights) > floor * (3 * cardinality(weights) + 0.3::float8 + 0.9::float8 * dl / avgdl)
      THEN search_tf(weights) * 2.2::float8 / (search_tf(weights) + 0.3::float8 + 0.9::float8 * dl / avgdl) > floor ELSE false END$$`.execute(
    db,
  );
}

/** Puts back the bodies of 2026_11_25_0201 and 2026_11_25_0101. */
export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE OR REPLACE FUNCTION search_tiers(document tsvector, dl float8) RETURNS tsvector
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$SELECT coalesce(array_to_tsvector(array_agg(t.lexeme || ' ' || t.level)), ''::tsvector)
      FROM (
        SELECT u.lexeme, floor(20 * search_impact(search_tf(u.weights), dl, 140))::integer AS level FROM unnest(document) u
        WHERE cardinality(u.weights) > 1 OR u.weights[1] = 'A' OR dl < 44
      ) t
      WHERE t.level >= 32$$`.execute(db);
  await sql`
    CREATE OR REPLACE FUNCTION search_impact_above(weights text[], dl float8, avgdl float8, floor float8) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$SELECT CASE WHEN 6.6::float8 * cardinality(weights) > floor * (3 * cardinality(weights) + 0.3::float8 + 0.9::float8 * dl / avgdl)
      THEN search_impact(search_tf(weights), dl, avgdl) > floor ELSE false END$$`.execute(db);
}
