/**
 * What the evidence table reads from one article (issues 21 and 33): design and OCEBM level, the appraisal items,
 * participants, PICO spans, the main result sentence, the between-group results and whether the main comparison was
 * significant. Every text cell is a verbatim span of the abstract (whitespace normalised) or null; every number comes
 * with the sentence it was read from.
 *
 * Design, appraisal, participants and effects are learned models (study/, participants/, effects/; trained by
 * scripts/evidence/train.ts on hand-labelled abstracts) that abstain below the probability their training chose for
 * precision. Sentence roles come from the structured abstract's labels, else the sentence-role classifier
 * (src/reviews/roles/). Cost: about a millisecond per abstract once the weights are loaded
 * (scripts/bench/bench-extraction.ts).
 */
import { studyDesign, type StudyDesign } from "../../articles/evidence.ts";
import type { SummaryArticle } from "../summary/types.ts";
import { type AbstractView, abstractView } from "./abstract-view.ts";
import { readEffects } from "./effects/extract.ts";
import { evidenceLevel } from "./levels.ts";
import { readParticipants } from "./participants/extract.ts";
import { extractPico } from "./pico.ts";
import { classifyStudy, type StudyAnswer } from "./study/classify.ts";
import { readFollowUp } from "./appraisal.ts";
import { sentenceSignificance } from "./significance/classify.ts";
import type { EffectEstimate, EvidenceLevel, StudyAppraisal, StudyEvidence } from "./types.ts";

const isFinding = (role: string) => role === "RESULTS" || role === "CONCLUSIONS";
const isComparative = (e: EffectEstimate) => !["percentage", "mean", "median"].includes(e.measure);

/** Significance of one estimate from its interval (excluding the null value) or its p value (below 0.05). */
function effectSignificance(e: EffectEstimate): StudyEvidence["significance"] {
  // A group's own interval is not the difference's: only a ratio's or a difference's interval counts.
  if (isComparative(e) && e.ci_low !== null && e.ci_high !== null) {
    const nullValue = e.measure.endsWith("ratio") ? 1 : 0;
    return e.ci_low > nullValue || e.ci_high < nullValue ? "significant" : "not_significant";
  }
  if (e.p_value !== null && e.p_relation !== null) {
    if (e.p_relation === "<" || e.p_relation === "<=") return e.p_value <= 0.05 ? "significant" : null;
    if (e.p_relation === "=") return e.p_value < 0.05 ? "significant" : "not_significant";
    return "not_significant"; // "p > 0.05"
  }
  return null;
}

/**
 * Significance a sentence's own words state ("no significant difference", "significantly improves"), read by the
 * learned classifier (significance/classify.ts); null when it is not sure.
 */
function statedSignificance(text: string): StudyEvidence["significance"] {
  return sentenceSignificance(text);
}

interface Read {
  view: AbstractView;
  effects: (EffectEstimate & { sentence: number })[];
}

/**
 * The main result: the first results or conclusions sentence with a ratio or a difference, else with two groups'
 * values, else the first conclusions sentence, else the first finding that says whether a difference was significant.
 */
function mainResult({ view, effects }: Read): number | null {
  const findings = view.sentences.filter((s) => isFinding(s.role));
  const withEffect = (pred: (e: EffectEstimate) => boolean) =>
    findings.find((s) => effects.some((e) => e.sentence === s.index && pred(e)));
  return (
    withEffect(isComparative)?.index ??
    withEffect(() => true)?.index ??
    findings.find((s) => s.role === "CONCLUSIONS")?.index ??
    findings.find((s) => statedSignificance(s.text) !== null)?.index ??
    null
  );
}

/**
 * Whether the main comparison was significant: the main result's own words when they say so, else its estimates,
 * else the other findings' ratios and differences, else the conclusions' and results' words; null when none tells.
 * The words come first because a sentence that says "significantly improves" is not overruled by a p value the
 * extractor may have read for another comparison.
 */
