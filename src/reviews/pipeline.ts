import type { AppDeps } from "../deps.ts";
import type { SearchHit, SearchResult } from "../../search/search-index.ts";
import { z } from "zod";
import { handleJob, type JobHandler, jobKind } from "../jobs/kinds.ts";
import * as repo from "./repository.ts";
import { PIPELINE_STATUSES } from "./schemas.ts";
import { rerank } from "../../search/ranking.ts";
import { extractiveSummarizer } from "./summary/extractive.ts";
import type { Summarizer } from "./summary/types.ts";
import { LlmSummarizer, llmOptions } from "./llm/llm-summarizer.ts";
import { readTopicFromCorpus, storedConcepts } from "./topic.ts";
import { announceReviewChange } from "./events.ts";
import { conceptList, type TopicReading } from "../../search/concepts.ts";
import { describeFilters, needsArticleFilter, passesFilters, storedFilters } from "./filters.ts";
import { corpusSnapshot, queryReading, storedReport, type SearchReport } from "./report.ts";
import { isRetracted } from "../articles/evidence.ts";
import { ON_DEMAND_THRESHOLD, runPubmedStep } from "./pubmed-step.ts";
import { heldPmids } from "../../search/pubmed/fetch-records.ts";
import type { PubmedReport } from "./report.ts";
import { pubmedSyntaxOf, searchPubmedSyntax, syntaxRankingQuery } from "./syntax-search.ts";
import { translatePubmedQuery } from "../../search/pubmed/query-syntax.ts";
import { buildEvidenceTable } from "./evidence/table.ts";
import { renumberByFirstUse } from "./citation-order.ts";
import { onlyAsOrganism, withPubmedTranslation } from "../../search/concepts.ts";
import { normalizeWhitespace, splitSentences } from "./sentences.ts";
import { groupDuplicateRecords } from "./evidence/duplicates.ts";
import { evidenceParagraph, synthesisSentence } from "./evidence/synthesis.ts";
import { populationSentence } from "./evidence/population.ts";
import type { EvidenceRow } from "./evidence/types.ts";

/** Job kind of the review pipeline; its payload is `{reviewId}`. */
export const REVIEW_JOB_KIND = "review.run";
/** The review job with its payload's schema (src/jobs/kinds.ts): the producer (service.ts) and the handler below. */
export const REVIEW_JOB = jobKind(REVIEW_JOB_KIND, z.object({ reviewId: z.string().min(1) }));

/** Candidates fetched from the search index, before re-ranking. */
export const CANDIDATE_LIMIT = 200;
/**
 * Candidates fetched when study-design, humans or full-text filters are set: those are read from the article rows
 * after the search, so more are fetched for enough to pass (the index's most per call).
 */
export const FILTERED_CANDIDATE_LIMIT = 1000;
/** Relevant articles kept in a review's ranked list (the "All Relevant Articles" list). */
export const MAX_RELEVANT = 100;
/**
 * Articles whose text score is below this fraction of the best one are not relevant enough to list. The floor
 * is on the text score, not the final one, because recency and study design lift every article a little,
 * whether it is about the topic or merely shares a common word with it.
 */
export const RELEVANCE_FLOOR = 0.2;
/** Best-ranked articles the summary is written from. */
export const SUMMARY_SOURCES = 30;
/**
 * Below this many articles covering the whole topic, the summary says plainly that the index holds little on it
 * (issue 8): a reader should not take two articles for the state of a field.
 */
export const FEW_COVERING = 5;

/** The opening sentence of a summary written from only `count` covering articles (count ≥ 1). */
export function fewArticlesSentence(count: number, concepts: string): string {
  return count === 1
    ? `Only 1 article in the index addresses all of: ${concepts}.`
    : `Only ${count} articles in the index address all of: ${concepts}.`;
}

/** The opening sentence of a summary of a search strategy (PubMed syntax) that only `count` articles match. */
export function fewMatchesSentence(count: number): string {
  return count === 1
    ? "Only 1 article in the index matches this search strategy."
    : `Only ${count} articles in the index match this search strategy.`;
}

