/**
 * Comparative topics (issue 37 item 4): "A versus B", "A vs B", "A vs. B", "A compared with B", "A compared to B",
 * "A or B for …" is not read as one (too often a list). The opening first says whether any cited study compares A with
 * B, citing those that do, and says so in those words when none does. A study compares A with B when one sentence of
 * its abstract names both (each by all of its content words, word forms aside), or its intervention and comparator
 * spans name them. Pure.
 */
import { lightStem, words } from "../../../search/words.ts";

/** The two sides of a comparative topic, as typed. */
export interface Comparison {
  a: string;
  b: string;
}

const SPLIT = /\s+(?:versus|vs\.?|v\.|compared (?:with|to)|in comparison (?:with|to))\s+/iu;
// Words that do not name a side: articles, prepositions, question words ("Is A better than B?").
const FILLER = new Set(
  "a an the of for in on with without and to is are does do which what better worse than patients".split(" "),
);

/** Content stems of a side ("posterior lumbar fusion" → ["posterior", "lumbar", "fusion"]). */
function stems(text: string): string[] {
  return words(text)
    .filter((w) => !FILLER.has(w))
    .map(lightStem);
}

/**
 * The comparison a topic asks about, or null when it asks none. Each side is cut at the first comma or "for"/"in"
 * clause ("decompression versus fusion for lumbar stenosis" → decompression | fusion).
 */
export function parseComparison(topic: string): Comparison | null {
  const parts = topic.split(SPLIT);
  if (parts.length !== 2) return null;
  const clean = (s: string) =>
    s
      .replace(/^[\s"'(]*(?:is|are|does|do|should|which is better,?)\s+/iu, "")
      .split(/[,;:?]|\s+(?:for|in|among|to treat|after|with)\s+/iu)
      .map((x) => x.trim())
      .filter(Boolean);
  const left = clean(parts[0] as string);
  const right = clean(parts[1] as string);
  const a = left[left.length - 1] ?? "";
  const b = right[0] ?? "";
  if (stems(a).length === 0 || stems(b).length === 0) return null;
  return { a, b };
}

/**
 * Whether every content stem of `side` occurs in the stems of `text` (as a word or a word's start: "fus" → "fusion").
 */
function names(textStems: ReadonlySet<string>, side: readonly string[]): boolean {
  return side.every((s) => textStems.has(s) || [...textStems].some((t) => t.length > s.length && t.startsWith(s)));
}

/**
 * Whether an abstract's sentences (or its intervention and comparator spans) name both sides of the comparison.
 * @param sentences The abstract's sentences.
 * @param arms The study's intervention and comparator spans (either may be null).
 */
export function comparesSides(
  comparison: Comparison,
  sentences: readonly string[],
  arms: { intervention: string | null; comparator: string | null } = { intervention: null, comparator: null },
): boolean {
  const a = stems(comparison.a);
  const b = stems(comparison.b);
  for (const s of sentences) {
    const set = new Set(stems(s));
    if (names(set, a) && names(set, b)) return true;
  }
  if (arms.intervention && arms.comparator) {
    const i = new Set(stems(arms.intervention));
    const c = new Set(stems(arms.comparator));
    if ((names(i, a) && names(c, b)) || (names(i, b) && names(c, a))) return true;
  }
  return false;
}
