/**
 * Times the extractive summarizer on a realistic review: the 50 ranked PubMed
 * records of src/reviews/fixtures/nasopharyngeal-carcinoma.json (48 with
 * abstracts), the most the review pipeline hands over.
 *
 * Usage: bun scripts/bench/bench-summarizer.ts [runs=200] [query…]
 * Prints the first (cold) call, then min / median / p95 / max over the runs
 * that follow a short warm-up. Budget: 50 ms per call on one core.
 */
import fixture from "../../src/reviews/fixtures/nasopharyngeal-carcinoma.json";
import { summarizeExtractive } from "../../src/reviews/summary/extractive.ts";
import type { SummaryArticle } from "../../src/reviews/summary/types.ts";

const articles = fixture as SummaryArticle[];
const runs = Math.max(1, Number(process.argv[2] ?? 200) || 200);
const query = process.argv.slice(3).join(" ") || "risk factors for nasopharyngeal carcinoma";

const coldStart = performance.now();
const first = summarizeExtractive(query, articles);
const cold = performance.now() - coldStart;

for (let i = 0; i < 10; i++) summarizeExtractive(query, articles);

const times: number[] = [];
for (let i = 0; i < runs; i++) {
  const t0 = performance.now();
  summarizeExtractive(query, articles);
  times.push(performance.now() - t0);
}
times.sort((a, b) => a - b);
const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] as number;
const ms = (x: number) => `${x.toFixed(2)} ms`;

console.log(
  `articles: ${articles.length} (${articles.filter((a) => a.abstract).length} with abstracts), query: "${query}"`,
);
console.log(`summary: ${first.summary?.length ?? 0} chars, ${first.citedPmids.length} articles cited`);
console.log(`cold first call: ${ms(cold)}`);
console.log(`${runs} warm runs: min ${ms(at(0))}, median ${ms(at(0.5))}, p95 ${ms(at(0.95))}, max ${ms(at(1))}`);
