/**
 * Precision and recall of the evidence extractor (src/reviews/evidence/extract.ts) against the hand-labelled
 * abstracts of tests/fixtures/evidence-gold.json, and its speed.
 *
 * Usage: bun scripts/bench/bench-extraction.ts [runs=50]
 *
 * Participants: a prediction is correct when it equals the labelled count; precision over the non-null
 * predictions, recall over the non-null labels. Effects: an extracted effect matches a labelled one when the
 * measure and the value agree (to 1e-6) and, where the label has a confidence interval, both bounds agree; each
 * label matches at most one extraction. Numbers are printed per split ("development" records were read while the
 * rules were written; "tuning" ones were labelled afterwards in batches, each scored once as held-out data before its
 * errors led to fixes: see the fixture's description) and overall. Timing: extractEvidence over every labelled
 * abstract, `runs` times after a warm-up; the classifier's one-off weight loading is reported apart as the cold call.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { parsePubmedFile } from "../../search/pubmed/parser.ts";
import { extractEvidence } from "../../src/reviews/evidence/extract.ts";
import type { EffectEstimate, StudyEvidence } from "../../src/reviews/evidence/types.ts";
import type { SummaryArticle } from "../../src/reviews/summary/types.ts";

interface GoldEffect {
  measure: EffectEstimate["measure"];
  value: number;
  ci_low: number | null;
  ci_high: number | null;
  p_value: number | null;
  compared_value: number | null;
}
interface GoldArticle {
  pmid: number;
  split: "development" | "tuning" | "held-out";
  /** Batch (A-F), in the order labelled; none for development records. */
  batch?: string;
  participants: number | null;
  effects: GoldEffect[];
}

const ROOT = join(import.meta.dir, "..", "..");
const gold = (await Bun.file(join(ROOT, "tests/fixtures/evidence-gold.json")).json()) as { articles: GoldArticle[] };
const runs = Math.max(1, Number(process.argv[2] ?? 50) || 50);

/** The labelled PMIDs' records, read from the sample with the project's parser. */
async function loadArticles(pmids: Set<number>): Promise<Map<number, SummaryArticle>> {
  const dir = join(ROOT, "sample/pubmed");
  const found = new Map<number, SummaryArticle>();
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith(".xml.gz") || f.endsWith(".xml"))
    .sort()) {
    for await (const event of parsePubmedFile(join(dir, file))) {
      if (event.type !== "article" || !pmids.has(event.article.pmid) || found.has(event.article.pmid)) continue;
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
    if (found.size === pmids.size) break;
  }
  return found;
}

const same = (a: number | null, b: number | null) => (a === null || b === null ? a === b : Math.abs(a - b) < 1e-6);

function matches(g: GoldEffect, e: EffectEstimate): boolean {
  if (g.measure !== e.measure || !same(g.value, e.value)) return false;
  if (g.ci_low !== null && !same(g.ci_low, e.ci_low)) return false;
  if (g.ci_high !== null && !same(g.ci_high, e.ci_high)) return false;
  return true;
}

interface Tally {
  pCorrect: number;
  pPredicted: number;
  pGold: number;
  nullsRight: number;
  nullsGold: number;
  eMatched: number;
  eExtracted: number;
  eGold: number;
  pValueAgree: number;
}
const tally = (): Tally => ({
  pCorrect: 0,
  pPredicted: 0,
  pGold: 0,
  nullsRight: 0,
  nullsGold: 0,
  eMatched: 0,
  eExtracted: 0,
  eGold: 0,
  pValueAgree: 0,
});

function score(g: GoldArticle, got: StudyEvidence, t: Tally, misses: string[]): void {
  if (got.participants !== null) t.pPredicted++;
  if (g.participants !== null) t.pGold++;
  if (g.participants !== null && got.participants === g.participants) t.pCorrect++;
  if (g.participants === null) {
    t.nullsGold++;
    if (got.participants === null) t.nullsRight++;
  }
  if (got.participants !== g.participants) {
    misses.push(`${g.pmid} participants: labelled ${g.participants}, read ${got.participants}`);
  }
  const free = [...got.effects];
  t.eExtracted += got.effects.length;
  t.eGold += g.effects.length;
  for (const ge of g.effects) {
    const i = free.findIndex((e) => matches(ge, e));
    if (i < 0) {
      misses.push(`${g.pmid} missed ${ge.measure} ${ge.value} [${ge.ci_low}, ${ge.ci_high}]`);
      continue;
    }
    t.eMatched++;
    if (same(ge.p_value, free[i]?.p_value ?? null)) t.pValueAgree++;
    free.splice(i, 1);
  }
  for (const e of free) misses.push(`${g.pmid} extra ${e.measure} ${e.value} [${e.ci_low}, ${e.ci_high}]: "${e.text}"`);
}

const fmt = (num: number, den: number) => (den === 0 ? "n/a" : `${(num / den).toFixed(3)} (${num}/${den})`);

function report(name: string, t: Tally, records: number): void {
  console.log(`\n${name}: ${records} abstracts`);
  const nulls = fmt(t.nullsRight, t.nullsGold);
  const [pp, pr] = [fmt(t.pCorrect, t.pPredicted), fmt(t.pCorrect, t.pGold)];
  console.log(`  participants  precision ${pp}  recall ${pr}  null when unstated ${nulls}`);
  const pAgree = fmt(t.pValueAgree, t.eMatched);
  const [ep, er] = [fmt(t.eMatched, t.eExtracted), fmt(t.eMatched, t.eGold)];
  console.log(`  effects       precision ${ep}  recall ${er}  p value agrees on matched ${pAgree}`);
}

const pmids = new Set(gold.articles.map((a) => a.pmid));
const articles = await loadArticles(pmids);
const missing = [...pmids].filter((p) => !articles.has(p));
if (missing.length > 0) throw new Error(`labelled PMIDs not in the sample: ${missing.join(", ")}`);

const t0 = performance.now();
const results = new Map(gold.articles.map((g) => [g.pmid, extractEvidence(articles.get(g.pmid) as SummaryArticle)]));
const cold = performance.now() - t0;

const bySplit = new Map<string, Tally>();
const all = tally();
const misses: string[] = [];
for (const g of gold.articles) {
  const t = bySplit.get(g.split) ?? tally();
  bySplit.set(g.split, t);
  const got = results.get(g.pmid) as StudyEvidence;
  score(g, got, t, misses);
  score(g, got, all, []);
}
for (const [split, t] of bySplit) report(split, t, gold.articles.filter((a) => a.split === split).length);
report("all", all, gold.articles.length);

const list = gold.articles.map((g) => articles.get(g.pmid) as SummaryArticle);
for (let i = 0; i < 5; i++) for (const a of list) extractEvidence(a);
const times: number[] = [];
for (let r = 0; r < runs; r++) {
  const s = performance.now();
  for (const a of list) extractEvidence(a);
  times.push((performance.now() - s) / list.length);
}
times.sort((a, b) => a - b);
const median = times[Math.floor(times.length / 2)] as number;
const p95 = times[Math.min(times.length - 1, Math.floor(times.length * 0.95))] as number;
console.log(`\ntiming: first pass over ${list.length} abstracts (loads the role classifier) ${cold.toFixed(1)} ms`);
const per30 = (30 * median).toFixed(1);
const [med, top] = [median.toFixed(3), p95.toFixed(3)];
console.log(`  warm, ${runs} runs: median ${med} ms per abstract, p95 ${top} ms; 30 abstracts ≈ ${per30} ms`);
console.log(`\ndifferences (${misses.length}):`);
for (const m of misses) console.log(`  ${m}`);
