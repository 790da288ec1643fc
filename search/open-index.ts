import type { Config } from "../src/config.ts";
import type { Database } from "../src/db/database.ts";
import type { SearchIndex } from "./search-index.ts";
import { PostgresSearchIndex } from "./postgres-index.ts";
import { ElasticsearchSearchIndex } from "./elasticsearch-index.ts";

/**
 * The configured SearchIndex: Elasticsearch when ELASTICSEARCH_URL is set (alias ELASTICSEARCH_INDEX), else PostgreSQL
 * full-text search on `db`. Every process (server, ingest, sync, CLIs) opens it here, so switching adapters is
 * configuration only.
 * @param opts.check verify the cluster, alias and mapping version first (the server does; `search:reindex` does not,
 *   since it is what builds them). @throws ElasticsearchSetupError with what to fix.
 */
export async function openSearchIndex(config: Pick<Config, "ELASTICSEARCH_URL" | "ELASTICSEARCH_INDEX">, db: Database, opts: { check?: boolean } = {}): Promise<SearchIndex> {
  if (!config.ELASTICSEARCH_URL) return new PostgresSearchIndex(db);
  const index = new ElasticsearchSearchIndex({ node: config.ELASTICSEARCH_URL, alias: config.ELASTICSEARCH_INDEX, db });
  if (opts.check !== false) await index.check();
  return index;
}
