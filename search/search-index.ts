/**
 * The one interface between the app and a full-text engine (PostgreSQL FTS by default, Elasticsearch at scale).
 * Articles' canonical rows always live in PostgreSQL (`articles`); an index holds only what it needs to rank.
 */

/** What an index reads of an article (columns of `articles`); tests and benchmarks build rows of this shape. */
export interface IndexableArticle {
  pmid: number;
  title: string | null;
  abstract: string | null;
  mesh_terms: string[];
  keywords: string[];
  publication_year: number | null;
}

import type { Concept } from "./concepts.ts";

/**
 * The deepest hit any adapter returns: skip + limit ≤ 10,000, Elasticsearch's default `index.max_result_window`.
 * Both adapters refuse deeper pages with a RangeError, so the app behaves alike on either (no caller pages that deep).
 */
export const MAX_RESULT_WINDOW = 10_000;

export interface SearchOptions {
  /** Number of hits to skip, ≥ 0; skip + limit ≤ MAX_RESULT_WINDOW. */
  skip?: number;
  /** Maximum hits to return, 1..1000. */
  limit?: number;
  /** Inclusive publication-year range. */
  fromYear?: number;
  toYear?: number;
  /**
   * Coverage (docs/decisions/0014-topic-coverage.md): only articles that cover EVERY concept — contain at least one
   * of its alternatives, each matched as a phrase with the index's text analysis, in title, abstract, MeSH headings
   * or keywords — are hits, still ranked by the query's BM25F score; the total is then exact
   * (`totalIsLowerBound` false). A concept whose alternatives are all stop words or empty is ignored; an empty list
   * means no restriction. Every adapter implements the same rule (see the contract tests).
   */
  requireAll?: readonly Concept[];
}

export interface SearchHit {
  pmid: number;
  /** Relevance score; higher is better; only comparable within one result set. */
  score: number;
}

export interface SearchResult {
  hits: SearchHit[];
  /** Number of matching articles (may be capped by the adapter; see `totalIsLowerBound`). */
  total: number;
  totalIsLowerBound: boolean;
}

/** Whether an index that runs as a service of its own can serve searches now. */
export interface SearchHealth {
  available: boolean;
  /** Why not, for the operator's log (names the service; never shown to users). */
  reason?: string;
}

export interface SearchIndex {
  /**
   * Adds or replaces these articles in the index, reading them from `articles` (PMIDs not there are ignored).
   * The ingest upserts a batch, then passes the PMIDs that changed.
   */
  index(pmids: number[]): Promise<void>;
  /** Removes these PMIDs; unknown PMIDs are ignored. */
  delete(pmids: number[]): Promise<void>;
  /**
   * Ends a bulk load: work the adapter deferred while indexing (PostgreSQL's GIN pending lists, an
   * Elasticsearch refresh) is done now, so searches are fast and see every indexed article.
   */
  refresh(): Promise<void>;
  /** Ranked PMIDs for a free-text query. An empty or stop-word-only query returns no hits. */
  search(query: string, options?: SearchOptions): Promise<SearchResult>;
  /** Articles most similar to a profile text (research interests, liked abstracts), excluding `excludePmids`. */
  similar(profileText: string, options?: SearchOptions & { excludePmids?: number[] }): Promise<SearchResult>;
  /**
   * The state of an engine that runs apart from the database (Elasticsearch), for the health check; absent on an
   * index inside the database, whose health is the database's. Answers quickly and never throws.
   */
  health?(): Promise<SearchHealth>;
}
