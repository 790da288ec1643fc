import type { ExportArticle } from "./csl.ts";
import { referenceWriter, type ExportFormat } from "./formats.ts";

/**
 * A reference file sent as it is written (issue 22: a 2,869-record RIS export written in one piece held the event
 * loop 1.6 s, every other request waiting; docs/decisions/0033-api-lint-and-streamed-exports.md). The articles come
 * in batches (src/export/repository.ts reads EXPORT_BATCH_SIZE per query); each batch is written, sent, and the loop
 * is given back (a macrotask turn) before the next is read, so the longest block is one batch's writing, whatever
 * the list's length. The stream is pulled: a slow client holds no more than a batch in memory. The bytes are
 * `writeReferences`'s, since both use the same ReferenceWriter.
 */

const encoder = new TextEncoder();

/** Lets timers, I/O and other requests run before the next batch (setImmediate: after the poll phase). */
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The file of `format` over `batches`, as a byte stream. The first batch is read before this resolves, so that a
 * failure to read (the database unavailable: 503) is still an HTTP error answer; a later failure ends the stream
 * with an error (the client sees a cut download, never a complete-looking file) and is logged.
 */
export async function referenceStream(
  batches: AsyncIterable<ExportArticle[]>,
  format: ExportFormat,
): Promise<ReadableStream<Uint8Array>> {
  const iterator = batches[Symbol.asyncIterator]();
  const writer = referenceWriter(format);
  const write = (articles: readonly ExportArticle[]) => articles.map((a) => writer.record(a)).join("");
  const first = await iterator.next();
  let head: string | null = writer.start + (first.done ? "" : write(first.value));
  let finished = !!first.done;

  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        if (head !== null) {
          const text = head;
          head = null;
          if (text) {
            controller.enqueue(encoder.encode(text));
            return;
          }
        }
        if (!finished) {
          await yieldToEventLoop();
          const next = await iterator.next();
          if (!next.done) {
            controller.enqueue(encoder.encode(write(next.value)));
            return;
          }
          finished = true;
        }
        const end = writer.end();
        if (end) controller.enqueue(encoder.encode(end));
        controller.close();
      } catch (err) {
        console.error("export stream failed:", err instanceof Error ? err.message : err);
        controller.error(err);
      }
    },
    async cancel() {
      await iterator.return?.(undefined);
    },
  });
}
