import type { Config } from "../config.ts";
import type { Database } from "../db/database.ts";
import type { SearchIndex } from "../../search/search-index.ts";
import { PostgresSearchIndex } from "../../search/postgres-index.ts";
import { ElasticsearchSearchIndex } from "../../search/elasticsearch-index.ts";

/**
 * The configured SearchIndex: Elasticsearch when ELASTICSEARCH_URL is set (alias ELASTICSEARCH_INDEX), else PostgreSQL
 * full-text search on `db`. Every process (server, ingest, sync, CLIs) opens it here, so switching adapters is
 * configuration only.
 * @param opts.check verify the cluster, alias and mapping version first (the server does; `search:reindex` does not,
 *   since it is what builds them). @throws ElasticsearchSetupError with what to fix.
 */
export async function openSearchIndex(
  config: ElasticsearchConfig,
  db: Database,
  opts: { check?: boolean } = {},
): Promise<SearchIndex> {
  if (!config.ELASTICSEARCH_URL) return new PostgresSearchIndex(db);
  const index = openElasticsearchIndex(config, db);
  if (opts.check !== false) await index.check();
  return index;
}

/** The configuration the Elasticsearch adapter reads. */
export type ElasticsearchConfig = Pick<
  Config,
  | "ELASTICSEARCH_URL"
  | "ELASTICSEARCH_INDEX"
  | "ELASTICSEARCH_USERNAME"
  | "ELASTICSEARCH_PASSWORD"
  | "ELASTICSEARCH_API_KEY"
  | "ELASTICSEARCH_REQUEST_TIMEOUT_MS"
  | "ELASTICSEARCH_MAX_RETRIES"
  | "ELASTICSEARCH_SHARDS"
  | "ELASTICSEARCH_REPLICAS"
>;

/** The Elasticsearch adapter as configured (ELASTICSEARCH_URL must be set), without the start-up check. */
export function openElasticsearchIndex(config: ElasticsearchConfig, db: Database): ElasticsearchSearchIndex {
  if (!config.ELASTICSEARCH_URL) throw new Error("ELASTICSEARCH_URL is not set");
  return new ElasticsearchSearchIndex({
    connection: {
      node: config.ELASTICSEARCH_URL,
      username: config.ELASTICSEARCH_USERNAME,
      password: config.ELASTICSEARCH_PASSWORD,
      apiKey: config.ELASTICSEARCH_API_KEY,
      requestTimeoutMs: config.ELASTICSEARCH_REQUEST_TIMEOUT_MS,
      maxRetries: config.ELASTICSEARCH_MAX_RETRIES,
    },
    alias: config.ELASTICSEARCH_INDEX,
    layout: { shards: config.ELASTICSEARCH_SHARDS, replicas: config.ELASTICSEARCH_REPLICAS },
    db,
  });
}
