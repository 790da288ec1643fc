import type { Config } from "../../config.ts";
import type { Summarizer, SummaryArticle, SummaryResult } from "../summary/types.ts";
import { verifySynthesis } from "./verify.ts";
import { mapCitations } from "../citation-grammar.ts";
import { readCapped } from "./read-capped.ts";
import { takeModelSlot } from "./model-slots.ts";

/**
 * The optional language-model summary (issue 13; docs/decisions/0021-language-model-summary.md): with LLM_BASE_URL (any
 * OpenAI-compatible chat API: vLLM, Ollama, llama.cpp's server…), LLM_MODEL and optionally LLM_API_KEY, the model
 * writes a thematic synthesis of the best abstracts citing only the supplied [n]; every sentence is verified
 * (verify.ts) and unverifiable ones are dropped; fewer than MIN_VERIFIED sentences left, a time-out, an error or a
 * malformed answer: the extractive summary is used instead, never an error. `engine` says which one wrote it.
 *
 * Limits (issue 22, docs/decisions/0031-language-model-limits.md): the answer is read with a byte limit
 * (MAX_ANSWER_BYTES) and at most MAX_KEPT_SENTENCES verified sentences are kept; the whole call, from the request to
 * the last byte read, has a time budget (LLM_TIMEOUT_MS); and at most `concurrency` calls run at once in the process
 * (model-slots.ts): a review finding them all taken gets the extractive summary at once instead of waiting.
 */

/** Sources given to the model (the best ones; long abstracts are cut). */
export const LLM_SOURCES = 8;
const SOURCE_CHARS = 1_800;
/** Verified sentences needed for the model's synthesis to be used. */
export const MIN_VERIFIED = 3;
/**
 * Verified sentences kept at most: the prompt asks for 4 to 8, and a summary is read on one screen; 12 leaves a model
 * room to overshoot a little, and sentences past it are not even checked.
 */
export const MAX_KEPT_SENTENCES = 12;
/**
 * Bytes of the model's HTTP answer read at most (64 KiB). Eight sentences of 40 words are about 2.5 KB of text; the
 * JSON envelope of an OpenAI-compatible answer (id, usage, logprobs when a server adds them) a few KB more. An answer
 * past 64 KiB is not the synthesis asked for: it is cut off unread and the extractive summary is used.
 */
export const MAX_ANSWER_BYTES = 64 * 1024;

export interface LlmOptions {
  baseUrl: string;
  model: string;
  apiKey?: string;
  /** Time budget of the whole call in ms: request, waiting, and reading the answer. */
  timeoutMs: number;
  /** Calls to this model at once in this process; a call finding them all taken is not made. */
  concurrency: number;
}

/** The options of a configuration, or null when no language model is configured. */
export function llmOptions(
  config: Pick<Config, "LLM_BASE_URL" | "LLM_MODEL" | "LLM_API_KEY" | "LLM_TIMEOUT_MS" | "LLM_CONCURRENCY">,
): LlmOptions | null {
  if (!config.LLM_BASE_URL) return null;
  return {
    baseUrl: config.LLM_BASE_URL.replace(/\/+$/, ""),
    model: config.LLM_MODEL,
    apiKey: config.LLM_API_KEY,
    timeoutMs: config.LLM_TIMEOUT_MS,
    concurrency: config.LLM_CONCURRENCY,
  };
}

/**
 * Job worker loops for a configuration whose review workers number `base` without a model: `base` plus the model's
 * concurrency, so that calls to the model (at most that many, none waiting) never hold the `base` loops other reviews
 * run on (docs/decisions/0031-language-model-limits.md).
 */
