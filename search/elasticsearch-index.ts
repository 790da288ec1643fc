import { Client, HttpConnection, errors as esErrors } from "@elastic/elasticsearch";
import type { Database } from "../src/db/database.ts";
import type { SearchHit, SearchIndex, SearchOptions, SearchResult } from "./search-index.ts";
import { FIELD_WEIGHTS, parseQuery } from "./query.ts";

/**
 * The SearchIndex on Elasticsearch (ELASTICSEARCH_URL), for corpora past what PostgreSQL full-text search serves
 * comfortably (docs/scaling.md). Canonical rows stay in PostgreSQL (`articles`); the index holds what ranking needs.
 *
 * - A versioned index (`<alias>-v1`, `<alias>-v2`, …) behind an alias: `npm run search:reindex` fills a new version
 *   from the articles table while the old one serves, then swaps the alias in one atomic request. Every read and
 *   write goes through the alias. The mapping's `_meta.litreview_mapping_version` must equal MAPPING_VERSION
 *   (`check()` says what is wrong at start).
 * - English analysis on title, abstract, MeSH headings and keywords (the headings and keywords also as keywords).
 *   Ranking is BM25F across the fields through `combined_fields` with the PostgreSQL adapter's field weights (title 3,
 *   MeSH and keywords 1.5, abstract 1: search/query.ts FIELD_WEIGHTS), so both adapters rank alike; a quoted phrase
 *   ranks higher, `-word` excludes, as in parseQuery.
 * - Coverage (SearchOptions.requireAll, docs/decisions/0014-topic-coverage.md): a filter, one `should` group per
 *   concept of `match_phrase` on each field, so only articles covering every concept are hits; the total is then
 *   exact (`track_total_hits: true`). Otherwise totals are counted up to TOTAL_CAP.
 * - `similar()` is a `more_like_this` query of the profile text (its 25 most distinctive terms).
 * - Writes use the client's bulk helper (bounded batches, retries on 429 with a pause); documents it could not write
 *   make `index()`/`delete()` throw an error naming their PMIDs.
 * Responses follow Elasticsearch 8.x/9.x (the client is @elastic/elasticsearch 9).
 */

/** Version of the mapping below; a change of mapping means a new version and a reindex. */
export const MAPPING_VERSION = 1;
/** The alias searched and written when ELASTICSEARCH_INDEX is not set. */
export const DEFAULT_ALIAS = "litreview-articles";
/** Totals are counted exactly up to this many hits (coverage searches count all). */
export const TOTAL_CAP = 10_000;
/** Articles read from PostgreSQL and sent per bulk round. */
const INDEX_BATCH = 1_000;
const PROFILE_CHARS = 20_000;

const FIELDS = [`title^${FIELD_WEIGHTS.title}`, `mesh_terms^${FIELD_WEIGHTS.tags}`, `keywords^${FIELD_WEIGHTS.tags}`, `abstract^${FIELD_WEIGHTS.abstract}`];
const TEXT_FIELDS = ["title", "abstract", "mesh_terms", "keywords"];

/** The settings and mappings of a new index version. */
export function indexDefinition() {
  const english = { type: "text", analyzer: "english" } as const;
  return {
    settings: { number_of_shards: 1, refresh_interval: "1s" },
    mappings: {
      dynamic: "strict" as const,
      _meta: { litreview_mapping_version: MAPPING_VERSION },
      properties: {
        pmid: { type: "integer" as const },
        title: english,
        abstract: english,
        mesh_terms: { ...english, fields: { keyword: { type: "keyword" as const } } },
        keywords: { ...english, fields: { keyword: { type: "keyword" as const } } },
        publication_types: { type: "keyword" as const },
        publication_year: { type: "integer" as const },
        publication_date: { type: "date" as const, format: "yyyy-MM-dd" },
        journal: { type: "text" as const, fields: { keyword: { type: "keyword" as const, ignore_above: 256 } } },
      },
    },
  };
}

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
  /** The cluster (ELASTICSEARCH_URL); or `client`. */
  node?: string;
  client?: Client;
  /** The alias (ELASTICSEARCH_INDEX, default DEFAULT_ALIAS). */
  alias?: string;
  /** The database holding `articles`, read by `index()` and `reindex()`. */
  db: Database;
  /** Bulk retries of a document refused with 429 (default 3), and the pause before each (ms, default 1000). */
  retries?: number;
  retryWaitMs?: number;
}

