/**
 * What the clinical summary reads from each cited study (issue 21): its design and evidence level, the number of
 * participants, the PICO spans, the main result and every effect estimate its abstract states. Every text cell is a
 * verbatim span of the article's abstract (whitespace normalised) or null, never invented; numbers are parsed from
 * such spans, and `text` keeps the span they came from.
 */
import type { StudyDesign } from "../../articles/evidence.ts";

/** Effect measures the extractor recognises. */
export const EFFECT_MEASURES = [
  "odds ratio",
  "risk ratio",
  "hazard ratio",
  "incidence rate ratio",
  "mean difference",
  "standardized mean difference",
  "risk difference",
  "percentage",
  "mean",
  "median",
] as const;
export type EffectMeasure = (typeof EFFECT_MEASURES)[number];

/** One effect estimate as the abstract states it. */
export interface EffectEstimate {
  measure: EffectMeasure;
  /** The point estimate (a percentage as written: 45 for "45%"). */
  value: number;
  /** Bounds of the stated confidence interval (95% unless the text says otherwise); null when none is stated. */
  ci_low: number | null;
  ci_high: number | null;
  /** The stated p value (0.001 for "p<0.001"); null when none is stated next to the estimate. */
  p_value: number | null;
  /** How the p value was stated: "=", "<", ">", "<=", ">="; null with p_value null. */
  p_relation: "=" | "<" | ">" | "<=" | ">=" | null;
  /**
   * For the values of two groups stated together (a percentage, mean or median: "12% vs 18%"), the other group's
   * value; `value` is the group stated first. Null for a ratio or a difference.
   */
  compared_value: number | null;
  /** The verbatim span the estimate was read from. */
  text: string;
}

/**
 * Levels of the Oxford Centre for Evidence-Based Medicine 2011 table (question: "Does this intervention help?"):
 * 1 systematic review of randomised trials, 2 randomised trial, 3 non-randomised controlled cohort or follow-up
 * study, 4 case series, case-control or historically controlled study, 5 mechanism-based reasoning (narrative
 * reviews, opinion). Null when the design is unknown.
 */
export type EvidenceLevel = 1 | 2 | 3 | 4 | 5;

/**
 * How far a study can be trusted, read from its abstract (issue 37): the signalling questions of RoB 2 (randomised?
 * blinded?) and ROBINS-I (a comparison group? data collected prospectively?) that an abstract can answer, and the
 * follow-up and losses it states. Null where the abstract does not tell, or the model is not sure.
 */
export interface StudyAppraisal {
  randomised: boolean | null;
  comparison_group: boolean | null;
  timing: "prospective" | "retrospective" | null;
  blinding: "double-blind" | "single-blind" | "assessor-blind" | "open-label" | null;
  /** The verbatim clause stating the follow-up, or null. */
  follow_up: string | null;
  /** The verbatim clause stating losses to follow-up or drop-outs (or that all completed), or null. */
  loss_to_follow_up: string | null;
  /**
   * For each item read (randomised, comparison group, timing, blinding), the abstract's sentence that states it in its
   * words ("randomly assigned", "retrospective", "double-blind"): its source; absent when no sentence does (a "no", or
   * an item read from the record's publication types).
   */
  sources: Partial<Record<"randomised" | "comparison_group" | "timing" | "blinding", string>>;
}

/** The appraisal of a study whose abstract tells none of it. */
export const NO_APPRAISAL: StudyAppraisal = {
  randomised: null,
  comparison_group: null,
  timing: null,
  blinding: null,
  follow_up: null,
  loss_to_follow_up: null,
  sources: {},
};

/** What the extractor reads from one article's abstract (src/reviews/evidence/extract.ts). */
export interface StudyEvidence {
  pmid: number;
  /**
   * Design from the record's publication types and MeSH, else read from the abstract ("retrospective", "randomized").
   */
  design: StudyDesign | null;
  /** Where the design came from: the PubMed record, the abstract's wording, or nowhere. */
  design_source: "record" | "abstract" | null;
  evidence_level: EvidenceLevel | null;
  /**
   * Those randomised, else enrolled, else included or studied, else analysed, as the abstract states them; the sum of
   * the groups when it states only the groups' sizes; null when not stated or the model is not sure.
   */
  participants: number | null;
  /** The group sizes `participants` adds up ("55 (26 + 29)"), in the order stated; null when stated as one number. */
  participants_arms: number[] | null;
  /** The verbatim sentence `participants` was read from; null with it. */
  participants_text: string | null;
  /** Randomisation, comparison group, timing, blinding, follow-up and losses (issue 37). */
  appraisal: StudyAppraisal;
  /** Verbatim spans, or null. */
  population: string | null;
  intervention: string | null;
  comparator: string | null;
  outcome: string | null;
  /** The main result sentence, verbatim (a results or conclusions sentence); null when none. */
  result: string | null;
  effects: EffectEstimate[];
  /**
   * Whether the study's main comparison came out statistically significant, from its effects (a CI excluding the
   * null value, p below 0.05) and its result/conclusion wording ("no significant difference"); null when it cannot
   * be told or the study is not comparative.
   */
  significance: "significant" | "not_significant" | null;
}

/** A row of a review's evidence table: one cited study, in citation order. */
export interface EvidenceRow extends StudyEvidence {
  /** The article's citation number in the summary. */
  citation: number;
  /** Other PMIDs of the same work (duplicate publications, translations, republished records), cited as one source. */
  duplicate_pmids: number[];
  /**
   * Citation numbers of the other cited studies that report the same cohort (the same participants and most of the
   * same numbers, e.g. a translation; cohorts.ts): its participants are counted once in the opening.
   */
  same_cohort: number[];
}
