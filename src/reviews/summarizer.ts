/**
 * Extractive, query-focused summary of a review's ranked articles.
 *
 * Pipeline (all pure, deterministic, no I/O):
 *  1. Split each abstract into labelled sentences (sentences.ts).
 *  2. Score each sentence: BM25 relevance to the query (Robertson & Zaragoza
 *     2009, k1 = 1.2, b = 0.75, every sentence a document) plus query-term
 *     coverage and how well the whole article (title first) covers the query;
 *     the weight of its abstract section (CONCLUSIONS and RESULTS over
 *     BACKGROUND and METHODS; cue phrases and position for unlabelled
 *     abstracts); the article's rank; its evidence level from publication
 *     types; less penalties for sentences a reader cannot use on their own
 *     (too short or long, statistics only, leaning on the previous sentence,
 *     stating an aim or a method). Terms are lightly stemmed, and an
 *     abbreviation an abstract defines ("nasopharyngeal carcinoma (NPC)",
 *     found after Schwartz & Hearst 2003) also counts as its long form.
 *  3. Select with maximal marginal relevance (Carbonell & Goldstein 1998,
 *     λ = 0.7) under a cap per article, so the summary covers several articles
 *     instead of repeating the best one.
 *  4. Compose an "Overview" paragraph, "Key findings" bullets and a
 *     "Conclusions" paragraph. Sentences are quoted verbatim (whitespace
 *     normalised) and each is followed by the citation numbers of the
 *     article(s) it came from; numbers follow first appearance.
 *
 * A citation is never invented: a sentence cites the article it was taken
 * from, plus any other article whose abstract contains a near-duplicate of it
 * (tf-idf cosine ≥ 0.8), since that article supports the same statement.
 */
import type { AbstractSection } from "../db/types.ts";
import {
  classifySection,
  normalizeWhitespace,
  splitInlineSections,
  splitSentences,
  type LabelledText,
  type SectionKind,
} from "./sentences.ts";
import { findAbbreviations } from "../../search/abbreviations.ts";

/** What the summarizer needs of an article (a subset of the `articles` row). */
export interface SummaryArticle {
  pmid: number;
  title: string | null;
  abstract: string | null;
  /** Structured-abstract sections; may be empty when `abstract` holds plain text. */
  abstract_sections: AbstractSection[];
  publication_year: number | null;
  /** PubMed publication types, e.g. "Randomized Controlled Trial", "Review". */
  publication_types: string[];
}

/** A summary and the PMIDs its citation numbers point to. */
export interface SummaryResult {
  /**
   * Text with `**bold**` markers, "- " bullet lines, paragraphs separated by a
   * blank line and citations such as "[1]" or "[1, 3]"; null when no article
   * had usable text.
   */
  summary: string | null;
  /** `citedPmids[n - 1]` is the PMID that citation number n refers to; no gaps, no duplicates. */
  citedPmids: number[];
  /** Which engine wrote it, when not the summarizer's own name (a fallback says so). */
  engine?: string;
}

/** A way to summarise a review; the extractive one below is the default. */
export interface Summarizer {
  readonly name: string;
  /**
   * @param query The user's review topic.
   * @param articles Ranked articles, best first.
   */
  summarize(query: string, articles: readonly SummaryArticle[]): Promise<SummaryResult>;
}

/** Tuning knobs; the defaults are what the product uses. */
export interface ExtractiveOptions {
  /** Most sentences in the summary (default 10). */
  maxSentences?: number;
  /** Most sentences taken from one article (default 2). */
  maxPerArticle?: number;
  /** MMR trade-off between relevance (1) and novelty (0); default 0.7 after Carbonell & Goldstein 1998. */
  lambda?: number;
  /** tf-idf cosine at or above which two sentences count as the same statement (default 0.8). */
  duplicateThreshold?: number;
}

const DEFAULTS: Required<ExtractiveOptions> = {
  maxSentences: 10,
  maxPerArticle: 2,
  lambda: 0.7,
  duplicateThreshold: 0.8,
};

