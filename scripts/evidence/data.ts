/**
 * The evidence gold set and the sample records it labels, for the training script and the benchmark: the labelled
 * records of one split (tests/fixtures/evidence-gold.json holds the training split, evidence-gold-test.json the test
 * split, which only the benchmark reads) and the articles they label, read from the bundled sample with the project's
 * parser.
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { parsePubmedFile } from "../../search/pubmed/parser.ts";
import type { SummaryArticle } from "../../src/reviews/summary/types.ts";
import type { GoldRecord } from "./gold.ts";

export const ROOT = join(import.meta.dir, "..", "..");
export const GOLD_FILES = {
  train: join(ROOT, "tests/fixtures/evidence-gold.json"),
  test: join(ROOT, "tests/fixtures/evidence-gold-test.json"),
} as const;

/** The labelled records of a split; [] when its file does not exist yet. */
export async function loadGold(split: "train" | "test"): Promise<GoldRecord[]> {
  const path = GOLD_FILES[split];
  if (!existsSync(path)) return [];
  const data = (await Bun.file(path).json()) as { articles: GoldRecord[] };
  return data.articles.filter((a) => a.split === split);
}

/** The sample's records of the given PMIDs, as the summary reads articles. */
export async function loadArticles(pmids: Iterable<number>): Promise<Map<number, SummaryArticle>> {
  const wanted = new Set(pmids);
  const dir = join(ROOT, "sample/pubmed");
  const found = new Map<number, SummaryArticle>();
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith(".xml.gz") || f.endsWith(".xml"))
    .sort()) {
    for await (const event of parsePubmedFile(join(dir, file))) {
      if (event.type !== "article" || !wanted.has(event.article.pmid) || found.has(event.article.pmid)) continue;
      const a = event.article;
      found.set(a.pmid, {
        pmid: a.pmid,
        title: a.title,
        abstract: a.abstract,
        abstract_sections: a.abstract_sections,
        publication_year: a.publication_year,
        publication_types: a.publication_types,
        mesh_terms: a.mesh_terms,
        retraction_notice_pmid: a.retraction_notice_pmid,
      });
    }
    if (found.size === wanted.size) break;
  }
  return found;
}
