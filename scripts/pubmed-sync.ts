/**
 * Brings the corpus up to date from NLM's PubMed distribution (search/pubmed/sync.ts).
 *
 *   npm run pubmed:sync                 the daily update files at PUBMED_UPDATES_URL not yet ingested
 *   npm run pubmed:sync -- --baseline   the annual baseline files at PUBMED_BASELINE_URL not yet ingested
 *
 * Configuration comes from the environment (src/config.ts), as for `npm run ingest`. Progress goes to stderr; stdout
 * gets one summary line: "synced F files: N records (I new, U updated, D deleted) in S s". Exit code 0 when every
 * listed file is ingested, 1 when a file failed (it is retried by the next run), 2 on a usage or configuration error.
 * With the embedded database (no DATABASE_URL), stop the server first, or set PUBMED_SYNC=daily and let it run there.
 */
import { loadConfig, type Config } from "../src/config.ts";
import { openDatabase } from "../src/db/database.ts";
import { migrateToLatest } from "../src/db/migrator.ts";
import { openSearchIndex } from "../src/search/open-index.ts";
import { syncPubmed } from "../search/pubmed/sync.ts";

async function main(argv: string[]): Promise<number> {
  const args = argv.filter((a) => a !== "--");
  if (args.some((a) => a === "-h" || a === "--help") || args.some((a) => a !== "--baseline")) {
    console.error("usage: npm run pubmed:sync [-- --baseline]");
    return args.some((a) => a === "-h" || a === "--help") ? 0 : 2;
  }
  const baseline = args.includes("--baseline");
  let config: Config;
  try {
    config = loadConfig(process.env, { role: "cli" });
  } catch (error) {
    console.error((error as Error).message);
    return 2;
  }
  const handle = openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  try {
    await migrateToLatest(handle.db);
    const result = await syncPubmed(
      { db: handle.db, search: await openSearchIndex(config, handle.db) },
      baseline ? config.PUBMED_BASELINE_URL : config.PUBMED_UPDATES_URL,
      {
        kind: baseline ? "baseline" : "update",
        onLog: (line) => process.stderr.write(`${line}\n`),
      },
    );
    const ingested = result.files.filter((f) => f.status === "ingested");
    const sum = (k: "records" | "inserted" | "updated" | "deleted") => ingested.reduce((a, f) => a + f[k], 0);
    console.log(
      `synced ${ingested.length} files: ${sum("records")} records (${sum("inserted")} new, ${sum("updated")} updated, ${sum("deleted")} deleted) in ${result.seconds.toFixed(1)} s`,
    );
    return result.files.some((f) => f.status !== "ingested") ? 1 : 0;
  } catch (error) {
    console.error((error as Error).message);
    return 1;
  } finally {
    await handle.close();
  }
}

process.exit(await main(process.argv.slice(2)));
