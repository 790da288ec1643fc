import { errors as esErrors, type Client } from "@elastic/elasticsearch";
import type { Database } from "../src/db/database.ts";
import {
  MAX_RESULT_WINDOW,
  type SearchHit,
  type SearchIndex,
  type SearchOptions,
  type SearchResult,
} from "./search-index.ts";
import { FIELD_WEIGHTS, parseQuery } from "./query.ts";
import { hasIndexableWord } from "./elasticsearch/analysis.ts";
import { bulkWrite, type BulkAction } from "./elasticsearch/bulk.ts";
import { createClient, describeConnectionError, type ConnectionOptions } from "./elasticsearch/connection.ts";
import { DEFAULT_LAYOUT, MAPPING_VERSION, type IndexLayout } from "./elasticsearch/mapping.ts";
import { createVersion, nextVersionName, readyToServe, swapAlias } from "./elasticsearch/versions.ts";

export { MAPPING_VERSION, indexDefinition } from "./elasticsearch/mapping.ts";

/**
 * The SearchIndex on Elasticsearch (ELASTICSEARCH_URL), for corpora past what PostgreSQL full-text search serves
 * comfortably (docs/scaling.md, docs/decisions/0015-elasticsearch-index.md). Canonical rows stay in PostgreSQL
 * (`articles`); the index holds what ranking needs.
 *
 * - A versioned index (`<alias>-v1`, `<alias>-v2`, …) behind an alias: `npm run search:reindex` fills a new version
 *   from the articles table while the old one serves (no replicas, no refresh during the load), restores the serving
 *   settings, then swaps the alias in one checked request (elasticsearch/versions.ts). Reads and writes go through the
 *   alias, writes with `require_alias` so that a missing alias fails instead of auto-creating an index of its name.
 *   The mapping's `_meta.litreview_mapping_version` must equal MAPPING_VERSION (`check()` says what is wrong at start).
 * - Text analysis aligned with PostgreSQL's `english` configuration: its stop words and Snowball English stemmer
 *   (elasticsearch/analysis.ts). Ranking is BM25F across the fields through `combined_fields` with the PostgreSQL
 *   adapter's field weights (title 3, MeSH and keywords 1.5, abstract 1: search/query.ts FIELD_WEIGHTS); a quoted
 *   phrase ranks higher, `-word` excludes, as in parseQuery.
 * - Coverage (SearchOptions.requireAll, docs/decisions/0014-topic-coverage.md): a filter, one `should` group per
 *   concept of `match_phrase` on each field, so only articles covering every concept are hits; the total is then
 *   exact (`track_total_hits: true`). Alternatives made only of stop words are left out (a `match_phrase` that
 *   analyses to nothing matches no document), and a concept left with none restricts nothing, as the contract says.
 * - `similar()` picks the profile's most distinctive terms as "more like this" does (the term vectors API's tf-idf
 *   filter on an artificial document), then queries them with `combined_fields`, so the field weights apply as in
 *   `search()` and in the PostgreSQL adapter.
 * - Writes: `client.bulk` with retries of whole-request and per-document 429s (elasticsearch/bulk.ts); documents it
 *   could not write make `index()`/`delete()` throw an error naming their PMIDs.
 * - Paging stops at MAX_RESULT_WINDOW (Elasticsearch's `index.max_result_window`), for both adapters.
 * Responses follow Elasticsearch 9.x (the client is @elastic/elasticsearch 9).
 */

/** The alias searched and written when ELASTICSEARCH_INDEX is not set. */
export const DEFAULT_ALIAS = "litreview-articles";
/** Totals are counted exactly up to this many hits (coverage searches count all). */
export const TOTAL_CAP = 10_000;
/** Articles read from PostgreSQL and sent per bulk round. */
const INDEX_BATCH = 1_000;
const PROFILE_CHARS = 20_000;
/** Profile terms `similar()` queries: as many as the PostgreSQL adapter (MAX_PROFILE_TERMS). */
const PROFILE_TERMS = 20;

const FIELDS = [
  `title^${FIELD_WEIGHTS.title}`,
  `mesh_terms^${FIELD_WEIGHTS.tags}`,
  `keywords^${FIELD_WEIGHTS.tags}`,
  `abstract^${FIELD_WEIGHTS.abstract}`,
];
const TEXT_FIELDS = ["title", "abstract", "mesh_terms", "keywords"];

