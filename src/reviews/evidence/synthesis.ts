/**
 * The opening of a summary (issues 21, 33 and 37), in the product's own words: for a comparative topic, whether any
 * cited study compares its two sides ("None of the cited studies compares decompression with fusion."); what the
 * cited evidence is ("The summary cites 2 randomized trials (n = 340), 3 cohort studies (n = 1,250 in 2 studies; n
 * not stated for 1 study) and 4 case reports (n = 4)."); how certain it is in GRADE's words, and that no randomised
 * trial was found when none was; and, only over studies that compare the same two sides on a shared outcome, which way
 * they point. Counted from the evidence table (designs, participants and significance read from the abstracts, each
 * number only when the extractor is sure of it), so nothing here is a claim the cited abstracts do not make. Pure.
 */
import { STUDY_DESIGNS, type StudyDesign } from "../../articles/evidence.ts";
import { lightStem, words } from "../../../search/words.ts";
import { certaintySentence, rateCertainty } from "./certainty.ts";
import { type Comparison, comparesSides, parseComparison } from "./comparison.ts";
import type { EvidenceRow } from "./types.ts";

/** How the opening names each design, singular and plural, strongest evidence first (STUDY_DESIGNS order). */
const DESIGN_NOUNS: Record<StudyDesign, readonly [string, string]> = {
  "meta-analysis": ["meta-analysis", "meta-analyses"],
  "systematic-review": ["systematic review", "systematic reviews"],
  rct: ["randomized trial", "randomized trials"],
  "clinical-trial": ["non-randomized trial", "non-randomized trials"],
  guideline: ["practice guideline", "practice guidelines"],
  cohort: ["cohort study", "cohort studies"],
  "case-control": ["case-control study", "case-control studies"],
  "cross-sectional": ["cross-sectional study", "cross-sectional studies"],
  // "other" is added when a cohort, case-control or cross-sectional study is counted too (they are observational).
  observational: ["observational study", "observational studies"],
  "case-series": ["case series", "case series"],
  review: ["narrative review", "narrative reviews"],
  "case-report": ["case report", "case reports"],
  opinion: ["editorial or letter", "editorials or letters"],
};
const UNKNOWN_NOUNS = ["study of unstated design", "studies of unstated design"] as const;
/** Observational designs named more precisely than "observational". */
const OBSERVATIONAL: ReadonlySet<StudyDesign> = new Set(["cohort", "case-control", "cross-sectional"]);

/** "1,250": thousands separated by commas, as the summary's numbers are read by English-speaking clinicians. */
const formatCount = (n: number) => n.toLocaleString("en-US");

/** "a, b and c". */
function joinClauses(parts: readonly string[]): string {
  if (parts.length <= 1) return parts[0] ?? "";
  return `${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1]}`;
}

/** Fewest studies with a known significance for a direction to be reported (two could be chance). */
export const MIN_COMPARED = 2;

/** "[1, 2, 4]". */
const citationList = (rows: readonly EvidenceRow[]) =>
  `[${rows
    .map((r) => r.citation)
    .sort((a, b) => a - b)
    .join(", ")}]`;

const studies = (n: number) => `${n} ${n === 1 ? "study" : "studies"}`;

/**
 * One design's part of the count: "3 cohort studies (n = 1,250)". n is the sum of the participants the studies'
 * abstracts state, read with confidence (the extractor abstains otherwise); studies whose n is not stated are named as
 * such ("n = 245 in 3 studies; n not stated for 2 studies") instead of hiding behind a lower bound, and a cohort
 * reported by several cited studies (EvidenceRow.same_cohort) is counted once, where it is first cited.
 * @param counted Citations whose participants are already in a total (shared across the designs of one opening).
 */
function designClause(rows: readonly EvidenceRow[], nouns: readonly [string, string], counted: Set<number>): string {
  const noun = rows.length === 1 ? nouns[0] : nouns[1];
  const stated = rows.filter((r) => r.participants !== null);
  const missing = rows.length - stated.length;
  let n = 0;
  let repeats = 0;
  for (const r of stated) {
    if (r.same_cohort.some((c) => counted.has(c))) repeats++;
    else n += r.participants ?? 0;
    counted.add(r.citation);
  }
  const parts: string[] = [];
  if (stated.length > 0) {
    parts.push(missing === 0 ? `n = ${formatCount(n)}` : `n = ${formatCount(n)} in ${studies(stated.length)}`);
  }
  if (missing > 0) parts.push(stated.length === 0 ? "n not stated" : `n not stated for ${studies(missing)}`);
  if (repeats > 0) {
    parts.push(
      repeats === 1 ? "a cohort reported twice counted once" : `${repeats} repeated reports of a cohort counted once`,
    );
  }
  return `${rows.length} ${noun} (${parts.join("; ")})`;
}

/** "The summary cites 2 randomized trials (n = 340) and 1 case report (n = 1)." */
function countSentence(rows: readonly EvidenceRow[]): string {
  const clauses: string[] = [];
  const counted = new Set<number>();
  const otherObservational = rows.some((r) => r.design !== null && OBSERVATIONAL.has(r.design));
  for (const design of STUDY_DESIGNS) {
    const group = rows.filter((r) => r.design === design);
    if (group.length === 0) continue;
    const nouns = DESIGN_NOUNS[design];
    const other = design === "observational" && otherObservational;
    clauses.push(designClause(group, other ? [`other ${nouns[0]}`, `other ${nouns[1]}`] : nouns, counted));
  }
  const unknown = rows.filter((r) => r.design === null);
  if (unknown.length > 0) clauses.push(designClause(unknown, UNKNOWN_NOUNS, counted));
  return `The summary cites ${joinClauses(clauses)}.`;
}

