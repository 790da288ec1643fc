/**
 * The between-group results an abstract states (issue 33): ratio measures, mean, standardized mean and risk
 * differences, and two groups' percentages, means or medians of one outcome, each with the interval and the p value
 * that belong to it, the groups in the order stated (`value` is the first group's).
 *
 * Learned, not hand-written: every candidate (effects/candidates.ts) is scored by a logistic regression trained on
 * hand-labelled abstracts (scripts/evidence/train.ts, weights in effects/weights.json); a candidate is kept only when
 * its probability reaches the threshold chosen on cross-validation for precision. Each kept estimate carries the
 * verbatim span it was read from.
 */
import type { AbstractView } from "../abstract-view.ts";
import { type BinaryModel, type BinaryModelFile, shippedBinaryModel, binaryProbability } from "../model/linear.ts";
import type { EffectEstimate } from "../types.ts";
import { effectCandidates } from "./candidates.ts";
import weightsFile from "./weights.json" with { type: "json" };

/** An estimate with where it was read and how sure the model is. */
export interface EffectReading extends EffectEstimate {
  /** Index of the abstract sentence it was read in. */
  sentence: number;
  probability: number;
}

/** The shipped model, built on first use. */
export const effectsModel = shippedBinaryModel(weightsFile as BinaryModelFile);

/**
 * The abstract's between-group results, in reading order.
 * @param view The abstract (abstract-view.ts).
 * @param model The model (the shipped one by default); @param threshold probability needed (the model's own).
 * @returns one reading per distinct estimate (the same measure and values read twice count once, the likelier kept).
 */
export function readEffects(
  view: AbstractView,
  model: BinaryModel = effectsModel(),
  threshold: number = model.threshold,
): EffectReading[] {
  const best = new Map<string, EffectReading & { order: number }>();
  effectCandidates(view).forEach((c, order) => {
    const probability = binaryProbability(model, c.features);
    if (probability < threshold) return;
    const e = c.estimate;
    const key = `${e.measure}|${e.value}|${e.compared_value}|${e.ci_low}|${e.ci_high}`;
    const had = best.get(key);
    if (!had || had.probability < probability) best.set(key, { ...e, sentence: c.sentence, probability, order });
  });
  return [...best.values()].sort((a, b) => a.order - b.order).map(({ order: _o, ...r }) => r);
}
