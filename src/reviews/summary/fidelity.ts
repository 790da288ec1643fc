/**
 * Topic fidelity of the extractive summary (issue 21, item 5).
 *
 * 1. An article must not lend a finding to a topic it excludes. The search reads a topic as concepts with
 *    alternatives (search/concepts.ts: "vertebral" also matches "spinal" and "spine"), so an article can cover the
 *    topic only through a mention such as "spinal and sacroiliac joint infections were all excluded". Mentions are
 *    split into affirmed ones and ones inside a negation or exclusion scope, found with NegEx-style triggers (Chapman
 *    et al. 2001, "A simple algorithm for identifying negated findings and diseases in discharge summaries", J Biomed
 *    Inform 34:301-310): a pre-trigger ("excluding", "without", "other than", "non-") negates up to
 *    PRE_SCOPE_TOKENS following words, a post-trigger ("… were excluded") the clause before it, pseudo-triggers
 *    ("with or without", "no significant") negate nothing, and a conjunction or clause punctuation ends a scope. An
 *    article excludes the topic when some concept is mentioned only inside such scopes: never in its title, its MeSH
 *    headings or an affirmed sentence part.
 * 2. The topic's question type (diagnosis, treatment, prognosis), read from its words, tells which findings answer it:
 *    for a diagnosis topic, statements about imaging, tests, sensitivity or specificity.
 *
 * The summarizer receives the topic as a string (the Summarizer contract); its concepts are read again from that
 * string with the search's own pure reading (readTopic), so no interface changes. Abbreviations the corpus taught
 * the search are not known here; the abstracts' own definitions still expand them for relevance (candidates.ts).
 */
import { readTopic } from "../../../search/concepts.ts";
import { termsOfToken, textTerms } from "./terms.ts";

/** Words a pre-trigger negates at most (NegEx's window is five to six tokens). */
export const PRE_SCOPE_TOKENS = 6;
/** Words before a post-trigger ("… were excluded") it negates at most. */
export const POST_SCOPE_TOKENS = 12;

/** A concept of the topic: its alternatives, each the stemmed terms of a word or phrase (terms.ts). */
export interface TopicConcept {
  label: string;
  alternatives: string[][];
}

/** The stemmed terms of an article, split by whether they are affirmed or only mentioned under negation. */
export interface ScopedTerms {
  /** Terms of the title, the MeSH headings, and of abstract text outside any negation or exclusion scope. */
  affirmed: Set<string>;
  /** Terms of abstract text inside such a scope. */
  excluded: Set<string>;
}

/** A case-insensitive regular expression matching any of the alternatives as whole words. */
function anyOf(alternatives: readonly string[], flags = "giu"): RegExp {
  return new RegExp(String.raw`\b(?:${alternatives.join("|")})\b`, flags);
}

// Triggers, case-insensitive. "exclude" alone is left out: "to exclude an abscess" is a diagnostic step, not an
// exclusion of patients.
const PSEUDO_TRIGGER = anyOf([
  "with or without",
  "and without",
  "no (?:significant|statistically|further|longer|more|differences?|changes?|increase|decrease|effect|correlation)",
  "no (?:association|relationship)",
  "not only",
  "without (?:significant|statistically|any significant)",
]);
const PRE_TRIGGER = anyOf([
  "excluding",
  "exclusion of",
  "except(?: for)?",
  "other than",
  "rather than",
  "without(?: any)?(?: (?:evidence|signs?|history) of)?",
  "absence of",
  "free of",
  "negative for",
  "ruled out",
  "no(?: (?:evidence|signs?|history) of)?",
]);
const POST_TRIGGER = anyOf([
  String.raw`(?:was|were|is|are|been|being)(?: \p{L}+){0,2}? (?:excluded|ruled out)`,
  "(?:was|were) not (?:included|eligible)",
]);
/** Ends a scope: clause punctuation or a conjunction that changes the subject (NegEx's termination terms). */
const TERMINATOR = /[;:.!?()[\]]|\b(?:but|however|although|whereas|while|which|who|yet)\b/giu;
/** Word tokens as terms.ts reads them, with positions. */
const TOKEN = /[\p{L}\p{N}]+(?:[-‐][\p{L}\p{N}]+)*/gu;
/** "non-vertebral", "non‐smokers": the prefix negates the rest of the word. */
const NEGATING_PREFIX = /^non[-‐]/iu;

