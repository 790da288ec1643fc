/**
 * The number of participants an abstract states (issue 33): those randomised, else enrolled, else included or
 * studied, else analysed; when the abstract gives only the sizes of the groups that make up the study ("26 surgery and
 * 29 conservative"), their sum with its parts. Never a control group alone, a subgroup, or a count of procedures,
 * events, centres or years.
 *
 * Learned, not hand-written: the abstract's candidates (participants/candidates.ts) and a "none" alternative are
 * weighed against each other by a conditional logit (a choice model, McFadden 1974) trained on hand-labelled abstracts
 * (scripts/evidence/train.ts, weights in participants/weights.json). The probability of a value is the sum over the
 * candidates that read it (a count stated twice); the likeliest value is taken only when its probability reaches the
 * threshold chosen on cross-validation for precision, else the extractor abstains (a wrong number is worse than
 * none). The source sentence comes with every answer.
 */
import type { AbstractView } from "../abstract-view.ts";
import type { SummaryArticle } from "../../summary/types.ts";
import { type BinaryModel, type BinaryModelFile, shippedBinaryModel, choiceProbabilities } from "../model/linear.ts";
import { noneFeatures, participantCandidates } from "./candidates.ts";
import weightsFile from "./weights.json" with { type: "json" };

export interface ParticipantsReading {
  /** The count (for arms, their sum). */
  value: number;
  /** The group sizes added up, in the order stated; null when the abstract states the count as one number. */
  arms: number[] | null;
  /** The verbatim sentence the count was read from (both sentences, when its groups are stated in two). */
  text: string;
  /** Character offsets, within `text`, of each number read. */
  spans: [number, number][];
  /** The model's probability that this is the study's number of participants. */
  probability: number;
}

/** The shipped model, built on first use. */
export const participantsModel = shippedBinaryModel(weightsFile as BinaryModelFile);

/**
 * The study's number of participants, or null when the model is not sure enough of any value.
 * @param view The abstract (abstract-view.ts); @param article its record (publication types, MeSH).
 * @param model The model to score with (the shipped one by default; training passes its own).
 * @param threshold Probability needed to answer (the model's own by default).
 */
export function readParticipants(
  view: AbstractView,
  article: Pick<SummaryArticle, "publication_types" | "mesh_terms">,
  model: BinaryModel = participantsModel(),
  threshold: number = model.threshold,
): ParticipantsReading | null {
  const candidates = participantCandidates(view);
  if (candidates.length === 0) return null;
  const p = choiceProbabilities(
    model,
    candidates.map((c) => c.features),
    noneFeatures(view, article, candidates),
  );
  // The probability of a value: every candidate that reads it (the same count stated twice, the same arms).
  const mass = new Map<string, number>();
  const key = (c: (typeof candidates)[number]) => `${c.value}|${c.arms?.join("+") ?? ""}`;
  candidates.forEach((c, i) => {
    mass.set(key(c), (mass.get(key(c)) ?? 0) + (p[i + 1] as number));
  });
  let best = -1;
  candidates.forEach((c, i) => {
    if (best < 0) best = i;
    const b = candidates[best] as (typeof candidates)[number];
    const better = (mass.get(key(c)) as number) > (mass.get(key(b)) as number);
    const sameValueLikelier = key(c) === key(b) && (p[i + 1] as number) > (p[best + 1] as number);
    if (better || sameValueLikelier) best = i;
  });
  const c = candidates[best] as (typeof candidates)[number];
  const probability = mass.get(key(c)) as number;
  if (probability < threshold) return null;
  // Groups stated in two sentences come with both.
  const text = view.sentences
    .slice(c.sentence, (c.lastSentence ?? c.sentence) + 1)
    .map((s) => s.text)
    .join(" ");
  return { value: c.value, arms: c.arms, text, spans: c.spans, probability };
}
