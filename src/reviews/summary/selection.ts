/**
 * Selection of summary sentences with maximal marginal relevance (Carbonell & Goldstein 1998, λ = 0.7) under a cap
 * per article, so the summary covers several articles instead of repeating the best one.
 */
import type { Candidate } from "./candidates.ts";
import { byScore, similarity } from "./scoring.ts";
import type { ExtractiveOptions } from "./types.ts";

// A candidate whose score is below this fraction of the best one is not worth
// a reader's time even if the summary is still short.
const MIN_SCORE_FRACTION = 0.3;

// How many of the best-scoring sentences MMR re-ranks.
const MMR_POOL = 150;

/**
 * Most articles one sentence cites (its source and up to two others that state it almost word for word). Records of
 * the same work are grouped before the summarizer runs (src/reviews/evidence/duplicates.ts), but abstracts that share
 * boilerplate sentences, or copies the grouping missed, must still not make a sentence read "[1, 2, 3, … 30]"
 * (issue 21): a reader takes three numbers as "several studies say so"; more add nothing but noise.
 */
export const MAX_SOURCES_PER_SENTENCE = 3;

/** The numbers a sentence states ("82%", "P = .036", "r = 0.20"), as written. */
function numbersOf(text: string): string[] {
  return text.match(/\d+(?:[.·,]\d+)*/gu) ?? [];
}

/**
 * Whether another article's sentence may be cited beside `sentence` (issue 37 item 5: a sentence is cited to the one
 * study whose numbers it gives): a sentence without numbers may be supported by a near-copy; one with numbers only by
 * a sentence that states every one of them.
 */
function statesSameNumbers(sentence: string, other: string): boolean {
  const mine = numbersOf(sentence);
  if (mine.length === 0) return true;
  const theirs = new Set(numbersOf(other));
  return mine.every((n) => theirs.has(n));
}

export interface Selected {
  candidate: Candidate;
  /** Input indices of the articles that state this sentence; the source first. */
  sources: number[];
}

/**
 * Maximal marginal relevance selection (Carbonell & Goldstein 1998): repeatedly
 * take the candidate maximising λ·score − (1 − λ)·max similarity to what is
 * already taken, scores normalised to 0..1 so both terms are comparable.
 */
export function selectMmr(candidates: Candidate[], opts: Required<ExtractiveOptions>): Selected[] {
  const selected: Selected[] = [];
  if (candidates.length === 0) return selected;
  const maxScore = Math.max(...candidates.map((c) => c.score));
  const floor = maxScore - (1 - MIN_SCORE_FRACTION) * Math.abs(maxScore);
  // Like Carbonell & Goldstein, re-rank only the head of the list: with a
  // dozen sentences to pick from ~50 articles, a sentence below the top
  // MMR_POOL practically never wins, and the similarity updates stay cheap.
  const pool = candidates
    .filter((c) => c.score >= floor)
    .sort(byScore)
    .slice(0, MMR_POOL);
  const minScore = Math.min(...pool.map((c) => c.score));
  const span = maxScore - minScore || 1;
  const relevance = pool.map((c) => (c.score - minScore) / span);
  const maxSim = new Float64Array(pool.length); // similarity to the closest selected sentence
  const taken = new Uint8Array(pool.length);
  const perArticle = new Map<number, number>();
  while (selected.length < opts.maxSentences) {
    let best = -1;
    let bestValue = -Infinity;
    for (let i = 0; i < pool.length; i++) {
      if (taken[i] === 1 || (perArticle.get((pool[i] as Candidate).article) ?? 0) >= opts.maxPerArticle) continue;
      const value = opts.lambda * (relevance[i] as number) - (1 - opts.lambda) * (maxSim[i] as number);
      // Strictly greater: the pool is in byScore order, so ties go to the earlier one.
      if (value > bestValue) {
        best = i;
        bestValue = value;
      }
    }
    if (best < 0) break;
    taken[best] = 1;
    const chosen = pool[best] as Candidate;
    const duplicate = selected.find((s) => similarity(s.candidate, chosen) >= opts.duplicateThreshold);
    if (duplicate !== undefined) {
      // The same statement again: cite its article beside the first source
      // instead of repeating the sentence.
      if (
        !duplicate.sources.includes(chosen.article) &&
        duplicate.sources.length < MAX_SOURCES_PER_SENTENCE &&
        statesSameNumbers(duplicate.candidate.text, chosen.text)
      ) {
        duplicate.sources.push(chosen.article);
      }
      continue;
    }
    selected.push({ candidate: chosen, sources: [chosen.article] });
    perArticle.set(chosen.article, (perArticle.get(chosen.article) ?? 0) + 1);
    for (let i = 0; i < pool.length; i++) {
      if (taken[i] === 1) continue;
      const sim = similarity(pool[i] as Candidate, chosen);
      if (sim > (maxSim[i] as number)) maxSim[i] = sim;
    }
  }
  // Other articles that state a selected sentence almost word for word support
  // it as well: cite them too.
  for (const s of selected) {
    for (const c of pool) {
      if (s.sources.length >= MAX_SOURCES_PER_SENTENCE) break;
      if (s.sources.includes(c.article) || c.relevance === 0 || !statesSameNumbers(s.candidate.text, c.text)) continue;
      if (similarity(s.candidate, c) >= opts.duplicateThreshold) s.sources.push(c.article);
    }
  }
  return selected;
}