/** A re-ranked candidate: its final score and its text relevance relative to the best hit, in [0, 1]. */
export interface RankedCandidate extends repo.RankedEntry {
  relevance: number;
}

/** What the pipeline does between its stored states; replaceable in tests. */
export interface PipelineSteps {
  /** Orders the candidates best first by final score (duplicates removed). */
  rank(query: string, hits: SearchHit[], articles: repo.ArticleRow[]): Promise<RankedCandidate[]> | RankedCandidate[];
  /** Writes the summary from the sources (best first); citedPmids[n - 1] is the article cited as [n]. */
  summarizer: Summarizer;
}

/** The product's steps: search/ranking.ts re-ranking and the extractive summarizer. */
export const defaultSteps: PipelineSteps = {
  rank: (query, hits, articles) =>
    rerank(query, hits, articles).map((r) => ({ pmid: r.pmid, score: r.score, relevance: r.text })),
  summarizer: extractiveSummarizer,
};

/**
 * The local covering hits joined with the articles PubMed matched for the topic (issue 19). PubMed's automatic term
 * mapping reads the topic through MeSH ("corticosteroids" → Adrenal Cortex Hormones), which our concept reading cannot
 * do without a thesaurus: an article PubMed matched for the whole topic covers it. Such an article takes its text
 * score from the index's word search (`scored`), or the lowest covering score when the word search did not reach it,
 * so that ranking still orders it by its text, title, design and recency.
 * @returns hits best first, at most `limit`; `total` counts the union (exact while the local hits are all the local
 *   matches, as they are below ON_DEMAND_THRESHOLD; past `limit` an article matched both ways may count twice).
 */
function withPubmedMatches(
  local: SearchResult,
  pubmedPmids: readonly number[],
  scored: readonly SearchHit[],
  limit: number,
): SearchResult {
  if (pubmedPmids.length === 0) return local;
  const inLocal = new Set(local.hits.map((h) => h.pmid));
  const score = new Map(scored.map((h) => [h.pmid, h.score]));
  const floor = local.hits.length > 0 ? Math.min(...local.hits.map((h) => h.score)) : 0;
  const added = pubmedPmids.filter((p) => !inLocal.has(p)).map((pmid) => ({ pmid, score: score.get(pmid) ?? floor }));
  const hits = [...local.hits, ...added].sort((x, y) => y.score - x.score).slice(0, limit);
  return { hits, total: local.total + added.length, totalIsLowerBound: local.totalIsLowerBound };
}

/** The concepts stored with a review. */
const storedConceptsOf = (review: repo.ReviewRow | undefined) => storedConcepts(review?.topic_concepts);

/** Thrown when a status write finds the review gone or moved on: the run stops without an error. */
class ReviewGone extends Error {}

async function advanceOrStop(...args: Parameters<typeof repo.advanceReview>): Promise<void> {
  if (!(await repo.advanceReview(...args))) throw new ReviewGone();
  // Outside a transaction the change is committed now; inside one, the caller announces it after the commit.
  if (!args[0].isTransaction) announceReviewChange(args[1]);
}

/**
 * Keeps the relevant part of ranked lists, in order, at most MAX_RELEVANT in all: first the articles that cover the
 * whole topic, then partial matches (articles matching only some concepts) at or above the relevance floor; no
 * duplicates.
 */
function relevant(covering: RankedCandidate[], partial: RankedCandidate[]): repo.RankedEntry[] {
  const seen = new Set<number>();
  const kept: repo.RankedEntry[] = [];
  const take = (list: RankedCandidate[], coversTopic: boolean) => {
    for (const { pmid, score, relevance } of list) {
      if (kept.length === MAX_RELEVANT) return;
      if (seen.has(pmid) || !Number.isFinite(score) || (!coversTopic && !(relevance >= RELEVANCE_FLOOR))) continue;
      seen.add(pmid);
      kept.push({ pmid, score, coversTopic });
    }
  };
  take(covering, true);
  take(partial, false);
  return kept;
}

