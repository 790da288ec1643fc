/**
 * Citation numbers in order of first use (issue 37 item 6): the articles a summary cites are listed in citation
 * order, so [1] is the first article the text cites, [2] the next new one, and so on (docs/product.md §3:
 * `articles_refs` are the cited articles in citation order). A summary assembled from parts (the opening counted from
 * the evidence table, then the summarizer's text) is renumbered as a whole once it is assembled. Pure.
 */
import { citedNumbers, mapCitations } from "./citation-grammar.ts";

/** A summary renumbered by first use, its cited PMIDs in the new order, and old number → new number. */
export interface Renumbered {
  text: string;
  pmids: number[];
  mapping: Map<number, number>;
}

/**
 * Renumbers `text`'s citations by order of first use.
 * @param text Summary text whose [n] points at `pmids[n - 1]`.
 * @param pmids The cited PMIDs in the text's current numbering.
 * @returns the text with every citation rewritten (within one citation, numbers ascending), the PMIDs reordered so
 *   that `pmids[n - 1]` is the article now cited as [n], and the mapping. A PMID the text never cites keeps its place
 *   after the cited ones, in its old order. @throws Error when the text cites a number with no PMID (a bug upstream).
 */
export function renumberByFirstUse(text: string, pmids: readonly number[]): Renumbered {
  const mapping = new Map<number, number>();
  for (const n of citedNumbers(text)) {
    if (n < 1 || n > pmids.length) throw new Error(`summary cites [${n}] but only ${pmids.length} articles are cited`);
    if (!mapping.has(n)) mapping.set(n, mapping.size + 1);
  }
  pmids.forEach((_, i) => {
    if (!mapping.has(i + 1)) mapping.set(i + 1, mapping.size + 1);
  });
  const reordered = new Array<number>(pmids.length);
  for (const [from, to] of mapping) reordered[to - 1] = pmids[from - 1] as number;
  const renumbered = mapCitations(text, (numbers) =>
    [...new Set(numbers.map((n) => mapping.get(n) ?? n))].sort((a, b) => a - b),
  );
  return { text: renumbered, pmids: reordered, mapping };
}

/** Whether `text` cites its articles in order of first use (each new number is one more than the last new one). */
export function inFirstUseOrder(text: string): boolean {
  let next = 1;
  for (const n of citedNumbers(text)) {
    if (n === next) next++;
    else if (n > next) return false;
  }
  return true;
}