export class ElasticsearchSearchIndex implements SearchIndex {
  readonly client: Client;
  readonly alias: string;
  private readonly db: Database;
  private readonly retries: number;
  private readonly retryWaitMs: number;

  constructor(options: ElasticsearchIndexOptions) {
    if (!options.client && !options.node) throw new Error("ElasticsearchSearchIndex needs node or client");
    // Node's http module rather than undici: the client's default connection class does not run on Bun.
    this.client = options.client ?? new Client({ node: options.node!, Connection: HttpConnection });
    this.alias = options.alias ?? DEFAULT_ALIAS;
    this.db = options.db;
    this.retries = options.retries ?? 3;
    this.retryWaitMs = options.retryWaitMs ?? 1000;
  }

  /**
   * Checks at start that the cluster answers, that the alias exists and that its index has this mapping version.
   * @throws ElasticsearchSetupError saying what is wrong and what to run.
   */
  async check(): Promise<void> {
    try {
      await this.client.info();
    } catch (err) {
      throw new ElasticsearchSetupError(`Elasticsearch at ELASTICSEARCH_URL cannot be reached (${err instanceof Error ? err.message : err}).`);
    }
    const indices = await this.aliasIndices();
    if (indices.length === 0) throw new ElasticsearchSetupError(`The Elasticsearch index "${this.alias}" does not exist: run npm run search:reindex to build it from the articles table.`);
    const mapping = await this.client.indices.getMapping({ index: this.alias });
    for (const [name, m] of Object.entries(mapping)) {
      const version = (m.mappings._meta as { litreview_mapping_version?: number } | undefined)?.litreview_mapping_version;
      if (version !== MAPPING_VERSION) {
        throw new ElasticsearchSetupError(`The Elasticsearch index ${name} has mapping version ${version ?? "none"}, this release needs ${MAPPING_VERSION}: run npm run search:reindex.`);
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
      .select(["pmid", "title", "abstract", "mesh_terms", "keywords", "publication_types", "publication_year", "journal"])
      .select((eb) => eb.cast<string | null>("publication_date", "text").as("publication_date"))
      .where("pmid", "in", pmids)
      .execute();
    return rows as IndexedArticle[];
  }

  /** Writes documents to `index` through the bulk helper. @throws Error naming the PMIDs it could not write. */
  async bulkIndex(index: string, docs: IndexedArticle[]): Promise<void> {
    if (docs.length === 0) return;
    const failed: string[] = [];
    await this.client.helpers.bulk({
      datasource: docs,
      onDocument: (doc) => ({ index: { _index: index, _id: String(doc.pmid) } }),
      retries: this.retries,
      wait: this.retryWaitMs,
      onDrop: (drop) => failed.push(`${drop.document.pmid} (${drop.status}: ${drop.error?.reason ?? drop.error?.type ?? "refused"})`),
    });
    if (failed.length > 0) throw new Error(`Elasticsearch did not index ${failed.length} articles: PMIDs ${failed.slice(0, 20).join(", ")}${failed.length > 20 ? ", …" : ""}`);
  }

  /** Adds or replaces these articles (read from `articles`; PMIDs not there are ignored), in batches. */
  async index(pmids: number[]): Promise<void> {
    for (let i = 0; i < pmids.length; i += INDEX_BATCH) await this.bulkIndex(this.alias, await this.readArticles(pmids.slice(i, i + INDEX_BATCH)));
  }

  /** Removes these PMIDs (unknown ones are ignored). @throws Error naming the PMIDs it could not delete. */
  async delete(pmids: number[]): Promise<void> {
    if (pmids.length === 0) return;
    const failed: number[] = [];
    await this.client.helpers.bulk({
      datasource: pmids.map((pmid) => ({ pmid })),
      onDocument: (doc) => ({ delete: { _index: this.alias, _id: String(doc.pmid) } }),
      retries: this.retries,
      wait: this.retryWaitMs,
      onDrop: (drop) => {
        // Deleting what is not there is success (the state asked for holds).
        if (drop.status !== 404) failed.push(Number((drop.operation as { delete?: { _id?: string } }).delete?._id));
      },
    });
    if (failed.length > 0) throw new Error(`Elasticsearch did not delete PMIDs ${failed.join(", ")}`);
  }

  /** Makes every write visible to searches. */
  async refresh(): Promise<void> {
    await this.client.indices.refresh({ index: this.alias });
  }

  /** Ranked PMIDs for a free-text query (see the class comment). */
  async search(query: string, options: SearchOptions = {}): Promise<SearchResult> {
    const should: object[] = [];
    const mustNot: object[] = [];
    for (const seg of parseQuery(query)) {
      if (seg.kind === "free") should.push({ combined_fields: { query: seg.text, fields: FIELDS, operator: "or" } });
      else if (seg.kind === "phrase") should.push({ multi_match: { query: seg.text, type: "phrase", fields: FIELDS, boost: 2 } });
      else mustNot.push({ multi_match: { query: seg.text, type: "phrase", fields: TEXT_FIELDS } });
    }
    if (should.length === 0) return { hits: [], total: 0, totalIsLowerBound: false };
    return this.run({ bool: { should, minimum_should_match: 1, must_not: mustNot, filter: this.filters(options) } }, options);
  }

  /** Articles most similar to a profile text, excluding `excludePmids`. */
  async similar(profileText: string, options: SearchOptions & { excludePmids?: number[] } = {}): Promise<SearchResult> {
    const text = profileText.slice(0, PROFILE_CHARS).trim();
    if (!text) return { hits: [], total: 0, totalIsLowerBound: false };
    const mlt = { more_like_this: { fields: TEXT_FIELDS, like: text, max_query_terms: 25, min_term_freq: 1, min_doc_freq: 1 } };
    const exclude = (options.excludePmids ?? []).filter((p) => Number.isInteger(p)).map(String);
    return this.run({ bool: { must: [mlt], must_not: exclude.length ? [{ ids: { values: exclude } }] : [], filter: this.filters(options) } }, options);
  }

  /** The year range and coverage filters of `options`. */
  private filters(options: SearchOptions): object[] {
    const filter: object[] = [];
    if (options.fromYear !== undefined || options.toYear !== undefined) {
      filter.push({ range: { publication_year: { ...(options.fromYear !== undefined ? { gte: options.fromYear } : {}), ...(options.toYear !== undefined ? { lte: options.toYear } : {}) } } });
    }
    for (const concept of options.requireAll ?? []) {
      const alternatives = concept.alternatives.filter((a) => a.trim());
      if (alternatives.length === 0) continue;
      filter.push({ bool: { should: alternatives.flatMap((a) => TEXT_FIELDS.map((f) => ({ match_phrase: { [f]: a } }))), minimum_should_match: 1 } });
    }
    return filter;
  }

  private async run(query: object, options: SearchOptions): Promise<SearchResult> {
    const skip = options.skip ?? 0;
    const limit = options.limit ?? 20;
    if (!Number.isInteger(skip) || skip < 0) throw new RangeError("skip must be an integer ≥ 0");
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new RangeError("limit must be an integer in 1..1000");
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
   * Builds a new index version from the articles table while the current one serves, then points the alias at it in
   * one atomic request (the old version is deleted unless `keepOld`). @returns the new index's name and its count.
   */
  async reindex(opts: { keepOld?: boolean; onProgress?: (indexed: number) => void } = {}): Promise<{ index: string; articles: number }> {
    const existing = Object.keys(await this.client.indices.get({ index: `${this.alias}-v*`, allow_no_indices: true, ignore_unavailable: true }));
    const next = Math.max(0, ...existing.map((n) => Number(/-v(\d+)$/.exec(n)?.[1] ?? 0))) + 1;
    const index = `${this.alias}-v${next}`;
    await this.client.indices.create({ index, ...indexDefinition() } as never);
    let last = 0;
    let count = 0;
    for (;;) {
      const page = await this.db.selectFrom("articles").select("pmid").where("pmid", ">", last).orderBy("pmid").limit(INDEX_BATCH).execute();
      if (page.length === 0) break;
      await this.bulkIndex(index, await this.readArticles(page.map((r) => r.pmid)));
      last = page.at(-1)!.pmid;
      count += page.length;
      opts.onProgress?.(count);
    }
    await this.client.indices.refresh({ index });
    const old = await this.aliasIndices();
    await this.client.indices.updateAliases({
      actions: [...old.map((o) => ({ remove: { index: o, alias: this.alias } })), { add: { index, alias: this.alias, is_write_index: true } }],
    });
    if (!opts.keepOld) for (const o of old) await this.client.indices.delete({ index: o });
    return { index, articles: count };
  }
}