/** How a review's topic is searched: a strategy in PubMed's syntax, or a plain topic read as concepts. */
interface TopicSearch {
  query: string;
  /** The strategy when the query is written in PubMed's syntax; null for a plain topic. */
  syntax: ReturnType<typeof pubmedSyntaxOf>;
  filters: ReturnType<typeof storedFilters>;
  years: { fromYear: number | undefined; toYear: number | undefined };
  /** Whether the filters are read from the article rows after the search (more candidates are fetched). */
  rowFilter: boolean;
}

/** The search of a review's stored query and filters. */
function topicSearchOf(review: repo.ReviewRow, query: string): TopicSearch {
  const filters = storedFilters(review.search_filters);
  return {
    query,
    syntax: pubmedSyntaxOf(query),
    filters,
    years: { fromYear: filters?.year_from, toYear: filters?.year_to },
    rowFilter: needsArticleFilter(filters),
  };
}

/** The topic's concepts; a strategy in PubMed's syntax is matched exactly (no concepts of our own). */
async function readTopic(deps: AppDeps, search: TopicSearch): Promise<TopicReading> {
  return search.syntax ? { concepts: [], generic: [] } : await readTopicFromCorpus(deps, search.query);
}

/** The index's articles that cover the whole topic as `reading` reads it (or match the strategy), best first. */
function localSearch(deps: AppDeps, search: TopicSearch, reading: TopicReading, limit: number): Promise<SearchResult> {
  return search.syntax
    ? searchPubmedSyntax(deps, search.syntax, { limit, ...search.years })
    : deps.search.search(search.query, { limit, requireAll: reading.concepts, ...search.years });
}

/**
 * What asking PubMed on demand gave: its report, the PMIDs it matched that the index holds, and the topic read anew.
 */
interface PubmedOutcome {
  report: PubmedReport | null;
  matches: number[];
  /** Why PubMed was not asked, said in "How this review was made" (issue 37 item 8); null when it was. */
  notAsked: string | null;
  reading: TopicReading;
}

/** PubMed on demand: a topic the local index covers thinly is first filled from PubMed (pubmed-step.ts). */
async function consultPubmed(
  deps: AppDeps,
  review: repo.ReviewRow,
  search: TopicSearch,
  initial: TopicReading,
): Promise<PubmedOutcome> {
  const reviewId = review.id;
  let reading = initial;
  const held = deps.config.PUBMED_ON_DEMAND ? (await localSearch(deps, search, reading, 1)).total : null;
  if (held === null) {
    const notAsked = "PubMed was not asked: PubMed on demand is turned off on this server.";
    return { report: null, matches: [], notAsked, reading };
  }
  if (held >= ON_DEMAND_THRESHOLD) {
    const notAsked =
      `PubMed was not asked: the index already held ${held.toLocaleString("en-US")} articles that address every ` +
      `part of the topic (it asks PubMed when it holds fewer than ${ON_DEMAND_THRESHOLD}).`;
    return { report: null, matches: [], notAsked, reading };
  }
  const step = await runPubmedStep(deps, review, search.query, search.filters, async (line) => {
    if (await repo.setReviewProgress(deps.db, reviewId, ["searching"], line)) announceReviewChange(reviewId);
  });
  const pubmed = step.report;
  // Only what the index holds now (a fetch cut short by the budget or the allowance leaves some out).
  const inIndex = await heldPmids(deps.db, step.matchedPmids);
  const matches = step.matchedPmids.filter((p) => inIndex.has(p));
  // New records can teach the topic's abbreviations new long forms; PubMed's own reading of the topic lends its
  // concepts the synonyms its automatic term mapping used (issue 37 item 7).
  if (pubmed.fetched > 0) reading = await readTopic(deps, search);
  if (!search.syntax) reading = withPubmedTranslation(reading, pubmed.query_translation);
  return { report: pubmed, matches, notAsked: null, reading };
}

/** The candidates of a search: those that cover the topic, those that match part of it, and their article rows. */
interface Retrieved {
  /** The covering hits, PubMed's matches joined (withPubmedMatches). */
  covering: SearchResult;
  /** The best hits of a word search of the topic, covering it or not. */
  any: SearchHit[];
  articles: repo.ArticleRow[];
  /** The query the candidates are ranked by. */
  rankQuery: string;
}

