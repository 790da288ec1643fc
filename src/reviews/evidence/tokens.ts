/**
 * Tokens of an abstract's sentence for the learned extractors: words, numbers and punctuation with their character
 * offsets. Numbers are read as abstracts write them (numbers.ts): thousands with commas or thin/normal spaces
 * ("1,532", "18 804"), decimals with a point or a middle dot, and counts in words ("Sixty-one", "One hundred and
 * five"), each one token with its value. Pure.
 */
import { NUMBER_WORDS, parseCount, parseDecimal } from "./numbers.ts";

export interface Token {
  /** The token as written. */
  text: string;
  /** Lowercased; a word's crude stem for features (see `stem`). */
  norm: string;
  kind: "number" | "word" | "punct";
  /** For numbers: the value (NaN never: tokens that do not parse are words). */
  value: number;
  /** True for a number written without a decimal part (digits or words). */
  integer: boolean;
  /** True for a number written in words. */
  words: boolean;
  start: number;
  end: number;
}

const TOKEN = new RegExp(
  [
    // A count in words, as one token ("Sixty-one", "one hundred and five").
    String.raw`(?<![\p{L}])(?:${NUMBER_WORDS})(?![\p{L}])`,
    // Digits: thousands groups (comma, thin space, or a space before exactly three digits), decimals.
    String.raw`\d{1,3}(?:[,\u2009\u202f]\d{3})+(?:[.·]\d+)?(?![\d])`,
    String.raw`\d{1,3}(?: \d{3})+(?![\d.,·])`,
    String.raw`\d+(?:[.·]\d+)?`,
    String.raw`[.·]\d+`,
    String.raw`[\p{L}][\p{L}\p{M}'’]*`,
    String.raw`[^\s\p{L}\d]`,
  ].join("|"),
  "giu",
);

/**
 * A word's feature form: lowercased, British -is- spellings as American ("randomised" → "randomized"), and a plural
 * "-s" dropped from words of more than four letters ("patients" → "patient"). Crude on purpose: features only need
 * the forms of one word to meet.
 */
export function stem(word: string): string {
  let w = word.toLowerCase().replace(/’/gu, "'");
  w = w.replace(/is(ed|ing|ation|e)$/u, "iz$1").replace(/ys(ed|ing|is)$/u, "yz$1");
  if (w.length > 4 && w.endsWith("s") && !w.endsWith("ss") && !w.endsWith("us") && !w.endsWith("is")) {
    w = w.slice(0, -1);
  }
  return w;
}

/** The tokens of `text`, in order. */
export function tokenize(text: string): Token[] {
  const out: Token[] = [];
  TOKEN.lastIndex = 0;
  for (let m = TOKEN.exec(text); m !== null; m = TOKEN.exec(text)) {
    const raw = m[0];
    const start = m.index;
    const end = start + raw.length;
    if (/^\d|^[.·]\d/u.test(raw)) {
      const grouped = /^\d{1,3}(?:[, \u2009\u202f]\d{3})+(?:[.·]\d+)?$/u.test(raw);
      const value = grouped ? parseDecimal(raw.replace(/[, \u2009\u202f]/gu, "")) : parseDecimal(raw);
      out.push({
        text: raw,
        norm: "<num>",
        kind: "number",
        value,
        integer: (grouped && !/[.·]/u.test(raw)) || /^\d+$/u.test(raw),
        words: false,
        start,
        end,
      });
    } else if (/^\p{L}/u.test(raw)) {
      const value = parseCount(raw);
      if (Number.isInteger(value) && /[\p{L}]/u.test(raw) && !/^(?:and)$/iu.test(raw)) {
        out.push({ text: raw, norm: "<num>", kind: "number", value, integer: true, words: true, start, end });
      } else {
        out.push({
          text: raw,
          norm: stem(raw),
          kind: "word",
          value: Number.NaN,
          integer: false,
          words: false,
          start,
          end,
        });
      }
    } else {
      out.push({ text: raw, norm: raw, kind: "punct", value: Number.NaN, integer: false, words: false, start, end });
    }
  }
  return out;
}
