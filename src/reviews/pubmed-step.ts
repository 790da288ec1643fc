import type { AppDeps } from "../deps.ts";
import type { RecordDesign } from "../articles/evidence.ts";
import type { ReviewFilters } from "./filters.ts";
import type { PubmedReport } from "./report.ts";
import { eutilsClientFor } from "../pubmed/client.ts";
import { cachedEsearch, SearchAllowanceSpent, searchCacheKey } from "../pubmed/search-cache.ts";
import { fetchWithinAllowance, reserveSearch } from "../pubmed/usage.ts";
import { heldPmids } from "../../search/pubmed/fetch-records.ts";
import { corpusStats, embeddedSizeWarning, forgetCorpusStats } from "../articles/corpus.ts";

/**
 * The review's PubMed step (issue 19, docs/decisions/0026-pubmed-on-demand.md): when the local index holds few
 * articles covering the topic, PubMed is asked for the topic (esearch, Best Match) and the records the index lacks are
 * fetched (efetch) and ingested through the ordinary ingest, before the local search ranks and summarises as always.
 * Runs inside the review job, never in a request. A failure or the time budget never fails the review: the step
 * reports what happened in one plain sentence and the review goes on with the local index.
 */

/**
 * Below this many local articles covering every concept, PubMed is asked. It is the number of best-ranked articles the
 * summary is read from (pipeline.ts SUMMARY_SOURCES): with fewer, the summary cannot choose among enough sources, and
 * one esearch (often answered from the cache) costs a fraction of a second. With more, the local index already gives
 * the summary its full choice, and the topic's text need not leave the machine.
 */
export const ON_DEMAND_THRESHOLD = 30;

/** How long an esearch answer for a review topic is reused (a topic reviewed again the same day asks nothing). */
export const REVIEW_SEARCH_CACHE_MS = 24 * 60 * 60 * 1000;

/**
 * PubMed's own filters for our study-design codes: publication types where PubMed has one, otherwise the MeSH heading
 * NLM indexes such studies under (PubMed has no [pt] for cohort, case-control or cross-sectional studies).
 */
const DESIGN_TERMS: Record<RecordDesign, string> = {
  "meta-analysis": `"meta-analysis"[pt]`,
  "systematic-review": `"systematic review"[pt]`,
  rct: `"randomized controlled trial"[pt]`,
  "clinical-trial": `"clinical trial"[pt]`,
  guideline: `("guideline"[pt] OR "practice guideline"[pt])`,
  cohort: `"cohort studies"[mh]`,
  "case-control": `"case-control studies"[mh]`,
  "cross-sectional": `"cross-sectional studies"[mh]`,
  observational: `"observational study"[pt]`,
  review: `"review"[pt]`,
  "case-report": `"case reports"[pt]`,
  opinion: `("editorial"[pt] OR "comment"[pt] OR "letter"[pt])`,
};

/**
 * The esearch term for a review: the topic as the user wrote it (so PubMed's automatic term mapping applies), and the
 * review's filters as field tags: years as a publication-date range `[dp]`, designs `[pt]` (or MeSH), humans
 * `humans[mh]`, free full text `free full text[sb]`. Without filters the topic is sent unchanged.
 */
export function pubmedTermFor(topic: string, filters: ReviewFilters | null): string {
  const parts: string[] = [];
  if (filters?.year_from !== undefined || filters?.year_to !== undefined) {
    parts.push(`${filters.year_from ?? 1780}:${filters.year_to ?? 3000}[dp]`);
  }
  if (filters?.study_designs && filters.study_designs.length > 0) {
    const terms = filters.study_designs.map((d) => DESIGN_TERMS[d]);
    parts.push(terms.length === 1 ? terms[0]! : `(${terms.join(" OR ")})`);
  }
  if (filters?.humans_only) parts.push("humans[mh]");
  if (filters?.free_full_text) parts.push("free full text[sb]");
  return parts.length === 0 ? topic : [`(${topic})`, ...parts].join(" AND ");
}

let warnedOutgrown = false;
/** Logs, once per process, that the embedded database has grown past what it is meant for (docs/scaling.md). */
async function warnWhenEmbeddedOutgrown(deps: AppDeps): Promise<void> {
  if (warnedOutgrown || deps.config.DATABASE_URL) return;
  forgetCorpusStats();
  const warning = embeddedSizeWarning(true, await corpusStats(deps.db));
  if (warning) {
    warnedOutgrown = true;
    console.warn(`pubmed: ${warning}`);
  }
}

/**
 * What the step did, and the PMIDs PubMed matched (Best Match order), which the review counts as covering the topic.
 */
export interface PubmedStepResult {
  report: PubmedReport;
  /** The PMIDs PubMed returned for the topic (at most the per-review cap), held or fetched or not. */
  matchedPmids: number[];
}

