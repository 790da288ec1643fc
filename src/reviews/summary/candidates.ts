/**
 * Sentence candidates of the extractive summarizer and their features: the abstract's sections, the role of each
 * sentence (finding, conclusion, background, aim, method), the study design of its article, and what makes a
 * sentence unusable on its own. Scores are added later (scoring.ts).
 */
import {
  classifySection,
  normalizeWhitespace,
  splitInlineSections,
  splitSentences,
  type LabelledText,
  type SectionKind,
} from "../sentences.ts";
import { findAbbreviations } from "../../../search/abbreviations.ts";
import { designTier, isRetracted, studyDesign, type StudyDesign } from "../../articles/evidence.ts";
import { rawTokens, termsOfToken, textTerms } from "./terms.ts";
import { classifySentenceRoles, type SentenceRole } from "../roles/classifier.ts";
import { isBoilerplate, isCallForResearch, isPublisherNotice, isScopeStatement } from "../roles/cues.ts";
import type { SummaryArticle } from "./types.ts";
import { scopedArticleTerms, type ScopedTerms } from "./fidelity.ts";

/** Placeholder until an article's sentences are read. */
const NO_SCOPED_TERMS: ScopedTerms = { affirmed: new Set(), excluded: new Set() };

// Score weights. Relevance (scoring.ts, W_RELEVANCE 0.55) dominates so that what is selected is on topic; the
// section weight decides between equally relevant sentences (a finding beats a statement of the study's aim); the
// article's rank (0.3: measured against 0.15 by bench-evidence.ts, MeSH precision 0.576 against 0.564) and evidence
// break near-ties.
const W_SECTION = 0.25;
const W_RANK = 0.3;
const W_EVIDENCE = 0.05;

// Extra cost of a sentence that states an aim or a method.
const DESIGN_PENALTY = 0.15;

export interface Candidate {
  /** Index of the article in the input (its rank, 0 = best). */
  article: number;
  /** Order of the sentence within its abstract, for deterministic ties. */
  index: number;
  text: string;
  kind: SectionKind;
  /** Term → frequency, acronyms of the article expanded to their long forms. */
  tf: Map<string, number>;
  length: number;
  /** Weighted sum of relevance, section, rank and evidence less penalties; only compared between candidates. */
  score: number;
  /** Query relevance, 0..1 (0 = shares no term with the query). */
  relevance: number;
  /** Share of the query's idf weight the article covers, title first (0.6 title + 0.4 abstract), 0..1. */
  articleRelevance: number;
  /** Unit-length tf-idf vector as term ids (ascending) and weights, for MMR similarity. */
  vectorIds: Int32Array;
  vectorWeights: Float64Array;
  /** Terms of the article's title and of its whole abstract (shared by its sentences). */
  articleTerms: ArticleTerms;
  /** A result or conclusion statement (what a "Key findings" bullet may be). */
  finding: boolean;
  /** The article's study design (src/articles/evidence.ts); null when its record names none. */
  design: StudyDesign | null;
  /** Evidence tier of the design, 1 (systematic reviews, meta-analyses) .. 6 (opinion). */
  tier: number;
  /** Whether the sentence answers the topic's question type (fidelity.ts); set when scored. */
  answers: boolean;
}

export interface ArticleTerms {
  title: Set<string>;
  abstract: Set<string>;
  /** Terms split by negation scope, for topic fidelity (fidelity.ts). */
  scoped: ScopedTerms;
}

const SECTION_WEIGHT: Record<SectionKind, number> = {
  CONCLUSIONS: 1.0,
  RESULTS: 0.8,
  UNLABELLED: 0.55,
  BACKGROUND: 0.3,
  OBJECTIVE: 0.1,
  METHODS: 0,
};

/**
 * Weight of a role the classifier gave a sentence of an unlabelled abstract: a little below a label's, since a
 * prediction is wrong about one time in five (docs/decisions/0027-sentence-role-classifier.md).
 */
