/**
 * Scoring of sentence candidates: BM25 relevance to the query (Robertson & Zaragoza 2009, k1 = 1.2, b = 0.75, every
 * sentence a document), query-term coverage and how well the whole article covers the query; and the tf-idf vectors
 * (Salton & Buckley 1988) that selection compares sentences with.
 */
import type { ArticleTerms, Candidate } from "./candidates.ts";
import { answersQuestion, excludedConcept, questionType, topicConcepts } from "./fidelity.ts";

const W_RELEVANCE = 0.55;
/**
 * Bonus of a sentence that answers the topic's question type (a diagnostic finding for a diagnosis topic): about a
 * tenth of the relevance weight, enough to decide between near-equals, not to lift an off-topic sentence.
 */
const W_ANSWER = 0.05;
/**
 * Weight of the share of the topic's concepts a sentence itself names (issue 37 item 5: key findings ranked by how
 * they answer the topic): a finding that names the topic's concepts answers it; one that names none (a cohort's
 * marital status in a bracing review) is about something else, whatever its article covers. About a fifth of the
 * relevance weight: it reorders near-equals and sinks sentences that name nothing of the topic.
 */
const W_CONCEPTS = 0.12;

/** Cost of a sentence from an article that excludes the topic: larger than any score, so it always loses. */
const EXCLUDES_TOPIC_PENALTY = 2;

/** Adds BM25 relevance and coverage to each candidate's score and fills its tf-idf vector. */
export function scoreCandidates(candidates: Candidate[], query: string[]): void {
  const n = candidates.length;
  const df = new Map<string, number>();
  let totalLength = 0;
  for (const c of candidates) {
    totalLength += c.length;
    for (const t of c.tf.keys()) df.set(t, (df.get(t) ?? 0) + 1);
  }
  const avgLength = totalLength / Math.max(1, n);
  const idf = (t: string) => {
    const d = df.get(t) ?? 0;
    return Math.log(1 + (n - d + 0.5) / (d + 0.5));
  };
  const queryIdf = query.map((t) => [t, idf(t)] as const).filter(([, w]) => w > 0);
  const queryIdfSum = queryIdf.reduce((s, [, w]) => s + w, 0);
  const k1 = 1.2;
  const b = 0.75;
  const bm25 = candidates.map((c) => {
    let s = 0;
    let covered = 0;
    for (const [t, w] of queryIdf) {
      const f = c.tf.get(t) ?? 0;
      if (f === 0) continue;
      covered += w;
      s += (w * f * (k1 + 1)) / (f + k1 * (1 - b + (b * c.length) / Math.max(1, avgLength)));
    }
    return { s, coverage: queryIdfSum > 0 ? covered / queryIdfSum : 0 };
  });
  const maxBm25 = Math.max(0, ...bm25.map((x) => x.s));
  const termIds = new Map<string, number>();
  // How much of the query the whole article covers, title first: a sentence
  // that mentions the query's words in passing inside an article about
  // something else ("… NPC was a risk factor for hypothyroidism") should lose
  // to one from an article about the topic.
  const articleRelevance = new Map<ArticleTerms, number>();
  const articleCoverage = (terms: ArticleTerms) => {
    let r = articleRelevance.get(terms);
    if (r === undefined) {
      let inTitle = 0;
      let inAbstract = 0;
      for (const [t, w] of queryIdf) {
        if (terms.title.has(t)) inTitle += w;
        if (terms.abstract.has(t)) inAbstract += w;
      }
      r = queryIdfSum > 0 ? (0.6 * inTitle + 0.4 * inAbstract) / queryIdfSum : 0;
      articleRelevance.set(terms, r);
    }
    return r;
  };
  candidates.forEach((c, i) => {
    const { s, coverage } = bm25[i] ?? { s: 0, coverage: 0 };
    c.articleRelevance = articleCoverage(c.articleTerms);
    c.relevance = maxBm25 > 0 ? 0.35 * (s / maxBm25) + 0.35 * coverage + 0.3 * c.articleRelevance : 0;
    c.score += W_RELEVANCE * c.relevance;
    // Sparse unit vector with (1 + log tf)·idf weights (Salton & Buckley
    // 1988), ids sorted so two vectors are compared by a merge.
    const entries = [...c.tf].map(([t, f]) => {
      let id = termIds.get(t);
      if (id === undefined) {
        id = termIds.size;
        termIds.set(t, id);
      }
      return [id, (1 + Math.log(f)) * idf(t)] as const;
    });
    entries.sort((x, y) => x[0] - y[0]);
    const norm = Math.sqrt(entries.reduce((sum, [, w]) => sum + w * w, 0)) || 1;
    c.vectorIds = Int32Array.from(entries, ([id]) => id);
    c.vectorWeights = Float64Array.from(entries, ([, w]) => w / norm);
  });
}

/**
 * Topic fidelity (fidelity.ts), after scoreCandidates: a sentence from an article that mentions a concept of the
 * topic only where it excludes or negates it ("spinal … infections were all excluded" for "vertebral osteomyelitis")
 * gets relevance 0, is no finding and drops below every other sentence, so the summarizer does not quote it while
 * anything else is on topic; a sentence that answers the topic's question type gets a small bonus and is marked
 * (`answers`) for the overview.
 * @param query The user's topic as typed; its concepts are read with search/concepts.ts readTopic.
 */
export function applyTopicFidelity(candidates: Candidate[], query: string): void {
  const concepts = topicConcepts(query);
  const type = questionType(query);
  const excludes = new Map<ArticleTerms, boolean>();
  for (const c of candidates) {
    let out = excludes.get(c.articleTerms);
    if (out === undefined) {
      out = excludedConcept(concepts, c.articleTerms.scoped) !== null;
      excludes.set(c.articleTerms, out);
    }
    if (out) {
      c.relevance = 0;
      c.finding = false;
      c.score -= EXCLUDES_TOPIC_PENALTY;
      continue;
    }
    if (concepts.length > 0 && c.relevance > 0) {
      const named = concepts.filter((k) => k.alternatives.some((alt) => alt.every((t) => c.tf.has(t)))).length;
      c.score += W_CONCEPTS * (named / concepts.length - 0.5);
    }
    if (type !== null && c.relevance > 0 && answersQuestion(type, c.text)) {
      c.answers = true;
      c.score += W_ANSWER;
    }
  }
}

/** Cosine similarity of two candidates' tf-idf vectors, 0..1. */
export function similarity(a: Candidate, b: Candidate): number {
  const ai = a.vectorIds;
  const bi = b.vectorIds;
  const aw = a.vectorWeights;
  const bw = b.vectorWeights;
  let i = 0;
  let j = 0;
  let dot = 0;
  while (i < ai.length && j < bi.length) {
    const x = ai[i] as number;
    const y = bi[j] as number;
    if (x === y) dot += (aw[i++] as number) * (bw[j++] as number);
    else if (x < y) i++;
    else j++;
  }
  return dot;
}

/** Deterministic order: higher score, then better-ranked article, then earlier sentence. */
export function byScore(a: Candidate, b: Candidate): number {
  return b.score - a.score || a.article - b.article || a.index - b.index;
}
