import { sql, type Kysely } from "kysely";

// Frozen in time: this file never imports application code.
// The word index of PubMed-syntax strategies (issue 34; docs/decisions/0048-bounded-strategy-evaluation.md). A strategy
// was evaluated by folding and normalising every article's text in SQL at query time, with one test per distinct
// letter of the query, over the whole table. Now each article keeps its texts already normalised into words (computed
// in JavaScript at ingest, the same code the in-memory evaluation runs) and the set of those words:
// - articles.syntax_sources: the normalised sources, in a fixed order (title, abstract, authors, journal, journal as
//   [ta] reads it, MeSH, major MeSH, keywords, publication types, language);
// - articles.syntax_words: a tsvector of their distinct words, as lexemes taken literally (array_to_tsvector): a
//   strategy's candidate rows are those holding its words. On a PostgreSQL server a GIN index finds them in one
//   statement. The embedded engine (PGlite) gets no such index: there a strategy walks the table in slices of bounded
//   time (the engine has one connection and no statement time-out) and reads each row's words in passing, so the
//   index would never be read, and keeping it up to date cost the ingest a quarter of the database's CPU time
//   (docs/benchmarks.md, "Hardening, fourth round"). A database moved from the embedded engine to a server needs
//   `CREATE INDEX articles_syntax_words_idx ON articles USING gin (syntax_words)` (docs/scaling.md).
// Rows ingested before this migration have neither (NULL); the application fills them in batches (the partial index
// finds them) at start-up and before it evaluates a strategy.

/** Adds the columns and their indexes. */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE articles ADD COLUMN syntax_sources text[]`.execute(db);
  await sql`ALTER TABLE articles ADD COLUMN syntax_words tsvector`.execute(db);
  const { rows } = await sql<{ embedded: boolean }>`SELECT version() LIKE '%wasm32%' AS embedded`.execute(db);
  if (!rows[0]?.embedded)
    await sql`CREATE INDEX articles_syntax_words_idx ON articles USING gin (syntax_words)`.execute(db);
  await sql`CREATE INDEX articles_syntax_missing_idx ON articles (pmid) WHERE syntax_words IS NULL`.execute(db);
  await sql`COMMENT ON COLUMN articles.syntax_sources IS ${sql.lit(
    "PubMed-syntax search: the texts normalised into case-folded words, in a fixed order (search/pubmed/query-syntax/sources.ts); null until computed.",
  )}`.execute(db);
  await sql`COMMENT ON COLUMN articles.syntax_words IS ${sql.lit(
    "PubMed-syntax search: the distinct words of syntax_sources, as literal lexemes; null until computed.",
  )}`.execute(db);
}

/** Removes them. */
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX IF EXISTS articles_syntax_missing_idx`.execute(db);
  await sql`DROP INDEX IF EXISTS articles_syntax_words_idx`.execute(db);
  await sql`ALTER TABLE articles DROP COLUMN IF EXISTS syntax_words`.execute(db);
  await sql`ALTER TABLE articles DROP COLUMN IF EXISTS syntax_sources`.execute(db);
}
