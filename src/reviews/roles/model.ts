/**
 * The sentence-role model: a linear-chain model (per-sentence feature weights for each role plus role-to-role
 * transition weights), decoded with the Viterbi algorithm so that each abstract gets the best sequence of roles as a
 * whole. Trained as an averaged structured perceptron (Collins M. "Discriminative training methods for hidden Markov
 * models: theory and experiments with perceptron algorithms", EMNLP 2002) by scripts/train-sentence-roles.ts.
 */
import { SENTENCE_ROLES } from "./features.ts";

const R = SENTENCE_ROLES.length;

/**
 * The model as shipped in weights.json. Weights are integers to be multiplied by `scale`; the feature weights are
 * packed as little-endian 16-bit integers in base64 (one row of R per feature, in the order of `names`), which parses
 * in a few milliseconds where an object of 25,000 arrays takes tens.
 */
export interface RoleModelFile {
  version: 2;
  /** Role names in the order of every weight vector (SENTENCE_ROLES). */
  roles: string[];
  /** Multiplier that turns the stored integers back into weights. */
  scale: number;
  /** Weight of each role as the first role of an abstract. */
  start: number[];
  /** transitions[a][b]: weight of role b following role a. */
  transitions: number[][];
  /** Feature strings separated by "\n" (features with all-zero weights are left out). */
  names: string;
  /** base64 of Int16 little-endian weights, names.length × R. */
  weights: string;
}

/** A loaded model, ready for scoring. */
export interface RoleModel {
  start: Float64Array;
  /** transitions[a * R + b]: weight of role b following role a. */
  transitions: Float64Array;
  /** Feature string → its row in `weights`. */
  index: Map<string, number>;
  /** weights[row * R + r]: weight of the feature for role r. */
  weights: Float64Array;
}

/** Packs integer weights (rows of R) as the base64 string of RoleModelFile.weights. */
export function packWeights(rows: readonly (readonly number[])[]): string {
  const view = new DataView(new ArrayBuffer(rows.length * R * 2));
  for (const [i, row] of rows.entries()) for (const [r, w] of row.entries()) view.setInt16((i * R + r) * 2, w, true);
  return Buffer.from(view.buffer).toString("base64");
}

/** Turns the shipped file into a RoleModel. @throws Error when its version, roles or sizes do not match this code. */
export function modelFromFile(file: RoleModelFile): RoleModel {
  if (file.version !== 2 || file.roles.join() !== SENTENCE_ROLES.join()) {
    throw new Error("sentence-role weights do not match this code");
  }
  const names = file.names.split("\n");
  const bytes = Buffer.from(file.weights, "base64");
  if (bytes.length !== names.length * R * 2) throw new Error("sentence-role weights are truncated");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  const weights = new Float64Array(names.length * R);
  for (let i = 0; i < weights.length; i++) weights[i] = view.getInt16(i * 2, true) * file.scale;
  const index = new Map<string, number>();
  for (const [row, name] of names.entries()) index.set(name, row);
  return {
    start: Float64Array.from(file.start, (x) => x * file.scale),
    transitions: Float64Array.from(file.transitions.flat(), (x) => x * file.scale),
    index,
    weights,
  };
}

/** Per-sentence role scores: scores[i * R + r] is the summed weight of sentence i's features for role r. */
export function emissionScores(
  features: readonly (readonly string[])[],
  model: Pick<RoleModel, "index" | "weights">,
): Float64Array {
  const scores = new Float64Array(features.length * R);
  features.forEach((fs, i) => {
    for (const f of fs) {
      const row = model.index.get(f);
      if (row === undefined) continue;
      for (let r = 0; r < R; r++) {
        scores[i * R + r] = (scores[i * R + r] as number) + (model.weights[row * R + r] as number);
      }
    }
  });
  return scores;
}

/**
 * Best role sequence (as role indices) under emission, start and transition scores: the Viterbi algorithm, O(n·R²).
 * Ties go to the lower role index, so the result is deterministic.
 */
export function viterbi(
  emissions: Float64Array,
  n: number,
  start: ArrayLike<number>,
  transitions: ArrayLike<number>,
): number[] {
  if (n === 0) return [];
  const best = new Float64Array(n * R);
  const back = new Int8Array(n * R);
  for (let r = 0; r < R; r++) best[r] = (start[r] as number) + (emissions[r] as number);
  for (let i = 1; i < n; i++) {
    for (let r = 0; r < R; r++) {
      let top = -Infinity;
      let arg = 0;
      for (let p = 0; p < R; p++) {
        const s = (best[(i - 1) * R + p] as number) + (transitions[p * R + r] as number);
        if (s > top) {
          top = s;
          arg = p;
        }
      }
      best[i * R + r] = top + (emissions[i * R + r] as number);
      back[i * R + r] = arg;
    }
  }
  const path = new Array<number>(n);
  let last = 0;
  for (let r = 1; r < R; r++) if ((best[(n - 1) * R + r] as number) > (best[(n - 1) * R + last] as number)) last = r;
  path[n - 1] = last;
  for (let i = n - 1; i > 0; i--) path[i - 1] = back[i * R + (path[i] as number)] as number;
  return path;
}
