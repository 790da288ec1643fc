/**
 * The review pipeline's "sorting" step: re-ranks the full-text hits of a query with signals the text score
 * does not see (the title, recency, the study design from PubMed publication types), and removes duplicate
 * records. Pure: the caller loads the article rows.
 */
import type { SearchHit } from "./search-index.ts";
import { contentTerms, words } from "./words.ts";

/** What re-ranking needs of an article row. */
export interface RankableArticle {
  pmid: number;
  title: string | null;
  doi: string | null;
  publication_year: number | null;
  /** PubMed publication types, e.g. ["Journal Article", "Randomized Controlled Trial"]. */
  publication_types: string[];
}

/** Component signals, each in [0, 1], and the final score. */
export interface RankedArticle {
  pmid: number;
  /** Weighted sum of the signals times the penalty; higher is better. */
  score: number;
  /** Text score divided by the best text score of the result set. */
  text: number;
  /** Share of the query's content words found in the title. */
  titleMatch: number;
  /** 0.5^(age in years / 10); 0 when the year is unknown. */
  recency: number;
  /** Evidence level of the strongest publication type (see EVIDENCE_LEVELS). */
  evidence: number;
  /** 1, or PENALTY for retracted articles and retraction/erratum notices. */
  penalty: number;
}

export interface RerankWeights {
  text: number;
  title: number;
  evidence: number;
  recency: number;
}

/**
 * Weights of the signals (they sum to 1). The text score leads, so that study design and age reorder
 * articles of similar relevance but never lift an off-topic one over an on-topic one: an article with
 * every other signal at its best gains at most 0.4 over one with every other signal at 0. The title gets
 * as much as the evidence level because an article whose title carries the query's words is about the
 * topic, not merely mentioning it (the reason field-weighted BM25 weighs titles; Robertson et al. 2004).
 * Recency is the gentlest: older trials stay relevant to a review, newer ones supersede them only
 * slightly. These are editorial choices, to be tuned against reviewers' judgements.
 */
export const DEFAULT_WEIGHTS: RerankWeights = { text: 0.6, title: 0.15, evidence: 0.15, recency: 0.1 };

/** Multiplier for retracted articles, retraction notices and errata: they drop below almost everything. */
export const PENALTY = 0.1;

/** Half-life of the recency signal, in years. */
export const RECENCY_HALF_LIFE_YEARS = 10;

/**
 * Evidence level per PubMed publication type (NLM's list of publication types), on [0, 1], following the
 * hierarchy of the evidence pyramid and the Oxford Centre for Evidence-Based Medicine 2011 Levels of
 * Evidence (OCEBM Levels of Evidence Working Group): systematic reviews and meta-analyses (level 1) above
 * randomised trials (level 2) above non-randomised controlled studies (level 3) above observational and
 * case-series designs (level 4) above case reports and expert opinion (level 5). Guidelines, which build
 * on systematic reviews, sit just below them; narrative reviews sit with expert opinion's better half.
 * A type not listed here counts as UNKNOWN_DESIGN_LEVEL (a plain "Journal Article" says nothing about
 * the design).
 */
export const EVIDENCE_LEVELS: Readonly<Record<string, number>> = {
  "meta-analysis": 1,
  "systematic review": 1,
  "network meta-analysis": 1,
  "practice guideline": 0.9,
  guideline: 0.9,
  "consensus development conference": 0.7,
  "randomized controlled trial": 0.8,
  "randomized controlled trial, veterinary": 0.75,
  "pragmatic clinical trial": 0.75,
  "equivalence trial": 0.75,
  "clinical trial, phase iii": 0.65,
  "clinical trial, phase iv": 0.65,
  "controlled clinical trial": 0.6,
  "clinical trial": 0.55,
  "clinical trial, phase ii": 0.55,
  "clinical trial, phase i": 0.5,
  "multicenter study": 0.45,
  "observational study": 0.45,
  "comparative study": 0.4,
  "validation study": 0.4,
  "evaluation study": 0.4,
  "twin study": 0.4,
  review: 0.3,
  "case reports": 0.15,
  editorial: 0.05,
  comment: 0.05,
  letter: 0.05,
  news: 0.05,
  interview: 0.05,
};
export const UNKNOWN_DESIGN_LEVEL = 0.3;

/** Publication types that trigger PENALTY. */
const PENALISED = new Set([
  "retracted publication",
  "retraction of publication",
  "published erratum",
  "expression of concern",
]);

/** Titles shorter than this (in words) are too generic ("Reply", "Erratum") to mark duplicates. */
const MIN_TITLE_WORDS_FOR_DEDUP = 4;
/** Word-set Jaccard similarity at or above which two titles are the same record. */
const TITLE_DUPLICATE_JACCARD = 0.9;

/** Share of the query's content terms present in the title, in [0, 1]; 0 without terms or title. */
export function titleMatch(queryTerms: readonly string[], title: string | null): number {
  if (!title || queryTerms.length === 0) return 0;
  const inTitle = new Set(contentTerms(title));
  return queryTerms.filter((t) => inTitle.has(t)).length / queryTerms.length;
}

