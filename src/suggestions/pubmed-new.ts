import type { AppDeps } from "../deps.ts";
import type { EutilsClient } from "../../search/pubmed/eutils.ts";
import { heldPmids } from "../../search/pubmed/fetch-records.ts";
import { isPubmedSyntax } from "../../search/pubmed/query-syntax.ts";
import { cachedEsearch, SearchAllowanceSpent, searchCacheKey } from "../pubmed/search-cache.ts";
import { fetchWithinAllowance, reserveSearch } from "../pubmed/usage.ts";
import type { Profile } from "./profile.ts";

/**
 * New This Week from PubMed (issue 19, point 5; docs/decisions/0026-pubmed-on-demand.md). Where PubMed on demand is
 * on, a user's weekly run first asks PubMed which records matching each of the user's interests entered PubMed in the
 * week, and fetches those the index lacks, before the candidates are gathered (sections.ts): the ordinary ranking then
 * weighs them with the rest, and New This Week reads their Entrez dates.
 *
 * - **What is asked.** One esearch per interest, its text as the user wrote it (a plain-language interest gets
 *   PubMed's automatic term mapping; one written in PubMed's syntax is a search strategy and is sent as written), with
 *   `datetype=edat`, `mindate`/`maxdate` = the New This Week window (`weekWindow`), `sort=relevance` (Best Match) and
 *   `retmax` WEEKLY_RETMAX. A date range rather than `reldate=7`: reldate counts from NCBI's today, while the window is
 *   the run's (a job retried later, a recomputation, a test's clock). Likes are not sent: their text is a title and
 *   headings rather than a query the user wrote, and sending it would tell NCBI what the user reads.
 * - **Asked once.** Each answer is kept in pubmed_search_cache under the ISO week and the normalised term
 *   (`weeklySearchKey`), which every process of the deployment reads first: users sharing an interest cost one esearch
 *   a week, and the records it names are fetched by the first of them (the others find them held). Two jobs asking the
 *   same new term at the same moment may both miss the cache (no lock is held across a request to NCBI). An esearch
 *   sent (not one answered from the cache) takes one look-up of the user's daily allowance (PUBMED_USER_DAILY_SEARCHES,
 *   shared with their reviews); once it is spent, the interests not asked yet are not asked this week.
 * - **What is fetched.** The PMIDs of the answers that `articles` lacks, best-ranked of each interest first, within the
 *   user's daily budget of fetched records (PUBMED_USER_DAILY_RECORDS, shared with their reviews), with `fetchRecords`
 *   (one efetch for up to 200 PMIDs; ingested and indexed through the ordinary ingest).
 * - **Never fails the week.** The whole step has the time budget of a review's PubMed step (PUBMED_FETCH_BUDGET_MS).
 *   An error or the budget ends it with a log line; what was ingested stays, and the week goes on with the index as it
 *   is.
 */

/** PMIDs asked of PubMed per interest and week: the week's best few, as the issue asks. */
export const WEEKLY_RETMAX = 20;
/** How long a weekly answer may serve: the key names the week, so at most a week. */
export const WEEKLY_SEARCH_CACHE_MS = 7 * 24 * 60 * 60 * 1000;

/** The E-utilities calls the step makes (an EutilsClient, or a test's stand-in for one). */
export type WeeklyPubmedClient = Pick<EutilsClient, "esearch" | "efetchXml">;

/** What the step did for one user. */
export interface WeeklyPubmedResult {
  /**
   * "done"; "no-interests" (nothing to ask: a profile of likes only); "budget" (the user's daily budget let fewer
   * records be fetched than were missing); "timeout" (PUBMED_FETCH_BUDGET_MS ran out); "error" (PubMed or the fetch
   * failed).
   */
  outcome: "done" | "no-interests" | "budget" | "timeout" | "error";
  /** Distinct interests asked about (from PubMed or the cache). */
  terms: number;
  /** Of those, esearches sent to PubMed now (the others were answered from the cache). */
  asked: number;
  /** PMIDs PubMed named for the week, every interest together, without repeats. */
  matched: number[];
  /** Of `matched`, already in `articles` before the fetch. */
  alreadyHeld: number;
  /** Records fetched and ingested. */
  fetched: number;
  /** PMIDs of failed efetch batches. */
  failed: number;
}

/**
 * The form of a term the cache is keyed by: white space collapsed, and lower case unless the term is written in
 * PubMed's syntax, where the case of AND/OR/NOT matters. Pure.
 */
export function normaliseTerm(term: string): string {
  const collapsed = term.trim().replace(/\s+/g, " ");
  return isPubmedSyntax(collapsed) ? collapsed : collapsed.toLowerCase();
}

/** The pubmed_search_cache key of a weekly esearch: the ISO week ("2026-W48") and the normalised term. Pure. */
export function weeklySearchKey(week: string, term: string): string {
  return searchCacheKey(`weekly:${week}`, { term: normaliseTerm(term) });
}

/** A UTC day as NCBI's dates are written, YYYY/MM/DD. */
function ncbiDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10).replaceAll("-", "/");
}

