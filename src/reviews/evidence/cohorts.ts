/**
 * Cited studies that report one cohort (issue 33 item 1): the same patients published twice, in another language or
 * another journal, under different words, which the duplicate-record check (duplicates.ts) cannot see because their
 * texts differ. Two cited studies are taken to report one cohort when they state the same number of participants and
 * most of the other numbers of their abstracts are the same: the resemblance (Jaccard coefficient) of the sets of
 * numbers they state is at least SAME_NUMBERS, over at least MIN_NUMBERS numbers each. Translations keep the numbers
 * while changing every word; two different studies of the same size share few of their other numbers. The opening
 * then counts such a cohort's participants once. Pure.
 */
import type { SummaryArticle } from "../summary/types.ts";
import { tokenize } from "./tokens.ts";

/** Resemblance of two abstracts' number sets at or above which the same participant count means the same cohort. */
export const SAME_NUMBERS = 0.5;
/** Fewest distinct numbers an abstract must state for the comparison to mean anything. */
export const MIN_NUMBERS = 5;

/** The distinct numbers an abstract states, as written values (years and single digits left out: too common). */
function numbersOf(article: SummaryArticle): Set<number> {
  const text =
    article.abstract ??
    (Array.isArray(article.abstract_sections) ? article.abstract_sections.map((s) => s.text).join(" ") : "");
  const out = new Set<number>();
  for (const t of tokenize(text)) {
    if (t.kind !== "number" || t.words) continue;
    if (t.integer && (t.value < 10 || (t.value >= 1900 && t.value <= 2035))) continue;
    out.add(t.value);
  }
  return out;
}

function resemblance(a: ReadonlySet<number>, b: ReadonlySet<number>): number {
  let shared = 0;
  for (const x of a) if (b.has(x)) shared++;
  return shared / (a.size + b.size - shared);
}

/**
 * For each cited study, the citation numbers of the other cited studies that report the same cohort.
 * @param cited The cited articles in citation order (cited[n - 1] is [n]).
 * @param participants Each one's participant count as the evidence table reads it (null: not stated).
 * @returns citation → the others' citations, ascending; only studies with such others appear.
 */
export function sameCohorts(
  cited: readonly SummaryArticle[],
  participants: readonly (number | null)[],
): Map<number, number[]> {
  const numbers = cited.map(numbersOf);
  const out = new Map<number, number[]>();
  for (let i = 0; i < cited.length; i++) {
    for (let j = i + 1; j < cited.length; j++) {
      const n = participants[i];
      if (n === null || n === undefined || n !== participants[j]) continue;
      const a = numbers[i] as Set<number>;
      const b = numbers[j] as Set<number>;
      if (a.size < MIN_NUMBERS || b.size < MIN_NUMBERS || resemblance(a, b) < SAME_NUMBERS) continue;
      out.set(i + 1, [...(out.get(i + 1) ?? []), j + 1]);
      out.set(j + 1, [...(out.get(j + 1) ?? []), i + 1]);
    }
  }
  for (const [k, v] of out)
    out.set(
      k,
      [...new Set(v)].sort((x, y) => x - y),
    );
  return out;
}
