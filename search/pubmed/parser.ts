/**
 * Streaming PubMed XML parser: .xml or .xml.gz in, one event per record out, memory flat whatever the file size.
 * This module is the parser's public face (a document in memory, a byte stream, a file); the work is done in
 * parser/:
 * - read.ts: the reading, XML → elements, attributes, texts and record boundaries, nesting checked per record
 *   (`PubmedXmlParser`, the push parser every entry point here drives);
 * - map.ts: the mapping, which element of a record goes to which field of its raw record (mapping.ts then makes
 *   the article row of it);
 * - elements.ts: the element names both sides act on, as integer codes; text.ts: how a kept text is decoded;
 * - sources.ts: reading a file's bytes, inline or on a worker thread (read-worker.ts).
 *
 * Shapes accepted (see shared data README "What a parser meets"):
 * - PubmedArticleSet of PubmedArticle / PubmedBookArticle / DeleteCitation (the baseline and update files,
 *   E-utilities);
 * - the older MedlineCitationSet of MedlineCitation (+ DeleteCitation);
 * - the same records under any other root (`<RAW_DATA>`), or with no root element at all, with or without a BOM.
 * A record is recognised by its element name wherever it sits, so the root does not matter. A DOCTYPE is skipped as
 * a declaration: no DTD is ever fetched or read.
 *
 * Books (PubmedBookArticle) are kept, not skipped: they are PubMed records users search for too (e.g. the PDQ cancer
 * summaries, GeneReviews). Their title is the chapter's ArticleTitle, else the BookTitle; they have no journal.
 *
 * A record that is malformed, cut off or without a valid PMID is reported as an `error` event and parsing goes on
 * with the next one; a file that cannot be read at all throws `PubmedFileError`.
 */
import { type ParseEvent, PubmedXmlParser } from "./parser/read.ts";
import { readByteStringsInWorker, readBytesInline, toByteStrings } from "./parser/sources.ts";
import { toByteString } from "./parser/text.ts";

export type { ParsedArticle } from "./mapping.ts";
export { type ParseEvent, PubmedXmlParser } from "./parser/read.ts";

/** A file that cannot be read or decompressed at all, or holds no PubMed records. `file` is the path as given. */
export class PubmedFileError extends Error {
  constructor(
    readonly file: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "PubmedFileError";
  }
}

/**
 * Parses a whole document held in memory (tests, small inputs).
 * @param xml the document as text; a leading BOM (U+FEFF) is ignored.
 * @param source name used in error messages.
 * @returns every event in document order.
 */
export function parsePubmedXml(xml: string, source = "<string>"): ParseEvent[] {
  const events: ParseEvent[] = [];
  const parser = new PubmedXmlParser(source, (e) => events.push(e));
  parser.write(toByteString(xml));
  parser.end();
  return events;
}

/** Root elements of the official formats; a file with another root and no record is not PubMed XML. */
const KNOWN_ROOTS = new Set(["PubmedArticleSet", "MedlineCitationSet", "PubmedBookArticleSet"]);

/**
 * Streams the events of a PubMed XML byte stream (already decompressed).
 * @param bytes UTF-8 XML in chunks of any size.
 * @param source name used in messages.
 * @throws PubmedFileError when reading the stream fails (after the events of every complete record before the
 *   failure), or when the input holds no element of a PubMed document at all.
 */
export function parsePubmedStream(bytes: AsyncIterable<Uint8Array>, source: string): AsyncGenerator<ParseEvent> {
  return parseByteStrings(toByteStrings(bytes), source);
}

/** `parsePubmedStream` over byte strings (see parser/read.ts). */
async function* parseByteStrings(chunks: AsyncIterable<string>, source: string): AsyncGenerator<ParseEvent> {
  let queue: ParseEvent[] = [];
  const parser = new PubmedXmlParser(source, (e) => queue.push(e));
  const iterator = chunks[Symbol.asyncIterator]();
  try {
    for (;;) {
      let next: IteratorResult<string>;
      try {
        next = await iterator.next();
      } catch (error) {
        throw new PubmedFileError(source, `${source}: ${describeReadError(error)}`, { cause: error });
      }
      if (next.done) break;
      parser.write(next.value);
      if (queue.length) {
        const ready = queue;
        queue = [];
        yield* ready;
      }
    }
  } finally {
    // Stops the reader (and its worker) when the consumer stops early or reading failed.
    await iterator.return?.();
  }
  parser.end();
  yield* queue;
  if (parser.records === 0 && !KNOWN_ROOTS.has(parser.firstElement ?? "")) {
    const what = parser.firstElement === null ? "no XML element" : `root element <${parser.firstElement}>`;
    throw new PubmedFileError(
      source,
      `${source}: not PubMed XML (${what}, no PubmedArticle or MedlineCitation record)`,
    );
  }
}

/** A reading or gunzip failure, in words for the file's error message. */
function describeReadError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: string } | null)?.code;
  if (code === "ENOENT") return "cannot read: no such file";
  if (code === "EACCES" || code === "EPERM") return "cannot read: permission denied";
  if (code === "EISDIR") return "cannot read: is a directory, not a file";
  if (/inflate|unexpected end of file|gzip|zlib|header/i.test(message))
    return `gzip data is corrupt or truncated (${message}); records before the damage were read`;
  return `read failed (${message})`;
}

/** Options of `parsePubmedFile`. */
export interface ParseFileOptions {
  /**
   * Read and gunzip on a worker thread (default true), overlapping with parsing on a second core.
   * false does everything on the calling thread.
   */
  readInWorker?: boolean;
}

/**
 * Streams the events of one .xml or .xml.gz file. Gzip is recognised by its magic bytes, not the name, and
 * decompressed as a stream; at most a few chunks are held at once, so memory does not grow with the file.
 * @param path file to read.
 * @throws PubmedFileError naming the file when it is missing, unreadable, corrupt or truncated gzip, or not PubMed XML.
 *   Records before a gzip failure are still emitted first.
 */
export function parsePubmedFile(path: string, options: ParseFileOptions = {}): AsyncGenerator<ParseEvent> {
  return options.readInWorker === false
    ? parsePubmedStream(readBytesInline(path), path)
    : parseByteStrings(readByteStringsInWorker(path), path);
}