const CLASSIFIED_WEIGHT: Record<SentenceRole, number> = {
  CONCLUSIONS: 0.9,
  RESULTS: 0.75,
  BACKGROUND: 0.3,
  OBJECTIVE: 0.1,
  METHODS: 0,
};
/** Weights of the roles of a sentence without a label: predicted, else (no prediction) UNLABELLED's. */
const UNLABELLED_WEIGHT: Record<SectionKind, number> = { ...CLASSIFIED_WEIGHT, UNLABELLED: SECTION_WEIGHT.UNLABELLED };

// Cue phrases that override a role where the words leave no doubt: a stated aim, or a recruitment or procedure
// sentence ("Fifty-nine patients were identified.", "All patients received radiotherapy …") filed under RESULTS or
// predicted as a result. A sentence that also reports an effect (STRONG_RESULT_CUE) keeps its role.
const METHOD_CUE = new RegExp(
  [
    String.raw`\b(?:(?:was|were) (?:also |then |further |prospectively |retrospectively )?(?:interviewed|recruited|` +
      String.raw`enrolled|included|selected|randomi[sz]ed|identified|collected|analy[sz]ed|matched|obtained|` +
      String.raw`assigned|investigated|examined|studied|assessed|evaluated|measured|reviewed|estimated|calculated|` +
      String.raw`divided|followed|monitored|allocated)\b|underwent|was (?:conducted|performed|carried out|` +
      String.raw`administered|used)|we (?:have )?(?:conducted|performed|interviewed|recruited|enrolled|` +
      String.raw`analy[sz]ed|used|studied|reviewed|retrospectively|prospectively)|using (?:a|an) |questionnaire|` +
      String.raw`logistic regression model)`,
    // "All patients received radiotherapy …", "Each participant was randomised …"
    String.raw`^(?:all|each|every|the) (?:\p{L}+ )?` +
      String.raw`(?:patients?|participants?|subjects?|child(?:ren)?|wom[ae]n|m[ae]n|animals?|mice|rats?) ` +
      String.raw`(?:(?:also |then )?received|(?:were|was) (?:given|treated|randomi[sz]ed|assigned)|fit|met|` +
      String.raw`fulfill?ed)\b`,
    // "We report two cases of ilio-psoas abscess in … infants successfully treated by …" (PMID 11075599): a case's
    // presentation and management is what was done, not a finding (issue 21: case reports are never findings).
    String.raw`^(?:here,? )?we (?:report|present|describe)(?: here(?:in)?)? ` +
      String.raw`(?:an?|one|two|three|four|five|six|seven|eight|nine|ten|\d+) (?:[\p{L}\p{N}-]+ ){0,4}?` +
      String.raw`(?:cases?|patients?|child(?:ren)?|infants?|neonates?|m[ae]n|wom[ae]n|boys?|girls?)\b`,
  ].join("|"),
  "iu",
);
// "We therefore hypothesized that …" (PMID 27236187) states an aim as much as "We hypothesized that …" does.
const OBJECTIVE_CUE = new RegExp(
  String.raw`^(?:(?:here|therefore|thus|hence|in (?:this|the present) study),? )?` +
    String.raw`(?:to (?:evaluate|investigate|assess|determine|examine|explore|compare|describe|identify|estimate)|` +
    String.raw`the (?:aim|purpose|objective|goal)s? of|` +
    String.raw`this study (?:aimed|was designed|sought)|` +
    String.raw`we (?:therefore |thus |also |then |first |further |next )?(?:aimed|sought|hypothesi[sz]ed))`,
  "iu",
);
const STRONG_RESULT_CUE = new RegExp(
  String.raw`\b(?:[Ss]ignificantly|[Oo]dds ratios?|[Rr]elative risks?|[Hh]azard ratios?|\b(?:OR|RR|HR)\b\s*[=:(]|` +
    String.raw`[pP]\s*[<=≤]|(?:was|were) (?:not )?(?:significantly )?associated|` +
    String.raw`[Ii]ncreased|[Dd]ecreased|[Rr]educed|[Ee]levated)`,
  "u",
);

/**
 * A non-capturing group matching any of `groups`: each a "|"-separated list of regular-expression fragments (not
 * escaped), kept one group per line so that long word lists stay readable and commented.
 */