/** An article as the index stores it. */
interface IndexedArticle {
  pmid: number;
  title: string | null;
  abstract: string | null;
  mesh_terms: string[];
  keywords: string[];
  publication_types: string[];
  publication_year: number | null;
  publication_date: string | null;
  journal: string | null;
}

/** Thrown when the cluster, the alias or the mapping is not what this version expects (the message says what to do). */
export class ElasticsearchSetupError extends Error {}

export interface ElasticsearchIndexOptions {
  /** The cluster and its credentials and time limits (elasticsearch/connection.ts); or `client`. */
  connection?: ConnectionOptions;
  /** The cluster's address alone (credentials in it are read as connection.ts says); or `connection`, or `client`. */
  node?: string;
  client?: Client;
  /** The alias (ELASTICSEARCH_INDEX, default DEFAULT_ALIAS). */
  alias?: string;
  /** The database holding `articles`, read by `index()` and `reindex()`. */
  db: Database;
  /** Bulk rounds after the first for 429s (default 3), and the first pause (ms, default 1000; doubled each round). */
  retries?: number;
  retryWaitMs?: number;
  /** Shards and replicas of new index versions (default DEFAULT_LAYOUT). */
  layout?: IndexLayout;
  /** The pause between bulk rounds; tests inject one. */
  sleep?: (ms: number) => Promise<void>;
}

export class ElasticsearchSearchIndex implements SearchIndex {
  readonly client: Client;
  readonly alias: string;
  private readonly db: Database;
  private readonly retries: number;
  private readonly retryWaitMs: number;
  private readonly layout: IndexLayout;
  private readonly sleep: ((ms: number) => Promise<void>) | undefined;

  constructor(options: ElasticsearchIndexOptions) {
    const connection = options.connection ?? (options.node ? { node: options.node } : undefined);
    if (!options.client && !connection) throw new Error("ElasticsearchSearchIndex needs connection, node or client");
    this.client = options.client ?? createClient(connection!);
    this.alias = options.alias ?? DEFAULT_ALIAS;
    this.db = options.db;
    this.retries = options.retries ?? 3;
    this.retryWaitMs = options.retryWaitMs ?? 1000;
    this.layout = options.layout ?? DEFAULT_LAYOUT;
    this.sleep = options.sleep;
  }

  /**
   * Checks at start that the cluster answers (and accepts the credentials), that the alias exists and that its index
   * has this mapping version. @throws ElasticsearchSetupError saying what is wrong and what to run.
   */
  async check(): Promise<void> {
    try {
      await this.client.info();
    } catch (err) {
      throw new ElasticsearchSetupError(describeConnectionError(err));
    }
    const indices = await this.aliasIndices();
    if (indices.length === 0)
      throw new ElasticsearchSetupError(
        `The Elasticsearch index "${this.alias}" does not exist: run npm run search:reindex to build it from the articles table.`,
      );
    const mapping = await this.client.indices.getMapping({ index: this.alias });
    for (const [name, m] of Object.entries(mapping)) {
      const version = (m.mappings._meta as { litreview_mapping_version?: number } | undefined)
        ?.litreview_mapping_version;
      if (version !== MAPPING_VERSION) {
        throw new ElasticsearchSetupError(
          `The Elasticsearch index ${name} has mapping version ${version ?? "none"}, this release needs ${MAPPING_VERSION}: run npm run search:reindex.`,
        );
      }
    }
  }

  /** The concrete indices the alias points at ([] when it does not exist). */
  async aliasIndices(): Promise<string[]> {
    try {
      return Object.keys(await this.client.indices.getAlias({ name: this.alias }));
    } catch (err) {
      if (err instanceof esErrors.ResponseError && err.statusCode === 404) return [];
      throw err;
    }
  }

  /** Reads articles from PostgreSQL as the index stores them. */
  private async readArticles(pmids: number[]): Promise<IndexedArticle[]> {
    if (pmids.length === 0) return [];
    const rows = await this.db
      .selectFrom("articles")
      .select([
        "pmid",
        "title",
        "abstract",
        "mesh_terms",
        "keywords",
        "publication_types",
        "publication_year",
        "journal",
      ])
      .select((eb) => eb.cast<string | null>("publication_date", "text").as("publication_date"))
      .where("pmid", "in", pmids)
      .execute();
    return rows as IndexedArticle[];
  }

