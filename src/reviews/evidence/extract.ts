/**
 * What the evidence table reads from one article (issue 21, item 2): design and OCEBM level, participants, PICO
 * spans, the main result sentence, every effect estimate and whether the main comparison was significant. Every text
 * cell is a verbatim span of the abstract (whitespace normalised) or null; numbers come from such spans.
 *
 * Sentence roles come from the structured abstract's labels (NLM categories); for unstructured abstracts from the
 * sentence-role classifier (src/reviews/roles/classifier.ts). Cost: about 0.4 ms per abstract on one idle core once
 * the classifier's weights are loaded (scripts/bench/bench-extraction.ts).
 */
import { studyDesign } from "../../articles/evidence.ts";
import { classifySentenceRoles } from "../roles/classifier.ts";
import { normalizeWhitespace, splitSentences, type SectionKind } from "../sentences.ts";
import { articleSections } from "../summary/candidates.ts";
import type { SummaryArticle } from "../summary/types.ts";
import { designFromAbstract } from "./design-text.ts";
import { extractEffects } from "./effects.ts";
import { evidenceLevel } from "./levels.ts";
import { extractParticipants } from "./participants.ts";
import { extractPico } from "./pico.ts";
import type { EffectEstimate, StudyEvidence } from "./types.ts";

interface RoledSentence {
  text: string;
  role: SectionKind;
  effects: EffectEstimate[];
}

/**
 * The abstract's sentences with their roles (labels where the abstract has them, the classifier where not) and the
 * effects whose span starts in each; `effects` lists every effect of the abstract in order.
 */
function roledSentences(article: SummaryArticle): { sentences: RoledSentence[]; effects: EffectEstimate[] } {
  const out: RoledSentence[] = [];
  const all: EffectEstimate[] = [];
  for (const section of articleSections(article)) {
    const sentences = splitSentences(section.text);
    const roles: SectionKind[] =
      section.kind === "UNLABELLED" ? classifySentenceRoles(sentences) : sentences.map(() => section.kind);
    // Effects are read once per section (cheaper than per sentence) and handed to the sentence that holds their span.
    const effects = extractEffects(section.text);
    all.push(...effects);
    let cursor = 0;
    let next = 0;
    sentences.forEach((text, i) => {
      const start = section.text.indexOf(text, cursor);
      const end = start < 0 ? cursor : start + text.length;
      const own: EffectEstimate[] = [];
      while (next < effects.length) {
        const e = effects[next] as EffectEstimate;
        const at = section.text.indexOf(e.text, cursor);
        if (at >= end) break;
        // A span found nowhere after this sentence's start (the splitter cut inside it) is left to `effects` alone.
        if (at >= 0) own.push(e);
        next++;
      }
      cursor = end;
      out.push({ text, role: roles[i] ?? "UNLABELLED", effects: own });
    });
  }
  return { sentences: out, effects: all };
}

/** The abstract as one text with its labels ("PATIENTS: 351 …"), which the participant and PICO rules use. */
function labelledText(article: SummaryArticle): string {
  const sections = Array.isArray(article.abstract_sections) ? article.abstract_sections : [];
  const parts = sections
    .filter((s) => typeof s?.text === "string" && s.text.trim() !== "")
    .map((s) => (s.label ? `${s.label}: ${s.text}` : s.text));
  return normalizeWhitespace(parts.length > 0 ? parts.join(" ") : (article.abstract ?? ""));
}

const isFinding = (s: RoledSentence) => s.role === "RESULTS" || s.role === "CONCLUSIONS";
const isComparative = (e: EffectEstimate) => e.measure !== "percentage";

/**
 * The main result: the first results sentence with a named estimate (a ratio or a difference), else with a compared
 * percentage, else the first conclusions sentence, else the first results sentence that says whether a difference
 * was significant.
 */