function anyOf(groups: readonly string[]): string {
  return `(?:${groups.join("|")})`;
}

// Openers that only make sense with the preceding sentence. "These results"
// and "This study" still name their referent, so they cost less.
const DANGLING_STRONG = new RegExp(
  `^${anyOf([
    // pronouns and determiners whose referent came before
    "it|they|its|their|such|both",
    "this (?:was|is|may|might|could|suggests|indicates|finding)|these (?:were|are|may|might)",
    // connectives that continue an argument
    "however|moreover|furthermore|in addition|additionally|also|thus|therefore|hence|consequently|similarly",
    "in contrast|conversely|nevertheless|nonetheless|accordingly|the former|the latter|finally|here|herein|then",
  ])}\\b`,
  "iu",
);
const DANGLING_WEAK = /^(?:that)\b/iu;

/** What "The patients …", "These findings …" may refer to: people, study objects and findings (word fragments). */
const REFERENT_NOUNS = anyOf([
  // people and animals
  "patients?|cases?|child(?:ren)?|boys?|girls?|m[ae]n|wom[ae]n|infants?|neonates?|subjects?|participants?",
  "animals?|mice|rats|authors?",
  // findings
  "findings?|results?|data|observations?|differences?|changes?|effects?|associations?",
  // the study and what it did
  "stud(?:y|ies)|reports?|trials?|methods?|approach(?:es)?|techniques?|models?|compounds?|drugs?|agents?",
  "treatments?|procedures?|strategy|strategies|interventions?|cohorts?|series",
  // what was studied and measured
  "lesions?|tumou?rs?|conditions?|diseases?|disorders?|infections?|mutations?|genes?|proteins?|values?|levels?",
  "factors?|outcomes?|analys[ie]s|samples?|groups?",
]);
/** What "In this study …" may refer to. */
const REFERENT_WORKS = anyOf([
  "study|studies|report|paper|work|case|series|trial|review|article|analysis|cohort|investigation|patient",
]);
/**
 * Openers whose referent is in a sentence the reader will not see ("The patient …", "These findings …", "It …",
 * "In this study …"): such a sentence is not used (issue 13). "In this cohort of 1,200 adults, …" still names its
 * subject and stands alone, hence the exception for a following "of", "in", "among", "including" or "with".
 */
const CONTEXT_DEPENDENT = new RegExp(
  `^${anyOf([
    String.raw`(?:the|this|these|those|our|both|such) (?:\p{L}+ ){0,2}?${REFERENT_NOUNS}\b`,
    String.raw`(?:it|they|he|she|his|her|its|their|this|these|those|such|here|herein)\b`,
    String.raw`(?:in|from) (?:this|the present|our|the current|the|these) (?:\p{L}+ ){0,3}?${REFERENT_WORKS}` +
      String.raw`\b(?!,?\s+(?:of|in|among|including|involving|with)\b)`,
  ])}`,
  "iu",
);
const FUTURE_WORK =
  /\b(?:further (?:studies|research|investigations?|work)|more (?:research|studies)|(?:are|is) (?:needed|warranted|required) to|remains? to be (?:elucidated|determined|clarified))/iu;

/**
 * How an abstract says it reports a single case ("We report a case of …", "We describe a 45-year-old man …", "A case of
 * … is presented"), for records whose publication types name no design.
 */
const CASE_REPORT_TEXT = new RegExp(
  [
    String.raw`\bwe (?:report|present|describe)(?: herein| here)? (?:a|an|the|one) (?:[\p{L}\p{N}-]+ ){0,5}?`,
    String.raw`(?:case(?!s| series)|patient|man|woman|boy|girl|infant|child)\b`,
    String.raw`|\b(?:a|this) case (?:of [^.]{1,120} )?(?:is|was) (?:reported|presented|described)|\bcase report\b`,
  ].join(""),
  "iu",
);

// A bracketed number list inside an abstract ("[12]", "[3, 4]") would be read
// as one of our citations by the summary renderer; such sentences are skipped
// rather than altered, so the text stays verbatim and no citation is invented.
const CITATION_LOOKALIKE = /\[\s*\d+(?:\s*[,–-]\s*\d+)*\s*\]/u;

