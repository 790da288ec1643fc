/**
 * The shapes of the evidence gold set (tests/fixtures/evidence-gold*.json), shared by the labelling checker, the
 * training scripts and the benchmark. The conventions the labels follow are the fixture's `conventions` field.
 */

/** Designs a labeller may give: the product's study designs plus a case series and "other" (lab, animal, methods…). */
export const GOLD_DESIGNS = STUDY_CLASSES.design;
export type GoldDesign = (typeof GOLD_DESIGNS)[number];

/** Effect measures of the gold set: the extractor's, plus both groups' means or medians. */
export const MEASURES = [
  "odds_ratio",
  "risk_ratio",
  "hazard_ratio",
  "incidence_rate_ratio",
  "mean_difference",
  "standardized_mean_difference",
  "risk_difference",
  "percentage",
  "mean",
  "median",
] as const;
export type GoldMeasure = (typeof MEASURES)[number];

import type { EffectMeasure, StudyAppraisal } from "../../src/reviews/evidence/types.ts";
import { STUDY_CLASSES } from "../../src/reviews/evidence/study/classify.ts";

/** The product's name of a gold measure code ("odds_ratio" → "odds ratio"). */
export function measureName(code: GoldMeasure): EffectMeasure {
  return code.replace(/_/gu, " ") as EffectMeasure;
}

export interface GoldEffect {
  measure: GoldMeasure;
  value: number;
  compared_value: number | null;
  ci_low: number | null;
  ci_high: number | null;
  p_value: number | null;
  p_relation: "=" | "<" | ">" | "<=" | ">=" | null;
  group: string | null;
  compared_group: string | null;
  outcome: string | null;
  text: string;
}

/** The appraisal items a labeller gives: the product's (StudyAppraisal). */
export type GoldAppraisal = StudyAppraisal;

export interface GoldRecord {
  pmid: number;
  split: "train" | "test";
  batch: string;
  participants: number | null;
  participants_arms: number[] | null;
  participants_text: string | null;
  participants_basis: "randomised" | "enrolled" | "included" | "analysed" | "arms" | null;
  design: GoldDesign;
  design_text: string | null;
  appraisal: GoldAppraisal;
  effects: GoldEffect[];
  note: string | null;
}
