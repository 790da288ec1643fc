/**
 * Where the parser's input comes from: the bytes of a file, read and gunzipped on this thread or on a worker thread,
 * turned into the byte strings the reading works on (see read.ts).
 */

/** Each chunk of UTF-8 bytes as a byte string (one char per byte). */
export async function* toByteStrings(bytes: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  for await (const chunk of bytes)
    yield Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString("latin1");
}

/**
 * Reads a file, gunzipping it when it starts with the gzip magic bytes 1f 8b (whatever its name), on this thread.
 * Errors of the file system or of gunzip are thrown as they come (parser.ts names them).
 */
export async function* readBytesInline(path: string): AsyncGenerator<Uint8Array> {
  const file = Bun.file(path);
  const head = await file.slice(0, 2).bytes();
  let stream: ReadableStream<Uint8Array> = file.stream();
  if (head.length === 2 && head[0] === 0x1f && head[1] === 0x8b)
    stream = stream.pipeThrough(new DecompressionStream("gzip") as unknown as TransformStream<Uint8Array, Uint8Array>);
  yield* stream;
}

type WorkerMessage =
  | { type: "chunk"; text: string }
  | { type: "end" }
  | { type: "error"; message: string; code?: string };

/**
 * The same as `readBytesInline`, done by read-worker.ts on another thread with bounded look-ahead, which also turns
 * the bytes into byte strings: a string passed between threads costs the receiver nothing (measured), whereas
 * converting ~12 KB per record on the parsing thread took a tenth of its time.
 */
export async function* readByteStringsInWorker(path: string): AsyncGenerator<string> {
  const worker = new Worker(new URL("../read-worker.ts", import.meta.url).href);
  const inbox: WorkerMessage[] = [];
  let notify: (() => void) | null = null;
  const deliver = (msg: WorkerMessage) => {
    inbox.push(msg);
    notify?.();
    notify = null;
  };
  worker.onmessage = (event: MessageEvent<WorkerMessage>) => deliver(event.data);
  worker.onerror = (event: ErrorEvent) => deliver({ type: "error", message: event.message || "reader thread failed" });
  worker.postMessage({ type: "start", path });
  try {
    for (;;) {
      while (inbox.length === 0) await new Promise<void>((resolve) => (notify = resolve));
      const msg = inbox.shift()!;
      if (msg.type === "end") return;
      if (msg.type === "error") throw Object.assign(new Error(msg.message), { code: msg.code });
      worker.postMessage({ type: "more" });
      yield msg.text;
    }
  } finally {
    worker.terminate();
  }
}
