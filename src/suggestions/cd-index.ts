import { sql } from "kysely";
import { allowLongStatements, type Database } from "../db/database.ts";

/**
 * The citation signal of "Potentially Disruptive" (docs/decisions/0017-weekly-suggestions.md, amendment): the CD
 * index of Funk & Owen-Smith (2017, "A dynamic network measure of technological change", Management Science 63(3),
 * 791–817), as Wu, Wang & Evans (2019, "Large teams develop and small teams disrupt science and technology", Nature
 * 566, 378–382) apply it to papers.
 *
 * For a focal article f with references R(f), take every later article i that cites f or one of R(f), and let
 * f_i = 1 when i cites f, b_i = 1 when i cites one of R(f). Then CD = (1/n) Σ_i (f_i − 2·f_i·b_i), n the number of
 * such articles: +1 when the articles citing f ignore what f built on (f displaced its predecessors), −1 when every
 * one of them cites f together with its references (f consolidated them), 0 when f is cited as much with as without.
 * With N_F articles citing f alone, N_B citing f and a reference, N_R citing a reference alone:
 * CD = (N_F − N_B) / (N_F + N_B + N_R).
 *
 * What this index holds: PubMed's reference lists (PubmedData/ReferenceList, read by ingest into
 * articles.reference_pmids) name cited articles by PMID, and only articles of this corpus cite. "Later" is a
 * publication year at least the focal article's (the records' dates are too coarse for more). Articles without
 * references get no CD index (the issue's rule, and the measure's: with R(f) empty every citer has b_i = 0).
 *
 * Limits: the corpus is a sample of the literature, so n counts only its articles (a few citations where the world
 * has hundreds); no time window (CD_t) is applied, the corpus being small; PubMed carries reference lists for a
 * minority of records (those deposited with PubMed Central), so the MeSH novelty signal (disruption.ts) covers the
 * others.
 */

/** An article is flagged when at least this many later articles of the corpus cite it: fewer say nothing. */
export const MIN_CITATIONS = 3;
/** ... and when its CD index is above this: more of its citers ignore its references than cite them with it. */
export const MIN_CD_INDEX = 0;

/** The CD index of one article and its counts. */
export interface CdIndex {
  pmid: number;
  /** In [-1, 1]. */
  cdIndex: number;
  /** n: later articles citing it or one of its references. */
  citingArticles: number;
  /** N_F: those citing it and none of its references. */
  citeOnlyIt: number;
  /** N_B: those citing it and one of its references. */
  citeBoth: number;
}

/**
 * Recomputes article_disruption from the corpus's reference lists (one statement; the weekly run calls it once,
 * before the users' jobs, beside the MeSH statistics). Only articles with references that a later article of the corpus
 * cites get a row (for the others the index is 0 or undefined and says nothing).
 * Cost: linear in the citation edges plus, for each reference, the articles citing it; at 36 million records this
 * belongs in an incrementally kept edge table (see the ADR).
 * @returns the number of articles with a CD index.
 */
export async function refreshCdIndex(db: Database): Promise<number> {
  return db.transaction().execute(async (trx) => {
    await allowLongStatements(trx);
    // The self-join's row estimates cross PostgreSQL's JIT threshold even on a small corpus, and compiling costs more
    // than the statement (270 ms against 32 ms on the sample), as for the search statistics (search/postgres).
    await sql`SELECT set_config('jit', 'off', true)`.execute(trx);
    await trx.deleteFrom("article_disruption").execute();
    const res = await sql`
      INSERT INTO article_disruption (pmid, cd_index, citing_articles, cite_only_it, cite_both)
      -- Every citation edge, read once: the focal articles are the citing ends (an article with references), their
      -- references the edges' cited ends.
      WITH cites AS MATERIALIZED (
        SELECT a.pmid AS citing, a.publication_year AS year, r.cited
        FROM articles a CROSS JOIN LATERAL unnest(a.reference_pmids) AS r(cited)
      ),
      of_focal AS (
        SELECT c.cited AS focal, c.citing FROM cites c WHERE c.cited IN (SELECT citing FROM cites)
      ),
      of_refs AS (
        SELECT DISTINCT f.citing AS focal, c.citing
        FROM cites f JOIN cites c ON c.cited = f.cited
        WHERE c.citing <> f.citing AND (f.year IS NULL OR c.year IS NULL OR c.year >= f.year)
      ),
      counted AS (
        SELECT coalesce(o.focal, r.focal) AS pmid,
               count(*)::int AS n,
               count(*) FILTER (WHERE o.citing IS NOT NULL AND r.citing IS NULL)::int AS only_it,
               count(*) FILTER (WHERE o.citing IS NOT NULL AND r.citing IS NOT NULL)::int AS cite_both
        FROM of_focal o FULL JOIN of_refs r ON r.focal = o.focal AND r.citing = o.citing
        GROUP BY 1
      )
      SELECT pmid, (only_it - cite_both)::float8 / n, n, only_it, cite_both FROM counted WHERE only_it + cite_both > 0`.execute(
      trx,
    );
    return Number(res.numAffectedRows ?? 0);
  });
}

/** The CD indexes of those of `pmids` that have one, by PMID (one array parameter). */
export async function readCdIndexes(db: Database, pmids: readonly number[]): Promise<Map<number, CdIndex>> {
  const out = new Map<number, CdIndex>();
  if (pmids.length === 0) return out;
  const rows = await db
    .selectFrom("article_disruption")
    .selectAll()
    .where(sql<boolean>`pmid = ANY(${[...new Set(pmids)]}::integer[])`)
    .execute();
  for (const r of rows)
    out.set(r.pmid, {
      pmid: r.pmid,
      cdIndex: r.cd_index,
      citingArticles: r.citing_articles,
      citeOnlyIt: r.cite_only_it,
      citeBoth: r.cite_both,
    });
  return out;
}

/** Whether a CD index flags its article as potentially disruptive (MIN_CITATIONS, MIN_CD_INDEX). Pure. */
export function isDisruptiveByCitations(cd: CdIndex | undefined): cd is CdIndex {
  return cd !== undefined && cd.citeOnlyIt + cd.citeBoth >= MIN_CITATIONS && cd.cdIndex > MIN_CD_INDEX;
}
