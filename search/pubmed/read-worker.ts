/**
 * Worker thread that reads one .xml / .xml.gz file, gunzips it and turns each chunk into a byte string (one char per
 * byte, `Buffer#toString("latin1")`, the form the parser reads), sending them to the parsing thread in order.
 * Reading, gunzip and that conversion then run beside the parsing instead of taking turns with it: the conversion alone
 * is about a tenth of the parsing thread's CPU time (measured: ~0.25 s of ~2.5 s for 30,000 records), and a string
 * passed between threads costs the receiver nothing.
 *
 * Protocol (see `readByteStringsInWorker` in parser/sources.ts):
 *   in:  {type: "start", path}            once
 *        {type: "more"}                   one per chunk consumed: at most MAX_IN_FLIGHT chunks are ever queued,
 *                                         so memory stays flat however fast the disk and slow the parser
 *   out: {type: "chunk", text}            file content (decompressed) as byte strings, in order
 *        {type: "end"}                    after the last chunk
 *        {type: "error", message, code?}  reading or gunzip failed (after every good chunk was sent)
 */
// In a worker, the global scope is the port to the parent thread.
const port = self as unknown as Worker;

/** Chunks sent and not yet consumed. Eight ~0.5 MB chunks keep the parser fed without buffering the file. */
const MAX_IN_FLIGHT = 8;

let credits = MAX_IN_FLIGHT;
let wake: (() => void) | null = null;

port.onmessage = (event: MessageEvent<{ type: "start"; path: string } | { type: "more" }>) => {
  const msg = event.data;
  if (msg.type === "more") {
    credits++;
    wake?.();
    wake = null;
  } else if (msg.type === "start") {
    void pump(msg.path);
  }
};

async function pump(path: string): Promise<void> {
  try {
    const file = Bun.file(path);
    const head = await file.slice(0, 2).bytes();
    let stream: ReadableStream<Uint8Array> = file.stream();
    // Gzip is recognised by its magic bytes 1f 8b, whatever the file is called.
    if (head.length === 2 && head[0] === 0x1f && head[1] === 0x8b)
      stream = stream.pipeThrough(
        new DecompressionStream("gzip") as unknown as TransformStream<Uint8Array, Uint8Array>,
      );
    for await (const chunk of stream) {
      if (chunk.byteLength === 0) continue;
      const text = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString("latin1");
      while (credits === 0) await new Promise<void>((resolve) => (wake = resolve));
      credits--;
      port.postMessage({ type: "chunk", text });
    }
    port.postMessage({ type: "end" });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const code = (error as { code?: string } | null)?.code;
    port.postMessage({ type: "error", message, code });
  }
}
