/**
 * Builds a new version of the Elasticsearch index from the articles table while the current one serves, then points
 * the alias at it atomically (search/elasticsearch-index.ts `reindex`).
 *
 *   npm run search:reindex [-- --keep-old] [--if-missing]
 *
 * --if-missing builds the first version only when the alias does not exist yet (for a deployment's start-up step).
 * Needs ELASTICSEARCH_URL (and DATABASE_URL, or the embedded database with the server stopped). Progress to stderr,
 * one summary line to stdout. Exit code 0 on success, 1 on failure, 2 on a usage or configuration error.
 */
import { loadConfig } from "../src/config.ts";
import { openDatabase } from "../src/db/database.ts";
import { migrateToLatest } from "../src/db/migrator.ts";
import { openElasticsearchIndex } from "../src/search/open-index.ts";

const args = process.argv.slice(2).filter((a) => a !== "--");
if (args.some((a) => a !== "--keep-old" && a !== "--if-missing")) {
  console.error("usage: npm run search:reindex [-- --keep-old] [--if-missing]");
  process.exit(2);
}
const config = loadConfig(process.env, { role: "cli" });
if (!config.ELASTICSEARCH_URL) {
  console.error("ELASTICSEARCH_URL is not set: the PostgreSQL search index needs no reindex.");
  process.exit(2);
}
const handle = openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
let code = 0;
try {
  await migrateToLatest(handle.db);
  const es = openElasticsearchIndex(config, handle.db);
  if (args.includes("--if-missing") && (await es.aliasIndices()).length > 0) {
    console.log(`${config.ELASTICSEARCH_INDEX} exists: nothing to do`);
    process.exit(0);
  }
  const started = performance.now();
  const result = await es.reindex({
    keepOld: args.includes("--keep-old"),
    onProgress: (n) => process.stderr.write(`${n} articles indexed\n`),
  });
  const seconds = (performance.now() - started) / 1000;
  const rate = Math.round(result.articles / Math.max(seconds, 0.001));
  const layout = `${config.ELASTICSEARCH_SHARDS} shard(s), ${config.ELASTICSEARCH_REPLICAS} replica(s)`;
  console.log(
    `reindexed ${result.articles} articles into ${result.index} in ${seconds.toFixed(1)} s (${rate} articles/s, ${layout}); ${config.ELASTICSEARCH_INDEX} now points to it`,
  );
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  code = 1;
} finally {
  await handle.close();
}
process.exit(code);