/** What the step reports as it works, for the review's progress line. */
export type ProgressReporter = (line: string | null) => Promise<void>;

/** The report's note when the user's look-ups for the day are spent (PUBMED_USER_DAILY_SEARCHES). */
export const SEARCHES_SPENT_NOTE =
  "Your daily allowance of PubMed searches is used up, so this review uses the local index only.";

/** The text with its first letter in upper case. */
const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** "1 record" / "143 records". */
const records = (n: number) => `${n.toLocaleString("en-US")} ${n === 1 ? "record" : "records"}`;

/**
 * Asks PubMed for `topic` (with the review's filters) and fetches the best records the index lacks, within the
 * configuration's record cap, the user's daily budgets (look-ups: PUBMED_USER_DAILY_SEARCHES, taken only when the
 * answer is not in the cache; records: PUBMED_USER_DAILY_RECORDS) and the time budget (PUBMED_FETCH_BUDGET_MS, for the
 * whole step). The user's requests share NCBI's rate fairly with other users' (src/pubmed/client.ts). Never throws for
 * PubMed's sake: an error or the budget ends the step with `outcome` "error" or "timeout" and the records fetched
 * before it stay. @throws only database errors of the step's own writes.
 */
export async function runPubmedStep(
  deps: AppDeps,
  review: { user_id: string },
  topic: string,
  filters: ReviewFilters | null,
  progress: ProgressReporter,
): Promise<PubmedStepResult> {
  const { config } = deps;
  const term = pubmedTermFor(topic, filters);
  const budgetSeconds = Math.round(config.PUBMED_FETCH_BUDGET_MS / 1000);
  const report: PubmedReport = {
    outcome: "fetched",
    term,
    query_translation: null,
    total: null,
    considered: 0,
    already_held: 0,
    fetched: 0,
    failed: 0,
    searched_at: new Date().toISOString(),
    note: null,
  };
  const signal = AbortSignal.timeout(config.PUBMED_FETCH_BUDGET_MS);
  const client = eutilsClientFor(config, deps.db, {
    log: (line) => console.warn(`pubmed: ${line}`),
    userId: review.user_id,
  });
  let matchedPmids: number[] = [];
  try {
    await progress("Searching PubMed for this topic…");
    const max = config.PUBMED_ON_DEMAND_MAX_RECORDS;
    const answer = await cachedEsearch(
      deps.db,
      client,
      searchCacheKey("review", { term, retmax: max }),
      REVIEW_SEARCH_CACHE_MS,
      { term, retmax: max, sort: "relevance" },
      signal,
      () => reserveSearch(deps.db, review.user_id, config.PUBMED_USER_DAILY_SEARCHES),
    );
    report.query_translation = answer.queryTranslation;
    report.total = answer.total;
    report.searched_at = answer.searchedAt;
    report.considered = answer.pmids.length;
    matchedPmids = answer.pmids;
    const holding = await heldPmids(deps.db, answer.pmids);
    report.already_held = holding.size;
    const missing = answer.pmids.filter((p) => !holding.has(p));
    const fetch = await fetchWithinAllowance(
      { db: deps.db, search: deps.search, client },
      review.user_id,
      missing,
      config.PUBMED_USER_DAILY_RECORDS,
      {
        signal,
        log: (line) => console.warn(`pubmed: ${line}`),
        beforeFetch: (count) => progress(`Fetching ${records(count)} from PubMed…`),
      },
    );
    report.fetched = fetch.fetched;
    report.failed = fetch.failed;
    if (fetch.fetched > 0) await warnWhenEmbeddedOutgrown(deps);
    if (fetch.error !== null) throw fetch.error;
    if (fetch.granted < missing.length) {
      report.outcome = "budget";
      report.note =
        fetch.granted === 0
          ? "Your daily allowance of records fetched from PubMed is used up, so this review uses the local index only."
          : `Your daily allowance of records fetched from PubMed allowed ${records(fetch.granted)} of ${missing.length.toLocaleString("en-US")}; the rest were not fetched.`;
    } else if (report.failed > 0) {
      report.note = `${capitalised(records(report.failed))} could not be fetched from PubMed or read; the review uses the others.`;
    }
  } catch (err) {
    if (err instanceof SearchAllowanceSpent) {
      report.outcome = "budget";
      report.note = SEARCHES_SPENT_NOTE;
      return { report, matchedPmids };
    }
    const timedOut = signal.aborted;
    report.outcome = timedOut ? "timeout" : "error";
    const partly = report.fetched > 0 ? ` after ${records(report.fetched)}` : "";
    report.note = timedOut
      ? `PubMed did not answer within ${budgetSeconds} seconds${partly}, so this review uses the local index only.`
      : `PubMed could not be reached${partly}, so this review uses the local index only.`;
    if (!timedOut)
      console.warn(`pubmed: the review's PubMed step failed: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    await progress(null);
  }
  return { report, matchedPmids };
}