/** Retrieves the covering hits and those of a plain word search, and reads the articles of both. */
async function retrieveCandidates(
  deps: AppDeps,
  search: TopicSearch,
  reading: TopicReading,
  pubmedMatches: number[],
): Promise<Retrieved> {
  const limit = search.rowFilter ? FILTERED_CANDIDATE_LIMIT : CANDIDATE_LIMIT;
  const local = await localSearch(deps, search, reading, limit);
  const rankQuery = search.syntax ? syntaxRankingQuery(search.syntax) : search.query;
  const any =
    local.total > 0 || pubmedMatches.length > 0
      ? await deps.search.search(rankQuery, { limit: CANDIDATE_LIMIT, ...search.years })
      : { hits: [] };
  const covering = withPubmedMatches(local, pubmedMatches, any.hits, limit);
  const articles = await repo.findArticles(deps.db, [...new Set([...covering.hits, ...any.hits].map((h) => h.pmid))]);
  return { covering, any: any.hits, articles, rankQuery };
}

/** The retrieved hits screened: which are stored, which pass the filters, which cover the topic and which only part. */
interface Screened {
  /** Covering hits whose article is stored. */
  screened: SearchHit[];
  /** Of those, the ones the filters pass. */
  filtered: SearchHit[];
  coveringHits: SearchHit[];
  partialHits: SearchHit[];
}

/** Screens the retrieved hits (Screened); an article matched only through an organism's name covers nothing. */
function screenCandidates(search: TopicSearch, reading: TopicReading, retrieved: Retrieved): Screened {
  const { covering, any, articles } = retrieved;
  const coveringPmids = new Set(covering.hits.map((h) => h.pmid));
  // Hits the index knows but the articles table no longer has (deleted meanwhile) are dropped, and so are those the
  // filters exclude.
  const stored = new Set(articles.map((a) => a.pmid));
  const passing = new Set(articles.filter((a) => passesFilters(search.filters, a)).map((a) => a.pmid));
  const screened = covering.hits.filter((h) => stored.has(h.pmid));
  const filtered = screened.filter((h) => passing.has(h.pmid));
  // An article the index matched on a concept only through an organism's name ("Klebsiella pneumoniae" for
  // "pneumonia") does not cover the topic: it is listed with the partial matches (issue 37 item 7).
  const byPmid = new Map(articles.map((a) => [a.pmid, a]));
  const organismOnly = (pmid: number) => {
    const a = byPmid.get(pmid);
    if (!a) return false;
    const text = [a.title, a.abstract, ...(a.mesh_terms ?? []), ...(a.keywords ?? [])].join(" \n ");
    return reading.concepts.some((c) => onlyAsOrganism(c, text));
  };
  const truly = search.syntax ? filtered : filtered.filter((h) => !organismOnly(h.pmid));
  const coveringHits = truly.slice(0, CANDIDATE_LIMIT);
  const asOrganisms = new Set(filtered.filter((h) => !truly.includes(h)).map((h) => h.pmid));
  const partialHits = search.syntax
    ? []
    : [
        ...filtered.filter((h) => asOrganisms.has(h.pmid)),
        ...any.filter((h) => passing.has(h.pmid) && !coveringPmids.has(h.pmid)),
      ];
  return { screened, filtered, coveringHits, partialHits };
}

/** The search's part of "How this review was made": how the topic was read, the filters and the counts. */
async function searchReport(
  deps: AppDeps,
  search: TopicSearch,
  reading: TopicReading,
  pubmed: PubmedOutcome,
  matched: number,
  screening: Screened,
  ranked: readonly repo.RankedEntry[],
): Promise<SearchReport> {
  const { syntax, query } = search;
  return {
    query: syntax
      ? { concepts: [], generic_words: [], phrases: [], excluded: [], pubmed_syntax: translatePubmedQuery(syntax) }
      : { ...queryReading(query, reading), pubmed_syntax: null },
    filters: describeFilters(search.filters),
    counts: {
      matched,
      screened: screening.screened.length,
      after_filters: search.rowFilter ? screening.filtered.length : null,
      relevant: ranked.filter((r) => r.coversTopic).length,
      partial: ranked.filter((r) => !r.coversTopic).length,
      summarized: 0,
      retracted_excluded: 0,
      cited: 0,
    },
    pubmed: pubmed.report,
    pubmed_not_asked: pubmed.report ? null : pubmed.notAsked,
    corpus: await corpusSnapshot(deps.db),
  };
}