interface Span {
  start: number;
  end: number;
}

function spans(re: RegExp, text: string): Span[] {
  const out: Span[] = [];
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) out.push({ start: m.index, end: m.index + m[0].length });
  return out;
}

/**
 * Splits one sentence's terms by negation scope.
 * @param sentence One sentence of an abstract (whitespace normalised).
 * @param into Where to add the terms (affirmed ones, excluded ones).
 */
export function scopeSentenceTerms(sentence: string, into: ScopedTerms): void {
  const tokens: { start: number; raw: string }[] = [];
  TOKEN.lastIndex = 0;
  for (let m = TOKEN.exec(sentence); m !== null; m = TOKEN.exec(sentence)) tokens.push({ start: m.index, raw: m[0] });
  const negated = new Uint8Array(tokens.length);
  const pseudo = spans(PSEUDO_TRIGGER, sentence);
  const stops = spans(TERMINATOR, sentence);
  const inPseudo = (s: Span) => pseudo.some((p) => s.start < p.end && p.start < s.end);
  const stopBetween = (from: number, to: number) => stops.some((t) => t.start >= from && t.start < to);
  for (const trigger of spans(PRE_TRIGGER, sentence)) {
    if (inPseudo(trigger)) continue;
    let count = 0;
    for (let i = 0; i < tokens.length && count < PRE_SCOPE_TOKENS; i++) {
      const tok = tokens[i] as { start: number };
      if (tok.start < trigger.end) continue;
      if (stopBetween(trigger.end, tok.start)) break;
      negated[i] = 1;
      count++;
    }
  }
  for (const trigger of spans(POST_TRIGGER, sentence)) {
    let count = 0;
    for (let i = tokens.length - 1; i >= 0 && count < POST_SCOPE_TOKENS; i--) {
      const tok = tokens[i] as { start: number };
      if (tok.start >= trigger.start) continue;
      if (stopBetween(tok.start, trigger.start)) break;
      negated[i] = 1;
      count++;
    }
  }
  const terms: string[] = [];
  const rest: string[] = [];
  tokens.forEach((tok, i) => {
    terms.length = 0;
    termsOfToken(tok.raw, terms);
    const target = negated[i] === 1 ? into.excluded : into.affirmed;
    if (!NEGATING_PREFIX.test(tok.raw)) {
      for (const t of terms) target.add(t);
      return;
    }
    // "non-vertebral": "vertebral" is excluded; the word as a whole ("nonvertebral", "non-small-cell") still names
    // what the text is about.
    rest.length = 0;
    termsOfToken(tok.raw.slice(4), rest);
    for (const t of rest) into.excluded.add(t);
    for (const t of terms) if (!rest.includes(t)) target.add(t);
  });
}

/**
 * An article's terms split by negation scope.
 * @param title The article's title (always affirmed: a title names what the article is about).
 * @param meshTerms Its MeSH headings (affirmed: indexers name what the article is about).
 * @param sentences Its abstract's sentences.
 */
export function scopedArticleTerms(
  title: string,
  meshTerms: readonly string[],
  sentences: readonly string[],
): ScopedTerms {
  const scoped: ScopedTerms = { affirmed: new Set(textTerms(title)), excluded: new Set() };
  for (const heading of meshTerms) for (const t of textTerms(heading)) scoped.affirmed.add(t);
  for (const s of sentences) scopeSentenceTerms(s, scoped);
  return scoped;
}

/** The topic's concepts as the search reads them (search/concepts.ts), each alternative as stemmed terms. */
export function topicConcepts(query: string): TopicConcept[] {
  return readTopic(query)
    .concepts.map((c) => ({ label: c.label, alternatives: c.alternatives.map(textTerms).filter((a) => a.length > 0) }))
    .filter((c) => c.alternatives.length > 0);
}

/**
 * Whether an article mentions some concept of the topic only inside negation or exclusion scopes.
 * @returns the label of the first such concept, or null when the article affirms every concept it mentions.
 */
