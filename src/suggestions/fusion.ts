/**
 * Weighted reciprocal rank fusion of the candidate lists of a profile's sources (Cormack, Clarke & Büttcher 2009,
 * "Reciprocal rank fusion outperforms Condorcet and individual rank learning methods", SIGIR): an article's score is
 * Σ_sources weight / (k + rank), rank from 1. Ranks, not BM25 scores, are fused: scores of different queries are
 * not on one scale (a long liked abstract scores higher than a three-word interest), ranks are. Pure.
 */

/** The constant of RRF; 60 is the paper's value, and ranks past a few dozen then matter little. */
export const RRF_K = 60;

/** One source's ranked PMIDs, best first. */
export interface RankedList<S> {
  source: S;
  weight: number;
  pmids: readonly number[];
}

/** What one source gave a fused candidate: its rank in that source's list (from 1) and weight / (k + rank). */
export interface Contribution<S> {
  source: S;
  rank: number;
  contribution: number;
}

/**
 * A fused candidate: its score, the source that contributed most to it (the why-line's reason), and every source's
 * contribution (which interest ranked it where: the per-interest quota of coverage.ts reads them). A candidate built
 * by hand may leave `contributions` out: it then counts as ranked first by `best` alone.
 */
export interface FusedCandidate<S> {
  pmid: number;
  score: number;
  best: S;
  contributions?: Contribution<S>[];
}

/**
 * Fuses ranked lists into one ranking, best first (ties: smaller PMID first, for a stable order).
 * @param exclude PMIDs never returned (liked, recently suggested).
 */
export function fuseRankings<S>(
  lists: readonly RankedList<S>[],
  exclude: ReadonlySet<number> = new Set(),
  k = RRF_K,
): FusedCandidate<S>[] {
  type Entry = { score: number; best: S; bestContribution: number; contributions: Contribution<S>[] };
  const fused = new Map<number, Entry>();
  for (const list of lists) {
    list.pmids.forEach((pmid, i) => {
      if (exclude.has(pmid)) return;
      const contribution = list.weight / (k + i + 1);
      const entry = fused.get(pmid);
      const given = { source: list.source, rank: i + 1, contribution };
      if (!entry) {
        fused.set(pmid, {
          score: contribution,
          best: list.source,
          bestContribution: contribution,
          contributions: [given],
        });
      } else {
        entry.score += contribution;
        entry.contributions.push(given);
        if (contribution > entry.bestContribution) {
          entry.best = list.source;
          entry.bestContribution = contribution;
        }
      }
    });
  }
  return [...fused.entries()]
    .map(([pmid, e]) => ({ pmid, score: e.score, best: e.best, contributions: e.contributions }))
    .sort((a, b) => b.score - a.score || a.pmid - b.pmid);
}