/**
 * Stores the search's outcome and moves the review on (summarizing when something covers the topic, else
 * no_articles_found): the ranked list replaces the stored one in the same transaction.
 */
async function storeSearchOutcome(
  deps: AppDeps,
  reviewId: string,
  found: boolean,
  ranked: repo.RankedEntry[],
  extra: { topic_concepts: TopicReading["concepts"]; matching_count: number; search_report: string },
): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    if (!found) {
      await advanceOrStop(trx, reviewId, ["searching", "sorting"], "no_articles_found", {
        ...extra,
        fts_articles_total_count: 0,
      });
    } else {
      await advanceOrStop(trx, reviewId, ["sorting"], "summarizing", {
        ...extra,
        fts_articles_total_count: ranked.length,
      });
    }
    // The status update above locks the review row, so a concurrent delete cannot slip in between.
    await repo.replaceRankedArticles(trx, reviewId, found ? ranked : []);
  });
  announceReviewChange(reviewId);
}

/**
 * searching/sorting → summarizing (or no_articles_found): reads the topic as concepts, retrieves the articles that
 * cover all of them (exact count) and those that match only part of it, re-ranks both and stores the relevant ones,
 * covering first. Nothing covers the topic: no_articles_found, whatever shares a word with it (issue 8). Candidates
 * are not stored, so a run resumed in either status searches again; the ranked list is replaced, never appended to,
 * in the same transaction that moves the review on.
 * @returns whether there is something to summarise.
 */
async function searchAndRank(
  deps: AppDeps,
  review: repo.ReviewRow,
  query: string,
  steps: PipelineSteps,
): Promise<boolean> {
  const reviewId = review.id;
  const search = topicSearchOf(review, query);
  const pubmed = await consultPubmed(deps, review, search, await readTopic(deps, search));
  const { reading } = pubmed;
  const retrieved = await retrieveCandidates(deps, search, reading, pubmed.matches);
  const screening = screenCandidates(search, reading, retrieved);
  const { coveringHits, partialHits } = screening;
  const { rankQuery, articles, covering } = retrieved;
  if (coveringHits.length > 0) await advanceOrStop(deps.db, reviewId, ["searching", "sorting"], "sorting");
  const ranked =
    coveringHits.length > 0
      ? relevant(
          await steps.rank(rankQuery, coveringHits, articles),
          partialHits.length > 0 ? await steps.rank(rankQuery, partialHits, articles) : [],
        )
      : [];
  const found = ranked.some((r) => r.coversTopic);
  const report = await searchReport(deps, search, reading, pubmed, covering.total, screening, ranked);
  await storeSearchOutcome(deps, reviewId, found, ranked, {
    topic_concepts: reading.concepts,
    matching_count: covering.total,
    search_report: JSON.stringify(report),
  });
  return found;
}

/**
 * The articles a summary is written from: of the ranked covering articles (best first), the first SUMMARY_SOURCES
 * representatives of distinct works, retracted ones left out.
 * @returns `ranked`: the sources and the retracted records ranked among them (the report's "summarized" count, of which
 *   `ranked.length - sources.length` were retracted); `sources`: the representatives, best first; `duplicatesOf`:
 *   source PMID → the other PMIDs of its work found anywhere in the list (groupDuplicateRecords).
 */
export function summarySources<T extends repo.ArticleRow>(
  list: readonly T[],
): { ranked: T[]; sources: T[]; duplicatesOf: Map<number, number[]> } {
  const retracted = (a: T) => isRetracted(a.publication_types ?? [], a.retraction_notice_pmid);
  const { kept, duplicatesOf } = groupDuplicateRecords(list.filter((a) => !retracted(a)));
  const sources = kept.slice(0, SUMMARY_SOURCES);
  const last = sources.at(-1);
  const read = last === undefined ? list : list.slice(0, list.indexOf(last) + 1);
  const used = new Set(sources.map((a) => a.pmid));
  // The report counts works: duplicates of a source are not counted again, retracted records are (as excluded).
  const ranked = read.filter((a) => used.has(a.pmid) || retracted(a));
  for (const pmid of duplicatesOf.keys()) if (!used.has(pmid)) duplicatesOf.delete(pmid);
  return { ranked, sources, duplicatesOf };
}