// Score weights. Relevance dominates so that what is selected is on topic;
// the section weight decides between equally relevant sentences (a finding
// beats a statement of the study's aim); rank and evidence break near-ties.
const W_RELEVANCE = 0.55;
const W_SECTION = 0.25;
const W_RANK = 0.15;
const W_EVIDENCE = 0.05;

// A candidate whose score is below this fraction of the best one is not worth
// a reader's time even if the summary is still short.
const MIN_SCORE_FRACTION = 0.3;

// Extra cost of a sentence that states an aim or a method.
const DESIGN_PENALTY = 0.15;

// How many of the best-scoring sentences MMR re-ranks.
const MMR_POOL = 150;

// ---------------------------------------------------------------------------
// Terms: tokenising, stop words, light stemming
// ---------------------------------------------------------------------------

// Function words only: domain words such as "patients" or "study" stay, and
// their low idf keeps them from dominating.
const STOP_WORDS = new Set(
  ("a about above after again against all almost also although am among an and any are as at be because been before " +
    "being below between both but by can could did do does doing done down during each either else etc ever every few " +
    "for from further had has have having he her here hers herself him himself his how however i if in into is it its " +
    "itself just may me might more most much must my myself neither no nor not of off often on once only or other " +
    "otherwise our ours ourselves out over own per quite rather same shall she should since so some such than that the " +
    "their theirs them themselves then there thereby therefore these they this those though through thus to too under " +
    "until up upon us very via was we were what whatever when where whereas whether which while who whom whose why " +
    "will with within without would yet you your versus vs")
    .split(" "),
);

/** Suffix rules applied once, longest first, after plural removal: [suffix, replacement]. */
const SUFFIX_RULES: ReadonlyArray<readonly [string, string]> = [
  ["ational", "ate"],
  ["ization", "ize"],
  ["ation", "ate"],
  ["ment", ""],
  ["ness", ""],
  ["ance", "ant"],
  ["ence", "ent"],
  ["ing", ""],
  ["ity", ""],
  ["ary", ""],
  ["ly", ""],
  ["ed", ""],
  ["al", ""],
];

/**
 * A light, conflating stemmer for English content words: plural removal after
 * Harman's S-stemmer (Harman 1991, "How effective is suffixing?", JASIS 42:7),
 * then one Porter-style (Porter 1980) suffix rule, British -is- spellings
 * folded to -iz-, a final "e" dropped and a doubled final consonant undone
 * after -ed/-ing. It only has to map a query word and the words of an abstract
 * to the same key ("smoking"/"smoke", "dietary"/"diet", "associated"/
 * "association"), not produce linguistic roots.
 *
 * @param word A lowercase token.
 * @returns The stem; tokens of 3 characters or fewer are returned unchanged.
 */
export function lightStem(word: string): string {
  // Plain string tests rather than regular expressions: this runs once per
  // distinct word of every abstract.
  let w = word;
  if (w.length <= 3) return w;
  if (w.endsWith("ies")) {
    if (!w.endsWith("eies") && !w.endsWith("aies")) w = `${w.slice(0, -3)}y`;
  } else if (w.endsWith("es")) {
    if (!w.endsWith("aes") && !w.endsWith("ees") && !w.endsWith("oes")) w = w.slice(0, -1);
  } else if (w.endsWith("s") && !w.endsWith("us") && !w.endsWith("ss") && !w.endsWith("is")) {
    w = w.slice(0, -1);
  }
  for (const ending of BRITISH_IS) {
    if (w.length >= ending.length + 3 && w.endsWith(ending)) {
      w = `${w.slice(0, -ending.length)}iz${ending.slice(2)}`;
      break;
    }
  }
  for (const [suffix, replacement] of SUFFIX_RULES) {
    if (!w.endsWith(suffix)) continue;
    const stem = w.slice(0, -suffix.length);
    const minStem = suffix === "al" ? 5 : 3;
    if (stem.length < minStem || !hasVowel(stem)) continue;
    w = stem + replacement;
    if (suffix === "ing" || suffix === "ed") {
      const last = w.charCodeAt(w.length - 1);
      if (last === w.charCodeAt(w.length - 2) && isConsonant(last)) w = w.slice(0, -1);
    }
    break;
  }
  if (w.endsWith("e") && w.length > 4) w = w.slice(0, -1);
  return w;
}

