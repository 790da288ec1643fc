/**
 * Composition of the extractive summary: an "Overview" paragraph, "Key findings" bullets led by the strongest
 * evidence, and a "Case reports" line that names case reports as such instead of presenting them as findings.
 * Sentences are quoted verbatim (whitespace normalised) and each is followed by the citation numbers of the
 * article(s) it came from; numbers follow first appearance.
 */
import type { StudyDesign } from "../../articles/evidence.ts";
import { normalizeWhitespace, splitSentences } from "../sentences.ts";
import { byScore, similarity } from "./scoring.ts";
import type { Selected } from "./selection.ts";
import type { SummaryArticle, SummaryResult } from "./types.ts";

/** Most case reports a summary names when nothing stronger on the topic is cited. */
export const MAX_CASE_REPORTS = 3;
/**
 * When trials, cohorts or reviews on the topic are among the summarised articles, case reports may be at most this
 * share of all the summary's citations (issue 21's goal; the rule before, 0.15 of the cited findings when a cited
 * article was a trial or review, gave 0.18 over the issue's held-out topics and 0.135 on the evidence benchmark's 24):
 * they are named, not weighed against stronger designs.
 */
export const CASE_REPORT_SHARE = 0.1;

/** Designs a case report is not weighed against: trials, cohort studies and reviews of any kind. */
const STRONGER_DESIGNS: ReadonlySet<StudyDesign> = new Set([
  "meta-analysis",
  "systematic-review",
  "rct",
  "clinical-trial",
  "cohort",
  "review",
]);

/**
 * How many case reports may be named beside `cited` other cited articles so that they stay at most `share` of all
 * citations: the largest k with k ≤ share·(cited + k), i.e. ⌊share·cited / (1 − share)⌋ (1 beside 9, 0 beside 8).
 */
export function caseReportCap(cited: number, share: number = CASE_REPORT_SHARE): number {
  // The epsilon keeps 0.1·9/0.9 (1.0000000000000002 or 0.9999999999999999 in floating point) at 1.
  return Math.max(0, Math.floor((share * cited) / (1 - share) + 1e-9));
}

/**
 * Orders bullet sentences so that related ones sit together: start from the
 * best-scoring one, then repeatedly take the most similar remaining one
 * (sentences of the same article count as most similar).
 */
function groupBullets(items: Selected[]): Selected[] {
  const rest = [...items].sort((a, b) => byScore(a.candidate, b.candidate));
  const out: Selected[] = [];
  let last = rest.shift();
  while (last !== undefined) {
    out.push(last);
    let bestIdx = -1;
    let bestSim = -1;
    rest.forEach((s, i) => {
      const sim = s.candidate.article === last!.candidate.article ? 2 : similarity(s.candidate, last!.candidate);
      if (sim > bestSim) {
        bestSim = sim;
        bestIdx = i;
      }
    });
    last = bestIdx >= 0 ? rest.splice(bestIdx, 1)[0] : undefined;
  }
  return out;
}

/** A sentence that recommends ("can be recommended", "should be considered", "we recommend", "is advised"). */
const RECOMMENDATION =
  /\b(?:recommend(?:s|ed)?|should (?:be|always|routinely|not)|is (?:advised|advisable|indicated|warranted)|we (?:suggest|advise)|must be (?:considered|used))\b/iu;
/**
 * A sentence of the same abstract that states its own limitation ("low methodological quality … difficult to
 * interpret", "limited by its retrospective design", "should be interpreted with caution").
 */
const LIMITATION =
  /\b(?:limitations?|limited by|(?:low|poor|moderate) (?:methodological )?quality|methodological (?:flaws|weakness\w*|limitations?|quality)|difficult to interpret|(?:interpreted|viewed) with caution|risk of bias|small (?:sample|number|study)|heterogeneity|insufficient (?:evidence|data)|lack of (?:randomi[sz]ed|controlled|high-quality|comparative))\b/iu;

/**
 * The limitation an abstract states, for a recommendation quoted from it (issue 37 item 3: a recommendation carries
 * its abstract's own stated limitation); null when it states none. Verbatim, whitespace normalised.
 */
export function statedLimitation(article: SummaryArticle, recommendation: string): string | null {
  if (!RECOMMENDATION.test(recommendation)) return null;
  const text = normalizeWhitespace(
    article.abstract ??
      (Array.isArray(article.abstract_sections) ? article.abstract_sections.map((x) => x.text).join(" ") : ""),
  );
  for (const sentence of splitSentences(text)) {
    if (sentence !== recommendation && LIMITATION.test(sentence)) return sentence.replace(/^[A-Z ]{3,}:\s*/u, "");
  }
  return null;
}

/**
 * Appends a citation to a verbatim sentence: "text [1, 3]." The final period
 * moves after the brackets ("?" and "!" too); a period that belongs to an
 * abbreviation ("et al.", "etc.") stays and another follows the brackets.
 */
