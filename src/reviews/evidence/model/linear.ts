/**
 * Linear models over sparse string features, as the evidence extractors ship them: a binary logistic regression (one
 * weight per feature plus a bias, P(y = 1 | x) = σ(b + Σ w_f)) and a multinomial one (softmax over classes, one weight
 * per feature and class). Features are present/absent strings ("L1:patients", "pt:randomized controlled trial"), each
 * with the value 1/√n for an example of n distinct features (the binary vector scaled to unit length, as tf vectors
 * are cosine-normalised), so that an abstract of many words does not get a large score for its length alone; a model
 * is a table of weights, and features it has no weight for are ignored. Pure and allocation-light: a candidate's
 * score is one map lookup per feature.
 *
 * Reference: Hastie, Tibshirani & Friedman, "The Elements of Statistical Learning", 2nd ed., §4.4 (logistic
 * regression). Training is src/reviews/evidence/model/train.ts.
 */

/** A binary model as shipped in a weights file (JSON). */
export interface BinaryModelFile {
  kind: "binary";
  /** What it was trained on and how (free text, for the reader of the file). */
  trained: string;
  bias: number;
  /** Probability at or above which the extractor accepts a candidate (chosen on cross-validation; see the trainer). */
  threshold: number;
  /** Feature → weight; features with a zero weight are left out. */
  weights: Record<string, number>;
}

/** A multinomial model as shipped in a weights file (JSON). */
export interface MulticlassModelFile {
  kind: "multiclass";
  trained: string;
  classes: string[];
  /** One bias per class, in `classes` order. */
  bias: number[];
  /** Feature → one weight per class, in `classes` order. */
  weights: Record<string, number[]>;
}

/** A loaded binary model. */
export interface BinaryModel {
  bias: number;
  threshold: number;
  weights: Map<string, number>;
}

/** A loaded multinomial model. */
export interface MulticlassModel {
  classes: string[];
  bias: Float64Array;
  weights: Map<string, Float64Array>;
}

/** Loads a binary model file. @throws Error when the file is not a binary model. */
export function binaryModel(file: BinaryModelFile): BinaryModel {
  if (file.kind !== "binary" || typeof file.bias !== "number") throw new Error("not a binary model file");
  return { bias: file.bias, threshold: file.threshold, weights: new Map(Object.entries(file.weights)) };
}

/**
 * The shipped binary model of `file` (a weights.json imported by its module), built on first call and kept: importing
 * the extractors stays cheap, and every caller shares one model.
 */
export function shippedBinaryModel(file: BinaryModelFile): () => BinaryModel {
  let loaded: BinaryModel | null = null;
  return () => {
    loaded ??= binaryModel(file);
    return loaded;
  };
}

/** Loads a multinomial model file. @throws Error when its weight rows do not match its classes. */
export function multiclassModel(file: MulticlassModelFile): MulticlassModel {
  const k = file.classes.length;
  if (file.kind !== "multiclass" || file.bias.length !== k) throw new Error("not a multiclass model file");
  const weights = new Map<string, Float64Array>();
  for (const [name, row] of Object.entries(file.weights)) {
    if (row.length !== k) throw new Error(`weights of "${name}" do not match the classes`);
    weights.set(name, Float64Array.from(row));
  }
  return { classes: [...file.classes], bias: Float64Array.from(file.bias), weights };
}

/** The logistic function, guarded against overflow. */
export function sigmoid(z: number): number {
  return z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z));
}

/** The value of each present feature of an example with `n` distinct features: 1/√n (unit length). */
export const featureValue = (n: number) => (n === 0 ? 0 : 1 / Math.sqrt(n));

/** The linear score b + Σ w_f·x_f of a feature set (each distinct feature counted once, x_f = 1/√n). */
export function binaryScore(model: Pick<BinaryModel, "bias" | "weights">, features: Iterable<string>): number {
  const unique = new Set(features);
  const x = featureValue(unique.size);
  let z = 0;
  for (const f of unique) z += model.weights.get(f) ?? 0;
  return model.bias + x * z;
}

/** P(y = 1 | features) under a binary model, in [0, 1]. */
export function binaryProbability(model: Pick<BinaryModel, "bias" | "weights">, features: Iterable<string>): number {
  return sigmoid(binaryScore(model, features));
}

/**
 * Class probabilities under a multinomial model (softmax of the per-class scores), in `model.classes` order; they
 * sum to 1.
 */
export function classProbabilities(model: MulticlassModel, features: Iterable<string>): Float64Array {
  const k = model.classes.length;
  const z = Float64Array.from(model.bias);
  const unique = new Set(features);
  const x = featureValue(unique.size);
  for (const f of unique) {
    const row = model.weights.get(f);
    if (row) for (let c = 0; c < k; c++) z[c] = (z[c] as number) + x * (row[c] as number);
  }
  let max = -Infinity;
  for (const v of z) max = Math.max(max, v);
  let sum = 0;
  for (let c = 0; c < k; c++) {
    z[c] = Math.exp((z[c] as number) - max);
    sum += z[c] as number;
  }
  for (let c = 0; c < k; c++) z[c] = (z[c] as number) / sum;
  return z;
}

/** The most probable class and its probability. */
export function bestClass(model: MulticlassModel, features: Iterable<string>): { label: string; probability: number } {
  const p = classProbabilities(model, features);
  let best = 0;
  for (let c = 1; c < p.length; c++) if ((p[c] as number) > (p[best] as number)) best = c;
  return { label: model.classes[best] as string, probability: p[best] as number };
}

/**
 * The probability of each alternative under a choice model (a conditional logit, McFadden 1974: one weight vector,
 * P(a) = exp(w·x_a) / Σ_b exp(w·x_b)), trained by train.ts trainChoice: index 0 is the "none" alternative, then the
 * candidates in order. They sum to 1.
 */
export function choiceProbabilities(
  model: Pick<BinaryModel, "weights">,
  candidates: readonly (readonly string[])[],
  none: readonly string[],
): number[] {
  return softmax([none, ...candidates].map((fs) => linearScore(model.weights, fs)));
}

/** w·x of one alternative (no bias), x_f = 1/√n over its distinct features. */
export function linearScore(weights: ReadonlyMap<string, number>, features: Iterable<string>): number {
  const unique = new Set(features);
  let z = 0;
  for (const f of unique) z += weights.get(f) ?? 0;
  return featureValue(unique.size) * z;
}

/** The softmax of scores (probabilities summing to 1), guarded against overflow. */
export function softmax(scores: readonly number[]): number[] {
  const max = Math.max(...scores);
  const exp = scores.map((s) => Math.exp(s - max));
  const sum = exp.reduce((a, b) => a + b, 0);
  return exp.map((e) => e / sum);
}