/** British -is- endings folded to -iz- ("randomised" → "randomized"); the stem before them must keep 3+ letters. */
const BRITISH_IS = ["isation", "ising", "ised", "ise"];

function hasVowel(s: string): boolean {
  for (let i = 0; i < s.length; i++) if ("aeiouy".includes(s.charAt(i))) return true;
  return false;
}

/** True for a lowercase ASCII consonant other than "s" ("assessed" keeps its "ss"). */
function isConsonant(code: number): boolean {
  return code >= 97 && code <= 122 && !"aeiouys".includes(String.fromCharCode(code));
}

/**
 * Raw word tokens of a text, in order: runs of letters and digits, with
 * internal hyphens kept ("case-control", "IL-6", "TGF-β1"). Case is kept so
 * that acronyms can be recognised.
 */
function rawTokens(text: string): string[] {
  return text.match(/[\p{L}\p{N}]+(?:[-‐][\p{L}\p{N}]+)*/gu) ?? [];
}

/**
 * Index terms of one raw token: the stemmed token, and for a hyphenated token
 * also its joined form and its non-numeric parts, so "case-control" matches a
 * query "case control" and "IL-6" a query "IL6". Pure numbers and stop words
 * give no terms: they carry no topic. Memoised per raw token.
 */
function termsOfToken(raw: string, out: string[]): void {
  let terms = termCache.get(raw);
  if (terms === undefined) {
    terms = computeTermsOfToken(raw);
    // Bounded so a long-running server does not grow it without limit; the
    // vocabulary of a few reviews fits many times over.
    if (termCache.size >= TERM_CACHE_LIMIT) termCache.clear();
    termCache.set(raw, terms);
  }
  for (const t of terms) out.push(t);
}

const termCache = new Map<string, readonly string[]>();
const TERM_CACHE_LIMIT = 100_000;

function computeTermsOfToken(raw: string): string[] {
  const out: string[] = [];
  // Diacritics folded so "Köln" matches "Koln"; skipped for plain ASCII, the common case.
  const folded = isAscii(raw) ? raw : raw.normalize("NFKD").replace(/\p{M}/gu, "");
  const lower = folded.toLowerCase();
  const addWord = (w: string) => {
    if (w.length < 2 || isAllDigits(w) || STOP_WORDS.has(w)) return;
    out.push(lightStem(w));
  };
  if (!lower.includes("-") && !lower.includes("‐")) {
    addWord(lower);
    return out;
  }
  const parts = lower.split(/[-‐]/u).filter((p) => p !== "");
  addWord(parts.join(""));
  for (const p of parts) if (!isAllDigits(p)) addWord(p);
  return out;
}

function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 127) return false;
  return true;
}

/** True when every character is a digit (any script), so the token names no topic. */
function isAllDigits(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 48 && c <= 57) continue;
    if (c < 128 || !/\p{N}/u.test(s.charAt(i))) return false;
  }
  return true;
}

/** Stemmed content terms of a text, in order, with repeats. */
function textTerms(text: string): string[] {
  const out: string[] = [];
  for (const raw of rawTokens(text)) termsOfToken(raw, out);
  return out;
}

// ---------------------------------------------------------------------------
// Sentence candidates and their features
// ---------------------------------------------------------------------------

interface Candidate {
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
  /** Unit-length tf-idf vector as term ids (ascending) and weights, for MMR similarity. */
  vectorIds: Int32Array;
  vectorWeights: Float64Array;
  /** Terms of the article's title and of its whole abstract (shared by its sentences). */
  articleTerms: ArticleTerms;
}