/** Evidence level of an article: the strongest of its publication types (UNKNOWN_DESIGN_LEVEL if none is known). */
export function evidenceLevel(publicationTypes: readonly string[]): number {
  let best = -1;
  for (const t of publicationTypes) {
    const level = EVIDENCE_LEVELS[t.trim().toLowerCase()];
    if (level !== undefined && level > best) best = level;
  }
  return best < 0 ? UNKNOWN_DESIGN_LEVEL : best;
}

/** PENALTY if any publication type marks a retraction or erratum, else 1. */
export function penaltyFor(publicationTypes: readonly string[]): number {
  return publicationTypes.some((t) => PENALISED.has(t.trim().toLowerCase())) ? PENALTY : 1;
}

/** 0.5^(age / RECENCY_HALF_LIFE_YEARS), age = currentYear − year (never negative); 0 for an unknown year. */
export function recencyScore(year: number | null, currentYear: number): number {
  if (year === null || !Number.isFinite(year)) return 0;
  return 0.5 ** (Math.max(0, currentYear - year) / RECENCY_HALF_LIFE_YEARS);
}

/** A DOI compared case-insensitively without a resolver prefix ("https://doi.org/", "doi:"). */
export function normalizeDoi(doi: string | null): string | null {
  if (!doi) return null;
  const d = doi
    .trim()
    .toLowerCase()
    .replace(/^(https?:\/\/(dx\.)?doi\.org\/|doi:\s*)/, "");
  return d || null;
}

function jaccard(a: Set<string>, b: Set<string>): number {
  let common = 0;
  for (const x of a) if (b.has(x)) common++;
  return common / (a.size + b.size - common);
}

export interface RerankOptions {
  weights?: Partial<RerankWeights>;
  /** Year that recency is measured from (default: this year, UTC). */
  currentYear?: number;
}

/**
 * Re-ranks search hits for a review: final score = penalty × (w_text·text + w_title·titleMatch +
 * w_evidence·evidence + w_recency·recency) with DEFAULT_WEIGHTS unless overridden, sorted by that score
 * (ties: text score, then PMID descending, i.e. the newer record). Duplicates then go: a later article with
 * the same DOI as a kept one, or a title that is identical or near-identical (word-set Jaccard ≥ 0.9, titles
 * of at least 4 words) — the better-ranked record stays.
 * @param query the user's query (for the title signal).
 * @param hits search hits with text scores (any order; a repeated PMID counts once, with its best score).
 * @param articles the hits' article rows; hits without a row are dropped.
 * @returns kept articles, best first, with their signals.
 */
export function rerank(
  query: string,
  hits: readonly SearchHit[],
  articles: Iterable<RankableArticle>,
  options: RerankOptions = {},
): RankedArticle[] {
  const w = { ...DEFAULT_WEIGHTS, ...options.weights };
  const currentYear = options.currentYear ?? new Date().getUTCFullYear();
  const byPmid = new Map<number, RankableArticle>();
  for (const a of articles) byPmid.set(a.pmid, a);
  const best = new Map<number, number>();
  for (const h of hits) if (byPmid.has(h.pmid)) best.set(h.pmid, Math.max(best.get(h.pmid) ?? -Infinity, h.score));
  const maxText = Math.max(0, ...best.values());
  const queryTerms = contentTerms(query);

  const ranked: RankedArticle[] = [...best.entries()].map(([pmid, raw]) => {
    const a = byPmid.get(pmid)!;
    const text = maxText > 0 ? Math.max(0, raw) / maxText : 0;
    const signals = {
      text,
      titleMatch: titleMatch(queryTerms, a.title),
      recency: recencyScore(a.publication_year, currentYear),
      evidence: evidenceLevel(a.publication_types),
      penalty: penaltyFor(a.publication_types),
    };
    const score =
      signals.penalty *
      (w.text * signals.text +
        w.title * signals.titleMatch +
        w.evidence * signals.evidence +
        w.recency * signals.recency);
    return { pmid, score, ...signals };
  });
  ranked.sort((x, y) => y.score - x.score || y.text - x.text || y.pmid - x.pmid);

  const seenDois = new Set<string>();
  const seenTitles = new Set<string>();
  const keptTitleSets: Set<string>[] = [];
  const kept: RankedArticle[] = [];
  for (const r of ranked) {
    const a = byPmid.get(r.pmid)!;
    const doi = normalizeDoi(a.doi);
    if (doi && seenDois.has(doi)) continue;
    const titleWords = a.title ? words(a.title) : [];
    const titleKey = titleWords.join(" ");
    const titleSet = new Set(titleWords);
    if (titleWords.length >= MIN_TITLE_WORDS_FOR_DEDUP) {
      if (seenTitles.has(titleKey)) continue;
      if (
        keptTitleSets.some(
          (s) =>
            Math.min(s.size, titleSet.size) >= TITLE_DUPLICATE_JACCARD * Math.max(s.size, titleSet.size) &&
            jaccard(s, titleSet) >= TITLE_DUPLICATE_JACCARD,
        )
      )
        continue;
      seenTitles.add(titleKey);
      keptTitleSets.push(titleSet);
    }
    if (doi) seenDois.add(doi);
    kept.push(r);
  }
  return kept;
}
