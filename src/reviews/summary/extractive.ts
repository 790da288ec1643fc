/**
 * Extractive, query-focused, evidence-first summary of a review's ranked articles.
 *
 * Pipeline (all pure, deterministic, no I/O):
 *  1. Split each abstract into labelled sentences and give each its features (candidates.ts): the role of the
 *     sentence (a finding or conclusion, background, aim, method; from structured-abstract labels, else the
 *     sentence-role classifier of src/reviews/roles/), the study design of its article (src/articles/evidence.ts), and
 *     penalties for sentences a reader cannot use on their own. Sentences that lean on context the reader will not
 *     see ("The patient …", "These findings …", "In this study …") are not used at all; neither is any retracted
 *     article.
 *  2. Score each sentence (scoring.ts): BM25 relevance to the query plus query-term coverage and how well the whole
 *     article covers the query; the weight of its section; the article's rank; its evidence tier. Terms are lightly
 *     stemmed (terms.ts), and an abbreviation an abstract defines counts as its long form too.
 *  3. Keep findings only (result and conclusion statements, however few) from articles above a relevance floor, and
 *     set case reports aside; select with maximal marginal relevance (selection.ts).
 *  4. Compose (compose.ts): "Overview", "Key findings" led by the strongest evidence, and a "Case reports" line.
 *
 * A citation is never invented: a sentence cites the article it was taken from, plus any other article whose
 * abstract contains a near-duplicate of it (tf-idf cosine ≥ 0.8), since that article supports the same statement.
 */
import { buildCandidates, queryTerms, type Candidate } from "./candidates.ts";
import { composeSummary } from "./compose.ts";
import { applyTopicFidelity, scoreCandidates } from "./scoring.ts";
import { selectMmr } from "./selection.ts";
import {
  EXTRACTIVE_DEFAULTS,
  type ExtractiveOptions,
  type Summarizer,
  type SummaryArticle,
  type SummaryResult,
} from "./types.ts";

/**
 * No sentence is cited from an article whose coverage of the query (the share of the query's idf weight it holds,
 * title terms counting 0.6 and abstract terms 0.4) is below this fraction of the best-covering article's. Relative,
 * not absolute: a topic worded in MeSH headings ("Solitary Pulmonary Nodule Lung Neoplasms") is rarely spelled out
 * in any abstract, and an absolute floor (0.4) cut its best-indexed articles. On the 24 topics of bench-evidence.ts,
 * 0.3 kept MeSH precision at 0.564 (0.576 without a floor, 0.557 at 0.5) and 181 of the 191 citations.
 */
export const ARTICLE_RELEVANCE_FRACTION = 0.3;

/**
 * Summarises the ranked articles of a review for the user's query.
 *
 * @param query The user's topic, free text (may be empty: then sentences are chosen by section, rank and evidence
 *   only, and no relevance floor applies).
 * @param articles Ranked articles, best first (the product passes up to ~30). Articles without abstract text and
 *   retracted articles are never cited; a PMID given twice counts once.
 * @param options Tuning; see ExtractiveOptions for defaults.
 * @returns The summary text and the PMIDs behind its citation numbers. Only findings (result and conclusion
 *   sentences) are quoted, so the summary may hold fewer sentences than maxSentences; it is null, with no PMIDs,
 *   when no on-topic article has a usable finding and no case report on the topic can be named. Never throws on odd
 *   input (empty strings, missing sections).
 *
 * Deterministic: the same input gives the same output, byte for byte. Runs in a few milliseconds for 30 abstracts
 * (see scripts/bench/bench-summarizer.ts).
 */
export function summarizeExtractive(
  query: string,
  articles: readonly SummaryArticle[],
  options: ExtractiveOptions = {},
): SummaryResult {
  const opts: Required<ExtractiveOptions> = { ...EXTRACTIVE_DEFAULTS, ...options };
  const { candidates, abbreviations } = buildCandidates(articles);
  if (candidates.length === 0) return { summary: null, citedPmids: [] };
  scoreCandidates(candidates, queryTerms(query, abbreviations));
  applyTopicFidelity(candidates, query);

  const hasQuery = candidates.some((c) => c.relevance > 0);
  // Sentences that share no term with the query, or come from an article that barely touches it, are kept out.
  const bestArticle = Math.max(0, ...candidates.map((c) => c.articleRelevance));
  const floor = ARTICLE_RELEVANCE_FRACTION * bestArticle;
  const onTopic = hasQuery ? candidates.filter((c) => c.relevance > 0 && c.articleRelevance >= floor) : candidates;
  const caseReports = caseReportsOf(onTopic);
  const studies = onTopic.filter((c) => c.design !== "case-report");
  // Findings only (results and conclusions; never an aim, a method or a call for more research), however few: a short
  // summary, or none but the case-report line, is better than one that quotes a non-finding as a finding.
  const findings = studies.filter((c) => c.finding);
  const selected = selectMmr(findings, opts);
  const designs = new Map(candidates.map((c) => [c.article, c.design]));
  return composeSummary(selected, caseReports, articles, (i) => designs.get(i) ?? null);
}

/** Input indices of the case reports among the candidates, one per article, in rank order. */
function caseReportsOf(candidates: readonly Candidate[]): number[] {
  return [...new Set(candidates.filter((c) => c.design === "case-report").map((c) => c.article))].sort((a, b) => a - b);
}

/** The default summarizer: extractive, query-focused and evidence-first (see summarizeExtractive). */
export const extractiveSummarizer: Summarizer = {
  name: "extractive",
  summarize: async (query, articles) => summarizeExtractive(query, articles),
};