/**
 * summarizing → complete: summarises the best stored articles and numbers the cited ones. Works from the
 * stored ranked list, so a run resumed after a crash in this status redoes only this step.
 */
async function summarizeStep(deps: AppDeps, reviewId: string, query: string, steps: PipelineSteps): Promise<void> {
  // Only articles that cover the whole topic may be cited, and never a retracted one. Records of the same work
  // (duplicate publications, translations) are one source: the whole relevant list is grouped (evidence/duplicates.ts)
  // and the best-ranked SUMMARY_SOURCES representatives are summarised.
  const relevantArticles = await repo.topRankedArticles(deps.db, reviewId, MAX_RELEVANT);
  const { ranked, sources, duplicatesOf } = summarySources(relevantArticles);
  const syntax = pubmedSyntaxOf(query);
  const written = await steps.summarizer.summarize(syntax ? syntaxRankingQuery(syntax) : query, sources);
  const { citedPmids } = written;
  const review = await repo.findReview(deps.db, reviewId);
  const stored = storedReport(review?.search_report);
  const report = stored && {
    ...stored,
    counts: {
      ...stored.counts,
      summarized: ranked.length,
      retracted_excluded: ranked.length - sources.length,
      cited: citedPmids.length,
    },
  };
  const matching = review?.matching_count ?? null;
  // Few covering articles: the summary opens by saying so, in one plain sentence.
  const opening = syntax
    ? fewMatchesSentence(matching ?? 0)
    : fewArticlesSentence(matching ?? 0, conceptList(storedConceptsOf(review)));
  const supplied = new Set(sources.map((a) => a.pmid));
  const unknown = citedPmids.filter((p) => !supplied.has(p));
  // Every [n] must point to an article the summary was written from; anything else is a bug, not a citation.
  if (unknown.length > 0) throw new Error(`summary cites articles that were not supplied: ${unknown.join(", ")}`);
  if (new Set(citedPmids).size !== citedPmids.length)
    throw new Error("summary cites the same article under two numbers");
  // The evidence table of the cited studies, whichever summarizer wrote the text, and the summary's opening paragraph
  // counted from it (what the evidence is, which way it points, whom it is about).
  const evidence = evidenceTableOf(citedPmids, sources, duplicatesOf);
  const summaryQuery = syntax ? syntaxRankingQuery(syntax) : query;
  const byPmid = new Map(sources.map((a) => [a.pmid, a]));
  const sentencesOf = (pmid: number) => splitSentences(normalizeWhitespace(byPmid.get(pmid)?.abstract ?? ""));
  const synthesis = evidence && synthesisSentence(evidence, summaryQuery, sentencesOf);
  const population = evidence && populationSentence(evidence, sources, summaryQuery);
  const evidenceOpening = evidence && written.summary !== null ? evidenceParagraph(synthesis, population) : null;
  const few = written.summary !== null && matching !== null && matching < FEW_COVERING;
  const blocks = [few ? opening : null, evidenceOpening, written.summary];
  const assembled = written.summary === null ? null : blocks.filter((b) => b !== null).join("\n\n");
  // The opening cites studies the summarizer numbered later: the whole text is renumbered by first use, so [1] is the
  // first article cited (docs/product.md §3), and the evidence table follows.
  const ordered = assembled === null ? null : renumberByFirstUse(assembled, citedPmids);
  const finalPmids = ordered?.pmids ?? citedPmids;
  const table = ordered && evidence ? renumberRows(evidence, ordered.mapping) : evidence;
  await deps.db.transaction().execute(async (trx) => {
    await advanceOrStop(trx, reviewId, ["summarizing"], "complete", {
      summary: ordered?.text ?? null,
      summary_engine: written.engine ?? steps.summarizer.name,
      evidence_table: table ? JSON.stringify(table) : null,
      ...(report ? { search_report: JSON.stringify(report) } : {}),
    });
    await repo.setCitations(trx, reviewId, finalPmids);
  });
  announceReviewChange(reviewId);
}

