/**
 * A language model answering 50 MB (issue 22, item 1): time to the fallback, bytes the model got to send before the
 * client cancelled, and the process's resident memory, over ROUNDS summaries in a row.
 * Run: bun scripts/bench/bench-llm-answer.ts
 */
import { LlmSummarizer } from "../../src/reviews/llm/llm-summarizer.ts";
import { extractiveSummarizer } from "../../src/reviews/summary/extractive.ts";
import type { SummaryArticle } from "../../src/reviews/summary/types.ts";
import { startLlmStandIn } from "../../tests/support/llm-stand-in.ts";

const ROUNDS = 10;
const ANSWER_BYTES = 50 * 1024 * 1024;
const SENTENCE = "Salted fish in childhood was associated with a higher risk of nasopharyngeal carcinoma [1].";

const articles: SummaryArticle[] = [1, 2, 3].map((pmid) => ({
  pmid,
  title: `Salted fish and nasopharyngeal carcinoma ${pmid}`,
  abstract: "Consumption of salted fish in childhood was associated with a higher risk of nasopharyngeal carcinoma.",
  abstract_sections: [],
  publication_year: 2020,
  publication_types: ["Journal Article"],
}));

const standIn = startLlmStandIn();
standIn.fallback = () => ({ huge: ANSWER_BYTES, sentence: SENTENCE });
const summarizer = new LlmSummarizer(
  { baseUrl: standIn.baseUrl, model: "bench", timeoutMs: 60_000, concurrency: 1 },
  extractiveSummarizer,
  () => {},
);
const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
const rssBefore = process.memoryUsage().rss;
let peak = rssBefore;
const times: number[] = [];
for (let i = 0; i < ROUNDS; i++) {
  const started = performance.now();
  const result = await summarizer.summarize("nasopharyngeal carcinoma", articles);
  times.push(performance.now() - started);
  if (result.engine !== extractiveSummarizer.name) throw new Error(`round ${i}: ${result.engine}`);
  peak = Math.max(peak, process.memoryUsage().rss);
}
await Bun.sleep(200);
const sent = standIn.requests.map((r) => r.sentBytes);
console.log(`${ROUNDS} answers of ${mb(ANSWER_BYTES)} MB each`);
times.sort((a, b) => a - b);
console.log(`time to the fallback: median ${times[ROUNDS >> 1]!.toFixed(1)} ms, max ${times.at(-1)!.toFixed(1)} ms`);
const cancelled = standIn.requests.every((r) => r.cancelled);
console.log(`bytes sent before the cancel: max ${mb(Math.max(...sent))} MB; all cancelled: ${cancelled}`);
console.log(`resident memory: ${mb(rssBefore)} MB before, peak ${mb(peak)} MB`);
standIn.stop();
