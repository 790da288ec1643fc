/**
 * Numbers as abstracts write them: decimals with a point or a middle dot ("0·36", The Lancet's house style),
 * negatives with a hyphen or the Unicode minus ("−4.1"), thousands with commas ("1,532"), and small counts in words
 * ("Forty-two", "One hundred thirty-two", "One-hundred and five"). Shared by the effect and participant extractors.
 */
import { TENS, UNITS, numberWordsValue } from "../number-words.ts";

/** Regex source of a signed decimal number: "2.45", "−4.1", "0·36", ".02" is not included (see P_NUMBER). */
export const SIGNED = String.raw`[-−‐]?\d+(?:[.·]\d+)?`;

/** A decimal string as written ("−4.1", "0·36", ".02") to a number; NaN when it is not one. */
export function parseDecimal(text: string): number {
  const t = text
    .trim()
    .replace(/[−‐–—]/gu, "-")
    .replace(/·/gu, ".")
    .replace(/\s+/gu, "");
  return /^-?(?:\d+(?:\.\d+)?|\.\d+)$/u.test(t) ? Number(t) : Number.NaN;
}

/** Regex source of a number written in words, up to the thousands ("One hundred and five", "Forty-two"). */
const WORD = `(?:${[...Object.keys(UNITS), ...Object.keys(TENS), "hundred", "thousand"].join("|")})`;
export const NUMBER_WORDS = String.raw`${WORD}(?:(?:[\s-]+|\s+and\s+)${WORD})*`;

/** A count in words to a number ("One-hundred and five" → 105); NaN when a word is not a number word. */
export function parseNumberWords(text: string): number {
  const words = text
    .toLowerCase()
    .split(/[\s-]+/u)
    .filter((w) => w !== "" && w !== "and");
  return words.length === 0 ? Number.NaN : (numberWordsValue(words) ?? Number.NaN);
}

/**
 * Regex source of a count: digits with optional thousands commas, thin spaces or spaces ("18 804", the SI style some
 * journals use), or a number in words.
 */
export const COUNT = String.raw`(?:\d{1,3}(?:[,\u2009\u202f]\d{3})+|\d{1,3}(?: \d{3})+(?!\d)|\d+|${NUMBER_WORDS})`;

/** A count as written ("1,532", "Forty-two") to an integer; NaN when it is not one. */
export function parseCount(text: string): number {
  const t = text.trim();
  if (/^\d{1,3}(?:[, \u2009\u202f]\d{3})+$/u.test(t)) return Number(t.replace(/[, \u2009\u202f]/gu, ""));
  if (/^\d+$/u.test(t)) return Number(t);
  return parseNumberWords(t);
}