/** Evidence level 0..1 of a tier (1 → 1.0, 6 → 0.25), for the small evidence weight of a sentence's score. */
function evidenceLevel(tier: number): number {
  return 1 - ((tier - 1) / 5) * 0.75;
}

/**
 * Punctuation a publisher left between a section's label and its text: PubMed stores "CONCLUSION" as the label and
 * ": Weak evidence (Level IV) exists …" as the text (PMID 17728675), which quoted after another sentence read
 * "… domain scores [2]. : Weak evidence …" (issue 21).
 */
const LABEL_PUNCTUATION = /^(?:[:;,.]|[-–—](?=\s))+\s*/u;

/** A section's text, whitespace normalised, without the punctuation that separated it from its label. */
export function sectionText(text: string): string {
  return normalizeWhitespace(text).replace(LABEL_PUNCTUATION, "");
}

/**
 * An enumeration marker opening a sentence ("6) Abscess cultures and CT are …", "(ii) Mortality was …", "2. The …"):
 * the abstract numbered its statements, and quoted alone the number reads as stray punctuation (PMID 1507908).
 */
const LIST_MARKER_PREFIX =
  /^(?:\(?\d{1,2}\)|\d{1,2}\.(?!\d)|\((?:[ivx]{1,4}|[a-h])\)|[ivx]{1,4}\))\s+(?=[\p{L}\p{N}])/u;

/** A sentence without the enumeration marker that opens it, if any (the rest is still a verbatim span). */
export function withoutListMarker(sentence: string): string {
  return sentence.replace(LIST_MARKER_PREFIX, "");
}

/** Sections of an article's abstract, each with its kind; [] when it has no text. */
export function articleSections(article: SummaryArticle): LabelledText[] {
  // Rows read through a driver that leaves JSON columns as text would give a string here; treat as absent.
  const raw = Array.isArray(article.abstract_sections) ? article.abstract_sections : [];
  const sections = raw
    .filter((s) => typeof s?.text === "string")
    .map((s) => ({ kind: classifySection(s.label ?? "", s.nlm_category ?? null), text: sectionText(s.text) }))
    .filter((s) => s.text !== "");
  if (sections.some((s) => s.kind !== "UNLABELLED")) return sections;
  // Unlabelled sections, or only a plain abstract: headings may be inline.
  const plain = sections.length > 0 ? sections.map((s) => s.text).join(" ") : (article.abstract ?? "");
  return splitInlineSections(plain);
}

/**
 * Role of a sentence for weighting, and whether it may be quoted as a finding.
 * @param kind The kind of its section: a structured-abstract label, or UNLABELLED.
 * @param predicted For a sentence of an unlabelled section, the role the classifier gave it (classifySentenceRoles,
 *   run over the whole abstract); null otherwise.
 * @returns The role (UNLABELLED only when nothing was predicted), its weight, and `finding`: true only for a result
 *   or conclusion that is neither a method in disguise, a call for more research nor a publisher's notice.
 */
export function sentenceRole(
  kind: SectionKind,
  text: string,
  predicted: SentenceRole | null,
): { kind: SectionKind; weight: number; finding: boolean } {
  const weights = kind === "UNLABELLED" ? UNLABELLED_WEIGHT : SECTION_WEIGHT;
  let role: SectionKind = kind === "UNLABELLED" && predicted !== null ? predicted : kind;
  // Aims are often filed under BACKGROUND ("The objective of this study was …") or predicted as something else;
  // RESULTS sections often open by describing the cohort or procedure.
  if ((role === "BACKGROUND" || kind === "UNLABELLED") && OBJECTIVE_CUE.test(text)) role = "OBJECTIVE";
  if (kind === "UNLABELLED" && isScopeStatement(text)) role = "OBJECTIVE"; // "In this review, we describe …"
  if (role === "RESULTS" && METHOD_CUE.test(text) && !STRONG_RESULT_CUE.test(text)) role = "METHODS";
  const finding =
    (role === "RESULTS" || role === "CONCLUSIONS") &&
    !isCallForResearch(text) &&
    !isPublisherNotice(text) &&
    !isBoilerplate(text);
  return { kind: role, weight: weights[role], finding };
}

