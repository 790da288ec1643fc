/**
 * Numbers as abstracts write them: decimals with a point or a middle dot ("0·36", The Lancet's house style),
 * negatives with a hyphen or the Unicode minus ("−4.1"), thousands with commas ("1,532"), and small counts in words
 * ("Forty-two", "One hundred thirty-two", "One-hundred and five"). Shared by the effect and participant extractors.
 */

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

const UNITS: Record<string, number> = {
  zero: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
};
const TENS: Record<string, number> = {
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
};

/** Regex source of a number written in words, up to the thousands ("One hundred and five", "Forty-two"). */
const WORD = `(?:${[...Object.keys(UNITS), ...Object.keys(TENS), "hundred", "thousand"].join("|")})`;
export const NUMBER_WORDS = String.raw`${WORD}(?:(?:[\s-]+|\s+and\s+)${WORD})*`;

/** A count in words to a number ("One-hundred and five" → 105); NaN when a word is not a number word. */
export function parseNumberWords(text: string): number {
  let total = 0;
  let current = 0;
  let any = false;
  for (const raw of text.toLowerCase().split(/[\s-]+/u)) {
    if (raw === "" || raw === "and") continue;
    any = true;
    if (raw in UNITS) current += UNITS[raw] as number;
    else if (raw in TENS) current += TENS[raw] as number;
    else if (raw === "hundred") current = (current || 1) * 100;
    else if (raw === "thousand") {
      total += (current || 1) * 1000;
      current = 0;
    } else return Number.NaN;
  }
  return any ? total + current : Number.NaN;
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
