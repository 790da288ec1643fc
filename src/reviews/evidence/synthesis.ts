/**
 * The opening of a summary (issue 21, item 3): in the product's own words, what the cited evidence is ("The summary
 * cites 2 randomized trials (n = 340), 3 cohort studies (n = 1,250 in 2 studies; n not stated for 1 study) and 4
 * case reports (n = 4).") and, when the topic asks a
 * comparative question and one direction dominates, how many studies point which way, with their citations ("4 of the
 * 6 studies that compared groups found a statistically significant difference [1, 2, 4, 5]; 2 found none [3, 6].").
 * Counted from the evidence table only (designs, participants and significance read from the abstracts), so nothing
 * here is a claim the cited abstracts do not make. Pure.
 */
import { STUDY_DESIGNS, type StudyDesign } from "../../articles/evidence.ts";
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

/**
 * Share of the studies with a known significance that must point one way for the opening to say so: two thirds
 * (4 of 6, 2 of 3). Below it the evidence is mixed and a count would read as a verdict it is not.
 */
export const DOMINANT_SHARE = 2 / 3;
/** Fewest studies with a known significance for a direction to be reported (two could be chance). */
export const MIN_COMPARED = 3;

/**
 * Words that make a topic a comparative question: an explicit comparison ("vs", "versus", "compared with") or a
 * question about a treatment's effect ("treatment", "therapy", "efficacy", "effect of", "surgery"), whose studies
 * compare groups.
 */
const COMPARATIVE = new RegExp(
  `\\b(?:${[
    "vs",
    "versus",
    "compared?",
    "comparing",
    "comparison",
    "treat\\w*",
    "therap\\w*",
    "efficacy",
    "effectiveness",
    "effects? of",
    "interventions?",
    "surg\\w*",
    "drugs?",
    "management",
    "prevent\\w*",
    "trials?",
  ].join("|")})\\b`,
  "iu",
);

/** Whether a topic asks a comparative question (see COMPARATIVE). */
export function isComparativeTopic(query: string): boolean {
  return COMPARATIVE.test(query);
}

/** "1,250": thousands separated by commas, as the summary's numbers are read by English-speaking clinicians. */
const formatCount = (n: number) => n.toLocaleString("en-US");

/** "a, b and c". */
function joinClauses(parts: readonly string[]): string {
  if (parts.length <= 1) return parts[0] ?? "";
  return `${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1]}`;
}

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

/**
 * How many studies point which way, when the topic is comparative and one direction holds at least DOMINANT_SHARE of
 * the (at least MIN_COMPARED) studies with a known significance; null otherwise.
 */
export function directionSentence(rows: readonly EvidenceRow[], query: string): string | null {
  if (!isComparativeTopic(query)) return null;
  const significant = rows.filter((r) => r.significance === "significant");
  const none = rows.filter((r) => r.significance === "not_significant");
  const known = significant.length + none.length;
  if (known < MIN_COMPARED) return null;
  const leading = significant.length >= none.length ? significant : none;
  // Integer form of leading / known ≥ DOMINANT_SHARE (2/3), free of rounding.
  if (3 * leading.length < 2 * known) return null;
  const found = `found ${leading === significant ? "a" : "no"} statistically significant difference`;
  if (leading.length === known) return `All ${known} studies that compared groups ${found} ${citationList(leading)}.`;
  const other = leading === significant ? none : significant;
  const otherFound = leading === significant ? "found none" : "found one";
  const lead = `${leading.length} of the ${known} studies that compared groups ${found} ${citationList(leading)}`;
  return `${lead}; ${other.length} ${otherFound} ${citationList(other)}.`;
}

/**
 * The opening's synthesis: what the cited evidence is, counted by design with the participants the abstracts state,
 * and, for a comparative topic, which way the studies point (directionSentence).
 * @param rows The evidence table, one row per cited study.
 * @param query The review's topic (only read for whether it is comparative).
 * @returns one or two sentences, or null when no cited study has a known design or stated participants (a count of
 *   "studies" would tell the reader nothing).
 */
export function synthesisSentence(rows: readonly EvidenceRow[], query: string): string | null {
  if (!rows.some((r) => r.design !== null || r.participants !== null)) return null;
  const direction = directionSentence(rows, query);
  return direction ? `${countSentence(rows)} ${direction}` : countSentence(rows);
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
