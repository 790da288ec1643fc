import { sql, type Kysely, type RawBuilder } from "kysely";
import type { DB } from "../../src/db/types.ts";
import { BM25, RANK_SCALE, RANK_WEIGHTS, tsqueryLexeme } from "../query.ts";
import type { QueryAnalysis } from "./analysis.ts";
import { num, text } from "./literals.ts";

/**
 * BM25F over the candidates of `ctes` (SQL of common table expressions, the last named `cand`, one `pmid` column):
 * one page of hits plus `counted`, an SQL expression evaluated once (the number of candidates).
 */
export async function rankCandidates(
  db: Kysely<DB>,
  analysis: QueryAnalysis,
  ctes: RawBuilder<unknown>,
  counted: RawBuilder<unknown>,
  skip: number,
  limit: number,
): Promise<{ candidates: number; pmid: number | null; score: number | null }[]> {
  // BM25F: score = Σ_t idf_t·qw_t·(k1+1)·tf / (tf + k1·(1 − b + b·dl/avgdl)), tf = RANK_SCALE·f with f
  // the ts_rank_cd value; dividing through by RANK_SCALE keeps f as is.
  const { k1, b } = BM25;
  const kdConst = (k1 * (1 - b)) / RANK_SCALE;
  const kdPerLength = (k1 * b) / analysis.avgLength / RANK_SCALE;
  const weights = sql.raw(`'${RANK_WEIGHTS}'::float4[]`);
  const tfColumns = sql.join(
    // A candidate usually holds only some of the terms; the @@ test is several times cheaper than the
    // ranking function, which is then called only for the terms present.
    analysis.terms.map((t, i) => {
      const q = sql`${text(tsqueryLexeme(t.lexeme))}::tsquery`;
      return sql`CASE WHEN a.document @@ ${q} THEN ts_rank_cd(${weights}, a.document, ${q})::float8 ELSE 0 END AS ${sql.ref(`f${i}`)}`;
    }),
    sql`, `,
  );
  const phraseColumns = analysis.phrases.map(
    (p, i) =>
      sql`, CASE WHEN a.document @@ ${text(p.query)}::tsquery THEN ${num(1 / RANK_SCALE)} ELSE 0 END AS ${sql.ref(`p${i}`)}`,
  );
  const scoreExpr = sql.join(
    [
      ...analysis.terms.map((t, i) => ({ column: `f${i}`, weight: t.weight })),
      ...analysis.phrases.map((p, i) => ({ column: `p${i}`, weight: p.weight })),
    ].map(({ column, weight }) => {
      const f = sql.ref(column);
      return sql`${num(weight * (k1 + 1))} * ${f} / (${f} + kd)`;
    }),
    sql` + `,
  );
  const { rows } = await sql<{ candidates: number; pmid: number | null; score: number | null }>`
    WITH ${ctes}, tf AS (
      SELECT a.pmid, ${num(kdConst)} + ${num(kdPerLength)} * a.doc_length AS kd, ${tfColumns} ${sql.join(phraseColumns, sql``)}
      FROM cand c JOIN article_search a ON a.pmid = c.pmid
      OFFSET 0
    ), scored AS (
      SELECT pmid, (${scoreExpr}) AS score FROM tf
    )
    SELECT n.candidates, h.pmid, h.score
    FROM (SELECT ${counted} AS candidates) n
    LEFT JOIN LATERAL (
      SELECT pmid, score FROM scored ORDER BY score DESC, pmid DESC LIMIT ${num(limit)} OFFSET ${num(skip)}
    ) h ON true`.execute(db);
  return rows;
}
