import { splitSentences } from "../sentences.ts";

/**
 * Verification of a language model's synthesis (issue 13: "an optional language model that cannot invent"). Every
 * sentence is checked against the abstracts it cites before it may be shown:
 * - it cites at least one source, and every [n] is a supplied source (1..sources);
 * - every number it states (integers, decimals, percentages, ranges' ends) appears in the text of a cited source;
 * - its content words (not stop words, 4 letters or more, compared by a crude stem) are found in the cited sources'
 *   text: at least CONTENT_WORD_SHARE of them, which allows the joining words of a paraphrase and nothing more.
 * A sentence that fails any rule is dropped, never repaired. Pure.
 */

/** Share of a sentence's content words that must be found in its cited sources. */
export const CONTENT_WORD_SHARE = 0.85;

const STOP = new Set(
  "also although among another based because been being between both could does during each either from further have having however into itself more most much must other over same several should since some such than that their them then there these they this those through thus under until upon very were what when where whereas which while with within without would across after again against almost alone along already always an and any are as at be but by can did do for had has he her here his how if in is it its may me might my no nor not now of off on once only or our out own per she so the to too up us was we who whom why will yet you your".split(
    " ",
  ),
);

/** A crude English stem: enough to match "reduced"/"reduces"/"reduction" to "reduc". */
export function stem(word: string): string {
  return word
    .toLowerCase()
    .replace(/(ations?|ments?|ness|ities|ity|ings?|ions?|ed|es|ly|s)$/u, "")
    .slice(0, 7);
}

function contentWords(text: string): string[] {
  return (text.toLowerCase().match(/\p{L}[\p{L}\p{N}-]*/gu) ?? []).filter((w) => w.length >= 4 && !STOP.has(w));
}

/** Numbers a text states: "12", "3.5", "45%" (as "45"), "1,200" (as "1200"). */
export function numbersOf(text: string): string[] {
  return (text.match(/\d+(?:[.,]\d+)*/g) ?? []).map((n) => n.replace(/,(?=\d{3}\b)/g, ""));
}

/** The [n] citations of a sentence (from "[1]", "[1, 3]", "[2-4]"). */
export function citationsOf(sentence: string): number[] {
  const out: number[] = [];
  for (const m of sentence.matchAll(/\[(\d+(?:\s*[,–-]\s*\d+)*)\]/g)) {
    for (const part of m[1]!.split(/\s*,\s*/)) {
      const range = /^(\d+)\s*[–-]\s*(\d+)$/.exec(part);
      if (range) for (let i = Number(range[1]); i <= Number(range[2]) && i - Number(range[1]) < 50; i++) out.push(i);
      else out.push(Number(part));
    }
  }
  return out;
}

/** Why a sentence was dropped (for the review's "how it was made" and for tests), or null when it stands. */
export function sentenceProblem(sentence: string, sources: readonly string[]): string | null {
  const cited = citationsOf(sentence);
  if (cited.length === 0) return "cites no source";
  const invalid = cited.filter((n) => !Number.isInteger(n) || n < 1 || n > sources.length);
  if (invalid.length > 0) return `cites [${invalid.join(", ")}], which was not supplied`;
  const evidence = cited.map((n) => sources[n - 1]!).join(" ");
  const body = sentence.replace(/\[[^\]]*\]/g, " ");
  const evidenceNumbers = new Set(numbersOf(evidence));
  const invented = numbersOf(body).filter((n) => !evidenceNumbers.has(n));
  if (invented.length > 0) return `states ${invented.join(", ")}, found in no cited source`;
  const words = contentWords(body);
  if (words.length === 0) return "says nothing";
  const stems = new Set(contentWords(evidence).map(stem));
  const found = words.filter((w) => stems.has(stem(w))).length;
  if (found / words.length < CONTENT_WORD_SHARE) return `only ${found} of ${words.length} content words are in its cited sources`;
  return null;
}

/** The sentences of `text` that pass, and the reasons of those that do not. */
export function verifySynthesis(text: string, sources: readonly string[]): { kept: string[]; dropped: { sentence: string; reason: string }[] } {
  const kept: string[] = [];
  const dropped: { sentence: string; reason: string }[] = [];
  for (const paragraph of text.split(/\n\s*\n/)) {
    for (const sentence of splitSentences(paragraph.replace(/^[-*•]\s+/gm, ""))) {
      const reason = sentenceProblem(sentence, sources);
      if (reason) dropped.push({ sentence, reason });
      else kept.push(sentence);
    }
  }
  return { kept, dropped };
}