function significanceOf(read: Read, result: number | null): StudyEvidence["significance"] {
  const sentences = read.view.sentences;
  if (result !== null) {
    const stated = statedSignificance(sentences[result]?.text ?? "");
    if (stated !== null) return stated;
  }
  const ordered = [
    ...read.effects.filter((e) => e.sentence === result),
    ...read.effects.filter((e) => isComparative(e) && isFinding(sentences[e.sentence]?.role ?? "")),
  ];
  for (const e of ordered) {
    const s = effectSignificance(e);
    if (s !== null) return s;
  }
  for (const role of ["CONCLUSIONS", "RESULTS"]) {
    for (const s of sentences.filter((x) => x.role === role)) {
      const stated = statedSignificance(s.text);
      if (stated !== null) return stated;
    }
  }
  return null;
}

const yesNo = (a: StudyAnswer): boolean | null => (!a.sure || a.label === "unknown" ? null : a.label === "yes");

/**
 * The design shown: the model's when it is sure of it; else the record's own (publication types, MeSH); "other"
 * (laboratory, animal, methods) is no design.
 */
function designOf(
  article: SummaryArticle,
  answer: StudyAnswer,
): { design: StudyDesign | null; source: StudyEvidence["design_source"] } {
  if (answer.sure) {
    return answer.label === "other"
      ? { design: null, source: "abstract" }
      : { design: answer.label as StudyDesign, source: "abstract" };
  }
  const record = studyDesign(article.publication_types ?? [], article.mesh_terms ?? []);
  return { design: record, source: record === null ? null : "record" };
}

/**
 * OCEBM level of a design, graded down to 4 (case series) when a trial or a cohort compared its outcomes with no
 * other group (OCEBM 2011: level 3 is a non-randomised *controlled* cohort or follow-up study).
 */
function levelOf(design: StudyDesign | null, comparison: boolean | null): EvidenceLevel | null {
  const level = evidenceLevel(design);
  if ((design === "cohort" || design === "clinical-trial") && comparison === false) return 4;
  return level;
}

/**
 * Reads the evidence of one article.
 * @param article A summary article (title, abstract or structured sections, publication types, MeSH).
 * @returns Every field of StudyEvidence; an article without an abstract gives nulls and no effects. Never throws on
 *   odd text.
 */
export function extractEvidence(article: SummaryArticle): StudyEvidence {
  const view = abstractView(article);
  const effects = readEffects(view);
  const read: Read = { view, effects };
  const result = mainResult(read);
  const answers = classifyStudy(article, view);
  const { design, source } = designOf(article, answers.design);
  const participants = readParticipants(view, article);
  const text = view.sentences.map((s) => s.text).join(" ");
  const pico = extractPico(text);
  const followUp = readFollowUp(view);
  const appraisal: StudyAppraisal = {
    randomised: yesNo(answers.randomised),
    comparison_group: yesNo(answers.comparison_group),
    timing:
      answers.timing.sure && answers.timing.label !== "unknown"
        ? (answers.timing.label as StudyAppraisal["timing"])
        : null,
    blinding:
      answers.blinding.sure && answers.blinding.label !== "unknown"
        ? (answers.blinding.label as StudyAppraisal["blinding"])
        : null,
    follow_up: followUp.follow_up,
    loss_to_follow_up: followUp.loss_to_follow_up,
    sources: {},
  };
  for (const item of ["randomised", "comparison_group", "timing", "blinding"] as const) {
    const source = answers[item].source;
    if (appraisal[item] !== null && source) appraisal.sources[item] = source;
  }
  return {
    pmid: article.pmid,
    design,
    design_source: source,
    evidence_level: levelOf(design, appraisal.comparison_group),
    participants: participants?.value ?? null,
    participants_arms: participants?.arms ?? null,
    participants_text: participants?.text ?? null,
    appraisal,
    population: pico.population,
    intervention: pico.intervention,
    comparator: pico.comparator,
    outcome: pico.outcome,
    result: result === null ? null : (view.sentences[result]?.text ?? null),
    effects: effects.map(({ sentence: _s, probability: _p, ...e }) => e),
    significance: significanceOf(read, result),
  };
}