/**
 * Penalty (0 = none) for what makes a sentence a poor stand-alone statement,
 * or null when it must not be used at all.
 */
function sentencePenalty(text: string, words: string[]): number | null {
  const n = words.length;
  if (n < 6 || n > 90) return null;
  // A sentence that opens with punctuation lost its first part (a label, a split gone wrong): it would read as a
  // stray ": …" after the previous quote.
  if (/^[:;,.)\]]/u.test(text)) return null;
  if (!/[.!?)\]"”%]$/u.test(text)) return null; // a heading or a cut-off fragment
  // Text the summary renderer would misread: "[12]" as a citation, "**" as bold.
  if (CITATION_LOOKALIKE.test(text) || text.includes("**")) return null;
  const numeric = words.filter((w) => /\p{N}/u.test(w)).length / n;
  if (numeric > 0.5) return null;
  let p = 0;
  if (n < 10) p += 0.15;
  if (n > 70) p += 0.25;
  else if (n > 50) p += 0.1;
  if (numeric > 0.3) p += 0.15;
  if ((text.match(/\b(?:95% CI|CI|OR|HR|RR|[pP]\s*[<=>≤≥])/gu) ?? []).length >= 4) p += 0.1;
  if (CONTEXT_DEPENDENT.test(text)) return null;
  if (DANGLING_STRONG.test(text)) p += 0.15;
  else if (DANGLING_WEAK.test(text)) p += 0.06;
  if (text.endsWith("?")) p += 0.1;
  // "To explore the difference between …" as a whole sentence states an aim
  // without a main clause.
  if (/^To \p{Ll}+ /u.test(text)) p += 0.2;
  if (FUTURE_WORK.test(text)) p += 0.1;
  if (/^\p{Ll}/u.test(text) && !/^(?:[a-z]{1,2}\p{Lu}|p\d|mi[rR])/u.test(text)) p += 0.1; // likely a split gone wrong
  return p;
}

/** An article read for its candidates: its sentences with their terms, and what its sentences share. */
interface ReadArticle {
  design: StudyDesign | null;
  tier: number;
  articleTerms: ArticleTerms;
  sentences: { text: string; kind: SectionKind }[];
  /** The terms of each sentence, acronyms of the article expanded. */
  sentenceTerms: string[][];
  /** Roles predicted for every sentence when some of the abstract is unlabelled; null otherwise. */
  predicted: ReturnType<typeof classifySentenceRoles> | null;
}

/**
 * Reads an article's sections into sentences and terms, and its design. The abbreviations it defines are added to
 * `globalAbbreviations` unless an earlier article defined them.
 */
function readArticle(
  article: SummaryArticle,
  sections: readonly LabelledText[],
  globalAbbreviations: Map<string, string>,
): ReadArticle {
  const fullText = sections.map((s) => s.text).join(" ");
  // A record that names no design but whose abstract presents one case is a case report: named, never quoted.
  const recordDesign = studyDesign(article.publication_types ?? [], article.mesh_terms ?? []);
  const design = recordDesign ?? (CASE_REPORT_TEXT.test(fullText) ? "case-report" : null);
  const abbreviations = findAbbreviations(`${article.title ?? ""} ${fullText}`);
  const expansions = new Map<string, string[]>();
  for (const [sf, lf] of abbreviations) {
    expansions.set(sf, textTerms(lf));
    if (!globalAbbreviations.has(sf)) globalAbbreviations.set(sf, lf);
  }
  const title = article.title ?? "";
  const articleTerms: ArticleTerms = {
    title: new Set(textTerms(title)),
    abstract: new Set(),
    scoped: NO_SCOPED_TERMS,
  };
  for (const [sf, terms] of expansions) if (title.includes(sf)) for (const t of terms) articleTerms.title.add(t);
  const sentences: { text: string; kind: SectionKind }[] = [];
  for (const s of sections) {
    for (const text of splitSentences(s.text)) sentences.push({ text: withoutListMarker(text), kind: s.kind });
  }
  articleTerms.scoped = scopedArticleTerms(
    title,
    article.mesh_terms ?? [],
    sentences.map((s) => s.text),
  );
  // Each sentence is tokenised once; the article's abstract terms are the
  // union over all of its sentences, usable or not.
  const sentenceTerms = sentences.map(({ text }) => {
    const terms: string[] = [];
    for (const raw of rawTokens(text)) {
      termsOfToken(raw, terms);
      const expanded = expansions.get(raw);
      if (expanded) terms.push(...expanded);
    }
    for (const t of terms) articleTerms.abstract.add(t);
    return terms;
  });
  // An abstract with unlabelled text has its sentences' roles predicted all at once (position and neighbours count).
  const predicted = sentences.some((x) => x.kind === "UNLABELLED")
    ? classifySentenceRoles(sentences.map((x) => x.text))
    : null;
  return { design, tier: designTier(design), articleTerms, sentences, sentenceTerms, predicted };
}

