/**
 * Training of the evidence extractors' linear models (linear.ts): L2-regularised logistic and multinomial logistic
 * regression fitted by AdaGrad over shuffled examples (Duchi, Hazan & Singer, "Adaptive subgradient methods for online
 * learning and stochastic optimization", JMLR 12, 2011), deterministic for a given seed. Used by the training script
 * (scripts/evidence/train.ts) and the tests, never by the product at run time.
 */
import type { BinaryModel, MulticlassModel } from "./linear.ts";
import { featureValue, linearScore, sigmoid, softmax } from "./linear.ts";

/** One training example: its features and its label (binary: 0/1; multiclass: the class index). */
export interface Example {
  features: readonly string[];
  label: number;
  /** Weight of the example's loss (default 1). */
  weight?: number;
  /**
   * How many distinct features the example has in all, when `features` holds only those kept for training (the value
   * of each is 1/√size, as the scorer computes it from all of them); default: the number of `features`.
   */
  size?: number;
}

export interface TrainOptions {
  /** Passes over the data. */
  epochs: number;
  /** L2 penalty per example and step (λ of λ/2·‖w‖²). */
  l2: number;
  /** AdaGrad's base step size. */
  rate: number;
  /** Seed of the shuffle (mulberry32). */
  seed: number;
}

export const DEFAULT_TRAINING: TrainOptions = {
  epochs: Number(process.env.TRAIN_EPOCHS ?? 30),
  l2: Number(process.env.TRAIN_L2 ?? 1e-4),
  rate: Number(process.env.TRAIN_RATE ?? 0.3),
  seed: 20261129,
};

/** mulberry32: a small seeded PRNG, so that training gives the same weights on every run. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffled(n: number, random: () => number): number[] {
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j] as number, order[i] as number];
  }
  return order;
}

/**
 * Fits a binary logistic regression. @param examples labels 0 or 1. @returns the model with `threshold` 0.5 (the
 * caller sets its own from held-out data).
 */
export function trainBinary(examples: readonly Example[], options: Partial<TrainOptions> = {}): BinaryModel {
  const o = { ...DEFAULT_TRAINING, ...options };
  const weights = new Map<string, number>();
  const squares = new Map<string, number>();
  let bias = 0;
  let biasSquares = 0;
  const random = mulberry32(o.seed);
  const unique = examples.map((e) => [...new Set(e.features)].sort());
  for (let epoch = 0; epoch < o.epochs; epoch++) {
    for (const i of shuffled(examples.length, random)) {
      const e = examples[i] as Example;
      const fs = unique[i] as string[];
      const x = featureValue(e.size ?? fs.length);
      let z = 0;
      for (const f of fs) z += weights.get(f) ?? 0;
      z = bias + x * z;
      const g = (sigmoid(z) - e.label) * (e.weight ?? 1);
      biasSquares += g * g;
      bias -= (o.rate * g) / Math.sqrt(biasSquares + 1e-8);
      for (const f of fs) {
        const w = weights.get(f) ?? 0;
        const gf = g * x + o.l2 * w;
        const s = (squares.get(f) ?? 0) + gf * gf;
        squares.set(f, s);
        weights.set(f, w - (o.rate * gf) / Math.sqrt(s + 1e-8));
      }
    }
  }
  return { bias, threshold: 0.5, weights };
}

/** Fits a multinomial logistic regression over `classes.length` classes. */
export function trainMulticlass(
  examples: readonly Example[],
  classes: readonly string[],
  options: Partial<TrainOptions> = {},
): MulticlassModel {
  const o = { ...DEFAULT_TRAINING, ...options };
  const k = classes.length;
  const weights = new Map<string, Float64Array>();
  const squares = new Map<string, Float64Array>();
  const bias = new Float64Array(k);
  const biasSquares = new Float64Array(k);
  const random = mulberry32(o.seed);
  const unique = examples.map((e) => [...new Set(e.features)].sort());
  const p = new Float64Array(k);
  for (let epoch = 0; epoch < o.epochs; epoch++) {
    for (const i of shuffled(examples.length, random)) {
      const e = examples[i] as Example;
      const fs = unique[i] as string[];
      const x = featureValue(e.size ?? fs.length);
      p.set(bias);
      for (const f of fs) {
        const row = weights.get(f);
        if (row) for (let c = 0; c < k; c++) p[c] = (p[c] as number) + x * (row[c] as number);
      }
      let max = -Infinity;
      for (const v of p) max = Math.max(max, v);
      let sum = 0;
      for (let c = 0; c < k; c++) {
        p[c] = Math.exp((p[c] as number) - max);
        sum += p[c] as number;
      }
      for (let c = 0; c < k; c++) {
        const g = ((p[c] as number) / sum - (c === e.label ? 1 : 0)) * (e.weight ?? 1);
        biasSquares[c] = (biasSquares[c] as number) + g * g;
        bias[c] = (bias[c] as number) - (o.rate * g) / Math.sqrt((biasSquares[c] as number) + 1e-8);
        for (const f of fs) {
          let row = weights.get(f);
          let sq = squares.get(f);
          if (!row || !sq) {
            row = new Float64Array(k);
            sq = new Float64Array(k);
            weights.set(f, row);
            squares.set(f, sq);
          }
          const gf = g * x + o.l2 * (row[c] as number);
          sq[c] = (sq[c] as number) + gf * gf;
          row[c] = (row[c] as number) - (o.rate * gf) / Math.sqrt((sq[c] as number) + 1e-8);
        }
      }
    }
  }
  return { classes: [...classes], bias, weights };
}

