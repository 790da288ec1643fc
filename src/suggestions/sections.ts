/**
 * How a user's weekly suggestions are chosen (issue 11; docs/decisions/0017-weekly-suggestions.md): candidates come
 * from the SearchIndex (so either adapter serves them), one query per profile source (answers over any date shared
 * across users and weeks: source-cache.ts), fused by weighted reciprocal
 * rank fusion (fusion.ts), then split into the four sections of docs/product.md §2. Sections do not repeat an article:
 * New This Week first, then New This Year, Potentially Disruptive, Pertinent For You.
 */
import type { SearchIndex } from "../../search/search-index.ts";
import { fuseRankings, type FusedCandidate } from "./fusion.ts";
import type { Profile, ProfileSource } from "./profile.ts";
import { noveltyOf, PUBMED_EARLIER_TOLERANCE, type HeadingStats } from "./disruption.ts";
import { isDisruptiveByCitations, type CdIndex } from "./cd-index.ts";
import { rankedSources } from "./source-cache.ts";
import { pickCovering, sourceHeads } from "./coverage.ts";
import type { AppDeps } from "../deps.ts";

/** The four sections, in the page's order (docs/product.md §2), by their API names (docs/product.md §3). */
export const SECTIONS = [
  "new_weekly_articles",
  "new_yearly_articles",
  "pertinent_articles",
  "disruptive_articles",
] as const;
export type Section = (typeof SECTIONS)[number];

/** Articles per section. The page shows 2 at a time (docs/product.md §9); ten is five pages, a week's reading. */
export const SECTION_SIZE = 10;
/** Candidates asked of the index per source and date range. */
export const CANDIDATES_PER_SOURCE = 100;
/** Fused candidates of any date examined for the disruptive signal. */
export const DISRUPTIVE_POOL = 200;

/** What the sections need of a candidate article. */
export interface CandidateArticle {
  pmid: number;
  title: string | null;
  /** YYYY-MM-DD (the first day of the month or year when the record is less precise), or null. */
  publication_date: string | null;
  /** YYYY-MM-DD the record entered PubMed (its Entrez date), or null when the record does not say. */
  entrez_date: string | null;
  publication_year: number | null;
  mesh_terms: string[];
}

/** One chosen article: why (the card's why-line) and which signal chose it. */
export interface SectionEntry {
  pmid: number;
  reason: string;
  signal: "interest" | "like" | "likes" | "cd_index" | "mesh_novelty";
  /** For the MeSH novelty signal: the heading named and its first year in the index (what PubMed is asked about). */
  novelty?: { heading: string; firstYear: number };
}

/**
 * What PubMed said of headings the MeSH novelty signal named (disruption.ts `askPubmedAboutHeadings`): by heading, how
 * many PubMed articles carry it published before its first year in the index. A heading absent was not asked.
 */
export type PubmedHeadingCounts = ReadonlyMap<string, number>;

/** Candidates of a profile: fused over any date, and over the publication years the "new" sections look at. */
export interface Candidates {
  anyDate: FusedCandidate<ProfileSource>[];
  recent: FusedCandidate<ProfileSource>[];
  /**
   * The profile's sources, whose groups (each interest, the likes) each get a quota in the sections ranked by match
   * (coverage.ts). Left out, they are the candidates' sources in order of appearance.
   */
  sources?: readonly ProfileSource[];
}

/** How deep in each source's own ranking the per-interest quota looks (coverage.ts `sourceHeads`). */
export const QUOTA_DEPTH = 4 * SECTION_SIZE;

/**
 * The PMIDs whose articles `chooseSections` needs: every recent candidate (their dates decide New This Week), the
 * DISRUPTIVE_POOL best of any date (the disruptive signal examines them; Pertinent For You's fill takes its
 * SECTION_SIZE from the same head, which the other sections' at most 3·SECTION_SIZE picks cannot exhaust), and each
 * source's QUOTA_DEPTH best of any date (the quota's, when the likes outweigh an interest).
 */
export function candidatePmidsToRead(candidates: Candidates): number[] {
  const anyDate = [
    ...candidates.anyDate.slice(0, DISRUPTIVE_POOL).map((c) => c.pmid),
    ...sourceHeads(candidates.anyDate, QUOTA_DEPTH),
  ];
  return [...new Set([...anyDate, ...candidates.recent.map((c) => c.pmid)])];
}

/**
 * A profile's ranking asked live of the index (the "new" sections' year range): each source's best
 * CANDIDATES_PER_SOURCE articles within `years` (any date when empty), fused as `fuseSources` does; `exclude` never
 * returned.
 */
