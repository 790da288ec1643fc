/**
 * What kind of study an article reports, learned from hand-labelled abstracts (issue 33 item 4, issue 37 item 1):
 * its design (a randomised trial, a non-randomised trial, a cohort, case-control or cross-sectional study, a case
 * series, a case report, a systematic review or meta-analysis, a narrative review, a guideline, an opinion, or none
 * of those: laboratory, animal, methods), and the appraisal items RobotReviewer-style tools read from an abstract:
 * whether participants were randomised, whether outcomes were compared with another group, whether data were
 * collected prospectively or retrospectively, and blinding.
 *
 * Each is a multinomial logistic regression over study/features.ts, trained by scripts/evidence/train.ts (weights in
 * study/weights.json). Each answer carries the model's probability; callers show it only above the model's threshold
 * (`minimum`), else treat it as not stated.
 *
 * Frameworks: the design categories and their order follow OCEBM 2011 (levels.ts); the appraisal items are the
 * signalling questions of Cochrane's RoB 2 (domain 1, randomisation; domain 2, blinding) and ROBINS-I (a comparison
 * group, the timing of data collection), as RobotReviewer reads them from text (Marshall, Kuiper & Wallace,
 * "RobotReviewer: evaluation of a system for automatically assessing bias in clinical trials", JAMIA 23(1), 2016).
 */
import type { SummaryArticle } from "../../summary/types.ts";
import type { AbstractView } from "../abstract-view.ts";
import { bestClass, type MulticlassModel, type MulticlassModelFile, multiclassModel } from "../model/linear.ts";
import { studyFeatures } from "./features.ts";
import weightsFile from "./weights.json" with { type: "json" };

/** The questions answered, each a multinomial model of the weights file. */
export const STUDY_QUESTIONS = ["design", "randomised", "comparison_group", "timing", "blinding"] as const;
export type StudyQuestion = (typeof STUDY_QUESTIONS)[number];

/** The classes of each question; "unknown" is the labellers' null (the abstract does not tell). */
export const STUDY_CLASSES: Record<StudyQuestion, readonly string[]> = {
  design: [
    "meta-analysis",
    "systematic-review",
    "rct",
    "clinical-trial",
    "cohort",
    "case-control",
    "cross-sectional",
    "case-series",
    "case-report",
    "review",
    "guideline",
    "opinion",
    "other",
  ],
  randomised: ["yes", "no", "unknown"],
  comparison_group: ["yes", "no", "unknown"],
  timing: ["prospective", "retrospective", "unknown"],
  blinding: ["double-blind", "single-blind", "assessor-blind", "open-label", "unknown"],
};

/** The weights file: one model per question, each with the probability below which its answer is not shown. */
export interface StudyModelsFile {
  trained: string;
  models: Record<StudyQuestion, MulticlassModelFile & { minimum: number }>;
}

export interface StudyAnswer {
  label: string;
  probability: number;
  /** Whether the probability reaches the model's minimum for showing the answer. */
  sure: boolean;
  /** The abstract's sentence that states the answer in its own words (STATED_BY), or null when none does. */
  source: string | null;
}

/**
 * The words that state each appraisal answer in an abstract (the convention's own words for it): the source of an
 * answer is the first sentence that says so. "No" answers have no such words (an abstract rarely says it did not
 * randomise): they have no source, and neither has an answer read only from the record's types.
 */
const STATED_BY: Partial<Record<StudyQuestion, Record<string, RegExp>>> = {
  randomised: { yes: /\brandom(?:i[sz]ed|i[sz]ation|ly)\b/iu },
  comparison_group: { yes: /\b(?:compar\w*|versus|vs\.?|control(?:s|led)?|groups?|arms?)\b/iu },
  timing: { prospective: /\bprospective(?:ly)?\b/iu, retrospective: /\bretrospective(?:ly)?\b/iu },
  blinding: {
    "double-blind": /\bdouble[- ]?blind(?:ed)?\b/iu,
    "single-blind": /\bsingle[- ]?blind(?:ed)?\b/iu,
    "assessor-blind":
      /\b(?:assessor|evaluator|observer|outcome)s?[- ]?(?:blind(?:ed)?|masked)\b|\bblinded (?:assessor|evaluator|observer)s?\b/iu,
    "open-label": /\bopen[- ]label\b/iu,
  },
};

/** The first sentence of the view that states answer `label` to question `q` in its words; null when none does. */
function sourceSentence(view: AbstractView, q: StudyQuestion, label: string): string | null {
  const words = STATED_BY[q]?.[label];
  if (!words) return null;
  return view.sentences.find((s) => words.test(s.text))?.text ?? null;
}

type Loaded = Record<StudyQuestion, { model: MulticlassModel; minimum: number }>;
let loaded: Loaded | null = null;

/** Loads study models from their file (the shipped one by default). */
export function studyModels(file: StudyModelsFile = weightsFile as unknown as StudyModelsFile): Loaded {
  const out = {} as Loaded;
  for (const q of STUDY_QUESTIONS) out[q] = { model: multiclassModel(file.models[q]), minimum: file.models[q].minimum };
  return out;
}

/**
 * Every question's answer for one article.
 * @param models The models (the shipped ones by default).
 */
export function classifyStudy(
  article: SummaryArticle,
  view: AbstractView,
  models: Loaded = (loaded ??=
    studyModels()),
): Record<StudyQuestion, StudyAnswer> {
  const features = studyFeatures(article, view);
  const out = {} as Record<StudyQuestion, StudyAnswer>;
  for (const q of STUDY_QUESTIONS) {
    const { model, minimum } = models[q];
    const best = bestClass(model, features);
    const sure = best.probability >= minimum;
    const source = sure ? sourceSentence(view, q, best.label) : null;
    out[q] = { ...best, sure, source };
  }
  return out;
}