  /** Sends actions to `target`; @throws Error naming the PMIDs that could not be written. */
  private async write(target: string, actions: BulkAction[], verb: "index" | "delete"): Promise<void> {
    if (actions.length === 0) return;
    const failed = await bulkWrite(this.client, target, actions, {
      retries: this.retries,
      waitMs: this.retryWaitMs,
      requireAlias: target === this.alias,
      ...(this.sleep ? { sleep: this.sleep } : {}),
    });
    if (failed.length === 0) return;
    const named = failed.slice(0, 20).map((f) => `${f.id} (${f.status}: ${f.reason})`);
    const what = verb === "index" ? `index ${failed.length} articles` : `delete ${failed.length} articles`;
    throw new Error(`Elasticsearch did not ${what}: PMIDs ${named.join(", ")}${failed.length > 20 ? ", …" : ""}`);
  }

  /** Writes documents to `index` (an index version or the alias). @throws Error naming the PMIDs it could not write. */
  async bulkIndex(index: string, docs: IndexedArticle[]): Promise<void> {
    await this.write(
      index,
      docs.map((doc) => ({ op: "index", id: String(doc.pmid), doc })),
      "index",
    );
  }

  /** Adds or replaces these articles (read from `articles`; PMIDs not there are ignored), in batches. */
  async index(pmids: number[]): Promise<void> {
    for (let i = 0; i < pmids.length; i += INDEX_BATCH)
      await this.bulkIndex(this.alias, await this.readArticles(pmids.slice(i, i + INDEX_BATCH)));
  }

  /**
   * Removes these PMIDs: a document that is not there is success; a missing index or alias is not.
   * @throws Error naming the PMIDs it could not delete.
   */
  async delete(pmids: number[]): Promise<void> {
    for (let i = 0; i < pmids.length; i += INDEX_BATCH) {
      await this.write(
        this.alias,
        pmids.slice(i, i + INDEX_BATCH).map((pmid) => ({ op: "delete", id: String(pmid) })),
        "delete",
      );
    }
  }

  /** Makes every write visible to searches. */
  async refresh(): Promise<void> {
    await this.client.indices.refresh({ index: this.alias });
  }

  /** Ranked PMIDs for a free-text query (see the class comment). */
  async search(query: string, options: SearchOptions = {}): Promise<SearchResult> {
    const paging = checkPaging(options);
    const should: object[] = [];
    const mustNot: object[] = [];
    for (const seg of parseQuery(query)) {
      if (seg.kind === "free") should.push({ combined_fields: { query: seg.text, fields: FIELDS, operator: "or" } });
      else if (seg.kind === "phrase")
        should.push({ multi_match: { query: seg.text, type: "phrase", fields: FIELDS, boost: 2 } });
      else mustNot.push({ multi_match: { query: seg.text, type: "phrase", fields: TEXT_FIELDS } });
    }
    if (should.length === 0) return { hits: [], total: 0, totalIsLowerBound: false };
    return this.run(
      { bool: { should, minimum_should_match: 1, must_not: mustNot, filter: this.filters(options) } },
      options,
      paging,
    );
  }

  /**
   * Articles most similar to a profile text, excluding `excludePmids`: the profile's PROFILE_TERMS most distinctive
   * terms (tf-idf against the index, as "more like this" picks them), queried with `combined_fields` and the field
   * weights of `search()`.
   */
  async similar(profileText: string, options: SearchOptions & { excludePmids?: number[] } = {}): Promise<SearchResult> {
    const paging = checkPaging(options);
    const text = profileText.slice(0, PROFILE_CHARS).trim();
    if (!text) return { hits: [], total: 0, totalIsLowerBound: false };
    const terms = await this.profileTerms(text);
    if (terms.length === 0) return { hits: [], total: 0, totalIsLowerBound: false };
    const query = { combined_fields: { query: terms.join(" "), fields: FIELDS, operator: "or" } };
    const exclude = (options.excludePmids ?? []).filter((p) => Number.isInteger(p)).map(String);
    return this.run(
      {
        bool: {
          must: [query],
          must_not: exclude.length ? [{ ids: { values: exclude } }] : [],
          filter: this.filters(options),
        },
      },
      options,
      paging,
    );
  }