export async function rankProfile(
  index: SearchIndex,
  sources: readonly ProfileSource[],
  exclude: ReadonlySet<number>,
  years: { fromYear?: number; toYear?: number } = {},
): Promise<FusedCandidate<ProfileSource>[]> {
  const excludePmids = [...exclude];
  const ranked = new Map<string, number[]>();
  // One source at a time: a user's job is one of many in the queue, and the index's connections are shared.
  for (const source of sources) {
    if (ranked.has(source.text)) continue;
    const res = await index.similar(source.text, { limit: CANDIDATES_PER_SOURCE, excludePmids, ...years });
    ranked.set(
      source.text,
      res.hits.map((h) => h.pmid),
    );
  }
  return fuseSources(sources, ranked, exclude);
}

/**
 * Pertinent For You's ranking from each source's ranked PMIDs over any date (`ranked`, by source text, as
 * source-cache.ts keeps them): each source's best CANDIDATES_PER_SOURCE not in `exclude`, fused by weighted reciprocal
 * rank fusion (fusion.ts). Pure.
 */
export function fuseSources(
  sources: readonly ProfileSource[],
  ranked: ReadonlyMap<string, readonly number[]>,
  exclude: ReadonlySet<number>,
): FusedCandidate<ProfileSource>[] {
  const lists = sources.map((source) => ({
    source,
    weight: source.weight,
    pmids: (ranked.get(source.text) ?? []).filter((p) => !exclude.has(p)).slice(0, CANDIDATES_PER_SOURCE),
  }));
  return fuseRankings(lists, exclude);
}

/**
 * The candidates of a profile: ranked over any date (each source's answer shared across users and weeks, see
 * source-cache.ts), and over [fromYear, toYear] for the "new" sections (asked every time: new articles arrive daily).
 * @param exclude PMIDs never suggested (liked, suggested in the previous four weeks).
 */
export async function retrieveCandidates(
  deps: Pick<AppDeps, "db" | "search">,
  profile: Profile,
  exclude: ReadonlySet<number>,
  fromYear: number,
  toYear: number,
  now: Date,
): Promise<Candidates> {
  // The recent years hold few articles, so the pooled reading list stands in for the single likes there: the same
  // candidates for about half the queries.
  const pooled = profile.sources.some((s) => s.kind === "likes");
  const recentSources = pooled ? profile.sources.filter((s) => s.kind !== "like") : profile.sources;
  const ranked = await rankedSources(
    deps,
    profile.sources.map((s) => s.text),
    now,
  );
  const recent = await rankProfile(deps.search, recentSources, exclude, { fromYear, toYear });
  return { anyDate: fuseSources(profile.sources, ranked, exclude), recent, sources: profile.sources };
}

const TITLE_IN_REASON = 90;

/** The why-line of a candidate chosen for matching the profile. */
export function matchReason(source: ProfileSource): string {
  if (source.kind === "interest") return `Matches your interest "${source.label}"`;
  if (source.kind === "likes") return "Similar to the articles you liked";
  const title =
    source.label.length > TITLE_IN_REASON ? `${source.label.slice(0, TITLE_IN_REASON - 1).trimEnd()}…` : source.label;
  return `Similar to "${title}", which you liked`;
}

/** The why-line of an article the citation signal flags. */
export function citationReason(cd: CdIndex): string {
  const many = cd.citingArticles === 1 ? "1 later article" : `${cd.citingArticles} later articles`;
  return `Cited without its references by ${cd.citeOnlyIt} of the ${many} in the index citing it or its references (CD index ${cd.cdIndex.toFixed(2)})`;
}

/**
 * The why-line of an article the MeSH novelty signal flags. With PubMed's count of articles carrying the heading
 * published before its first year here (`earlier`), the claim is PubMed's; without it (PubMed not asked, or not
 * answering), it is said of what it was measured on: this library's index, which may hold only part of the heading's
 * literature (issue 35: on a small index a 1999 paper was "among the first" with a heading PubMed has used for
 * decades).
 */
export function noveltyReason(novelty: { heading: string; firstYear: number }, earlier?: number): string {
  const heading = `the MeSH heading "${novelty.heading}"`;
  if (earlier === undefined)
    return `Among the first articles in this library's index with ${heading} (first indexed here in ${novelty.firstYear})`;
  const before = earlier === 0 ? "none" : `only ${earlier}`;
  return `Among the first articles in PubMed with ${heading}: PubMed lists ${before} published before ${novelty.firstYear}`;
}

/** Whether a YYYY-MM-DD date lies within the 7 days up to `now` (UTC days, inclusive). */
export function inLastWeek(date: string | null, now: Date): boolean {
  if (!date) return false;
  const t = Date.parse(`${date.slice(0, 10)}T00:00:00Z`);
  if (Number.isNaN(t)) return false;
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return t <= today && t > today - 7 * 86_400_000;
}

/**
 * The date New This Week reads: when the record entered PubMed (its Entrez date, PubMed's [edat]), or, for a record
 * that does not say (a MedlineCitationSet record, a row ingested before Entrez dates were read), its publication date.
 * The Entrez date is what "new" means to a reader: a record entered this week is new to them whatever date its
 * journal issue carries (often a later month, sometimes an earlier year). Pure.
 */
