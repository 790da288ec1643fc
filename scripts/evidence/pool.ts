/**
 * The labelling pool of the evidence gold set (issue 33): sample records not yet labelled, in a fixed hash order, each
 * assigned once and for all to the training or the test split, written out in batches for labellers to read.
 *
 * Records: every sample article with an English abstract of at least 80 words whose MeSH check tags do not say it is
 * an animal-only study (no MeSH at all is kept), and that tests/fixtures/evidence-gold*.json does not already hold.
 * Order: FNV-1a of "order:" + PMID. Split: FNV-1a(PMID) mod 10 < 4 → "test" (never read while the extractors are
 * developed; labelled by labellers who do not develop them), else "train". The first `--count` records are taken.
 *
 * With --clinical, only abstracts that count people ("patients", "participants", "subjects", "women", "men",
 * "children", "cases", "volunteers") are drawn, and only for the training split (the test split keeps the first draw's
 * mix): a second draw that grows the training data where the extractors are used.
 *
 * Usage: bun scripts/evidence/pool.ts --count 340 --batch-size 40 --out /tmp/evidence-pool [--clinical --prefix NAME]
 * Writes OUT/train-01.json … and OUT/test-01.json …: [{pmid, title, publication_types, abstract}] (sections as
 * "LABEL: text" lines); prints the counts.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parsePubmedFile } from "../../search/pubmed/parser.ts";
import { pmidHash } from "../../src/reviews/roles/corpus.ts";

const ROOT = join(import.meta.dir, "..", "..");
const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] ?? fallback) : fallback;
};
const count = Number(arg("count", "340"));
const batchSize = Number(arg("batch-size", "40"));
const out = arg("out", "/tmp/evidence-pool");
const clinical = process.argv.includes("--clinical");
const prefix = arg("prefix", "");
const PEOPLE =
  /\b\d[\d,]*\s+(?:[a-z-]+\s+){0,3}(?:patients|participants|subjects|women|men|children|cases|volunteers)\b/iu;

/** FNV-1a 32-bit of a string (Fowler, Noll & Vo). */
function fnv(s: string): number {
  let h = 0x811c9dc5;
  for (const ch of s) {
    h ^= ch.charCodeAt(0);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** The split a PMID belongs to, fixed by its hash: 4 in 10 are test. */
export function goldSplitOf(pmid: number): "train" | "test" {
  return pmidHash(pmid) % 10 < 4 ? "test" : "train";
}

const labelled = new Set<number>();
for (const f of readdirSync(join(ROOT, "tests/fixtures")).filter(
  (f) => f.startsWith("evidence-gold") && f.endsWith(".json"),
)) {
  const data = (await Bun.file(join(ROOT, "tests/fixtures", f)).json()) as { articles: { pmid: number }[] };
  for (const a of data.articles) labelled.add(a.pmid);
}

interface PoolRecord {
  pmid: number;
  title: string | null;
  publication_types: string[];
  abstract: string;
}
const pool = new Map<number, PoolRecord>();
const dir = join(ROOT, "sample/pubmed");
for (const file of readdirSync(dir)
  .filter((f) => f.endsWith(".xml.gz") || f.endsWith(".xml"))
  .sort()) {
  for await (const event of parsePubmedFile(join(dir, file))) {
    if (event.type !== "article") continue;
    const a = event.article;
    if (pool.has(a.pmid) || labelled.has(a.pmid) || !a.abstract) continue;
    if (a.language && a.language !== "eng") continue;
    if (a.abstract.split(/\s+/).length < 80) continue;
    const mesh = new Set(a.mesh_terms);
    if (mesh.has("Animals") && !mesh.has("Humans")) continue;
    if (clinical && (!PEOPLE.test(a.abstract) || goldSplitOf(a.pmid) !== "train")) continue;
    pool.set(a.pmid, { pmid: a.pmid, title: a.title, publication_types: a.publication_types, abstract: a.abstract });
  }
}
const chosen = [...pool.values()].sort((a, b) => fnv(`order:${a.pmid}`) - fnv(`order:${b.pmid}`)).slice(0, count);
if (!existsSync(out)) mkdirSync(out, { recursive: true });
for (const split of ["train", "test"] as const) {
  const part = chosen.filter((r) => goldSplitOf(r.pmid) === split);
  for (let i = 0; i * batchSize < part.length; i++) {
    const name = `${prefix}${split}-${String(i + 1).padStart(2, "0")}.json`;
    writeFileSync(join(out, name), JSON.stringify(part.slice(i * batchSize, (i + 1) * batchSize), null, 1));
  }
  console.log(`${split}: ${part.length} records`);
}
console.log(`pool: ${pool.size} eligible, ${chosen.length} chosen, ${labelled.size} already labelled`);
