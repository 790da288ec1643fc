/**
 * The MeSH novelty signal checked against PubMed (issue 35, item 2). The signal (disruption.ts) dates a heading by its
 * first year in this index, which on a small or young index is not the heading's first year in the literature. Where
 * PubMed can be asked, each heading the signal would name is asked about once: how many PubMed articles carry it that
 * were published before its first year here. Few (at most PUBMED_EARLIER_TOLERANCE): the heading is young in PubMed
 * too, and the why-line says so with PubMed's count; more: it is not young, and flags nothing (sections.ts).
 *
 * - **What is asked.** One esearch per heading, `"<heading>"[mh:noexp] AND 1000:<first year − 1>[dp]` with
 *   `retmax=0` (only the count is read). `[mh:noexp]`: the heading itself, not the narrower headings PubMed's `[mh]`
 *   explodes to (PubMed Help, "MeSH Terms [MH]"), which may be older. Only the heading's name leaves the machine.
 * - **Asked once.** The answer is kept in pubmed_search_cache (src/pubmed/search-cache.ts) under the term for
 *   HEADING_CACHE_MS, shared by every user and process: a heading's early years do not change from one week to the
 *   next.
 * - **Bounded.** At most MAX_HEADING_QUESTIONS headings per user's run, within the PubMed step's time budget
 *   (PUBMED_FETCH_BUDGET_MS); the first error or the budget ends the questions, and the headings not asked keep the
 *   index's wording. Never throws.
 */
import type { AppDeps } from "../deps.ts";
import type { Section, SectionEntry } from "./sections.ts";
import type { EutilsClient } from "../../search/pubmed/eutils.ts";
import { cachedEsearch, searchCacheKey } from "../pubmed/search-cache.ts";

/** How long PubMed's count for a heading serves: a week (the search cache itself is pruned after 8 days). */
export const HEADING_CACHE_MS = 7 * 24 * 60 * 60 * 1000;
/** Headings asked about in one user's run at most (each a request at NCBI's 3 a second when not cached). */
export const MAX_HEADING_QUESTIONS = 20;

/** A heading the novelty signal named, with its first year in the index. */
export interface HeadingToCheck {
  heading: string;
  firstYear: number;
}

/** The esearch term counting PubMed's articles with `heading` published before `firstYear`. Pure. */
export function headingTerm(h: HeadingToCheck): string {
  return `"${h.heading.replace(/"/gu, "")}"[mh:noexp] AND 1000:${h.firstYear - 1}[dp]`;
}

/**
 * Asks PubMed (or the cache) about each heading not yet in `counts`, in the order given, at most
 * MAX_HEADING_QUESTIONS in all (`counts` already answered included), and adds the answers to `counts` (heading →
 * PubMed's articles with it published before its first year here). Stops at the first failure or when `signal` aborts;
 * never throws. @returns whether PubMed (or the cache) answered every question it was asked.
 */
export async function askPubmedAboutHeadings(
  deps: Pick<AppDeps, "db">,
  client: Pick<EutilsClient, "esearch">,
  headings: readonly HeadingToCheck[],
  counts: Map<string, number>,
  opts: { signal?: AbortSignal; log?: (line: string) => void } = {},
): Promise<boolean> {
  for (const h of headings) {
    if (counts.has(h.heading)) continue;
    if (counts.size >= MAX_HEADING_QUESTIONS) return true;
    const term = headingTerm(h);
    try {
      const answer = await cachedEsearch(
        deps.db,
        client,
        searchCacheKey("mesh-first-year", { term }),
        HEADING_CACHE_MS,
        { term, retmax: 0 },
        opts.signal,
      );
      counts.set(h.heading, answer.total);
    } catch (err) {
      const why = opts.signal?.aborted ? "ran out of time" : `failed (${err instanceof Error ? err.message : err})`;
      (opts.log ?? console.warn)(
        `weekly suggestions: asking PubMed about MeSH headings ${why}; the others keep this index's wording`,
      );
      return false;
    }
  }
  return true;
}

/**
 * The sections chosen with the MeSH headings that Potentially Disruptive names checked against PubMed (see the module
 * comment): `choose` is called with PubMed's counts so far, the headings its disruptive entries name and
 * PubMed has not answered for are asked about, and so on until every named heading is answered, MAX_HEADING_QUESTIONS
 * are, PubMed fails or PUBMED_FETCH_BUDGET_MS runs out (a heading PubMed contradicts leaves room for the next flagged
 * article, whose heading may be new). Never throws for PubMed's sake.
 */
export async function chooseCheckingHeadings(
  deps: Pick<AppDeps, "db" | "config">,
  pubmed: Pick<EutilsClient, "esearch">,
  choose: (counts: ReadonlyMap<string, number>) => Record<Section, SectionEntry[]>,
): Promise<Record<Section, SectionEntry[]>> {
  const counts = new Map<string, number>();
  const signal = AbortSignal.timeout(deps.config.PUBMED_FETCH_BUDGET_MS);
  let sections = choose(counts);
  while (counts.size < MAX_HEADING_QUESTIONS) {
    const unasked = sections.disruptive_articles.flatMap((e) =>
      e.novelty && !counts.has(e.novelty.heading) ? [e.novelty] : [],
    );
    if (unasked.length === 0) break;
    const answered = await askPubmedAboutHeadings(deps, pubmed, unasked, counts, {
      signal,
      log: (line) => console.warn(line),
    });
    sections = choose(counts);
    if (!answered) break;
  }
  return sections;
}
