/**
 * Impact tiers (docs/decisions/0024-impact-tiers.md): how a query of several frequent words reads the documents where
 * all of them weigh heavily. Pure; the tokens are written by migration 2026_11_25_0201's `search_tiers()`.
 *
 * Every article carries a token 'lexeme level' for each lexeme whose BM25 impact in it (the term's saturation
 * tf·(k1+1)/(tf + k1·(1 − b + b·dl/avgdl)), below k1 + 1 = 2.2) is at least TIER_MIN_LEVEL / TIER_STEPS, with level =
 * floor(TIER_STEPS · impact): a quantised impact-ordered index (V. N. Anh & A. Moffat, "Impact transformations:
 * effective and efficient sparse retrieval", SIGIR 2002) kept in a GIN index. A query's words each have an impact list
 * (docs/decisions/0022-impact-ordered-postings.md) that holds every document where the word alone weighs more than
 * the list's floor; what the lists miss are the documents holding several words at impacts just under their floors.
 * The tiers read them in nested "boxes", best first: box k holds the documents where every word (or, for three or more
 * words, every word but one) is at most k levels under its floor's level, a conjunction of disjunctions of tokens that
 * the GIN index answers from its rarest group. This is the threshold algorithm over quantised impacts (R. Fagin, A.
 * Lotem & M. Naor, JCSS 66(4), 2003) with a bounded depth: the candidates are scored exactly afterwards.
 */
import { tsqueryLexeme } from "./query.ts";

/** Impact levels per unit of impact: a level is 0.05 wide. */
export const TIER_STEPS = 20;
/** Lowest level with tokens (impact ≥ 1.6): about a third of a frequent word's postings on the benchmark corpus. */
export const TIER_MIN_LEVEL = 32;
/** Highest level: impacts lie below k1 + 1 = 2.2. */
export const TIER_MAX_LEVEL = 43;
/** Most words of a query read through the tiers. */
export const MAX_TIER_TERMS = 4;
/** Boxes read at most. */
export const MAX_BOXES = 8;

/** A query term as the tiers see it. */
export interface TierTerm {
  lexeme: string;
  /** BM25 weight (idf · query-term weight): a document's score is Σ weight · impact. */
  weight: number;
  /** The impact list's floor (impact units): documents above it are in the list. */
  floor: number;
  /** df / N: the chance that a document holds the word at all. */
  share: number;
}

/** The token of a lexeme at a level, as stored. */
export function tierToken(lexeme: string, level: number): string {
  return `${lexeme} ${level}`;
}

/** The level of an impact. */
export function tierLevel(impact: number): number {
  return Math.floor(TIER_STEPS * impact);
}

/**
 * The tsquery texts of a query's boxes, best first (by the score a box's worst document can expect: each word at
 * its lowest level, a dropped word at the tiers' floor times its share). Empty for fewer than two or more than
 * MAX_TIER_TERMS terms. Boxes nest; the caller reads each box's documents not read before.
 */
export function tierBoxes(terms: readonly TierTerm[]): string[] {
  if (terms.length < 2 || terms.length > MAX_TIER_TERMS) return [];
  const top = terms.map((t) => Math.min(TIER_MAX_LEVEL, Math.max(TIER_MIN_LEVEL, tierLevel(t.floor))));
  const boxes: { query: string; expected: number }[] = [];
  const drops = terms.length >= 3 ? [-1, ...terms.map((_, j) => j)] : [-1];
  for (const dropped of drops) {
    for (let k = 0; k <= top.reduce((m, l) => Math.max(m, l - TIER_MIN_LEVEL), 0); k++) {
      let expected = 0;
      const groups: string[] = [];
      terms.forEach((t, i) => {
        if (i === dropped) {
          expected += t.weight * (TIER_MIN_LEVEL / TIER_STEPS) * Math.min(1, t.share);
          return;
        }
        const lowest = Math.max(TIER_MIN_LEVEL, top[i]! - k);
        expected += (t.weight * lowest) / TIER_STEPS;
        const tokens: string[] = [];
        for (let l = TIER_MAX_LEVEL; l >= lowest; l--) tokens.push(tsqueryLexeme(tierToken(t.lexeme, l)));
        groups.push(`(${tokens.join(" | ")})`);
      });
      boxes.push({ query: groups.join(" & "), expected });
    }
  }
  boxes.sort((a, b) => b.expected - a.expected);
  const seen = new Set<string>();
  return boxes
    .map((b) => b.query)
    .filter((q) => !seen.has(q) && seen.add(q))
    .slice(0, MAX_BOXES);
}
