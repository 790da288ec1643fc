/**
 * Certainty of the evidence a review cites (issue 37 item 2), in GRADE's words: high, moderate, low or very low,
 * with its reasons. GRADE rates a body of evidence for an outcome (Guyatt et al., "GRADE guidelines: 1. Introduction
 * — GRADE evidence profiles and summary of findings tables", J Clin Epidemiol 64(4):383–394, 2011; the GRADE
 * Handbook, Schünemann et al. eds., 2013, §5): randomised trials start high, observational studies low; the rating
 * goes down one level for each serious concern. An abstract lets the product judge three of GRADE's five domains, and
 * only roughly, so the rating is stated as read from the abstracts:
 *  - risk of bias (GRADE guidelines 4, J Clin Epidemiol 64:407): randomised trials none of which states blinding;
 *    observational evidence made only of studies without a comparison group (case series, case reports), which
 *    GRADE rates very low;
 *  - imprecision (GRADE guidelines 6, J Clin Epidemiol 64:1283): fewer than 400 participants in all, the guideline's
 *    rule of thumb for the optimal information size of a dichotomous outcome; or no study stating its size;
 *  - inconsistency (GRADE guidelines 7, J Clin Epidemiol 64:1294): studies that compared groups disagree on whether
 *    the difference was statistically significant.
 * Indirectness and publication bias cannot be read from an abstract and are not judged. Pure.
 */
import type { EvidenceRow } from "./types.ts";

export type Certainty = "high" | "moderate" | "low" | "very low";
const LEVELS: readonly Certainty[] = ["high", "moderate", "low", "very low"];

/** GRADE's rule of thumb for an optimal information size (total participants) of a dichotomous outcome. */
export const OPTIMAL_INFORMATION_SIZE = 400;

/** Primary studies: reviews, guidelines and opinion are not a body of evidence of their own here. */
export const PRIMARY_DESIGNS: ReadonlySet<string> = new Set([
  "rct",
  "clinical-trial",
  "cohort",
  "case-control",
  "cross-sectional",
  "observational",
  "case-series",
  "case-report",
]);
const UNCONTROLLED = new Set(["case-series", "case-report"]);

export interface CertaintyRating {
  certainty: Certainty;
  /** The reasons, in GRADE's terms, as short phrases ("observational studies only", "small samples"). */
  reasons: string[];
  /** Whether any cited study is a randomised trial. */
  randomised: boolean;
}

/**
 * The certainty of the cited evidence, or null when fewer than two cited studies are primary studies of a known design
 * (one study is rated by its own appraisal, nothing is a body of evidence).
 */
export function rateCertainty(rows: readonly EvidenceRow[]): CertaintyRating | null {
  const studies = rows.filter((r) => r.design !== null && PRIMARY_DESIGNS.has(r.design));
  if (studies.length < 2) return null;
  const trials = studies.filter((r) => r.design === "rct");
  const randomised = trials.length > 0;
  let level = randomised ? 0 : 2;
  const reasons: string[] = [];
  if (!randomised) {
    if (studies.every((r) => UNCONTROLLED.has(r.design as string) || r.appraisal.comparison_group === false)) {
      level = 3;
      reasons.push("uncontrolled case series or reports only");
    } else reasons.push("observational studies only");
  } else if (trials.every((r) => r.appraisal.blinding === null || r.appraisal.blinding === "open-label")) {
    level++;
    reasons.push("no trial states blinding");
  }
  const counted = new Set<number>();
  let total = 0;
  let stated = 0;
  for (const r of studies) {
    if (r.participants === null) continue;
    stated++;
    if (!r.same_cohort.some((c) => counted.has(c))) total += r.participants;
    counted.add(r.citation);
  }
  if (stated === 0 || total < OPTIMAL_INFORMATION_SIZE) {
    level++;
    reasons.push(stated === 0 ? "sample sizes not stated" : "small samples");
  }
  const significant = studies.filter((r) => r.significance === "significant").length;
  const none = studies.filter((r) => r.significance === "not_significant").length;
  if (significant > 0 && none > 0) {
    level++;
    reasons.push("inconsistent results");
  }
  return { certainty: LEVELS[Math.min(3, level)] as Certainty, reasons, randomised };
}

/**
 * The opening's certainty sentence: "Certainty of the evidence (GRADE, read from the abstracts): low — observational
 * studies only, small samples." followed, when no cited study is a randomised trial, by "No randomized trial was
 * found among the cited studies."; null when not rated.
 */
export function certaintySentence(rating: CertaintyRating | null): string | null {
  if (rating === null) return null;
  const why = rating.reasons.length > 0 ? `: ${rating.reasons.join(", ")}` : "";
  const first = `Certainty of the evidence (GRADE, as far as the abstracts tell): ${rating.certainty}${why}.`;
  return rating.randomised ? first : `${first} No randomized trial was found among the cited studies.`;
}