export function cite(text: string, numbers: number[]): string {
  const list = `[${[...numbers].sort((a, b) => a - b).join(", ")}]`;
  const m = /[.!?]$/u.exec(text);
  if (m === null || /(?:\bet al|\betc|\b(?:\p{Lu}\.){2,}\p{Lu}?)\.$/u.test(text)) return `${text} ${list}.`;
  return `${text.slice(0, -1).trimEnd()} ${list}${m[0]}`;
}

/**
 * Lays out the selected sentences and case reports as the summary text and numbers the citations.
 * @param selected Finding sentences in MMR order (the first, most relevant and already diverse, open the summary).
 * @param caseReports Input indices of the case reports on the topic, best-ranked first; how many are named depends on
 *   what else is cited.
 * @param articles The summarizer's input, for PMIDs and titles.
 * @param designOf The study design of an input article (as its candidates carry it).
 */
export function composeSummary(
  selected: Selected[],
  caseReports: readonly number[],
  articles: readonly SummaryArticle[],
  designOf: (articleIndex: number) => StudyDesign | null,
): SummaryResult {
  const overviewCount = selected.length <= 3 ? selected.length : selected.length >= 9 ? 3 : 2;
  // The overview prefers findings that answer the topic's question (a diagnostic finding for a diagnosis topic,
  // fidelity.ts); MMR order holds otherwise.
  const ordered = [...selected.filter((s) => s.candidate.answers), ...selected.filter((s) => !s.candidate.answers)];
  // Both parts lead with the strongest evidence (the overview with what answers the question first); the sort is
  // stable, so MMR order holds within a tier.
  const byAnswerThenTier = (a: Selected, b: Selected) =>
    Number(b.candidate.answers) - Number(a.candidate.answers) || a.candidate.tier - b.candidate.tier;
  const overview = ordered.slice(0, overviewCount).sort(byAnswerThenTier);
  // Led by the strongest evidence (tier), then related sentences together.
  const bullets = groupBullets(ordered.slice(overviewCount)).sort((a, b) => a.candidate.tier - b.candidate.tier);
  // A list of one reads better as one more sentence of the overview.
  if (bullets.length === 1) overview.push(...bullets.splice(0, 1));

  const cited = new Set(selected.flatMap((s) => s.sources));
  // Stronger evidence on the topic exists when any summarised article has a stronger design, cited or not: a
  // summary whose findings happen to come from case series must not then fill up with case reports.
  const stronger = articles.some((_, i) => STRONGER_DESIGNS.has(designOf(i) as StudyDesign));
  const caseCap = stronger ? caseReportCap(cited.size) : MAX_CASE_REPORTS;
  const named = caseReports.filter((i) => !cited.has(i)).slice(0, caseCap);

  const numberOf = new Map<number, number>(); // article index → citation number
  const citedPmids: number[] = [];
  const numberFor = (articleIndex: number) => {
    let n = numberOf.get(articleIndex);
    if (n === undefined) {
      citedPmids.push((articles[articleIndex] as SummaryArticle).pmid);
      n = citedPmids.length;
      numberOf.set(articleIndex, n);
    }
    return n;
  };
  const render = (s: Selected) => {
    const quoted = cite(s.candidate.text, s.sources.map(numberFor));
    const limitation = statedLimitation(articles[s.candidate.article] as SummaryArticle, s.candidate.text);
    if (limitation === null || selected.some((o) => o.candidate.text === limitation)) return quoted;
    return `${quoted} The same abstract states a limitation: ${cite(`“${limitation.replace(/[.!?]$/u, "")}”.`, [numberFor(s.candidate.article)])}`;
  };

  const blocks: string[] = [];
  if (overview.length > 0) blocks.push(`**Overview.** ${overview.map(render).join(" ")}`);
  if (bullets.length > 0) blocks.push(`**Key findings**\n${bullets.map((s) => `- ${render(s)}`).join("\n")}`);
  if (named.length > 0) {
    const items = named.map((i) => `${titleOf(articles[i] as SummaryArticle)} [${numberFor(i)}]`);
    const opener = named.length === 1 ? "A case report describes" : "Case reports describe";
    blocks.push(`**Case reports.** ${opener}: ${items.join("; ")}.`);
  }
  if (blocks.length === 0) return { summary: null, citedPmids: [] };
  return { summary: blocks.join("\n\n"), citedPmids };
}

/**
 * An article's title as a clause of the case-report line: verbatim, without its final period, brackets of translated
 * titles removed.
 */
function titleOf(article: SummaryArticle): string {
  const title = (article.title ?? `PMID ${article.pmid}`).replace(/\s+/g, " ").trim();
  const unbracketed = /^\[(.*)\]\.?$/u.exec(title)?.[1] ?? title;
  // Nothing the summary renderer would misread: "[12]" as a citation, "**" as bold.
  return unbracketed
    .replace(/\*\*/gu, "")
    .replace(/\[(\s*\d[\d\s,–-]*)\]/gu, "($1)")
    .replace(/[.\s]+$/u, "");
}
