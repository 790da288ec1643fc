/**
 * The syntax index stored with each article (migration 2026_11_29_0101_syntax_index): `syntax_sources`, the record's
 * sources normalised into words (sources.ts, in SOURCES order), and `syntax_words`, the tsvector of their distinct
 * words, which the SQL evaluation (evaluate.ts `pubmedQuerySql`) reads instead of folding and normalising text at query
 * time. The ingest writes both with every record it inserts or changes (search/ingest.ts); `fillSyntaxIndex` computes
 * them for rows written otherwise (rows ingested before the migration, rows inserted directly).
 */
import { sql, type RawBuilder } from "kysely";
import type { Database } from "../../../src/db/database.ts";
import { indexedWords, needsIndexedWords, SOURCES, sourceText } from "./sources.ts";
import type { PubmedQueryRecord } from "./types.ts";

/** A record's syntax index, as the ingest sends it. */
export interface SyntaxIndex {
  /** The normalised sources, in SOURCES order. */
  sources: string[];
  /**
   * Their distinct words as the index keeps them (sources.ts indexedWords) when that is not simply every run between
   * spaces and "|" (a word too long, a record too large); null otherwise, and `syntaxWordsSql` derives them.
   */
  words: string[] | null;
}

/** The syntax index of a record (pure; about 40 µs for a record with a 1,200-character abstract). */
export function syntaxIndexOf(record: PubmedQueryRecord): SyntaxIndex {
  const sources = SOURCES.map((s) => sourceText(record, s));
  return { sources, words: needsIndexedWords(sources) ? indexedWords(sources) : null };
}

/**
 * The `syntax_words` tsvector of a row: the `words` given, else every distinct run of the `sources` between spaces and
 * "|", taken literally as lexemes (what sources.ts indexedWords gives when needsIndexedWords is false). Computed by the
 * database from the sources it stores anyway, which costs the ingest less than building and sending the list.
 */
export function syntaxWordsSql(sources: RawBuilder<unknown>, words: RawBuilder<unknown>): RawBuilder<string> {
  return sql<string>`coalesce(array_to_tsvector(${words}),
    array_to_tsvector(array_remove(string_to_array(translate(array_to_string(${sources}, ' '), '|', ' '), ' '), '')))`;
}

/**
 * Rows filled per statement by `fillSyntaxIndex`: on the embedded engine about 5 ms to read them and 30 ms to compute
 * and write them (the sample; an occasional in-line checkpoint takes 100 ms). 2,869 rows take 1.5 s.
 */
export const FILL_BATCH = 50;

/**
 * Computes the syntax index of every article that lacks it, FILL_BATCH rows per statement, in PMID order. A row whose
 * content changes meanwhile (a concurrent ingest writes its own index) is left to that write. Between batches it waits
 * for the event loop's next turn, so that on the embedded database (one connection) other requests get their turn.
 * @param opts.maxRows stop after this many rows (default: all).
 * @param opts.signal stop between two batches once it aborts (the server's shutdown).
 * @returns the number of rows filled.
 * @throws database errors (batches before the failure stay filled).
 */
export async function fillSyntaxIndex(
  db: Database,
  opts: { maxRows?: number; signal?: AbortSignal } = {},
): Promise<number> {
  const maxRows = opts.maxRows ?? Number.POSITIVE_INFINITY;
  let filled = 0;
  let after = 0;
  while (filled < maxRows && !opts.signal?.aborted) {
    const { rows } = await sql<PubmedQueryRecord & { pmid: number; content_hash: string }>`
      SELECT pmid, title, abstract, authors, journal, mesh_terms, mesh_major_terms, keywords, publication_types,
             language, publication_date, publication_year, content_hash
      FROM articles WHERE syntax_words IS NULL AND pmid > ${after}
      ORDER BY pmid LIMIT ${Math.min(FILL_BATCH, maxRows - filled)}`.execute(db);
    if (rows.length === 0) break;
    after = Number(rows.at(-1)!.pmid);
    const payload = rows.map((r) => ({ pmid: Number(r.pmid), content_hash: r.content_hash, ...syntaxIndexOf(r) }));
    await sql`
      UPDATE articles AS a SET syntax_sources = x.sources, syntax_words = ${syntaxWordsSql(sql`x.sources`, sql`x.words`)}
      FROM jsonb_to_recordset(${JSON.stringify(payload)}::text::jsonb)
        AS x(pmid integer, content_hash text, sources text[], words text[])
      WHERE a.pmid = x.pmid AND a.content_hash = x.content_hash AND a.syntax_words IS NULL`.execute(db);
    filled += rows.length;
    await new Promise((resolve) => setImmediate(resolve));
  }
  return filled;
}