/**
 * The New This Week window as esearch's `mindate`/`maxdate` (inclusive UTC days, YYYY/MM/DD): the 7 days up to and
 * including `now`'s day, the days sections.ts `inLastWeek` accepts. Pure.
 */
export function weekWindow(now: Date): { mindate: string; maxdate: string } {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return { mindate: ncbiDay(today - 6 * 86_400_000), maxdate: ncbiDay(today) };
}

/** The profile's interests to ask PubMed about, one per normalised term, as the user wrote them. Pure. */
export function weeklyTerms(profile: Profile): string[] {
  const seen = new Set<string>();
  const terms: string[] = [];
  for (const source of profile.sources) {
    if (source.kind !== "interest") continue;
    const key = normaliseTerm(source.text);
    if (key && !seen.has(key)) {
      seen.add(key);
      terms.push(source.text.trim().replace(/\s+/g, " "));
    }
  }
  return terms;
}

/** Interleaves ranked lists: every list's first, then every list's second…, without repeats. Pure. */
function interleave(lists: readonly (readonly number[])[]): number[] {
  const out = new Set<number>();
  const longest = Math.max(0, ...lists.map((l) => l.length));
  for (let i = 0; i < longest; i++) for (const list of lists) if (i < list.length) out.add(list[i]!);
  return [...out];
}

/**
 * Asks PubMed for the week's new records on each interest of `profile` and fetches those the index lacks (see the
 * module comment). Never throws: a failure or the time budget is logged and reported in `outcome`.
 * @param opts.week the ISO week the answers are cached under; `opts.now` the run's reference time (the window ends on
 *   its UTC day); `opts.userId` whose daily budget the fetched records count against; `opts.log` receives the step's
 *   lines (default console.warn).
 */
export async function fetchNewThisWeek(
  deps: Pick<AppDeps, "db" | "search" | "config">,
  client: WeeklyPubmedClient,
  profile: Profile,
  opts: { userId: string; week: string; now: Date; log?: (line: string) => void },
): Promise<WeeklyPubmedResult> {
  const log = opts.log ?? ((line: string) => console.warn(line));
  const terms = weeklyTerms(profile);
  const result: WeeklyPubmedResult = {
    outcome: "done",
    terms: terms.length,
    asked: 0,
    matched: [],
    alreadyHeld: 0,
    fetched: 0,
    failed: 0,
  };
  if (terms.length === 0) return { ...result, outcome: "no-interests" };
  const { config, db } = deps;
  const signal = AbortSignal.timeout(config.PUBMED_FETCH_BUDGET_MS);
  const window = weekWindow(opts.now);
  try {
    const answers: number[][] = [];
    const reserve = () => reserveSearch(db, opts.userId, config.PUBMED_USER_DAILY_SEARCHES);
    for (const term of terms) {
      const params = { term, retmax: WEEKLY_RETMAX, sort: "relevance" as const, datetype: "edat" as const, ...window };
      let answer: Awaited<ReturnType<typeof cachedEsearch>>;
      try {
        answer = await cachedEsearch(
          db,
          client,
          weeklySearchKey(opts.week, term),
          WEEKLY_SEARCH_CACHE_MS,
          params,
          signal,
          reserve,
        );
      } catch (err) {
        if (!(err instanceof SearchAllowanceSpent)) throw err;
        result.outcome = "budget";
        log(
          `weekly suggestions: user ${opts.userId}'s daily allowance of PubMed look-ups is used up; ${terms.length - answers.length} interests not asked`,
        );
        break;
      }
      if (!answer.cached) result.asked++;
      answers.push(answer.pmids.slice(0, WEEKLY_RETMAX));
    }
    result.matched = interleave(answers);
    const holding = await heldPmids(db, result.matched);
    result.alreadyHeld = holding.size;
    const missing = result.matched.filter((p) => !holding.has(p));
    if (missing.length === 0) return result;
    const fetch = await fetchWithinAllowance(
      { db, search: deps.search, client },
      opts.userId,
      missing,
      config.PUBMED_USER_DAILY_RECORDS,
      {
        signal,
        log: (line) => log(`weekly suggestions: ${line}`),
      },
    );
    result.fetched = fetch.fetched;
    result.failed = fetch.failed;
    if (fetch.error !== null) throw fetch.error;
    if (fetch.granted < missing.length) {
      result.outcome = "budget";
      log(
        `weekly suggestions: user ${opts.userId}'s daily budget of PubMed records allows ${fetch.granted} of the week's ${missing.length} new ones`,
      );
    }
  } catch (err) {
    result.outcome = signal.aborted ? "timeout" : "error";
    const why = signal.aborted
      ? `did not finish within ${config.PUBMED_FETCH_BUDGET_MS} ms`
      : `failed (${err instanceof Error ? err.message : String(err)})`;
    log(
      `weekly suggestions: the PubMed step for user ${opts.userId} ${why}; the week goes on with the index as it is (${result.fetched} records fetched)`,
    );
  }
  return result;
}
