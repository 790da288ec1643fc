/**
 * Sentence splitting and light text normalisation for biomedical abstracts.
 *
 * The base splitter is the Unicode sentence-boundary algorithm (UAX #29) as
 * implemented by ICU behind `Intl.Segmenter`. It already keeps decimals
 * ("p < 0.05", "54.3 years") and lowercase continuations ("E. coli", "e.g. in
 * the") together, but it breaks after an abbreviation followed by a capital
 * letter or a digit ("vs. Placebo", "Fig. 2A", "Dr. J. R. Smith", "U.S. Army").
 * A small post-pass merges those splits back using the abbreviation lists
 * below. Everything here is pure and deterministic.
 *
 * Known limits, accepted because they are rare in abstracts: a species name
 * written with a capital ("E. Coli") is split after the initial, and a
 * sentence that genuinely ends in "et al." or "U.S." followed by a word that
 * is not a usual sentence opener stays joined to the next one.
 */

/** Collapses every run of whitespace (including newlines and NBSP) to one space and trims. */
export function normalizeWhitespace(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

// Created once: constructing a segmenter loads ICU break rules and costs far
// more than segmenting one abstract.
const segmenter = new Intl.Segmenter("en", { granularity: "sentence" });

/**
 * Abbreviations (lowercase, without the final period) after which a sentence
 * practically never ends in scientific prose, so a split after them is always
 * undone. "no" is handled separately because "no." ends sentences ("the answer
 * was no.") unless a number follows.
 */
const NEVER_FINAL = new Set([
  "e.g",
  "i.e",
  "vs",
  "v",
  "cf",
  "fig",
  "figs",
  "approx",
  "ca",
  "ref",
  "refs",
  "dr",
  "prof",
  "mr",
  "mrs",
  "ms",
  "st",
  "mt",
  "eq",
  "eqs",
  "vol",
  "vols",
  "pp",
  "incl",
  "nos",
  "tab",
  "suppl",
  "viz",
  "nr",
  "sect",
  "eds",
  "dept",
  "univ",
  "inst",
  "assoc",
  "subsp",
  "var",
  "cv",
]);

/**
 * Abbreviations that do end sentences now and then ("… as described by Smith et
 * al. In contrast, …"). A split after them is undone unless the next word is a
 * typical sentence opener (see SENTENCE_OPENERS).
 */
const SOMETIMES_FINAL = new Set(["et al", "al", "u.s", "u.k", "e.u", "u.s.a", "jr", "sr"]);

/**
 * Capitalised words that commonly open a sentence in abstracts. After an
 * ambiguous abbreviation ("et al.", "U.S.", a single initial), a following
 * word from this list is taken as the start of a new sentence; any other
 * capitalised word ("Army", "Food", "Smith") as a continuation.
 */
const SENTENCE_OPENERS = new Set([
  "a",
  "about",
  "accordingly",
  "additionally",
  "after",
  "all",
  "also",
  "although",
  "among",
  "an",
  "and",
  "another",
  "as",
  "at",
  "based",
  "because",
  "before",
  "both",
  "but",
  "by",
  "compared",
  "consequently",
  "conversely",
  "data",
  "despite",
  "due",
  "during",
  "each",
  "eight",
  "either",
  "every",
  "finally",
  "five",
  "following",
  "for",
  "four",
  "from",
  "further",
  "furthermore",
  "given",
  "he",
  "hence",
  "here",
  "herein",
  "however",
  "if",
  "importantly",
  "in",
  "interestingly",
  "it",
  "its",
  "many",
  "moreover",
  "most",
  "much",
  "multiple",
  "neither",
  "nevertheless",
  "nine",
  "no",
  "none",
  "nonetheless",
  "not",
  "notably",
  "of",
  "on",
  "one",
  "only",
  "other",
  "our",
  "overall",
  "participants",
  "patients",
  "previous",
  "previously",
  "recent",
  "recently",
  "results",
  "seven",
  "several",
  "she",
  "similar",
  "similarly",
  "since",
  "six",
  "so",
  "some",
  "such",
  "taken",
  "ten",
  "that",
  "the",
  "their",
  "there",
  "therefore",
  "these",
  "they",
  "this",
  "those",
  "three",
  "through",
  "thus",
  "to",
  "together",
  "two",
  "under",
  "unlike",
  "using",
  "we",
  "when",
  "where",
  "whereas",
  "which",
  "while",
  "with",
  "within",
  "without",
  "women",
  "men",
  "children",
  "yet",
]);

/** Title words after which a capitalised name follows ("Dr. Smith"). */
const HONORIFICS = new Set(["dr", "prof", "mr", "mrs", "ms", "st", "mt"]);

// Longest merged sentence we accept: guards against a chain of merges gluing
// a whole abstract together when the text is unusual (e.g. a list of initials).
const MAX_MERGED_LENGTH = 1200;

/**
 * The abbreviation a segment ends with, lowercased and without its final
 * period ("Smith et al. " → "et al", "in the U.S. " → "u.s"), or null when the
 * segment does not end with "<word>." or the word cannot be an abbreviation.
 */
function trailingAbbreviation(segment: string): string | null {
  const trimmed = segment.trimEnd();
  if (!trimmed.endsWith(".")) return null;
  const m = /(?:^|[\s([])((?:[\p{L}]{1,8}\.)*[\p{L}]{1,8})\.$/u.exec(trimmed);
  if (!m || m[1] === undefined) return null;
  const raw = m[1];
  // Undotted all-capital words are acronyms that end sentences all the time
  // ("patients with MS.", "in the ED.", "levels of CO."), not "Ms." or "Ed.";
  // a lone capital is an initial, handled separately.
  if (!raw.includes(".") && /^\p{Lu}+$/u.test(raw)) return null;
  const word = raw.toLowerCase();
  if (word === "al" && /\bet\s+al\.$/iu.test(trimmed)) return "et al";
  return word;
}

/** The first word of a segment (letters, digits and hyphens), or "". */
function firstWord(segment: string): string {
  const m = /^[\s"'“‘([]*([\p{L}\p{N}][\p{L}\p{N}'’-]*)/u.exec(segment);
  return m?.[1] ?? "";
}

/** True when the segment ends with a single capital letter and a period ("… J. "). */
function endsWithInitial(segment: string): boolean {
  return /(?:^|[\s(])\p{Lu}\.$/u.test(segment.trimEnd());
}

/** The token before the trailing initial ("Dr. J. " → "Dr."; "vitamin D. " → "vitamin"). */
function tokenBeforeInitial(segment: string): string {
  const parts = segment.trimEnd().split(" ");
  return parts.length >= 2 ? (parts[parts.length - 2] ?? "") : "";
}

/** Count of unclosed "(" and "[" in a string; negative when more are closed. */
function bracketDepth(text: string): number {
  let depth = 0;
  for (const ch of text) {
    if (ch === "(" || ch === "[") depth++;
    else if (ch === ")" || ch === "]") depth--;
  }
  return depth;
}

/** True when `depth` (> 0) open brackets are all closed somewhere inside `next`. */
function closesOpenBracket(depth: number, next: string): boolean {
  if (depth <= 0) return false;
  let d = depth;
  for (const ch of next) {
    if (ch === "(" || ch === "[") d++;
    else if (ch === ")" || ch === "]") d--;
    if (d <= 0) return true;
  }
  return false;
}

/**
 * Decides whether a segment boundary proposed by the UAX #29 splitter is a
 * false one that must be undone.
 */
function shouldMerge(current: string, next: string): boolean {
  if (current.length + next.length > MAX_MERGED_LENGTH) return false;
  const nextWord = firstWord(next);
  const nextStartsLower = /^\p{Ll}/u.test(nextWord);
  const nextStartsDigit = /^\p{N}/u.test(nextWord);
  const nextIsOpener = SENTENCE_OPENERS.has(nextWord.toLowerCase());

  // A parenthesis opened in this segment and closed in the next one means the
  // boundary fell inside it ("(i.e. In cultured cells)").
  if ((current.includes("(") || current.includes("[")) && closesOpenBracket(bracketDepth(current), next)) return true;

  // Text never starts a sentence with ")" , ";" or ","; a split before them is spurious.
  if (/^\s*[),;:\]]/u.test(next)) return true;

  const abbr = trailingAbbreviation(current);
  if (abbr !== null) {
    if (abbr === "no") return nextStartsDigit;
    if (NEVER_FINAL.has(abbr)) return true;
    if (SOMETIMES_FINAL.has(abbr)) return nextStartsLower || nextStartsDigit || !nextIsOpener;
  }

  if (endsWithInitial(current)) {
    // Species and initials: "E. Coli", "J. R. Smith", "Dr. J. Smith". A lone
    // capital before a period also ends many sentences ("vitamin D.",
    // "hepatitis B."), so we merge only inside a chain of initials or when the
    // next segment is itself an initial or starts in lowercase.
    if (nextStartsLower) return true;
    if (/^\s*\p{Lu}\.(?:\s|$)/u.test(next)) return true;
    const before = tokenBeforeInitial(current);
    const beforeIsInitial = /^\p{Lu}\.$/u.test(before);
    const beforeIsHonorific = HONORIFICS.has(before.replace(/\.$/u, "").toLowerCase()) && before.endsWith(".");
    if ((beforeIsInitial || beforeIsHonorific) && !nextIsOpener) return true;
  }
  return false;
}

/**
 * Splits text into sentences.
 *
 * @param text Any prose; whitespace is normalised first, so the returned
 *   sentences are substrings of `normalizeWhitespace(text)`.
 * @returns Sentences in document order, trimmed, never empty. An empty or
 *   blank input gives `[]`. Never throws.
 *
 * Algorithm: UAX #29 boundaries via `Intl.Segmenter("en", {granularity:
 * "sentence"})`, then a merge pass that undoes boundaries after known
 * abbreviations (et al., e.g., i.e., vs., Fig., approx., no. before a number,
 * U.S., …), inside chains of initials and species names, and inside an open
 * parenthesis.
 */
export function splitSentences(text: string): string[] {
  const normalized = normalizeWhitespace(text);
  if (normalized === "") return [];
  const out: string[] = [];
  let current = "";
  for (const { segment } of segmenter.segment(normalized)) {
    if (current === "") {
      current = segment;
    } else if (shouldMerge(current, segment)) {
      current += segment;
    } else {
      out.push(current.trim());
      current = segment;
    }
  }
  if (current.trim() !== "") out.push(current.trim());
  // Old abstracts number their statements ("1. … 2. …"); the splitter leaves
  // the markers as segments of their own, which carry no content.
  return out.filter((s) => s !== "" && !LIST_MARKER.test(s));
}

/** A bare enumeration marker: "1.", "(2)", "3)", "iv.". */
const LIST_MARKER = /^(?:\(?\d{1,2}[.)]|\((?:[ivx]{1,4}|[a-h])\)|[ivx]{1,4}\.)$/u;

/** Canonical section kinds of a structured abstract (NLM's categories plus UNLABELLED). */
export type SectionKind = "BACKGROUND" | "OBJECTIVE" | "METHODS" | "RESULTS" | "CONCLUSIONS" | "UNLABELLED";

/**
 * Maps an NLM category or a free-text abstract label to a section kind.
 *
 * @param label The AbstractText Label attribute as printed ("MATERIALS AND
 *   METHODS", "Conclusion", "SUMMARY OF BACKGROUND DATA"); may be "".
 * @param nlmCategory NLM's NlmCategory attribute (BACKGROUND, OBJECTIVE,
 *   METHODS, RESULTS, CONCLUSIONS, UNASSIGNED) or null. It wins when it is one
 *   of the five informative values, since NLM assigned it by hand.
 * @returns The kind; "UNLABELLED" when neither says anything usable.
 */
export function classifySection(label: string, nlmCategory: string | null): SectionKind {
  const cat = (nlmCategory ?? "").toUpperCase();
  if (cat === "BACKGROUND" || cat === "OBJECTIVE" || cat === "METHODS" || cat === "RESULTS" || cat === "CONCLUSIONS") {
    return cat;
  }
  const l = label.toLowerCase();
  if (l === "" || l === "unlabelled" || l === "abstract") return "UNLABELLED";
  // Order matters: "BACKGROUND AND PURPOSE" is an objective in NLM's mapping,
  // "RESULTS AND CONCLUSIONS" a conclusion.
  if (/conclu|interpretation|implication|significance|discussion|summary$|relevance|take.?home|lessons/u.test(l))
    return "CONCLUSIONS";
  if (/result|finding|outcomes?$/u.test(l) && !/measure/u.test(l)) return "RESULTS";
  if (/objective|aim|purpose|goal|question|hypothes/u.test(l)) return "OBJECTIVE";
  if (
    /method|design|setting|participant|patient|subject|intervention|measure|procedure|material|case|sample|data source|selection|extraction|level of evidence|registration|study/u.test(
      l,
    )
  )
    return "METHODS";
  if (/background|introduction|context|motivation|rationale|availability/u.test(l)) return "BACKGROUND";
  return "UNLABELLED";
}

/** One section of an abstract with its canonical kind. */
export interface LabelledText {
  kind: SectionKind;
  text: string;
}

// Labels recognised inside an unstructured abstract ("BACKGROUND: …",
// "Objective: …"). Restricted to the usual vocabulary so that ordinary
// clauses ending in a colon ("as follows:") are not taken for headings.
const INLINE_LABEL = new RegExp(
  String.raw`(?:^|(?<=[.!?]\s))(ABSTRACT|BACKGROUND(?: AND (?:AIMS?|PURPOSE|OBJECTIVES?))?|INTRODUCTION|CONTEXT|OBJECTIVES?|AIMS?|PURPOSE|` +
    String.raw`(?:MATERIALS? AND |PATIENTS AND |SUBJECTS AND )?METHODS?(?: AND MATERIALS?)?|DESIGN|SETTING|PARTICIPANTS|INTERVENTIONS?|` +
    String.raw`MAIN OUTCOME MEASURES?|RESULTS?|FINDINGS|CONCLUSIONS?(?: AND (?:RELEVANCE|IMPLICATIONS))?|INTERPRETATION|SIGNIFICANCE)` +
    String.raw`(\s*:\s+|\s+(?=[\p{Lu}\p{N}]))`,
  "giu",
);

/**
 * Splits an unstructured abstract that carries its headings inline
 * ("BACKGROUND: … METHODS: … RESULTS: …", or "OBJECTIVE The … METHODS We …")
 * into labelled parts. Headings must start the text or follow a sentence end,
 * start with a capital, and either end with a colon or be written in capitals
 * and followed by a capitalised word. Text without such headings comes back as
 * one UNLABELLED part.
 *
 * @returns Parts in order, with whitespace normalised and headings removed;
 *   `[]` for blank text.
 */
export function splitInlineSections(text: string): LabelledText[] {
  const normalized = normalizeWhitespace(text);
  if (normalized === "") return [];
  const parts: LabelledText[] = [];
  let kind: SectionKind = "UNLABELLED";
  let start = 0;
  INLINE_LABEL.lastIndex = 0;
  for (let m = INLINE_LABEL.exec(normalized); m !== null; m = INLINE_LABEL.exec(normalized)) {
    const heading = m[1] ?? "";
    if (!/^\p{Lu}/u.test(heading)) continue;
    // Without a colon only an all-capital heading counts ("RESULTS Blood
    // loss …"); "Results showed …" is an ordinary sentence.
    if (!(m[2] ?? "").includes(":") && heading !== heading.toUpperCase()) continue;
    const before = normalized.slice(start, m.index).trim();
    if (before !== "") parts.push({ kind, text: before });
    kind = classifySection(heading, null);
    start = m.index + m[0].length;
  }
  const rest = normalized.slice(start).trim();
  if (rest !== "") parts.push({ kind, text: rest });
  return parts;
}
