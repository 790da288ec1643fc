/**
 * A stand-in of an OpenAI-compatible chat API (POST /v1/chat/completions) for tests of the optional language model,
 * scripted answer by answer: a text, a raw body, an HTTP error, a delay, a hang (no answer until the client gives
 * up), headers then silence, or a huge answer streamed chunk by chunk (to check that the client stops reading).
 * Requests are recorded; a request with no scripted answer gets `fallback` (default: HTTP 500).
 */

/** One scripted answer. */
export type LlmAnswer =
  | { content: string; delayMs?: number }
  | { raw: string; status?: number }
  | { status: number }
  /** Never answers: the request stays open until the client aborts it. */
  | { hang: true }
  /** Sends status and headers, then nothing until the client aborts. */
  | { headersThenHang: true }
  /** A valid answer of about `bytes` bytes whose content repeats `sentence`, streamed in 64 KiB chunks. */
  | { huge: number; sentence: string };

/** What the stand-in saw of one request. */
export interface LlmRequest {
  auth: string | null;
  body: { model: string; messages: { role: string; content: string }[] };
  /** performance.now() when it arrived, and when the client went away (undefined while connected or unknown). */
  receivedAt: number;
  abortedAt?: number;
  /** For a huge answer: bytes handed to the connection so far, and whether the client cancelled the body. */
  sentBytes: number;
  cancelled: boolean;
}

export interface LlmStandIn {
  /** The base URL to configure, ending in /v1. */
  baseUrl: string;
  /** Answers to give, in order (shift on each request). */
  script: LlmAnswer[];
  requests: LlmRequest[];
  /** Answer when the script is empty; may depend on the request. */
  fallback: (request: LlmRequest) => LlmAnswer;
  stop(): void;
}

const CHUNK_BYTES = 64 * 1024;

function completion(content: string): Response {
  return Response.json({
    id: "x",
    object: "chat.completion",
    choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
  });
}

/** A streamed answer of about `total` bytes: valid JSON whose content is `sentence` repeated. */
function hugeAnswer(total: number, sentence: string, seen: LlmRequest): Response {
  const encoder = new TextEncoder();
  const repeated = `${sentence} `.repeat(Math.max(1, Math.floor(CHUNK_BYTES / (sentence.length + 1))));
  const chunk = encoder.encode(JSON.stringify(repeated).slice(1, -1));
  let started = false;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (!started) {
          started = true;
          controller.enqueue(encoder.encode('{"choices":[{"index":0,"message":{"role":"assistant","content":"'));
          return;
        }
        if (seen.sentBytes >= total) {
          controller.enqueue(encoder.encode('"},"finish_reason":"stop"}]}'));
          controller.close();
          return;
        }
        controller.enqueue(chunk);
        seen.sentBytes += chunk.byteLength;
      },
      cancel() {
        seen.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return new Response(stream, { headers: { "content-type": "application/json" } });
}

/** Starts the stand-in on a free local port. */
export function startLlmStandIn(): LlmStandIn {
  const standIn: LlmStandIn = {
    baseUrl: "",
    script: [],
    requests: [],
    fallback: () => ({ status: 500 }),
    stop: () => server.stop(true),
  };
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    idleTimeout: 0,
    async fetch(req) {
      if (new URL(req.url).pathname !== "/v1/chat/completions") return new Response("no", { status: 404 });
      const seen: LlmRequest = {
        auth: req.headers.get("authorization"),
        body: (await req.json()) as LlmRequest["body"],
        receivedAt: performance.now(),
        sentBytes: 0,
        cancelled: false,
      };
      standIn.requests.push(seen);
      const gone = new Promise<void>((resolve) =>
        req.signal.addEventListener("abort", () => {
          seen.abortedAt ??= performance.now();
          resolve();
        }),
      );
      const next = standIn.script.shift() ?? standIn.fallback(seen);
      if ("hang" in next) {
        await gone;
        return new Response("too late", { status: 504 });
      }
      if ("headersThenHang" in next) {
        const body = new ReadableStream<Uint8Array>({ start: () => {} });
        return new Response(body, { headers: { "content-type": "application/json" } });
      }
      if ("huge" in next) return hugeAnswer(next.huge, next.sentence, seen);
      if ("delayMs" in next && next.delayMs) await Bun.sleep(next.delayMs);
      if ("raw" in next) {
        return new Response(next.raw, { status: next.status ?? 200, headers: { "content-type": "application/json" } });
      }
      if ("content" in next) return completion(next.content);
      return Response.json({ error: { message: "overloaded" } }, { status: next.status });
    },
  });
  standIn.baseUrl = `http://127.0.0.1:${server.port}/v1`;
  return standIn;
}
