/**
 * The number of participants an abstract states (issue 33): those randomised, else enrolled, else included or
 * studied, else analysed; when the abstract gives only the sizes of the groups that make up the study ("26 surgery and
 * 29 conservative"), their sum with its parts. Never a control group alone, a subgroup, or a count of procedures,
 * events, centres or years.
 *
 * Learned, not hand-written: every candidate (participants/candidates.ts) is scored by a logistic regression trained
 * on hand-labelled abstracts (scripts/evidence/train.ts, weights in participants/weights.json); the best candidate is
 * taken only when its probability reaches the threshold chosen on cross-validation for precision, else the
 * extractor abstains (a wrong number is worse than none). The source sentence comes with every answer.
 */
import type { AbstractView } from "../abstract-view.ts";
import { type BinaryModel, type BinaryModelFile, binaryModel, binaryProbability } from "../model/linear.ts";
import { participantCandidates } from "./candidates.ts";
import weightsFile from "./weights.json" with { type: "json" };

export interface ParticipantsReading {
  /** The count (for arms, their sum). */
  value: number;
  /** The group sizes added up, in the order stated; null when the abstract states the count as one number. */
  arms: number[] | null;
  /** The verbatim sentence the count was read from. */
  text: string;
  /** Character offsets, within `text`, of each number read. */
  spans: [number, number][];
  /** The model's probability that this is the study's number of participants. */
  probability: number;
}

let loaded: BinaryModel | null = null;
/** The shipped model, loaded on first use. */
export function participantsModel(): BinaryModel {
  loaded ??= binaryModel(weightsFile as BinaryModelFile);
  return loaded;
}

/**
 * The study's number of participants, or null when the model is not sure enough of any candidate.
 * @param view The abstract (abstract-view.ts).
 * @param model The model to score with (the shipped one by default; training passes its own).
 * @param threshold Probability needed to answer (the model's own by default).
 */
export function readParticipants(
  view: AbstractView,
  model: BinaryModel = participantsModel(),
  threshold: number = model.threshold,
): ParticipantsReading | null {
  let best: ParticipantsReading | null = null;
  for (const c of participantCandidates(view)) {
    const probability = binaryProbability(model, c.features);
    if (best === null || probability > best.probability) {
      const sentence = view.sentences[c.sentence];
      best = { value: c.value, arms: c.arms, text: sentence?.text ?? "", spans: c.spans, probability };
    }
  }
  return best !== null && best.probability >= threshold ? best : null;
}