/** The usable sentences of a read article as candidates, with their prior score; `articleIndex` is its rank. */
function sentenceCandidates(read: ReadArticle, articleIndex: number): Candidate[] {
  const { design, tier, articleTerms, sentenceTerms, predicted } = read;
  const candidates: Candidate[] = [];
  read.sentences.forEach(({ text, kind }, index) => {
    const words = text.split(" ");
    const penalty = sentencePenalty(text, words);
    if (penalty === null) return;
    const terms = sentenceTerms[index] ?? [];
    const tf = new Map<string, number>();
    for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + 1);
    const role = sentenceRole(kind, text, kind === "UNLABELLED" ? (predicted?.[index] ?? null) : null);
    // Aims and methods say what was done, not what was found: beyond their
    // low section weight they give way to any finding of similar relevance.
    const designPenalty = role.kind === "METHODS" || role.kind === "OBJECTIVE" ? DESIGN_PENALTY : 0;
    const prior =
      W_SECTION * role.weight -
      designPenalty +
      W_RANK * (1 / (1 + articleIndex / 8)) +
      W_EVIDENCE * evidenceLevel(tier) -
      penalty;
    candidates.push({
      article: articleIndex,
      index,
      text,
      kind: role.kind,
      tf,
      length: terms.length,
      score: prior, // relevance is added once document frequencies are known
      relevance: 0,
      articleRelevance: 0,
      vectorIds: new Int32Array(0),
      vectorWeights: new Float64Array(0),
      articleTerms,
      finding: role.finding,
      design,
      tier,
      answers: false,
    });
  });
  return candidates;
}

/** Builds the candidates of all articles (with features but no scores yet). */
export function buildCandidates(articles: readonly SummaryArticle[]): {
  candidates: Candidate[];
  abbreviations: Map<string, string>;
} {
  const candidates: Candidate[] = [];
  const globalAbbreviations = new Map<string, string>();
  const seen = new Set<number>();
  articles.forEach((article, articleIndex) => {
    if (seen.has(article.pmid)) return; // a PMID listed twice is one source
    seen.add(article.pmid);
    // A retracted article is never cited as support, whatever it says.
    if (isRetracted(article.publication_types ?? [], article.retraction_notice_pmid)) return;
    const sections = articleSections(article);
    if (sections.length === 0) return;
    const read = readArticle(article, sections, globalAbbreviations);
    candidates.push(...sentenceCandidates(read, articleIndex));
  });
  return { candidates, abbreviations: globalAbbreviations };
}

/** Query terms with acronyms expanded using definitions found in the articles. */
export function queryTerms(query: string, abbreviations: Map<string, string>): string[] {
  const terms: string[] = [];
  for (const raw of rawTokens(query)) {
    termsOfToken(raw, terms);
    // Case-sensitive on purpose: "FISH" may be defined as fluorescence in situ
    // hybridisation, but a query about salted "fish" must not grow those words.
    // A lowercase "npc" still matches "NPC" in the text as a plain term.
    const lf = abbreviations.get(raw);
    if (lf !== undefined) terms.push(...textTerms(lf));
  }
  return [...new Set(terms)];
}
