/**
 * English cardinal number words read as numbers, shared by the language-model verifier and the evidence extractor
 * (src/reviews/evidence/numbers.ts), so that the verifier checks "Seventy-three percent" or "twelve
 * trials" like "73%" and "12 trials" (issue 22: numbers written as words escaped the number check).
 *
 * Covered: zero to nineteen, the tens, "hundred", "thousand", "million", "billion", joined by spaces, hyphens or
 * "and" ("one hundred and twenty-five" → 125, "two thousand" → 2000). Not covered, and so not checked: ordinals
 * ("third"), fractions ("half", "a quarter"), "dozen", "twice", "double", and a digit followed by a multiplier word
 * ("1.2 million" states 1.2). Pure.
 */

/** zero to nineteen. Shared with the evidence extractor's count reading (src/reviews/evidence/numbers.ts). */
export const UNITS: Readonly<Record<string, number>> = {
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
/** twenty to ninety. */
export const TENS: Readonly<Record<string, number>> = {
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
};
const SCALES: Record<string, number> = { thousand: 1e3, million: 1e6, billion: 1e9 };

/** Whether a lowercase word is one of the number words read here ("seventy", "hundred"…). */
export const isNumberWord = (w: string): boolean => w in UNITS || w in TENS || w === "hundred" || w in SCALES;

/** The value of a run of number words (lowercase, "and" already removed), or null when it is not a cardinal. */
export function numberWordsValue(words: string[]): number | null {
  let total = 0;
  let group = 0;
  let seen = false;
  for (const w of words) {
    if (w in UNITS) group += UNITS[w]!;
    else if (w in TENS) group += TENS[w]!;
    else if (w === "hundred") group = (group || 1) * 100;
    else if (w in SCALES) {
      total += (group || 1) * SCALES[w]!;
      group = 0;
    } else return null;
    seen = true;
  }
  return seen ? total + group : null;
}

/**
 * The numbers `text` writes in words, as digit strings, in order: "Seventy-three percent of twelve trials" →
 * ["73", "12"]. A run of number words is one number ("one hundred and twenty-five"); a run that does not add up
 * as one ("five six") counts each word alone.
 */
export function numberWordsOf(text: string): string[] {
  const tokens = text.toLowerCase().match(/\p{L}+/gu) ?? [];
  const out: string[] = [];
  let run: string[] = [];
  const flush = () => {
    if (run.length === 0) return;
    // A unit after a unit or a ten after a unit or ten ("five six", "ninety twenty") are two numbers, not one.
    const compound = run.every((w, i) => {
      const prev = run[i - 1] ?? "";
      if (w in TENS) return !(prev in UNITS || prev in TENS);
      if (w in UNITS) return !(prev in UNITS || (prev in TENS && UNITS[w]! >= 10));
      return true;
    });
    const value = compound ? numberWordsValue(run) : null;
    if (value !== null) out.push(String(value));
    else for (const w of run) out.push(String(numberWordsValue([w])));
    run = [];
  };
  for (let i = 0; i < tokens.length; i++) {
    const w = tokens[i]!;
    if (isNumberWord(w)) run.push(w);
    // "and" joins a number ("one hundred and five") only between number words.
    else if (w === "and" && run.length > 0 && isNumberWord(tokens[i + 1] ?? "") && run.at(-1) !== "and") continue;
    else flush();
  }
  flush();
  return out;
}
