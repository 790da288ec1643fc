import type { Config } from "../../config.ts";
import type { Summarizer, SummaryArticle, SummaryResult } from "../summary/types.ts";
import { verifySynthesis } from "./verify.ts";

/**
 * The optional language-model summary (issue 13; docs/decisions/0021-language-model-summary.md): with LLM_BASE_URL (any
 * OpenAI-compatible chat API: vLLM, Ollama, llama.cpp's server…), LLM_MODEL and optionally LLM_API_KEY, the model
 * writes a thematic synthesis of the best abstracts citing only the supplied [n]; every sentence is verified
 * (verify.ts) and unverifiable ones are dropped; fewer than MIN_VERIFIED sentences left, a time-out, an error or a
 * malformed answer: the extractive summary is used instead, never an error. `engine` says which one wrote it.
 */

/** Sources given to the model (the best ones; long abstracts are cut). */
export const LLM_SOURCES = 8;
const SOURCE_CHARS = 1_800;
/** Verified sentences needed for the model's synthesis to be used. */
export const MIN_VERIFIED = 3;

export interface LlmOptions {
  baseUrl: string;
  model: string;
  apiKey?: string;
  timeoutMs: number;
}

/** The options of a configuration, or null when no language model is configured. */
export function llmOptions(config: Pick<Config, "LLM_BASE_URL" | "LLM_MODEL" | "LLM_API_KEY" | "LLM_TIMEOUT_MS">): LlmOptions | null {
  if (!config.LLM_BASE_URL) return null;
  return { baseUrl: config.LLM_BASE_URL.replace(/\/+$/, ""), model: config.LLM_MODEL, apiKey: config.LLM_API_KEY, timeoutMs: config.LLM_TIMEOUT_MS };
}

const SYSTEM = [
  "You write the synthesis of a biomedical literature review for clinicians and researchers.",
  "Use only the numbered sources given. Every sentence must end with the citation of the sources it rests on, as [n] or [n, m].",
  "Do not state any number, result or claim that is not in the cited source's text. Do not cite a number that was not given.",
  "Write 4 to 8 sentences in one or two paragraphs, grouped by theme; no headings, no lists, no preamble.",
].join(" ");

/** Source text as the model and the verifier see it: title and abstract. */
function sourceText(a: SummaryArticle): string {
  const title = (a.title ?? "").trim().replace(/[.]+$/, "");
  return `${title}. ${(a.abstract ?? a.abstract_sections.map((s) => s.text).join(" ")).slice(0, SOURCE_CHARS)}`;
}

/** Asks the model once. @throws Error on a time-out, an HTTP error or an answer without text. */
async function complete(opts: LlmOptions, topic: string, sources: string[]): Promise<string> {
  const user = `Topic: ${topic}\n\nSources:\n${sources.map((s, i) => `[${i + 1}] ${s}`).join("\n\n")}`;
  const res = await fetch(`${opts.baseUrl}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(opts.apiKey ? { authorization: `Bearer ${opts.apiKey}` } : {}) },
    body: JSON.stringify({ model: opts.model, temperature: 0.2, messages: [{ role: "system", content: SYSTEM }, { role: "user", content: user }] }),
    signal: AbortSignal.timeout(opts.timeoutMs),
  });
  if (!res.ok) throw new Error(`language model answered HTTP ${res.status}`);
  const body = (await res.json()) as { choices?: { message?: { content?: unknown } }[] };
  const content = body.choices?.[0]?.message?.content;
  if (typeof content !== "string" || !content.trim()) throw new Error("language model answered without text");
  return content;
}

/** Renumbers the kept sentences' citations 1..k in order of first use; @returns the text and the cited PMIDs. */
function renumber(sentences: string[], pmids: number[]): { text: string; cited: number[] } {
  const order: number[] = [];
  const text = sentences
    .map((s) =>
      s.replace(/\[(\d+(?:\s*[,–-]\s*\d+)*)\]/g, (_, inner: string) => {
        const numbers = inner.split(/\s*,\s*/).flatMap((p) => {
          const r = /^(\d+)\s*[–-]\s*(\d+)$/.exec(p);
          return r ? Array.from({ length: Number(r[2]) - Number(r[1]) + 1 }, (_, i) => Number(r[1]) + i) : [Number(p)];
        });
        const mapped = [...new Set(numbers)].map((n) => {
          if (!order.includes(n)) order.push(n);
          return order.indexOf(n) + 1;
        });
        return `[${mapped.sort((a, b) => a - b).join(", ")}]`;
      }),
    )
    .join(" ");
  return { text, cited: order.map((n) => pmids[n - 1]!) };
}

/** A Summarizer that asks the language model and falls back to `fallback` (see the module comment). */
export class LlmSummarizer implements Summarizer {
  readonly name: string;
  constructor(
    private readonly opts: LlmOptions,
    private readonly fallback: Summarizer,
    private readonly log: (message: string) => void = (m) => console.warn(m),
  ) {
    this.name = `language model ${opts.model}`;
  }

  async summarize(query: string, articles: readonly SummaryArticle[]): Promise<SummaryResult> {
    const chosen = articles.filter((a) => (a.abstract ?? "").trim() || a.abstract_sections.length > 0).slice(0, LLM_SOURCES);
    if (chosen.length >= 2) {
      try {
        const sources = chosen.map(sourceText);
        const answer = await complete(this.opts, query, sources);
        const { kept, dropped } = verifySynthesis(answer, sources);
        if (dropped.length > 0) this.log(`[llm] dropped ${dropped.length} unverifiable sentence(s): ${dropped.map((d) => d.reason).join("; ")}`);
        if (kept.length >= MIN_VERIFIED) {
          const { text, cited } = renumber(kept, chosen.map((a) => a.pmid));
          return { summary: text, citedPmids: cited, engine: `${this.name} (${kept.length} verified sentences)` };
        }
        this.log(`[llm] only ${kept.length} sentence(s) verified: the extractive summary is used`);
      } catch (err) {
        this.log(`[llm] ${err instanceof Error ? err.message : err}: the extractive summary is used`);
      }
    }
    const result = await this.fallback.summarize(query, articles);
    return { ...result, engine: result.engine ?? this.fallback.name };
  }
}
