/**
 * Sentence roles of unstructured abstracts: which sentences give the background, the objective, the methods, the
 * results and the conclusions. A linear-chain model (model.ts) over lexical, positional, statistical-cue and
 * neighbour features (features.ts), trained on the NLM-labelled sections of structured PubMed abstracts by
 * scripts/train-sentence-roles.ts; its weights ship in weights.json (~0.6 MB) and are read once per process, on first
 * use. Held-out accuracy and per-class F1: scripts/bench/bench-sentence-roles.ts and docs/decisions/0027.
 */
import { readFileSync } from "node:fs";
import { abstractFeatures, SENTENCE_ROLES, type SentenceRole } from "./features.ts";
import { emissionScores, modelFromFile, viterbi, type RoleModel, type RoleModelFile } from "./model.ts";

export type { SentenceRole } from "./features.ts";
export { SENTENCE_ROLES } from "./features.ts";

/** Where the trained weights live (next to this module). */
export const WEIGHTS_URL = new URL("./weights.json", import.meta.url);

let model: RoleModel | null = null;

/**
 * The model, read and parsed on first call (a few milliseconds) and kept for the life of the process.
 * @throws Error when weights.json is missing or does not match the code (a deployment error, not bad input).
 */
export function loadRoleModel(): RoleModel {
  model ??= modelFromFile(JSON.parse(readFileSync(WEIGHTS_URL, "utf8")) as RoleModelFile);
  return model;
}

/**
 * Roles of an unstructured abstract's sentences, in order (uses position and neighbours).
 *
 * @param sentences The abstract's sentences in document order, as splitSentences (src/reviews/sentences.ts) gives
 *   them; the whole abstract at once, since a sentence's position and neighbours are features.
 * @returns One role per sentence; [] for no sentences. Deterministic; never throws on odd text (empty strings,
 *   symbols only). About 0.3 ms per abstract once the weights are loaded.
 */
export function classifySentenceRoles(sentences: readonly string[]): SentenceRole[] {
  if (sentences.length === 0) return [];
  const m = loadRoleModel();
  const emissions = emissionScores(abstractFeatures(sentences), m);
  return viterbi(emissions, sentences.length, m.start, m.transitions).map((r) => SENTENCE_ROLES[r] as SentenceRole);
}
