import type { SearchIndex, SearchOptions, SearchResult } from "./search-index.ts";

export const NOT_IMPLEMENTED =
  "The Elasticsearch adapter is not implemented yet; unset ELASTICSEARCH_URL to use PostgreSQL full-text search";

/**
 * The scale adapter for corpora beyond what PostgreSQL full-text search serves comfortably (the full
 * PubMed baseline, tens of millions of records). Not implemented yet: every method throws.
 *
 * Intended design, so that the contract is clear when it is written:
 * - A versioned index (`articles_v1`, `articles_v2`, …) behind an alias (`articles`): a mapping change is
 *   a new index filled in the background, then an atomic alias swap, so searches never see a half-built
 *   index.
 * - Fields `title`, `abstract` and `mesh` (MeSH terms and keywords) with the `english` analyzer, plus
 *   `publication_year` as an integer for the range filter; only what ranking needs is stored (canonical
 *   rows stay in PostgreSQL, as with the default adapter).
 * - Ranking: Elasticsearch's BM25 similarity (k1 = 1.2, b = 0.75) through a `multi_match` over the three
 *   fields with boosts title^3, mesh^1.5, abstract^1 (the field weights of the PostgreSQL adapter, see
 *   `query.ts`), OR semantics, `track_total_hits` capped for broad queries; `similar()` as a
 *   `more_like_this` query excluding the given PMIDs.
 * - `index(pmids)` reads the rows from `articles` and writes them through the client's bulk helper in
 *   batches, with `delete` actions for deleted PMIDs; `refresh()` is the index refresh.
 */
export class ElasticsearchSearchIndex implements SearchIndex {
  /** @param options.node the Elasticsearch URL (ELASTICSEARCH_URL). */
  constructor(readonly options: { node: string }) {}

  /** @throws Error always: not implemented yet. */
  async index(_pmids: number[]): Promise<void> {
    throw new Error(NOT_IMPLEMENTED);
  }

  /** @throws Error always: not implemented yet. */
  async delete(_pmids: number[]): Promise<void> {
    throw new Error(NOT_IMPLEMENTED);
  }

  /** @throws Error always: not implemented yet. */
  async refresh(): Promise<void> {
    throw new Error(NOT_IMPLEMENTED);
  }

  /** @throws Error always: not implemented yet. */
  async search(_query: string, _options?: SearchOptions): Promise<SearchResult> {
    throw new Error(NOT_IMPLEMENTED);
  }

  /** @throws Error always: not implemented yet. */
  async similar(_profileText: string, _options?: SearchOptions & { excludePmids?: number[] }): Promise<SearchResult> {
    throw new Error(NOT_IMPLEMENTED);
  }
}
