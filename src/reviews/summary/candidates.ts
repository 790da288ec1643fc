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
import type { SummaryArticle } from "./types.ts";

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
}

export interface ArticleTerms {
  title: Set<string>;
  abstract: Set<string>;
}

const SECTION_WEIGHT: Record<SectionKind, number> = {
  CONCLUSIONS: 1.0,
  RESULTS: 0.8,
  UNLABELLED: 0.55,
  BACKGROUND: 0.3,
  OBJECTIVE: 0.1,
  METHODS: 0,
};

// Cue phrases used to guess the role of a sentence in an unstructured
// abstract, where there is no label to go by.
const CONCLUSION_CUE = /\b(?:suggest|conclu|indicat|implicat|suppor|demonstrat|these (?:results|findings|data)|our (?:results|findings|data)|may (?:be|play|contribute|explain)|should be|it is estimated|can be attributed|appears? to)/iu;
const RESULT_CUE = /\b(?:significant|associated with|association|increase|decrease|reduc|higher|lower|elevated|odds ratios?|relative risks?|hazard ratios?|compared (?:with|to)|was found|were found|showed|observed|correlat)/iu;
const METHOD_CUE = /\b(?:(?:was|were) (?:also |then |further |prospectively |retrospectively )?(?:interviewed|recruited|enrolled|included|selected|randomi[sz]ed|identified|collected|analy[sz]ed|matched|obtained|assigned|investigated|examined|studied|assessed|evaluated|measured|reviewed|estimated|calculated|divided|followed|monitored|allocated)\b|underwent|was (?:conducted|performed|carried out|administered|used)|we (?:conducted|performed|interviewed|recruited|enrolled|analy[sz]ed|used|studied|reviewed|retrospectively)|using (?:a|an) |questionnaire|logistic regression model)/iu;
const OBJECTIVE_CUE = /^(?:to (?:evaluate|investigate|assess|determine|examine|explore|compare|describe|identify|estimate)|the (?:aim|purpose|objective|goal)s? of|this study (?:aimed|was designed|sought)|we (?:aimed|sought|hypothesi[sz]ed))/iu;
// A purpose clause anywhere ("… was conducted to determine …") marks a design
// statement unless the sentence also reports an effect.
const PURPOSE_CLAUSE = /\b(?:in order )?to (?:evaluate|investigate|assess|determine|examine|explore|identify|estimate|clarify|elucidate)\b/iu;
const STRONG_RESULT_CUE = /\b(?:[Ss]ignificantly|[Oo]dds ratios?|[Rr]elative risks?|[Hh]azard ratios?|\b(?:OR|RR|HR)\b\s*[=:(]|[pP]\s*[<=≤]|(?:was|were) (?:not )?(?:significantly )?associated|[Ii]ncreased|[Dd]ecreased|[Rr]educed|[Ee]levated)/u;

// Openers that only make sense with the preceding sentence. "These results"
// and "This study" still name their referent, so they cost less.
const DANGLING_STRONG = /^(?:it|they|its|their|such|both|this (?:was|is|may|might|could|suggests|indicates|finding)|these (?:were|are|may|might)|however|moreover|furthermore|in addition|additionally|also|thus|therefore|hence|consequently|similarly|in contrast|conversely|nevertheless|nonetheless|accordingly|the former|the latter|finally|here|herein|then)\b/iu;
const DANGLING_WEAK = /^(?:that)\b/iu;
/**
 * Openers whose referent is in a sentence the reader will not see ("The patient …", "These findings …", "It …",
 * "In this study …"): such a sentence is not used (issue 13). "In this cohort of 1,200 adults, …" still names its
 * subject and stands alone, hence the exception for a following "of", "in", "among", "including" or "with".
 */
const CONTEXT_DEPENDENT =
  /^(?:(?:the|this|these|those|our|both|such) (?:\p{L}+ ){0,2}?(?:patients?|cases?|child(?:ren)?|boys?|girls?|m[ae]n|wom[ae]n|infants?|neonates?|subjects?|participants?|animals?|mice|rats|authors?|findings?|results?|data|observations?|differences?|changes?|effects?|associations?|stud(?:y|ies)|reports?|trials?|methods?|approach(?:es)?|techniques?|models?|compounds?|drugs?|agents?|treatments?|procedures?|strategy|strategies|interventions?|cohorts?|series|lesions?|tumou?rs?|conditions?|diseases?|disorders?|infections?|mutations?|genes?|proteins?|values?|levels?|factors?|outcomes?|analys[ie]s|samples?|groups?)\b|(?:it|they|he|she|his|her|its|their|this|these|those|such|here|herein)\b|(?:in|from) (?:this|the present|our|the current|the|these) (?:\p{L}+ ){0,3}?(?:study|studies|report|paper|work|case|series|trial|review|article|analysis|cohort|investigation|patient)\b(?!,?\s+(?:of|in|among|including|involving|with)\b))/iu;
const FUTURE_WORK = /\b(?:further (?:studies|research|investigations?|work)|more (?:research|studies)|(?:are|is) (?:needed|warranted|required) to|remains? to be (?:elucidated|determined|clarified))/iu;

// A bracketed number list inside an abstract ("[12]", "[3, 4]") would be read
// as one of our citations by the summary renderer; such sentences are skipped
// rather than altered, so the text stays verbatim and no citation is invented.
const CITATION_LOOKALIKE = /\[\s*\d+(?:\s*[,–-]\s*\d+)*\s*\]/u;

/** Evidence level 0..1 of a tier (1 → 1.0, 6 → 0.25), for the small evidence weight of a sentence's score. */
function evidenceLevel(tier: number): number {
  return 1 - ((tier - 1) / 5) * 0.75;
}

/** Sections of an article's abstract, each with its kind; [] when it has no text. */
export function articleSections(article: SummaryArticle): LabelledText[] {
  // Rows read through a driver that leaves JSON columns as text would give a string here; treat as absent.
  const raw = Array.isArray(article.abstract_sections) ? article.abstract_sections : [];
  const sections = raw
    .filter((s) => typeof s?.text === "string")
    .map((s) => ({ kind: classifySection(s.label ?? "", s.nlm_category ?? null), text: normalizeWhitespace(s.text) }))
    .filter((s) => s.text !== "");
  if (sections.some((s) => s.kind !== "UNLABELLED")) return sections;
  // Unlabelled sections, or only a plain abstract: headings may be inline.
  const plain = sections.length > 0 ? sections.map((s) => s.text).join(" ") : (article.abstract ?? "");
  return splitInlineSections(plain);
}

/**
 * Role of a sentence for weighting: its section's kind, or for an unlabelled
 * abstract a guess from cue phrases and position (the last sentences of an
 * abstract usually carry the conclusion, the first ones the background).
 */
function sentenceRole(kind: SectionKind, text: string, position: number, count: number): { kind: SectionKind; weight: number } {
  // Aims are often filed under BACKGROUND ("The objective of this study was …"),
  // and RESULTS sections often open by describing the cohort or procedure.
  if (kind === "BACKGROUND" && OBJECTIVE_CUE.test(text)) return { kind: "OBJECTIVE", weight: SECTION_WEIGHT.OBJECTIVE };
  if (kind === "RESULTS" && METHOD_CUE.test(text) && !STRONG_RESULT_CUE.test(text)) return { kind: "METHODS", weight: SECTION_WEIGHT.METHODS };
  if (kind !== "UNLABELLED") return { kind, weight: SECTION_WEIGHT[kind] };
  const isLast = position === count - 1;
  const fromEnd = count - 1 - position;
  if (OBJECTIVE_CUE.test(text)) return { kind: "OBJECTIVE", weight: SECTION_WEIGHT.OBJECTIVE };
  const reportsEffect = STRONG_RESULT_CUE.test(text);
  if (METHOD_CUE.test(text) && !reportsEffect) return { kind: "METHODS", weight: SECTION_WEIGHT.METHODS };
  if (PURPOSE_CLAUSE.test(text) && !reportsEffect) return { kind: "OBJECTIVE", weight: SECTION_WEIGHT.OBJECTIVE };
  if (count > 2 && (isLast || (fromEnd === 1 && CONCLUSION_CUE.test(text)))) return { kind: "CONCLUSIONS", weight: 0.9 };
  if (CONCLUSION_CUE.test(text)) return { kind: "CONCLUSIONS", weight: 0.85 };
  if (RESULT_CUE.test(text)) return { kind: "RESULTS", weight: 0.75 };
  if (position === 0 && count > 2) return { kind: "BACKGROUND", weight: 0.4 };
  return { kind: "UNLABELLED", weight: SECTION_WEIGHT.UNLABELLED };
}

/**
 * Penalty (0 = none) for what makes a sentence a poor stand-alone statement,
 * or null when it must not be used at all.
 */
function sentencePenalty(text: string, words: string[]): number | null {
  const n = words.length;
  if (n < 6 || n > 90) return null;
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

/** Builds the candidates of all articles (with features but no scores yet). */
export function buildCandidates(articles: readonly SummaryArticle[]): { candidates: Candidate[]; abbreviations: Map<string, string> } {
  const candidates: Candidate[] = [];
  const globalAbbreviations = new Map<string, string>();
  const seen = new Set<number>();
  articles.forEach((article, articleIndex) => {
    if (seen.has(article.pmid)) return; // a PMID listed twice is one source
    seen.add(article.pmid);
    // A retracted article is never cited as support, whatever it says.
    if (isRetracted(article.publication_types ?? [], article.retraction_notice_pmid)) return;
    const design = studyDesign(article.publication_types ?? [], article.mesh_terms ?? []);
    const tier = designTier(design);
    const sections = articleSections(article);
    if (sections.length === 0) return;
    const fullText = sections.map((s) => s.text).join(" ");
    const abbreviations = findAbbreviations(`${article.title ?? ""} ${fullText}`);
    const expansions = new Map<string, string[]>();
    for (const [sf, lf] of abbreviations) {
      expansions.set(sf, textTerms(lf));
      if (!globalAbbreviations.has(sf)) globalAbbreviations.set(sf, lf);
    }
    const title = article.title ?? "";
    const articleTerms: ArticleTerms = { title: new Set(textTerms(title)), abstract: new Set() };
    for (const [sf, terms] of expansions) if (title.includes(sf)) for (const t of terms) articleTerms.title.add(t);
    const sentences: { text: string; kind: SectionKind }[] = [];
    for (const s of sections) for (const text of splitSentences(s.text)) sentences.push({ text, kind: s.kind });
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
    sentences.forEach(({ text, kind }, index) => {
      const words = text.split(" ");
      const penalty = sentencePenalty(text, words);
      if (penalty === null) return;
      const terms = sentenceTerms[index] ?? [];
      const tf = new Map<string, number>();
      for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + 1);
      const role = sentenceRole(kind, text, index, sentences.length);
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
        finding: role.kind === "RESULTS" || role.kind === "CONCLUSIONS",
        design,
        tier,
      });
    });
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