function mainResult(sentences: readonly RoledSentence[]): RoledSentence | null {
  const findings = sentences.filter(isFinding);
  return (
    findings.find((s) => s.effects.some(isComparative)) ??
    findings.find((s) => s.effects.length > 0) ??
    findings.find((s) => s.role === "CONCLUSIONS") ??
    findings.find((s) => SIGNIFICANT.test(s.text) || NOT_SIGNIFICANT.test(s.text)) ??
    null
  );
}

const anyOf = (...alternatives: string[]) => new RegExp(String.raw`\b(?:${alternatives.join("|")})\b`, "iu");
const NOT_SIGNIFICANT = anyOf(
  String.raw`no (?:statistically )?significant`,
  String.raw`not (?:statistically )?significant(?:ly)?`,
  String.raw`did not (?:significantly )?(?:differ|improve|reduce|increase|change|affect|decrease)`,
  String.raw`no (?:\w+ )?difference`,
  String.raw`was not superior|were not (?:statistically )?different|not associated|comparable|similar`,
);
const SIGNIFICANT = anyOf(
  String.raw`significantly (?:higher|lower|greater|fewer|more|less|longer|shorter|better|worse|improved|reduced|` +
    String.raw`increased|decreased|associated|improve|reduce|increase|decrease)`,
  String.raw`significant(?:ly)? (?:improvement|reduction|increase|decrease|difference|association|benefit)`,
  String.raw`was superior|were superior`,
);

/** Significance of one estimate from its interval (excluding the null value) or its p value (below 0.05). */
function effectSignificance(e: EffectEstimate): StudyEvidence["significance"] {
  // A percentage's interval is that of one group's rate, not of the difference: only its p value counts.
  if (e.measure !== "percentage" && e.ci_low !== null && e.ci_high !== null) {
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
 * Whether the main comparison was significant: from the main result's first estimate that says so, else the first
 * named estimate of the results, else the wording of the main result, the conclusions, then the results ("no
 * significant difference", "significantly lower"); null when none of them tells.
 */
function significanceOf(
  sentences: readonly RoledSentence[],
  result: RoledSentence | null,
): StudyEvidence["significance"] {
  const ordered = [
    ...(result?.effects ?? []),
    ...sentences.filter(isFinding).flatMap((s) => s.effects.filter(isComparative)),
  ];
  for (const e of ordered) {
    const s = effectSignificance(e);
    if (s !== null) return s;
  }
  const texts = [
    result?.text ?? "",
    ...sentences.filter((s) => s.role === "CONCLUSIONS").map((s) => s.text),
    ...sentences.filter((s) => s.role === "RESULTS").map((s) => s.text),
  ];
  for (const t of texts) {
    if (NOT_SIGNIFICANT.test(t)) return "not_significant";
    if (SIGNIFICANT.test(t)) return "significant";
  }
  return null;
}

/**
 * Reads the evidence of one article.
 *
 * @param article A summary article (title, abstract or structured sections, publication types, MeSH).
 * @returns Design (from the record, else from the abstract's wording, with `design_source` saying which), OCEBM
 *   level, participants, PICO spans, main result sentence, every effect estimate of the abstract (in order) and
 *   significance. An article without an abstract gives nulls and no effects. Never throws on odd text.
 */
export function extractEvidence(article: SummaryArticle): StudyEvidence {
  const recordDesign = studyDesign(article.publication_types ?? [], article.mesh_terms ?? []);
  const text = labelledText(article);
  const abstractDesign = recordDesign === null ? designFromAbstract(text) : null;
  const design = recordDesign ?? abstractDesign;
  const { sentences, effects } = roledSentences(article);
  const result = mainResult(sentences);
  const pico = extractPico(text);
  return {
    pmid: article.pmid,
    design,
    design_source: recordDesign !== null ? "record" : abstractDesign !== null ? "abstract" : null,
    evidence_level: evidenceLevel(design),
    participants: extractParticipants(text)?.value ?? null,
    population: pico.population,
    intervention: pico.intervention,
    comparator: pico.comparator,
    outcome: pico.outcome,
    result: result?.text ?? null,
    effects,
    significance: significanceOf(sentences, result),
  };
}