interface ArticleTerms {
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
const DANGLING_WEAK = /^(?:this|these|those|that)\b/iu;
const FUTURE_WORK = /\b(?:further (?:studies|research|investigations?|work)|more (?:research|studies)|(?:are|is) (?:needed|warranted|required) to|remains? to be (?:elucidated|determined|clarified))/iu;

// A bracketed number list inside an abstract ("[12]", "[3, 4]") would be read
// as one of our citations by the summary renderer; such sentences are skipped
// rather than altered, so the text stays verbatim and no citation is invented.
const CITATION_LOOKALIKE = /\[\s*\d+(?:\s*[,–-]\s*\d+)*\s*\]/u;

/**
 * Evidence level from publication types, 0..1, following the usual hierarchy
 * of evidence (systematic reviews and meta-analyses, then randomised trials,
 * then other trials and guidelines, then observational and comparative work,
 * then case reports and opinion).
 */
function evidenceLevel(types: readonly string[]): number {
  let best = 0.5;
  for (const raw of types) {
    const t = raw.toLowerCase();
    let v = 0.5;
    if (t.includes("meta-analysis") || t.includes("systematic review")) v = 1;
    else if (t.includes("randomized controlled trial")) v = 0.9;
    else if (t.includes("clinical trial") || t.includes("practice guideline") || t === "guideline") v = 0.8;
    else if (t.includes("multicenter") || t.includes("observational") || t.includes("comparative") || t.includes("validation")) v = 0.65;
    else if (t === "review") v = 0.6;
    else if (t.includes("case report") || t.includes("editorial") || t.includes("letter") || t.includes("comment")) v = 0.25;
    best = Math.max(best, v);
  }
  return best;
}

/** Sections of an article's abstract, each with its kind; [] when it has no text. */
function articleSections(article: SummaryArticle): LabelledText[] {
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
function buildCandidates(articles: readonly SummaryArticle[]): { candidates: Candidate[]; abbreviations: Map<string, string> } {
  const candidates: Candidate[] = [];
  const globalAbbreviations = new Map<string, string>();
  const seen = new Set<number>();
  articles.forEach((article, articleIndex) => {
    if (seen.has(article.pmid)) return; // a PMID listed twice is one source
    seen.add(article.pmid);
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
      const design = role.kind === "METHODS" || role.kind === "OBJECTIVE" ? DESIGN_PENALTY : 0;
      const prior =
        W_SECTION * role.weight -
        design +
        W_RANK * (1 / (1 + articleIndex / 8)) +
        W_EVIDENCE * evidenceLevel(article.publication_types ?? []) -
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
        vectorIds: new Int32Array(0),
        vectorWeights: new Float64Array(0),
        articleTerms,
      });
    });
  });
  return { candidates, abbreviations: globalAbbreviations };
}