export function excludedConcept(concepts: readonly TopicConcept[], terms: ScopedTerms): string | null {
  const all = (alt: string[], set: Set<string>) => alt.every((t) => set.has(t));
  for (const c of concepts) {
    if (c.alternatives.some((alt) => all(alt, terms.affirmed))) continue;
    if (c.alternatives.some((alt) => all(alt, terms.excluded))) return c.label;
  }
  return null;
}

/** The kinds of clinical question a topic can ask (Sackett's foreground questions, as PubMed Clinical Queries). */
export type QuestionType = "diagnosis" | "treatment" | "prognosis";

// Read from the topic's words; the first type whose cue occurs earliest wins ("diagnosis and treatment of …" asks
// about diagnosis). The cue lists follow the PubMed Clinical Queries categories (Haynes et al. 2005, BMJ 330:1179).
const QUESTION_CUES: readonly (readonly [QuestionType, RegExp])[] = [
  [
    "diagnosis",
    anyOf(
      [
        String.raw`diagnos\w*`,
        String.raw`detect\w*`,
        "imaging",
        "screening",
        "sensitivity",
        "specificity",
        "accuracy",
        "work-?up",
        "biomarkers?",
      ],
      "iu",
    ),
  ],
  [
    "treatment",
    anyOf(
      [
        String.raw`treat\w*`,
        String.raw`therap\w*`,
        "management",
        "efficacy",
        "effectiveness",
        "surgery",
        "surgical",
        "drugs?",
        "antibiotics?",
        "interventions?",
        "prevention",
      ],
      "iu",
    ),
  ],
  [
    "prognosis",
    anyOf(
      [String.raw`prognos\w*`, "survival", "mortality", "outcomes?", "recurrence", "course", "natural history"],
      "iu",
    ),
  ],
];

// What a finding that answers each type talks about.
const ANSWER_CUES: Record<QuestionType, RegExp> = {
  diagnosis: anyOf(
    [
      "sensitivity",
      "specificity",
      String.raw`accura\w*`,
      "predictive value",
      "likelihood ratio",
      "area under",
      "diagnostic (?:accuracy|yield|value|performance|tools?|tests?|criteria)",
      "diagnosed (?:by|using|on)",
      String.raw`detect\w*`,
      "magnetic resonance",
      "computed tomography",
      "imaging",
      String.raw`scan\w*`,
      String.raw`radiograph\w*`,
      "ultrasound",
      String.raw`ultrasonograph\w*`,
      String.raw`scintigraph\w*`,
      "biops(?:y|ies)",
      "cultures?",
      "work-?up",
      "markers?",
      "C-reactive",
    ],
    "iu",
  ),
  treatment: anyOf(
    [
      String.raw`efficac\w*`,
      String.raw`effective\w*`,
      String.raw`improv\w*`,
      "cured?",
      "cure rate",
      "remission",
      "response",
      "outcomes?",
      String.raw`success\w*`,
      "recurrence",
      "relapse",
      "complications?",
      "adverse",
      String.raw`reduc\w*`,
      "mortality",
      "survival",
      "healing",
      "resolution",
      "treated",
      String.raw`therap\w*`,
    ],
    "iu",
  ),
  prognosis: anyOf(
    [
      String.raw`surviv\w*`,
      "mortality",
      "died",
      "death",
      String.raw`prognos\w*`,
      "risk",
      "hazard",
      String.raw`predict\w*`,
      "recurrence",
      "relapse",
      "outcomes?",
      "follow-up",
    ],
    "iu",
  ),
};

/** The topic's question type, or null when its words name none. */
export function questionType(query: string): QuestionType | null {
  let best: QuestionType | null = null;
  let at = Infinity;
  for (const [type, cue] of QUESTION_CUES) {
    const m = cue.exec(query);
    if (m && m.index < at) {
      best = type;
      at = m.index;
    }
  }
  return best;
}

/** Acronyms of diagnostic tests, matched with their case so that "ct" or "pet" in other words do not count. */
const DIAGNOSTIC_ACRONYM = /\b(?:MRI|CT|PET|SPECT|AUC|ROC|CRP|ESR|PCR)\b/u;

/** Whether a sentence states what answers a question of the type (diagnostic performance, outcomes, survival). */
export function answersQuestion(type: QuestionType, sentence: string): boolean {
  return ANSWER_CUES[type].test(sentence) || (type === "diagnosis" && DIAGNOSTIC_ACRONYM.test(sentence));
}
