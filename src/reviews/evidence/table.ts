/**
 * A review's evidence table (issue 21): one row per cited study, in citation order, with what extractEvidence reads
 * from its abstract, its citation number and the other PMIDs of the same work. Pure; the pipeline stores the rows
 * with the summary (literature_reviews.evidence_table) and GET /details serves them.
 */
import type { SummaryArticle } from "../summary/types.ts";
import { sameCohorts } from "./cohorts.ts";
import { extractEvidence } from "./extract.ts";
import type { EvidenceRow } from "./types.ts";

/**
 * The evidence table of a summary.
 * @param cited The cited articles in citation order: `cited[n - 1]` is the article cited as [n].
 * @param duplicatesOf Cited PMID → the other PMIDs of its duplicate group (src/reviews/evidence/duplicates.ts); a PMID
 *   absent from the map has none.
 * @returns one row per cited article, `citation` = its position + 1; every text cell is a span of its abstract or null.
 */
export function buildEvidenceTable(
  cited: readonly SummaryArticle[],
  duplicatesOf: ReadonlyMap<number, readonly number[]>,
): EvidenceRow[] {
  const evidence = cited.map(extractEvidence);
  const cohorts = sameCohorts(
    cited,
    evidence.map((e) => e.participants),
  );
  return cited.map((article, i) => ({
    ...(evidence[i] as ReturnType<typeof extractEvidence>),
    pmid: article.pmid,
    citation: i + 1,
    duplicate_pmids: [...(duplicatesOf.get(article.pmid) ?? [])],
    same_cohort: cohorts.get(i + 1) ?? [],
  }));
}
