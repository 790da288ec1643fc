import { errors as esErrors, type Client, type estypes } from "@elastic/elasticsearch";
import type { Database } from "../src/db/database.ts";
import {
  MAX_RESULT_WINDOW,
  type SearchHealth,
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
import { selectProfileTerms } from "./elasticsearch/profile-terms.ts";
import { createVersion, deleteVersions, nextVersionName, readyToServe, swapAlias } from "./elasticsearch/versions.ts";
import { waitTimeouts } from "./elasticsearch/waits.ts";

export { MAPPING_VERSION, indexDefinition } from "./elasticsearch/mapping.ts";

/**
 * The SearchIndex on Elasticsearch (ELASTICSEARCH_URL), for corpora past what PostgreSQL full-text search serves
 * comfortably (docs/scaling.md, docs/decisions/0015-elasticsearch-index.md). Canonical rows stay in PostgreSQL
 * (`articles`); the index holds what ranking needs.
 *
 * - A versioned index (`<alias>-v1`, `<alias>-v2`, …) behind an alias: `npm run search:reindex` fills a new version
 *   from the articles table while the old one serves (no replicas, no refresh during the load), restores the serving
 *   settings (the default refresh interval, so idle shards skip refreshes), then swaps the alias in one checked
 *   request (elasticsearch/versions.ts). Calls that wait server-side (health, index creation, refresh) get a request
 *   timeout that covers the wait (elasticsearch/waits.ts). Reads and writes go through the alias, writes with
 *   `require_alias` so that a missing alias fails instead of auto-creating an index of its name.
 *   The mapping's `_meta.litreview_mapping_version` must equal MAPPING_VERSION (`check()` says what is wrong at start).
 * - Text analysis aligned with PostgreSQL's `english` configuration: its stop words and Snowball English stemmer
 *   (elasticsearch/analysis.ts). Ranking is BM25F across the fields through `combined_fields` with the PostgreSQL
 *   adapter's field weights (title 3, MeSH and keywords 1.5, abstract 1: search/query.ts FIELD_WEIGHTS); a quoted
 *   phrase ranks higher, `-word` excludes, as in parseQuery.
 * - Coverage (SearchOptions.requireAll, docs/decisions/0014-topic-coverage.md): a filter, one `should` group per
 *   concept of `match_phrase` on each field, so only articles covering every concept are hits; the total is then
 *   exact (`track_total_hits: true`). Alternatives made only of stop words are left out (a `match_phrase` that
 *   analyses to nothing matches no document), and a concept left with none restricts nothing, as the contract says.
 * - `similar()` picks the profile's most distinctive terms as "more like this" does (tf-idf of an artificial
 *   document's term vectors), with the whole index's statistics summed over its shards rather than one shard's
 *   (elasticsearch/profile-terms.ts), then queries them with `combined_fields`, so the field weights apply as in
 *   `search()` and in the PostgreSQL adapter.
 * - Writes: `client.bulk` with one backoff policy for whole-request refusals, connection errors and per-document 429s
 *   (elasticsearch/bulk.ts; the client's own retries off for it); documents it could not write make
 *   `index()`/`delete()` throw an error naming their PMIDs.
 * - `health()`: the alias's index health, answered within HEALTH_PROBE_MS (the `/api/v1/health` check).
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
/**
 * How long the health check waits for the cluster (ms): within the 5 s a load balancer's probe allows (compose.yaml).
 */
export const HEALTH_PROBE_MS = 2_000;
/**
 * The health check's wait for the elected master: shorter than HEALTH_PROBE_MS, so that the cluster's own answer
 * (503 `master_not_discovered_exception`) arrives before the client gives up.
 */
const HEALTH_MASTER_TIMEOUT = "1s";

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
  /**
   * The client's own request timeout (ms), when `client` is given (with `connection`, its requestTimeoutMs); default
   * 30,000. Calls that wait server-side longer get a longer one (elasticsearch/waits.ts).
   */
  requestTimeoutMs?: number;
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
  private readonly requestTimeoutMs: number;

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
    this.requestTimeoutMs = options.requestTimeoutMs ?? connection?.requestTimeoutMs ?? 30_000;
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
      const version: unknown = m.mappings._meta?.litreview_mapping_version;
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

  /**
   * Makes every write visible to searches. After a baseline load this writes every shard's indexing buffer, which the
   * cluster does not bound in time: the request gets waits.ts's REFRESH_TIMEOUT_MS rather than the client's timeout.
   */
  async refresh(): Promise<void> {
    await this.client.indices.refresh(
      { index: this.alias },
      { requestTimeout: waitTimeouts(this.requestTimeoutMs).refresh },
    );
  }

  /**
   * Whether searches can be served: the cluster answers within HEALTH_PROBE_MS and every primary shard of the alias's
   * index is allocated (health green or yellow). Asked with `timeout=0s`, so the cluster answers at once from its
   * state (TransportClusterHealthAction: a zero timeout skips the wait; a missing index is red and answered 408),
   * without the client's retries. Never throws.
   */
  async health(): Promise<SearchHealth> {
    try {
      const res = await this.client.cluster.health(
        { index: this.alias, timeout: "0s", master_timeout: HEALTH_MASTER_TIMEOUT },
        { requestTimeout: HEALTH_PROBE_MS, maxRetries: 0, ignore: [408] },
      );
      if (res.status === "red")
        return {
          available: false,
          reason: `the Elasticsearch index ${this.alias} is red (missing, or ${res.unassigned_primary_shards} primary shards unassigned)`,
        };
      return { available: true };
    } catch (err) {
      return { available: false, reason: describeConnectionError(err) };
    }
  }

  /** Ranked PMIDs for a free-text query (see the class comment). */
  async search(query: string, options: SearchOptions = {}): Promise<SearchResult> {
    const paging = checkPaging(options);
    const should: estypes.QueryDslQueryContainer[] = [];
    const mustNot: estypes.QueryDslQueryContainer[] = [];
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
    const query: estypes.QueryDslQueryContainer = {
      combined_fields: { query: terms.join(" "), fields: FIELDS, operator: "or" },
    };
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
   * The profile's most distinctive terms, as analysed by the index: the term vectors of an artificial document (the
   * profile as its abstract) on every shard of the alias's index, one request per shard in parallel, scored with
   * their summed statistics by the tf-idf filter "more like this" uses (elasticsearch/profile-terms.ts; min_doc_freq
   * 1: a term no article holds is useless; PROFILE_TERMS kept).
   */
  private async profileTerms(text: string): Promise<string[]> {
    const shards = await this.shardCount();
    const answers = await Promise.all(
      Array.from({ length: shards }, (_, shard) =>
        this.client.termvectors({
          index: this.alias,
          doc: { abstract: text },
          fields: ["abstract"],
          term_statistics: true,
          field_statistics: true,
          positions: false,
          offsets: false,
          payloads: false,
          preference: `_shards:${shard}`,
        }),
      ),
    );
    return selectProfileTerms(
      answers.map((a) => a.term_vectors?.abstract),
      { maxTerms: PROFILE_TERMS, minTermFreq: 1, minDocFreq: 1 },
    );
  }

  /**
   * The number of primary shards of the alias's index, read on each call: a reindex may have moved the alias to a
   * version with another layout (ELASTICSEARCH_SHARDS) since.
   */
  private async shardCount(): Promise<number> {
    const settings = await this.client.indices.getSettings({ index: this.alias, name: "index.number_of_shards" });
    const counts = Object.values(settings).map((s) => Number(s.settings?.index?.number_of_shards));
    return Math.max(1, ...counts.filter((n) => Number.isInteger(n)));
  }

  /** The year range and coverage filters of `options`. */
  private filters(options: SearchOptions): estypes.QueryDslQueryContainer[] {
    const filter: estypes.QueryDslQueryContainer[] = [];
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
    query: estypes.QueryDslQueryContainer,
    options: SearchOptions,
    { skip, limit }: { skip: number; limit: number },
  ): Promise<SearchResult> {
    const exact = (options.requireAll?.length ?? 0) > 0;
    const res = await this.client.search({
      index: this.alias,
      query,
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
   * deleted unless `keepOld` (and always kept when the swap did not apply, or not surely). @returns the new index's
   * name and its count. @throws VersionNotReadyError when the new version's primaries were not allocated in time,
   * AliasSwapError when the swap failed (elasticsearch/versions.ts); the alias then points where it did.
   */
  async reindex(
    opts: { keepOld?: boolean; onProgress?: (indexed: number) => void } = {},
  ): Promise<{ index: string; articles: number }> {
    const index = await nextVersionName(this.client, this.alias);
    await createVersion(this.client, index, this.layout, this.requestTimeoutMs);
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
    await readyToServe(this.client, index, this.layout, this.requestTimeoutMs);
    const old = await this.aliasIndices();
    await swapAlias(this.client, this.alias, index, old, this.requestTimeoutMs);
    if (!opts.keepOld) await deleteVersions(this.client, old, this.requestTimeoutMs);
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
