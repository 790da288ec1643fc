import { sql, type Kysely, type RawBuilder } from "kysely";
import type { DB } from "../../src/db/types.ts";
import type { SearchHit, SearchOptions } from "../search-index.ts";
import { MAX_SCANNED_ROWS, type CandidateBranch } from "../query.ts";
import type { QueryAnalysis } from "./analysis.ts";
import { rankCandidates } from "./bm25f.ts";
import { num, text } from "./literals.ts";

/**
 * Draws candidates from the branches, scores at most `target` of them with BM25F and returns one page,
 * plus the number of candidates.
 *
 * Each branch is a materialised CTE read the way the plan says (see CandidateBranch) and takes at most
 * `target` rows. A branch runs only while the branches before it have found fewer than `enough`
 * distinct documents: the test is a one-time filter (an InitPlan), so a branch that is not needed is
 * never started. Everything, from drawing to the page, is one statement.
 */
export async function scoreBranches(
  db: Kysely<DB>,
  analysis: QueryAnalysis,
  branches: CandidateBranch[],
  target: number,
  enough: number,
  options: SearchOptions,
  skip: number,
  limit: number,
  excludePmids: number[],
  coverage?: string,
): Promise<{ hits: SearchHit[]; candidates: number }> {
  const filters: RawBuilder<unknown>[] = [];
  if (coverage !== undefined) filters.push(sql`AND ts_match_vq(document, ${text(coverage)}::tsquery)`);
  // The function form of @@ keeps the planner from using the GIN index for a query of negations only.
  if (analysis.filter !== null) filters.push(sql`AND ts_match_vq(document, ${text(analysis.filter)}::tsquery)`);
  if (options.fromYear !== undefined) filters.push(sql`AND publication_year >= ${num(options.fromYear)}`);
  if (options.toYear !== undefined) filters.push(sql`AND publication_year <= ${num(options.toYear)}`);
  if (excludePmids.length > 0)
    filters.push(sql`AND NOT (pmid = ANY(${text(`{${excludePmids.join(",")}}`)}::integer[]))`);
  const filterSql = sql.join(filters, sql` `);
  const name = (i: number) => sql.ref(`b${i}`);
  const previous = (i: number) =>
    sql.join(
      Array.from({ length: i }, (_, j) => sql`SELECT pmid FROM ${name(j)}`),
      sql` UNION ALL `,
    );
  const branchCtes = sql.join(
    branches.map((b, i) => {
      const gate = i === 0 ? sql`` : sql`AND (SELECT count(DISTINCT pmid) FROM (${previous(i)}) p) < ${num(enough)}`;
      return sql`${name(i)} AS MATERIALIZED (${branchQuery(b, target, sql`${filterSql} ${gate}`)})`;
    }),
    sql`, `,
  );
  const drawn = sql.join(
    branches.map((_, i) => sql`SELECT pmid, ${num(i)} AS o FROM ${name(i)}`),
    sql` UNION ALL `,
  );

  // Distinct candidates keep their best branch; the last branch that ran may overshoot the target, and
  // its oldest documents are the ones left out.
  const ctes = sql`${branchCtes}, cand AS (
      SELECT pmid FROM (${drawn}) d GROUP BY pmid ORDER BY min(o), pmid DESC LIMIT ${num(target)}
    )`;
  const rows = await rankCandidates(db, analysis, ctes, sql`(SELECT count(*)::integer FROM cand)`, skip, limit);
  const candidates = Number(rows[0]?.candidates ?? 0);
  const hits = rows.filter((r) => r.pmid !== null).map((r) => ({ pmid: Number(r.pmid), score: Number(r.score) }));
  return { hits, candidates };
}

/** The SELECT of one candidate branch (see CandidateBranch): at most `target` PMIDs, rows filtered by `filters`. */
export function branchQuery(b: CandidateBranch, target: number, filters: RawBuilder<unknown>): RawBuilder<unknown> {
  const field = sql.ref(b.field === "title" ? "title_document" : "document");
  if (b.access === "scan")
    // Newest rows first through the primary key, at most MAX_SCANNED_ROWS of them; ts_match_vq (the
    // function behind @@) is not indexable, so the planner cannot turn this into an index read.
    return sql`
      SELECT pmid FROM (
        SELECT pmid, document, title_document, publication_year FROM article_search
        ORDER BY pmid DESC LIMIT ${num(MAX_SCANNED_ROWS)}
      ) s
      WHERE ts_match_vq(${field}, ${text(b.query)}::tsquery) ${filters}
      LIMIT ${num(target)}`;
  // "index": all matches through the GIN index, then the newest (pmid + 0 keeps the planner off the
  // primary key); "index-first": the first matches the bitmap scan meets.
  const order = b.access === "index" ? sql`ORDER BY pmid + 0 DESC` : sql``;
  return sql`
    SELECT pmid FROM article_search
    WHERE ${field} @@ ${text(b.query)}::tsquery ${filters}
    ${order} LIMIT ${num(target)}`;
}