/** The comparison sentence: whether any cited study compares the topic's two sides, and which. */
function comparisonSentence(comparing: readonly EvidenceRow[], c: Comparison): string {
  const what = `${c.a} with ${c.b}`;
  if (comparing.length === 0) return `None of the cited studies compares ${what}.`;
  const verb = comparing.length === 1 ? "compares" : "compare";
  return `${comparing.length} of the cited studies ${verb} ${what} ${citationList(comparing)}.`;
}

// Words a result sentence shares with any other without naming an outcome.
const NOT_OUTCOMES = new Set(
  (
    "patient group study result difference significant significantly statistically compared versus between both " +
    "after before year month week day rate mean median higher lower group than more less were was with without " +
    "there their this that these those also however overall total"
  )
    .split(" ")
    .map(lightStem),
);

/**
 * A content word all the result sentences share (the outcome they report), as the first one writes it; null if none.
 */
function sharedOutcome(results: readonly string[], sides: readonly string[]): string | null {
  const exclude = new Set([...sides.flatMap((x) => words(x)).map(lightStem), ...NOT_OUTCOMES]);
  const sets = results.map((r) => new Set(words(r).map(lightStem)));
  for (const w of words(results[0] ?? "")) {
    const stem = lightStem(w);
    if (w.length < 3 || /\d/u.test(w) || exclude.has(stem)) continue;
    if (sets.every((set) => set.has(stem))) return w;
  }
  return null;
}

/**
 * Which way the studies that compare the topic's two sides point (issue 37 item 3: synthesis only where it is valid):
 * over the cited studies that compare A with B, whose main results report a shared outcome, at least MIN_COMPARED of
 * them with a known significance. Null otherwise: studies comparing different things, or reporting different
 * outcomes, are not counted together.
 */
export function directionSentence(comparing: readonly EvidenceRow[], c: Comparison): string | null {
  const known = comparing.filter((r) => r.significance !== null && r.result !== null);
  if (known.length < MIN_COMPARED) return null;
  const outcome = sharedOutcome(
    known.map((r) => r.result as string),
    [c.a, c.b],
  );
  if (outcome === null) return null;
  const significant = known.filter((r) => r.significance === "significant");
  const none = known.filter((r) => r.significance === "not_significant");
  const lead = `Of the ${known.length} studies comparing ${c.a} with ${c.b} on ${outcome}`;
  const parts: string[] = [];
  if (significant.length > 0) {
    parts.push(`${significant.length} found a statistically significant difference ${citationList(significant)}`);
  }
  if (none.length > 0) parts.push(`${none.length} found none ${citationList(none)}`);
  return `${lead}, ${parts.join("; ")}.`;
}

/**
 * The opening's synthesis, each part only where it is valid:
 *  1. for a comparative topic ("A versus B"), whether any cited study compares A with B, citing those that do;
 *  2. what the cited evidence is, counted by design with the participants the abstracts state;
 *  3. the certainty of the evidence in GRADE's words, and that no randomised trial was found when none was;
 *  4. for a comparative topic, which way the studies comparing A with B point on a shared outcome.
 * @param rows The evidence table, one row per cited study.
 * @param query The review's topic (read for its comparison).
 * @param sentencesOf A cited study's abstract sentences (to tell whether it compares the two sides).
 * @returns the sentences, or null when there is nothing to say.
 */
export function synthesisSentence(
  rows: readonly EvidenceRow[],
  query: string,
  sentencesOf: (pmid: number) => readonly string[] = () => [],
): string | null {
  const comparison = parseComparison(query);
  const comparing = comparison ? rows.filter((r) => comparesSides(comparison, sentencesOf(r.pmid), r)) : [];
  const sentences: string[] = [];
  if (comparison && rows.length > 0) sentences.push(comparisonSentence(comparing, comparison));
  if (rows.some((r) => r.design !== null || r.participants !== null)) sentences.push(countSentence(rows));
  const certainty = certaintySentence(rateCertainty(rows));
  if (certainty) sentences.push(certainty);
  const direction = comparison ? directionSentence(comparing, comparison) : null;
  if (direction) sentences.push(direction);
  return sentences.length > 0 ? sentences.join(" ") : null;
}

/** The label of the opening paragraph, in the summary's `**bold**` format. */
export const EVIDENCE_LABEL = "**The evidence.**";

/**
 * The summary's opening paragraph from the synthesis and the population sentence (population.ts), or null when both
 * are null: "**The evidence.** The summary cites … 9 of the 10 cited studies are in children or adolescents."
 */
export function evidenceParagraph(synthesis: string | null, population: string | null): string | null {
  const sentences = [synthesis, population].filter((s): s is string => s !== null && s !== "");
  return sentences.length === 0 ? null : `${EVIDENCE_LABEL} ${sentences.join(" ")}`;
}