/** Rounds weights for a compact file and drops the ones that round to zero. */
export function roundedWeights(weights: ReadonlyMap<string, number>, digits = 3): Record<string, number> {
  const out: Record<string, number> = {};
  for (const name of [...weights.keys()].sort()) {
    const w = Number((weights.get(name) as number).toFixed(digits));
    if (w !== 0) out[name] = w;
  }
  return out;
}

/** The same for multinomial rows (a row is dropped when all of it rounds to zero). */
export function roundedRows(weights: ReadonlyMap<string, Float64Array>, digits = 3): Record<string, number[]> {
  const out: Record<string, number[]> = {};
  for (const name of [...weights.keys()].sort()) {
    const row = [...(weights.get(name) as Float64Array)].map((w) => Number(w.toFixed(digits)) + 0);
    if (row.some((w) => w !== 0)) out[name] = row;
  }
  return out;
}

/**
 * One choice among alternatives (a conditional logit, McFadden 1974; the listwise form of a ranking model): an
 * abstract's candidates for one value plus a "none" alternative, and which of them are right (several occurrences of
 * the right value may all be; none of them when the abstract states no value, then "none" is right).
 */
export interface ChoiceExample {
  /** Features of each candidate. */
  candidates: readonly (readonly string[])[];
  /** Features of the "none" alternative (what the abstract is like when it states no value). */
  none: readonly string[];
  /** Indices of the right candidates; empty when "none" is right. */
  gold: readonly number[];
}

/**
 * Fits a conditional logit: P(alternative a | example) = exp(w·x_a) / Σ_b exp(w·x_b), one weight vector shared by all
 * alternatives, maximising the likelihood of the right ones (their summed probability when several are right), with
 * L2 and AdaGrad as trainBinary. @returns weights (bias 0, threshold 0.5: the caller sets its own).
 */
export function trainChoice(examples: readonly ChoiceExample[], options: Partial<TrainOptions> = {}): BinaryModel {
  const o = { ...DEFAULT_TRAINING, ...options };
  const weights = new Map<string, number>();
  const squares = new Map<string, number>();
  const random = mulberry32(o.seed);
  const prepared = examples.map((e) => {
    const items = [e.none, ...e.candidates].map((fs) => [...new Set(fs)].sort());
    return { items, right: e.gold.length === 0 ? [0] : e.gold.map((g) => g + 1) };
  });
  for (let epoch = 0; epoch < o.epochs; epoch++) {
    for (const i of shuffled(prepared.length, random)) {
      const { items, right } = prepared[i] as (typeof prepared)[number];
      const p = softmax(items.map((fs) => linearScore(weights, fs)));
      const rightMass = right.reduce((a, k) => a + (p[k] as number), 0);
      const grads = new Map<string, number>();
      items.forEach((fs, k) => {
        const q = right.includes(k) ? (p[k] as number) / rightMass : 0;
        const g = (p[k] as number) - q;
        if (g === 0) return;
        const x = featureValue(fs.length);
        for (const f of fs) grads.set(f, (grads.get(f) ?? 0) + g * x);
      });
      for (const [f, g0] of grads) {
        const w = weights.get(f) ?? 0;
        const g = g0 + o.l2 * w;
        const s = (squares.get(f) ?? 0) + g * g;
        squares.set(f, s);
        weights.set(f, w - (o.rate * g) / Math.sqrt(s + 1e-8));
      }
    }
  }
  return { bias: 0, threshold: 0.5, weights };
}

/**
 * The features seen in at least `min` examples (a feature seen once or twice is learned from noise, and ships as weight
 * without use). @returns a filter for feature lists.
 */
export function frequentFeatures(
  lists: readonly (readonly string[])[],
  min: number,
): (fs: readonly string[]) => string[] {
  const df = new Map<string, number>();
  for (const fs of lists) for (const f of new Set(fs)) df.set(f, (df.get(f) ?? 0) + 1);
  return (fs) => fs.filter((f) => (df.get(f) ?? 0) >= min);
}
