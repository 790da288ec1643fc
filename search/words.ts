/**
 * Words of titles and queries for re-ranking and concept matching (search/ranking.ts, search/concepts.ts): tokens,
 * function words and a light suffix stripping. The extractive summarizer has its own, more conflating stemmer
 * (src/reviews/summary/terms.ts), tuned for matching sentences to a query; this one only has to match a query's
 * words with a title's.
 */

/** Function words left out of a text's content terms. */
const STOP_WORDS = new Set(
  (
    "a an and are as at be been but by can do does did for from has have how in into is it its of on or " +
    "than that the their there these this those to was were what when where which who whom why will with " +
    "within without versus vs"
  ).split(" "),
);

/**
 * Lower-cased words of a text with diacritics removed, split on anything that is not a letter or digit.
 */
export function words(text: string): string[] {
  return text
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/**
 * A light English suffix stripping (plural -s/-es/-ies, -ing, -ed), enough to match "infections" with
 * "infection" or "treated" with "treating" in a title; not the Porter stemmer.
 */
export function lightStem(word: string): string {
  let w = word;
  if (w.length > 4 && w.endsWith("ies")) w = `${w.slice(0, -3)}y`;
  else if (w.length > 4 && w.endsWith("sses")) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith("s") && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1);
  if (w.length > 5 && w.endsWith("ing")) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith("ed")) w = w.slice(0, -2);
  return w;
}

/** Content words of a text (stop words out), lightly stemmed, without repeats. */
export function contentTerms(text: string): string[] {
  return [
    ...new Set(
      words(text)
        .filter((w) => !STOP_WORDS.has(w))
        .map(lightStem),
    ),
  ];
}
