/**
 * Whether a result sentence reports a statistically significant difference (issue 33: "Significance: not significant"
 * beside a result that says "significantly improves"). A logistic regression over significance/features.ts, trained
 * on the evidence spans of the Evidence Inference corpus (sample/evidence-inference; Lehman et al., NAACL 2019, and
 * DeYoung et al., BioNLP 2020), whose annotators labelled each span "significantly increased", "significantly
 * decreased" or "no significant difference" (the first two are "significant" here). Trained by
 * scripts/evidence/train.ts; weights in significance/weights.json. Below the model's threshold either way, it does not
 * say (null).
 */
import { type BinaryModel, type BinaryModelFile, shippedBinaryModel, binaryProbability } from "../model/linear.ts";
import { significanceFeatures } from "./features.ts";
import weightsFile from "./weights.json" with { type: "json" };

/** The shipped model, built on first use. */
export const significanceModel = shippedBinaryModel(weightsFile as BinaryModelFile);

/**
 * The significance a sentence states, or null when the model is not sure either way.
 * @param model The model (the shipped one by default); its `threshold` t: "significant" at probability ≥ t,
 *   "not_significant" at ≤ 1 − t.
 */
export function sentenceSignificance(
  sentence: string,
  model: BinaryModel = significanceModel(),
): "significant" | "not_significant" | null {
  const p = binaryProbability(model, significanceFeatures(sentence));
  return p >= model.threshold ? "significant" : p <= 1 - model.threshold ? "not_significant" : null;
}

/** P(significant) of a sentence under a model (for training and the benchmark). */
export function significanceProbability(sentence: string, model: BinaryModel = significanceModel()): number {
  return binaryProbability(model, significanceFeatures(sentence));
}
