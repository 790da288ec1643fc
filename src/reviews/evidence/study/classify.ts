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
    out[q] = { ...best, sure: best.probability >= minimum };
  }
  return out;
}
