/**
 * Composition of the extractive summary: an "Overview" paragraph, "Key findings" bullets led by the strongest
 * evidence, and a "Case reports" line that names case reports as such instead of presenting them as findings.
 * Sentences are quoted verbatim (whitespace normalised) and each is followed by the citation numbers of the
 * article(s) it came from; numbers follow first appearance.
 */
import type { StudyDesign } from "../../articles/evidence.ts";
import { byScore, similarity } from "./scoring.ts";
import type { Selected } from "./selection.ts";
import type { SummaryArticle, SummaryResult } from "./types.ts";

/** Most case reports a summary names when nothing stronger on the topic is cited. */
export const MAX_CASE_REPORTS = 3;
/**
 * When trials or reviews on the topic are cited, case reports may be at most this share of the cited articles
 * (issue 13's goal is below 0.2): they are named, not weighed against trials.
 */
export const CASE_REPORT_SHARE = 0.15;

/** Designs a case report is not weighed against: trials and reviews of any kind. */
const TRIALS_AND_REVIEWS: ReadonlySet<StudyDesign> = new Set(["meta-analysis", "systematic-review", "rct", "clinical-trial", "review"]);

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
  // Both parts lead with the strongest evidence; the sort is stable, so MMR order holds within a tier.
  const overview = selected.slice(0, overviewCount).sort((a, b) => a.candidate.tier - b.candidate.tier);
  // Led by the strongest evidence (tier), then related sentences together.
  const bullets = groupBullets(selected.slice(overviewCount)).sort((a, b) => a.candidate.tier - b.candidate.tier);
  // A list of one reads better as one more sentence of the overview.
  if (bullets.length === 1) overview.push(...bullets.splice(0, 1));

  const cited = new Set(selected.flatMap((s) => s.sources));
  const stronger = [...cited].some((i) => TRIALS_AND_REVIEWS.has(designOf(i) as StudyDesign));
  const caseCap = stronger ? Math.floor(CASE_REPORT_SHARE * cited.size) : MAX_CASE_REPORTS;
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
  const render = (s: Selected) => cite(s.candidate.text, s.sources.map(numberFor));

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

/** An article's title as a clause of the case-report line: verbatim, without its final period, brackets of translated titles removed. */
function titleOf(article: SummaryArticle): string {
  const title = (article.title ?? `PMID ${article.pmid}`).replace(/\s+/g, " ").trim();
  const unbracketed = /^\[(.*)\]\.?$/u.exec(title)?.[1] ?? title;
  // Nothing the summary renderer would misread: "[12]" as a citation, "**" as bold.
  return unbracketed.replace(/\*\*/gu, "").replace(/\[(\s*\d[\d\s,–-]*)\]/gu, "($1)").replace(/[.\s]+$/u, "");
}