  /**
   * The profile's most distinctive terms, as analysed by the index: the term vectors API on an artificial document
   * (the profile as its abstract), with the tf-idf filter "more like this" uses (min_doc_freq 1: a term no article
   * holds is useless; max_num_terms PROFILE_TERMS).
   */
  private async profileTerms(text: string): Promise<string[]> {
    const res = (await this.client.termvectors({
      index: this.alias,
      doc: { abstract: text },
      fields: ["abstract"],
      term_statistics: true,
      positions: false,
      offsets: false,
      filter: { max_num_terms: PROFILE_TERMS, min_term_freq: 1, min_doc_freq: 1 },
    } as never)) as { term_vectors?: { abstract?: { terms?: Record<string, { score?: number }> } } };
    const terms = Object.entries(res.term_vectors?.abstract?.terms ?? {});
    return terms.sort((a, b) => (b[1].score ?? 0) - (a[1].score ?? 0) || (a[0] < b[0] ? -1 : 1)).map(([term]) => term);
  }

  /** The year range and coverage filters of `options`. */
  private filters(options: SearchOptions): object[] {
    const filter: object[] = [];
    if (options.fromYear !== undefined || options.toYear !== undefined) {
      filter.push({
        range: {
          publication_year: {
            ...(options.fromYear !== undefined ? { gte: options.fromYear } : {}),
            ...(options.toYear !== undefined ? { lte: options.toYear } : {}),
          },
        },
      });
    }
    for (const concept of options.requireAll ?? []) {
      // A stop-word-only alternative analyses to nothing, and match_phrase then matches no document at all.
      const alternatives = concept.alternatives.filter((a) => a.trim() && hasIndexableWord(a));
      if (alternatives.length === 0) continue;
      filter.push({
        bool: {
          should: alternatives.flatMap((a) => TEXT_FIELDS.map((f) => ({ match_phrase: { [f]: a } }))),
          minimum_should_match: 1,
        },
      });
    }
    return filter;
  }

  private async run(
    query: object,
    options: SearchOptions,
    { skip, limit }: { skip: number; limit: number },
  ): Promise<SearchResult> {
    const exact = (options.requireAll?.length ?? 0) > 0;
    const res = await this.client.search({
      index: this.alias,
      query: query as never,
      from: skip,
      size: limit,
      _source: false,
      track_total_hits: exact ? true : TOTAL_CAP,
      sort: [{ _score: { order: "desc" } }, { pmid: { order: "asc" } }],
    });
    const total = res.hits.total;
    const value = typeof total === "number" ? total : (total?.value ?? 0);
    const hits: SearchHit[] = res.hits.hits.map((h) => ({ pmid: Number(h._id), score: h._score ?? 0 }));
    return { hits, total: value, totalIsLowerBound: typeof total === "object" && total?.relation === "gte" };
  }

  /**
   * Builds a new index version from the articles table while the current one serves (no replicas, no refresh during
   * the load), gives it its serving settings, then points the alias at it in one checked request; the old versions are
   * deleted unless `keepOld` (and always kept when the swap did not apply in full). @returns the new index's name and
   * its count. @throws AliasSwapError (elasticsearch/versions.ts) when the swap failed.
   */
  async reindex(
    opts: { keepOld?: boolean; onProgress?: (indexed: number) => void } = {},
  ): Promise<{ index: string; articles: number }> {
    const index = await nextVersionName(this.client, this.alias);
    await createVersion(this.client, index, this.layout);
    let last = 0;
    let count = 0;
    for (;;) {
      const page = await this.db
        .selectFrom("articles")
        .select("pmid")
        .where("pmid", ">", last)
        .orderBy("pmid")
        .limit(INDEX_BATCH)
        .execute();
      if (page.length === 0) break;
      await this.bulkIndex(index, await this.readArticles(page.map((r) => r.pmid)));
      last = page.at(-1)!.pmid;
      count += page.length;
      opts.onProgress?.(count);
    }
    await readyToServe(this.client, index, this.layout);
    const old = await this.aliasIndices();
    await swapAlias(this.client, this.alias, index, old);
    if (!opts.keepOld) for (const o of old) await this.client.indices.delete({ index: o });
    return { index, articles: count };
  }
}

/** Paging checks shared with the PostgreSQL adapter's rules. @throws RangeError. */
function checkPaging(options: SearchOptions): { skip: number; limit: number } {
  const skip = options.skip ?? 0;
  const limit = options.limit ?? 20;
  if (!Number.isInteger(skip) || skip < 0) throw new RangeError("skip must be an integer ≥ 0");
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
    throw new RangeError("limit must be an integer in 1..1000");
  if (skip + limit > MAX_RESULT_WINDOW)
    throw new RangeError(`skip + limit must be at most ${MAX_RESULT_WINDOW} (the result window), got ${skip + limit}`);
  return { skip, limit };
}