/** Query terms with acronyms expanded using definitions found in the articles. */
function queryTerms(query: string, abbreviations: Map<string, string>): string[] {
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

/** Adds BM25 relevance and coverage to each candidate's score and fills its tf-idf vector. */
function scoreCandidates(candidates: Candidate[], query: string[]): void {
  const n = candidates.length;
  const df = new Map<string, number>();
  let totalLength = 0;
  for (const c of candidates) {
    totalLength += c.length;
    for (const t of c.tf.keys()) df.set(t, (df.get(t) ?? 0) + 1);
  }
  const avgLength = totalLength / Math.max(1, n);
  const idf = (t: string) => {
    const d = df.get(t) ?? 0;
    return Math.log(1 + (n - d + 0.5) / (d + 0.5));
  };
  const queryIdf = query.map((t) => [t, idf(t)] as const).filter(([, w]) => w > 0);
  const queryIdfSum = queryIdf.reduce((s, [, w]) => s + w, 0);
  const k1 = 1.2;
  const b = 0.75;
  const bm25 = candidates.map((c) => {
    let s = 0;
    let covered = 0;
    for (const [t, w] of queryIdf) {
      const f = c.tf.get(t) ?? 0;
      if (f === 0) continue;
      covered += w;
      s += (w * f * (k1 + 1)) / (f + k1 * (1 - b + (b * c.length) / Math.max(1, avgLength)));
    }
    return { s, coverage: queryIdfSum > 0 ? covered / queryIdfSum : 0 };
  });
  const maxBm25 = Math.max(0, ...bm25.map((x) => x.s));
  const termIds = new Map<string, number>();
  // How much of the query the whole article covers, title first: a sentence
  // that mentions the query's words in passing inside an article about
  // something else ("… NPC was a risk factor for hypothyroidism") should lose
  // to one from an article about the topic.
  const articleRelevance = new Map<ArticleTerms, number>();
  const articleCoverage = (terms: ArticleTerms) => {
    let r = articleRelevance.get(terms);
    if (r === undefined) {
      let inTitle = 0;
      let inAbstract = 0;
      for (const [t, w] of queryIdf) {
        if (terms.title.has(t)) inTitle += w;
        if (terms.abstract.has(t)) inAbstract += w;
      }
      r = queryIdfSum > 0 ? (0.6 * inTitle + 0.4 * inAbstract) / queryIdfSum : 0;
      articleRelevance.set(terms, r);
    }
    return r;
  };
  candidates.forEach((c, i) => {
    const { s, coverage } = bm25[i] ?? { s: 0, coverage: 0 };
    c.relevance = maxBm25 > 0 ? 0.35 * (s / maxBm25) + 0.35 * coverage + 0.3 * articleCoverage(c.articleTerms) : 0;
    c.score += W_RELEVANCE * c.relevance;
    // Sparse unit vector with (1 + log tf)·idf weights (Salton & Buckley
    // 1988), ids sorted so two vectors are compared by a merge.
    const entries = [...c.tf].map(([t, f]) => {
      let id = termIds.get(t);
      if (id === undefined) {
        id = termIds.size;
        termIds.set(t, id);
      }
      return [id, (1 + Math.log(f)) * idf(t)] as const;
    });
    entries.sort((x, y) => x[0] - y[0]);
    const norm = Math.sqrt(entries.reduce((sum, [, w]) => sum + w * w, 0)) || 1;
    c.vectorIds = Int32Array.from(entries, ([id]) => id);
    c.vectorWeights = Float64Array.from(entries, ([, w]) => w / norm);
  });
}

/** Cosine similarity of two candidates' tf-idf vectors, 0..1. */
function similarity(a: Candidate, b: Candidate): number {
  const ai = a.vectorIds;
  const bi = b.vectorIds;
  const aw = a.vectorWeights;
  const bw = b.vectorWeights;
  let i = 0;
  let j = 0;
  let dot = 0;
  while (i < ai.length && j < bi.length) {
    const x = ai[i] as number;
    const y = bi[j] as number;
    if (x === y) dot += (aw[i++] as number) * (bw[j++] as number);
    else if (x < y) i++;
    else j++;
  }
  return dot;
}

/** Deterministic order: higher score, then better-ranked article, then earlier sentence. */
function byScore(a: Candidate, b: Candidate): number {
  return b.score - a.score || a.article - b.article || a.index - b.index;
}

interface Selected {
  candidate: Candidate;
  /** Input indices of the articles that state this sentence; the source first. */
  sources: number[];
}

/**
 * Maximal marginal relevance selection (Carbonell & Goldstein 1998): repeatedly
 * take the candidate maximising λ·score − (1 − λ)·max similarity to what is
 * already taken, scores normalised to 0..1 so both terms are comparable.
 */
function selectMmr(candidates: Candidate[], opts: Required<ExtractiveOptions>): Selected[] {
  const selected: Selected[] = [];
  if (candidates.length === 0) return selected;
  const maxScore = Math.max(...candidates.map((c) => c.score));
  const floor = maxScore - (1 - MIN_SCORE_FRACTION) * Math.abs(maxScore);
  // Like Carbonell & Goldstein, re-rank only the head of the list: with a
  // dozen sentences to pick from ~50 articles, a sentence below the top
  // MMR_POOL practically never wins, and the similarity updates stay cheap.
  const pool = candidates.filter((c) => c.score >= floor).sort(byScore).slice(0, MMR_POOL);
  const minScore = Math.min(...pool.map((c) => c.score));
  const span = maxScore - minScore || 1;
  const relevance = pool.map((c) => (c.score - minScore) / span);
  const maxSim = new Float64Array(pool.length); // similarity to the closest selected sentence
  const taken = new Uint8Array(pool.length);
  const perArticle = new Map<number, number>();
  while (selected.length < opts.maxSentences) {
    let best = -1;
    let bestValue = -Infinity;
    for (let i = 0; i < pool.length; i++) {
      if (taken[i] === 1 || (perArticle.get((pool[i] as Candidate).article) ?? 0) >= opts.maxPerArticle) continue;
      const value = opts.lambda * (relevance[i] as number) - (1 - opts.lambda) * (maxSim[i] as number);
      // Strictly greater: the pool is in byScore order, so ties go to the earlier one.
      if (value > bestValue) {
        best = i;
        bestValue = value;
      }
    }
    if (best < 0) break;
    taken[best] = 1;
    const chosen = pool[best] as Candidate;
    const duplicate = selected.find((s) => similarity(s.candidate, chosen) >= opts.duplicateThreshold);
    if (duplicate !== undefined) {
      // The same statement again: cite its article beside the first source
      // instead of repeating the sentence.
      if (!duplicate.sources.includes(chosen.article)) duplicate.sources.push(chosen.article);
      continue;
    }
    selected.push({ candidate: chosen, sources: [chosen.article] });
    perArticle.set(chosen.article, (perArticle.get(chosen.article) ?? 0) + 1);
    for (let i = 0; i < pool.length; i++) {
      if (taken[i] === 1) continue;
      const sim = similarity(pool[i] as Candidate, chosen);
      if (sim > (maxSim[i] as number)) maxSim[i] = sim;
    }
  }
  // Other articles that state a selected sentence almost word for word support
  // it as well: cite them too.
  for (const s of selected) {
    for (const c of pool) {
      if (s.sources.includes(c.article) || c.relevance === 0) continue;
      if (similarity(s.candidate, c) >= opts.duplicateThreshold) s.sources.push(c.article);
    }
  }
  return selected;
}

// ---------------------------------------------------------------------------
// Composition
// ---------------------------------------------------------------------------

/**
 * Orders bullet sentences so that related ones sit together: start from the
 * best-scoring one, then repeatedly take the most similar remaining one
 * (sentences of the same article count as most similar).
 */
function groupBullets(items: Selected[]): Selected[] {
  const rest = [...items].sort((a, b) => byScore(a.candidate, b.candidate));
  const out: Selected[] = [];
  let last = rest.shift();
  while (last !== undefined) {
    out.push(last);
    let bestIdx = -1;
    let bestSim = -1;
    rest.forEach((s, i) => {
      const sim = s.candidate.article === last!.candidate.article ? 2 : similarity(s.candidate, last!.candidate);
      if (sim > bestSim) {
        bestSim = sim;
        bestIdx = i;
      }
    });
    last = bestIdx >= 0 ? rest.splice(bestIdx, 1)[0] : undefined;
  }
  return out;
}

/**
 * Appends a citation to a verbatim sentence: "text [1, 3]." The final period
 * moves after the brackets ("?" and "!" too); a period that belongs to an
 * abbreviation ("et al.", "etc.") stays and another follows the brackets.
 */
function cite(text: string, numbers: number[]): string {
  const list = `[${[...numbers].sort((a, b) => a - b).join(", ")}]`;
  const m = /[.!?]$/u.exec(text);
  if (m === null || /(?:\bet al|\betc|\b(?:\p{Lu}\.){2,}\p{Lu}?)\.$/u.test(text)) return `${text} ${list}.`;
  return `${text.slice(0, -1).trimEnd()} ${list}${m[0]}`;
}

/**
 * Summarises the ranked articles of a review for the user's query.
 *
 * @param query The user's topic, free text (may be empty: then sentences are
 *   chosen by section, rank and evidence only).
 * @param articles Ranked articles, best first (the product passes up to ~50).
 *   Articles without abstract text are ignored and never cited; a PMID given
 *   twice counts once.
 * @param options Tuning; see ExtractiveOptions for defaults.
 * @returns The summary text and the PMIDs behind its citation numbers. The
 *   summary is null, with no PMIDs, when no article has a usable sentence.
 *   Never throws on odd input (empty strings, missing sections).
 *
 * Deterministic: the same input gives the same output. Runs in a few
 * milliseconds for 50 abstracts (see scripts/bench/bench-summarizer.ts).
 */
export function summarizeExtractive(
  query: string,
  articles: readonly SummaryArticle[],
  options: ExtractiveOptions = {},
): SummaryResult {
  const opts: Required<ExtractiveOptions> = { ...DEFAULTS, ...options };
  const { candidates, abbreviations } = buildCandidates(articles);
  if (candidates.length === 0) return { summary: null, citedPmids: [] };
  scoreCandidates(candidates, queryTerms(query, abbreviations));

  // Sentences that share no term with the query are kept out while there are
  // enough that do; otherwise the best of the rest make up a short summary.
  const onTopic = candidates.filter((c) => c.relevance > 0);
  const pool = onTopic.length >= 3 ? onTopic : [...onTopic, ...candidates.filter((c) => c.relevance === 0).sort(byScore).slice(0, 3 - onTopic.length)];
  const selected = selectMmr(pool, opts);
  if (selected.length === 0) return { summary: null, citedPmids: [] };

  // Layout: the first MMR picks (the most relevant, already diverse) open the
  // summary; conclusion sentences close it; the rest are bullet points.
  const overviewCount = selected.length <= 3 ? selected.length : selected.length >= 9 ? 3 : 2;
  const overview = selected.slice(0, overviewCount);
  const rest = selected.slice(overviewCount);
  const conclusions = rest.filter((s) => s.candidate.kind === "CONCLUSIONS").slice(0, 3);
  const bullets = groupBullets(rest.filter((s) => !conclusions.includes(s)));
  // A list of one reads better as one more sentence of the overview.
  if (bullets.length === 1) overview.push(...bullets.splice(0, 1));

  const numberOf = new Map<number, number>(); // article index → citation number
  const citedPmids: number[] = [];
  const render = (s: Selected) => {
    const numbers = s.sources.map((articleIndex) => {
      let n = numberOf.get(articleIndex);
      if (n === undefined) {
        citedPmids.push((articles[articleIndex] as SummaryArticle).pmid);
        n = citedPmids.length;
        numberOf.set(articleIndex, n);
      }
      return n;
    });
    return cite(s.candidate.text, numbers);
  };

  const blocks: string[] = [];
  blocks.push(`**Overview.** ${overview.map(render).join(" ")}`);
  if (bullets.length > 0) blocks.push(`**Key findings**\n${bullets.map((s) => `- ${render(s)}`).join("\n")}`);
  if (conclusions.length > 0) blocks.push(`**Conclusions.** ${conclusions.map(render).join(" ")}`);
  return { summary: blocks.join("\n\n"), citedPmids };
}

/** The default summarizer: extractive and query-focused (see summarizeExtractive). */
export const extractiveSummarizer: Summarizer = {
  name: "extractive",
  summarize: async (query, articles) => summarizeExtractive(query, articles),
};