/** Evidence rows renumbered by `mapping` (old citation → new), in the new citation order. */
function renumberRows(rows: readonly EvidenceRow[], mapping: ReadonlyMap<number, number>): EvidenceRow[] {
  const to = (n: number) => mapping.get(n) ?? n;
  return rows
    .map((r) => ({ ...r, citation: to(r.citation), same_cohort: r.same_cohort.map(to).sort((a, b) => a - b) }))
    .sort((a, b) => a.citation - b.citation);
}

/**
 * The evidence table of the cited articles (src/reviews/evidence/table.ts), `citedPmids[n - 1]` being [n] and every one
 * among `sources`. A failure to read one abstract leaves the review without a table (null) rather than without its
 * summary; it is logged.
 */
function evidenceTableOf(
  citedPmids: readonly number[],
  sources: readonly repo.ArticleRow[],
  duplicatesOf: Map<number, number[]>,
): EvidenceRow[] | null {
  const byPmid = new Map(sources.map((a) => [a.pmid, a]));
  try {
    return buildEvidenceTable(
      citedPmids.map((p) => byPmid.get(p)!),
      duplicatesOf,
    );
  } catch (err) {
    console.error("the evidence table could not be built:", err);
    return null;
  }
}

/** Records a failed review (only if it is still in progress) and logs why. */
async function markFailed(deps: AppDeps, reviewId: string, err: unknown): Promise<void> {
  const message = err instanceof Error ? err.message : String(err);
  const recorded = await repo.advanceReview(deps.db, reviewId, PIPELINE_STATUSES, "error", {
    error_message: message.slice(0, 2000),
  });
  if (recorded) {
    announceReviewChange(reviewId);
    console.error(`literature review ${reviewId} failed:`, err);
  }
}

/**
 * Runs (or resumes) the pipeline of one review from the status stored in the database, writing each
 * transition before the next step starts. A review that is gone, not started or already finished is left
 * alone, so running the job twice is harmless. Any failure of a step ends the review in status error with
 * the reason stored; only a failure to record that propagates (and the job is retried).
 */
export async function runReview(deps: AppDeps, reviewId: string, steps: PipelineSteps = defaultSteps): Promise<void> {
  const review = await repo.findReview(deps.db, reviewId);
  if (!review || !(PIPELINE_STATUSES as readonly string[]).includes(review.status) || !review.user_query) return;
  const query = review.user_query;
  try {
    let status = review.status;
    if (status === "searching" || status === "sorting")
      status = (await searchAndRank(deps, review, query, steps)) ? "summarizing" : "no_articles_found";
    if (status === "summarizing") await summarizeStep(deps, reviewId, query, steps);
  } catch (err) {
    if (err instanceof ReviewGone) return;
    // A write that failed because the review was deleted meanwhile (foreign key) is not an error either.
    if (!(await repo.findReview(deps.db, reviewId))) return;
    await markFailed(deps, reviewId, err);
  }
}

/**
 * The steps for a configuration: with LLM_BASE_URL the summary is asked of the language model and verified, with the
 * extractive summarizer as its fallback (src/reviews/llm/llm-summarizer.ts).
 */
export function stepsFor(config: AppDeps["config"]): PipelineSteps {
  const llm = llmOptions(config);
  return llm ? { ...defaultSteps, summarizer: new LlmSummarizer(llm, extractiveSummarizer) } : defaultSteps;
}

/** The "review.run" job: runs the pipeline; a job given up after repeated crashes leaves the review in error. */
export const reviewJobHandler: JobHandler = handleJob(
  REVIEW_JOB,
  (payload, ctx) => runReview(ctx.deps, payload.reviewId, stepsFor(ctx.deps.config)),
  (payload, reason, ctx) => markFailed(ctx.deps, payload.reviewId, new Error(reason)),
);
