import { readdirSync } from "node:fs";
import { basename, join } from "node:path";
import { sql } from "kysely";
import type { AppDeps } from "./deps.ts";
import { ingestFiles } from "../search/ingest.ts";

/** Folder of the real PubMed sample that ships with the repository. */
export const SAMPLE_DIR = join(import.meta.dir, "..", "sample", "pubmed");

/**
 * On first start with an empty article table, ingests the bundled PubMed sample (a few thousand real records)
 * so that a fresh install can run reviews at once. Prints progress on stderr.
 * @returns number of records ingested (0 when articles already existed).
 */
export async function seedSampleIfEmpty(
  deps: Pick<AppDeps, "db" | "search">,
  log: (line: string) => void = (l) => console.error(l),
): Promise<number> {
  const any = await deps.db.selectFrom("articles").select("pmid").limit(1).executeTakeFirst();
  if (any) return 0;
  const files = readdirSync(SAMPLE_DIR)
    .filter((f) => f.endsWith(".xml.gz") || f.endsWith(".xml"))
    .sort()
    .map((f) => join(SAMPLE_DIR, f));
  log(`empty database: ingesting the PubMed sample (${files.length} files)…`);
  const result = await ingestFiles(deps, files, {
    // Per file, with the running total apart, so the lines do not read as one file's count.
    onProgress: (p) =>
      p.file && log(`  ${basename(p.file)}: ${p.fileRecords} records read (${p.records} in all so far)`),
  });
  // Records read, and the distinct articles they make (issue 35: the log's 3,453 records are the page's 2,869
  // articles, since files repeat records and DeleteCitation removes some).
  const held = await deps.db
    .selectFrom("articles")
    .select(sql<number>`count(*)::int`.as("n"))
    .executeTakeFirstOrThrow();
  log(
    `ingested ${result.ingested} records (${result.deleted} deleted) in ${result.seconds.toFixed(1)} s: the index holds ${Number(held.n)} distinct articles`,
  );
  return result.ingested;
}
