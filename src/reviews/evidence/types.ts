/**
 * What the clinical summary reads from each cited study (issue 21): its design and evidence level, the number of
 * participants, the PICO spans, the main result and every effect estimate its abstract states. Every text cell is a
 * verbatim span of the article's abstract (whitespace normalised) or null, never invented; numbers are parsed from
 * such spans, and `text` keeps the span they came from.
 */
import type { StudyDesign } from "../../articles/evidence.ts";

/** Effect measures the extractor recognises. */
export const EFFECT_MEASURES = [
  "odds_ratio",
  "risk_ratio",
  "hazard_ratio",
  "incidence_rate_ratio",
  "mean_difference",
  "standardized_mean_difference",
  "risk_difference",
  "percentage",
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
  /** For a percentage compared with another ("12% vs 18%"), the other group's percentage; else null. */
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
  /** Those randomised or enrolled (analysed when nothing else is stated), as an integer; null when not stated. */
  participants: number | null;
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
}