export function newSince(a: Pick<CandidateArticle, "entrez_date" | "publication_date">): string | null {
  return a.entrez_date ?? a.publication_date;
}

/**
 * Splits fused candidates into the four sections. Pure.
 * - New This Week: entered PubMed within the last 7 days (`newSince`: the Entrez date, else the publication date),
 *   best match first. Candidates come from the "recent" ranking, whose publication years reach from the year a week
 *   ago to next year (service.ts): a record entered this week with an older publication year is not among them.
 * - New This Year: publication year = the current calendar year.
 * - Potentially Disruptive: among the DISRUPTIVE_POOL best matches of any date, those a disruption signal flags:
 *   first those the citation signal flags (CD index, cd-index.ts; highest first), then those the MeSH novelty signal
 *   flags (disruption.ts; youngest heading first), each then by match. The why-line names the signal that fired. A
 *   heading PubMed lists more than PUBMED_EARLIER_TOLERANCE times before its first year here (`signals.pubmed`) is
 *   not young, and flags nothing.
 * - Pertinent For You: the best matches of any date.
 * New This Week, New This Year and Pertinent For You give each interest, and the likes, a quota before filling by
 * score, interleaved (coverage.ts), so that one part of the profile cannot take a whole section.
 */
export function chooseSections(
  candidates: Candidates,
  articles: ReadonlyMap<number, CandidateArticle>,
  signals: {
    stats: ReadonlyMap<string, HeadingStats>;
    earliestYear: number | null;
    cdIndexes: ReadonlyMap<number, CdIndex>;
    /** PubMed's counts for the headings asked about; without them the why-line speaks of this index only. */
    pubmed?: PubmedHeadingCounts;
  },
  now: Date,
): Record<Section, SectionEntry[]> {
  const taken = new Set<number>();
  const sourcesOf = (list: FusedCandidate<ProfileSource>[]) =>
    candidates.sources ?? [...new Set(list.flatMap((c) => c.contributions?.map((k) => k.source) ?? [c.best]))];
  const pick = (list: FusedCandidate<ProfileSource>[], keep: (a: CandidateArticle) => boolean): SectionEntry[] => {
    const accept = (c: FusedCandidate<ProfileSource>) => {
      const a = articles.get(c.pmid);
      return a !== undefined && !taken.has(c.pmid) && keep(a);
    };
    return pickCovering(list, sourcesOf(list), SECTION_SIZE, accept).map(({ candidate, source }) => {
      taken.add(candidate.pmid);
      return { pmid: candidate.pmid, reason: matchReason(source), signal: source.kind };
    });
  };
  const year = now.getUTCFullYear();
  const new_weekly_articles = pick(candidates.recent, (a) => inLastWeek(newSince(a), now));
  const new_yearly_articles = pick(candidates.recent, (a) => a.publication_year === year);

  // Headings PubMed lists too often before their first year here: not young in the literature, so not novel.
  const contradicted = new Set(
    [...(signals.pubmed ?? [])].filter(([, earlier]) => earlier > PUBMED_EARLIER_TOLERANCE).map(([h]) => h),
  );
  const flagged: { pmid: number; signalRank: number; order: number; rank: number; entry: SectionEntry }[] = [];
  candidates.anyDate.slice(0, DISRUPTIVE_POOL).forEach((c, rank) => {
    const a = articles.get(c.pmid);
    if (!a || taken.has(c.pmid)) return;
    const cd = signals.cdIndexes.get(c.pmid);
    if (isDisruptiveByCitations(cd)) {
      flagged.push({
        pmid: c.pmid,
        signalRank: 0,
        order: -cd.cdIndex,
        rank,
        entry: { pmid: c.pmid, reason: citationReason(cd), signal: "cd_index" },
      });
      return;
    }
    const novelty = noveltyOf(a, signals.stats, signals.earliestYear, contradicted);
    if (novelty) {
      const earlier = signals.pubmed?.get(novelty.heading);
      flagged.push({
        pmid: c.pmid,
        signalRank: 1,
        order: novelty.ageYears,
        rank,
        entry: {
          pmid: c.pmid,
          reason: noveltyReason(novelty, earlier),
          signal: "mesh_novelty",
          novelty: { heading: novelty.heading, firstYear: novelty.firstYear },
        },
      });
    }
  });
  flagged.sort((x, y) => x.signalRank - y.signalRank || x.order - y.order || x.rank - y.rank);
  const disruptive_articles = flagged.slice(0, SECTION_SIZE).map((f) => {
    taken.add(f.pmid);
    return f.entry;
  });
  const pertinent_articles = pick(candidates.anyDate, () => true);
  return { new_weekly_articles, new_yearly_articles, pertinent_articles, disruptive_articles };
}