export function workerConcurrency(
  base: number,
  config: Pick<Config, "LLM_BASE_URL" | "LLM_MODEL" | "LLM_API_KEY" | "LLM_TIMEOUT_MS" | "LLM_CONCURRENCY">,
): number {
  return base + (llmOptions(config)?.concurrency ?? 0);
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

/** Thrown when the call's time budget runs out. */
class OutOfTime extends Error {}

/**
 * Asks the model once, within `opts.timeoutMs` from the request to the last byte (the budget aborts the request, and
 * the answer is awaited no longer even if the connection ignores the abort).
 * @throws Error on a time-out, an HTTP error, an answer over MAX_ANSWER_BYTES, or an answer without text
 */
async function complete(opts: LlmOptions, topic: string, sources: string[]): Promise<string> {
  const user = `Topic: ${topic}\n\nSources:\n${sources.map((s, i) => `[${i + 1}] ${s}`).join("\n\n")}`;
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const outOfTime = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const err = new OutOfTime(`language model gave no complete answer within ${opts.timeoutMs} ms`);
      controller.abort(err);
      reject(err);
    }, opts.timeoutMs);
  });
  const call = async () => {
    const res = await fetch(`${opts.baseUrl}/chat/completions`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(opts.apiKey ? { authorization: `Bearer ${opts.apiKey}` } : {}),
      },
      body: JSON.stringify({
        model: opts.model,
        temperature: 0.2,
        messages: [
          { role: "system", content: SYSTEM },
          { role: "user", content: user },
        ],
      }),
      signal: controller.signal,
    });
    if (!res.ok) {
      await res.body?.cancel().catch(() => {});
      throw new Error(`language model answered HTTP ${res.status}`);
    }
    type Completion = { choices?: { message?: { content?: unknown } }[] };
    const body = JSON.parse(await readCapped(res, MAX_ANSWER_BYTES)) as Completion;
    const content = body.choices?.[0]?.message?.content;
    if (typeof content !== "string" || !content.trim()) throw new Error("language model answered without text");
    return content;
  };
  try {
    return await Promise.race([call(), outOfTime]);
  } finally {
    clearTimeout(timer);
    // Ends the connection of an answer cut off by its size or left unread.
    controller.abort();
    outOfTime.catch(() => {});
  }
}

/** Renumbers the kept sentences' citations 1..k in order of first use; @returns the text and the cited PMIDs. */
function renumber(sentences: string[], pmids: number[]): { text: string; cited: number[] } {
  const order: number[] = [];
  const text = sentences
    .map((s) =>
      mapCitations(s, (numbers) =>
        numbers
          .map((n) => {
            if (!order.includes(n)) order.push(n);
            return order.indexOf(n) + 1;
          })
          .sort((a, b) => a - b),
      ),
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
    const chosen = articles
      .filter((a) => (a.abstract ?? "").trim() || a.abstract_sections.length > 0)
      .slice(0, LLM_SOURCES);
    const { baseUrl, model, concurrency } = this.opts;
    // No waiting for a slot: a waiting review would hold a worker loop as surely as a hanging call (model-slots.ts).
    const release = chosen.length >= 2 ? takeModelSlot(`${baseUrl} ${model}`, concurrency) : null;
    if (chosen.length >= 2 && !release)
      this.log(`[llm] ${concurrency} call(s) already running: the extractive summary is used`);
    if (release) {
      try {
        const sources = chosen.map(sourceText);
        const answer = await complete(this.opts, query, sources);
        const { kept, dropped } = verifySynthesis(answer, sources, MAX_KEPT_SENTENCES);
        if (dropped.length > 0)
          this.log(
            `[llm] dropped ${dropped.length} unverifiable sentence(s): ${dropped.map((d) => d.reason).join("; ")}`,
          );
        if (kept.length >= MIN_VERIFIED) {
          const { text, cited } = renumber(
            kept,
            chosen.map((a) => a.pmid),
          );
          return { summary: text, citedPmids: cited, engine: `${this.name} (${kept.length} verified sentences)` };
        }
        this.log(`[llm] only ${kept.length} sentence(s) verified: the extractive summary is used`);
      } catch (err) {
        this.log(`[llm] ${err instanceof Error ? err.message : err}: the extractive summary is used`);
      } finally {
        release();
      }
    }
    const result = await this.fallback.summarize(query, articles);
    return { ...result, engine: result.engine ?? this.fallback.name };
  }
}
