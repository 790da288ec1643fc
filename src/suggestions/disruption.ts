import { sql } from "kysely";
import { allowLongStatements, type Database } from "../db/database.ts";

/**
 * The "Potentially Disruptive" signal (docs/decisions/0017-weekly-suggestions.md): MeSH novelty after Mishra & Torvik
 * (2016, "Quantifying conceptual novelty in the biomedical literature", D-Lib Magazine 22(9/10)), who date a concept
 * by the first year it appears in MEDLINE and call an article novel when one of its concepts is young when it is
 * published. Without MeSH's own introduction dates or a citation graph here, a heading's age is measured in this
 * index: the earliest publication year of an article carrying it. An article is flagged when one of its headings was
 * at most NOVEL_AGE_YEARS old when it appeared; the youngest such heading is named in the card's why-line.
 *
 * Limits: the age is relative to what the index holds (a heading first indexed here in 2019 may be older in MEDLINE;
 * where PubMed can be asked, heading-pubmed.ts checks the heading's first year against PubMed's counts);
 * headings first seen in the index's first CENSOR_YEARS years are ignored, since their real age is unknown (left
 * censoring); a heading needs MIN_HEADING_ARTICLES articles, so a one-off heading or a parsing slip is not a "new
 * concept". Novelty is not impact: the section says "potentially".
 */

/**
 * A heading at most this many years old when the article appeared makes it novel (Mishra & Torvik's 0–3 year band,
 * narrowed).
 */
export const NOVEL_AGE_YEARS = 2;
/** Headings first seen within this many years of the index's earliest year are left-censored and ignored. */
export const CENSOR_YEARS = 2;
/** A heading must be carried by at least this many articles to count as a concept. */
export const MIN_HEADING_ARTICLES = 3;

/**
 * PubMed's articles carrying a heading published before its first year in this index, at most this many, and the
 * heading still counts as young in the literature (`askPubmedAboutHeadings`). Not zero: PubMed's publication date
 * search "includes both print and electronic dates of publication" (PubMed Help, "Publication Date [DP]"), so the
 * first articles of a heading, printed in its first year, are often published online in the year before; and NLM
 * sometimes indexes a few older citations with a new heading. A heading PubMed has used for decades is listed hundreds
 * or thousands of times before (the "Pain Measurement", first indexed here in 1999).
 */
export const PUBMED_EARLIER_TOLERANCE = 5;

/** What the signal knows of one heading. */
export interface HeadingStats {
  firstYear: number;
  df: number;
}

/** The novelty of one article: its youngest qualifying heading and that heading's age when the article appeared. */
export interface Novelty {
  heading: string;
  firstYear: number;
  ageYears: number;
}

/**
 * Recomputes mesh_heading_stats from the articles (one aggregate over the index; the weekly run does it once before
 * the users' jobs). @returns the number of headings.
 */
export async function refreshMeshStats(db: Database): Promise<number> {
  return db.transaction().execute(async (trx) => {
    await allowLongStatements(trx);
    await trx.deleteFrom("mesh_heading_stats").execute();
    const res = await sql`
      INSERT INTO mesh_heading_stats (heading, first_year, df)
      SELECT heading, min(publication_year), count(*)
      FROM articles, unnest(mesh_terms) AS heading
      WHERE publication_year IS NOT NULL
      GROUP BY heading`.execute(trx);
    return Number(res.numAffectedRows ?? 0);
  });
}

/**
 * Computes mesh_heading_stats when it is empty while the index holds articles with headings: on a new installation
 * the first batches come from readers entering interests, before the first weekly run has computed the statistics,
 * and Potentially Disruptive was then empty for everyone (issue 24). Later runs find the table filled and pay one
 * indexed one-row read. @returns whether it computed them.
 */
export async function ensureMeshStats(db: Database): Promise<boolean> {
  if (await db.selectFrom("mesh_heading_stats").select("heading").limit(1).executeTakeFirst()) return false;
  const any = await db
    .selectFrom("articles")
    .select("pmid")
    .where("publication_year", "is not", null)
    .where(sql<boolean>`cardinality(mesh_terms) > 0`)
    .limit(1)
    .executeTakeFirst();
  if (!any) return false;
  await refreshMeshStats(db);
  return true;
}

/** The statistics of `headings` (those known), and the index's earliest year (null when it holds no dated heading). */
export async function readHeadingStats(
  db: Database,
  headings: readonly string[],
): Promise<{ stats: Map<string, HeadingStats>; earliestYear: number | null }> {
  const stats = new Map<string, HeadingStats>();
  const earliest = await db
    .selectFrom("mesh_heading_stats")
    .select((eb) => eb.fn.min<number>("first_year").as("y"))
    .executeTakeFirst();
  if (headings.length === 0) return { stats, earliestYear: earliest?.y ?? null };
  // One array parameter, not one per heading: a user's candidates carry hundreds of headings.
  const rows = await db
    .selectFrom("mesh_heading_stats")
    .selectAll()
    .where(sql<boolean>`heading = ANY(${[...new Set(headings)]}::text[])`)
    .execute();
  for (const r of rows) stats.set(r.heading, { firstYear: r.first_year, df: r.df });
  return { stats, earliestYear: earliest?.y ?? null };
}

/**
 * The novelty of an article (its publication year and MeSH headings), or null when none of its headings is young
 * enough or qualifies (see the module comment). Pure.
 * @param notYoung headings known not to be young in the literature (PubMed lists them long before their first year
 *   here): never named.
 */
export function noveltyOf(
  article: { publication_year: number | null; mesh_terms: readonly string[] },
  stats: ReadonlyMap<string, HeadingStats>,
  earliestYear: number | null,
  notYoung: ReadonlySet<string> = new Set(),
): Novelty | null {
  if (article.publication_year === null || earliestYear === null) return null;
  let best: Novelty | null = null;
  for (const heading of article.mesh_terms) {
    if (notYoung.has(heading)) continue;
    const s = stats.get(heading);
    if (!s || s.df < MIN_HEADING_ARTICLES || s.firstYear <= earliestYear + CENSOR_YEARS) continue;
    const age = article.publication_year - s.firstYear;
    if (age < 0 || age > NOVEL_AGE_YEARS) continue;
    if (!best || age < best.ageYears || (age === best.ageYears && s.firstYear > best.firstYear))
      best = { heading, firstYear: s.firstYear, ageYears: age };
  }
  return best;
}
