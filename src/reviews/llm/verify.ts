import { splitSentences } from "../sentences.ts";
import { citedNumbers, hasStrayBracket, withoutCitations } from "../citation-grammar.ts";
import { isNumberWord, numberWordsOf } from "../number-words.ts";

/**
 * Verification of a language model's synthesis (issue 13: "an optional language model that cannot invent"). Every
 * sentence is checked against the abstracts it cites before it may be shown:
 * - it holds no bracketed text but well-formed citations (src/reviews/citation-grammar.ts, the grammar the page reads
 *   them with), and no link or markup: a bracketed aside, a URL or a tag is where an injected instruction hides;
 * - it cites at least one source, and every [n] is a supplied source (1..sources);
 * - every number it states (integers, decimals, percentages, ranges' ends, and numbers in words: "seventy-three")
 *   appears in the text of a cited source, in digits or in words;
 * - its content words (not stop words, 4 letters or more, compared by a crude stem) are found in the cited sources'
 *   text: at least CONTENT_WORD_SHARE of them, which allows the joining words of a paraphrase and nothing more.
 * A sentence that fails any rule is dropped, never repaired. Pure.
 */

/** Share of a sentence's content words that must be found in its cited sources. */
export const CONTENT_WORD_SHARE = 0.85;

// English function words, split on whitespace: not content words, so never looked up in the sources.
const STOP = new Set(
  [
    "also although among another based because been being between both could does during each either from",
    "further have having however into itself more most much must other over same several should since some",
    "such than that their them then there these they this those through thus under until upon very were what",
    "when where whereas which while with within without would across after again against almost alone along",
    "already always an and any are as at be but by can did do for had has he her here his how if in is it its",
    "may me might my no nor not now of off on once only or our out own per she so the to too up us was we who",
    "whom why will yet you your",
  ]
    .join(" ")
    .split(" "),
);

/** A crude English stem: enough to match "reduced"/"reduces"/"reduction" to "reduc". */
export function stem(word: string): string {
  return word
    .toLowerCase()
    .replace(/(ations?|ments?|ness|ities|ity|ings?|ions?|ed|es|ly|s)$/u, "")
    .slice(0, 7);
}

/** Content words; numbers in words and "percent" are left to the number check ("eighty percent" is "80%"). */
function contentWords(text: string): string[] {
  return (text.toLowerCase().match(/\p{L}[\p{L}\p{N}-]*/gu) ?? []).filter(
    (w) => w.length >= 4 && !STOP.has(w) && w !== "percent" && !w.split("-").every(isNumberWord),
  );
}

/**
 * Numbers a text states: "12", "3.5", "45%" (as "45"), "1,200" (as "1200"), and cardinals in words ("seventy-three"
 * as "73"; see number-words.ts for what is covered).
 */
export function numbersOf(text: string): string[] {
  const digits = (text.match(/\d+(?:[.,]\d+)*/g) ?? []).map((n) => n.replace(/,(?=\d{3}\b)/g, ""));
  return [...digits, ...numberWordsOf(text)];
}

/** The [n] citations of a sentence, as the page reads them ("[1]", "[ 1, 3 ]", "[2-4]"). */
export function citationsOf(sentence: string): number[] {
  return citedNumbers(sentence);
}

// A scheme ("https://", "javascript:" before "//"), a bare "www." host, or the start of an HTML tag or comment.
const LINK_OR_MARKUP = /\b[a-z][a-z0-9+.-]*:\/\/|\bwww\.|<\/?[a-z!?]/i;

/** Why a sentence was dropped (for the review's "how it was made" and for tests), or null when it stands. */
export function sentenceProblem(sentence: string, sources: readonly string[]): string | null {
  if (hasStrayBracket(sentence)) return "holds bracketed text that is not a citation";
  if (LINK_OR_MARKUP.test(sentence)) return "holds a link or markup";
  const cited = citationsOf(sentence);
  if (cited.length === 0) return "cites no source";
  const invalid = cited.filter((n) => !Number.isInteger(n) || n < 1 || n > sources.length);
  if (invalid.length > 0) return `cites [${invalid.join(", ")}], which was not supplied`;
  const evidence = cited.map((n) => sources[n - 1]!).join(" ");
  const body = withoutCitations(sentence);
  const evidenceNumbers = new Set(numbersOf(evidence));
  const invented = numbersOf(body).filter((n) => !evidenceNumbers.has(n));
  if (invented.length > 0) return `states ${invented.join(", ")}, found in no cited source`;
  const words = contentWords(body);
  if (words.length === 0) return "says nothing";
  const stems = new Set(contentWords(evidence).map(stem));
  const found = words.filter((w) => stems.has(stem(w))).length;
  if (found / words.length < CONTENT_WORD_SHARE)
    return `only ${found} of ${words.length} content words are in its cited sources`;
  return null;
}

/**
 * The sentences of `text` that pass, in order, and the reasons of those that do not. Once `maxKept` sentences pass,
 * the rest are not examined (nor listed as dropped): they would not be kept anyway.
 */
export function verifySynthesis(
  text: string,
  sources: readonly string[],
  maxKept = Number.POSITIVE_INFINITY,
): { kept: string[]; dropped: { sentence: string; reason: string }[] } {
  const kept: string[] = [];
  const dropped: { sentence: string; reason: string }[] = [];
  for (const paragraph of text.split(/\n\s*\n/)) {
    for (const sentence of splitSentences(paragraph.replace(/^[-*•]\s+/gm, ""))) {
      if (kept.length >= maxKept) return { kept, dropped };
      const reason = sentenceProblem(sentence, sources);
      if (reason) dropped.push({ sentence, reason });
      else kept.push(sentence);
    }
  }
  return { kept, dropped };
}
