import type { estypes } from "@elastic/elasticsearch";

/**
 * The profile terms `similar()` queries, chosen with the whole index's statistics.
 *
 * The term vectors API gives an artificial document's terms with the statistics of ONE shard (its reference: "The
 * information is only retrieved for the shard the requested document resides in"; "when requesting term vectors of
 * artificial documents, a shard to get the statistics from is randomly selected"; in the 9.x source it is the
 * lowest-numbered shard, on whichever of its copies adaptive replica selection picks per request, and copies differ in
 * the deleted documents their statistics still count). So its `filter` (TermVectorsFilter,
 * the second phase of "more like this") scores each term against a third of the corpus at 3 shards, and a term whose
 * articles all sit on other shards has a document frequency of 0 there and is dropped. Instead the adapter asks every
 * shard for the profile's term statistics without a filter (`preference=_shards:N`) and applies the same filter to
 * their sums, as `dfs_query_then_fetch` sums shard statistics before scoring a search:
 *   score(t) = tf(t, profile) × idf(t), idf(t) = 1 + ln((docCount + 1) / (docFreq + 1))
 * with Lucene's ClassicSimilarity idf (TermVectorsFilter.computeScore), docFreq(t) and docCount (the documents that
 * have the field) summed over the shards. Ties go to the term that sorts first, so the choice is the same on every
 * call while the index does not change. One residue with replicas: each shard's copy is still chosen per request
 * (adaptive replica selection; the search API documents `_shards` combined with `_local` or node preferences, not
 * with a custom string), and copies hold the same documents but count the deleted ones not yet merged away
 * differently, so two terms whose scores are that close may swap places.
 */

/** TermVectorsFilter's settings that `similar()` uses (Elasticsearch's names: max_num_terms…). */
export interface ProfileTermFilter {
  /** Terms kept, the best first. */
  maxTerms: number;
  /** Least occurrences in the profile. */
  minTermFreq: number;
  /** Least documents holding the term in the whole index (at least 1: a term no article holds finds nothing). */
  minDocFreq: number;
}

/** Lucene's ClassicSimilarity idf (TFIDFSimilarity), as TermVectorsFilter scores with it. */
export function classicIdf(docFreq: number, docCount: number): number {
  return 1 + Math.log((docCount + 1) / (docFreq + 1));
}

/**
 * The profile's best terms from its term vectors on each shard (one field's, `term_statistics` and `field_statistics`
 * on, no `filter`): statistics summed over the shards, scored and filtered as above. A shard that answered no
 * vector (no document has the field yet) adds nothing.
 * @returns up to `filter.maxTerms` terms, the best first.
 */
export function selectProfileTerms(
  shards: readonly (estypes.TermvectorsTermVector | undefined)[],
  filter: ProfileTermFilter,
): string[] {
  let docCount = 0;
  const termFreq = new Map<string, number>();
  const docFreq = new Map<string, number>();
  for (const shard of shards) {
    if (!shard) continue;
    docCount += shard.field_statistics?.doc_count ?? 0;
    for (const [term, stats] of Object.entries(shard.terms)) {
      // The profile is the same document on every shard: its term frequencies are too.
      termFreq.set(term, stats.term_freq);
      docFreq.set(term, (docFreq.get(term) ?? 0) + (stats.doc_freq ?? 0));
    }
  }
  const minDocFreq = Math.max(1, filter.minDocFreq);
  return [...termFreq]
    .filter(([term, tf]) => tf >= filter.minTermFreq && (docFreq.get(term) ?? 0) >= minDocFreq)
    .map(([term, tf]) => ({ term, score: tf * classicIdf(docFreq.get(term)!, docCount) }))
    .sort((a, b) => b.score - a.score || (a.term < b.term ? -1 : 1))
    .slice(0, filter.maxTerms)
    .map((t) => t.term);
}
