/**
 * The reading half of the parser: PubMed XML (as byte strings) → elements, attributes and texts, cut into records,
 * with each record's nesting checked. What the elements of a record mean is the mapping's business (map.ts): this
 * side reports every element that opens and closes inside a record, reads the attributes and collects the text of
 * the elements the mapping asks for, and turns each finished record into an event.
 *
 * Tokenizing is done by htmlparser2's Tokenizer in XML mode (chosen over saxes and htmlparser2's own Parser because it
 * is the only one of them fast enough for the ≥10,000 records/s target: see docs/benchmarks.md). That tokenizer
 * is tolerant, so this module keeps its own element stack and checks nesting per record: a record whose tags do not
 * match, that is cut off, or that lacks a valid PMID is reported as an `error` event naming the file, the record's
 * ordinal and its PMID when known, and parsing goes on with the next record.
 *
 * Input is UTF-8 (PubMed's only encoding). The tokenizer runs over "byte strings" (each char one byte, as
 * `Buffer#toString("latin1")` gives): UTF-8 never uses bytes below 0x80 inside a multi-byte character, so every
 * delimiter the tokenizer looks for is found exactly as in decoded text, and only the texts that are kept are decoded
 * from UTF-8 (and their entity references resolved; text.ts). Byte strings are 8-bit strings, which the tokenizer
 * scans ~10 % faster than the 16-bit strings a UTF-8 decoder gives for text with any non-Latin-1 character, and they
 * are made on the reader thread (read-worker.ts) with gunzip, leaving the parsing thread only the parsing.
 * Whitespace between elements and unmapped parts (citation texts, History dates other than the Entrez date,
 * affiliations) never become strings at all; inside unmapped subtrees only the nesting depth is tracked.
 */
import { Tokenizer, type TokenizerCallbacks } from "htmlparser2";
import { mapRecord, parsePmid, type ParsedArticle } from "../mapping.ts";
import {
  E_DELETE_CITATION,
  E_MEDLINE_CITATION,
  E_OTHER,
  E_PUBMED_ARTICLE,
  E_PUBMED_BOOK_ARTICLE,
  E_SKIPPED,
  ELEMENT_CODES,
  mayBeRecordName,
} from "./elements.ts";
import { ALL_ATTRIBUTES, CAP_NONE, NO_ATTRIBUTES, RecordFields, SKIP_SUBTREE } from "./map.ts";
import { clean } from "./text.ts";

/** What the parser emits, in file order. `recordIndex` is the record's 1-based ordinal in its file. */
export type ParseEvent =
  | { type: "article"; article: ParsedArticle; recordIndex: number }
  /** A DeleteCitation: these PMIDs must be removed. */
  | { type: "delete"; pmids: number[]; recordIndex: number }
  /** A record that could not be used; `message` names the file, the record and why. */
  | { type: "error"; message: string; pmid?: number; recordIndex: number };

/** Slots of the element-name cache (a power of two, well above the ~150 element names of the PubMed DTD). */
const NAME_CACHE_SIZE = 1024;

/**
 * Push parser: feed the document's bytes with `writeBytes` (or byte strings with `write`), finish with `end`; events go
 * to `onEvent` synchronously, in document order. One instance per document; not reusable after `end`.
 * The tokenizer callbacks (`on…`) are its implementation, called by htmlparser2, not an API.
 */
export class PubmedXmlParser implements TokenizerCallbacks {
  /** Number of records seen (articles, books, delete lists, and failed ones). */
  records = 0;
  /** Name of the first element of the document (the root, or the first record when there is no root). */
  firstElement: string | null = null;

  private readonly tokenizer: Tokenizer;
  private readonly nameCache: (string | undefined)[] = new Array(NAME_CACHE_SIZE);
  private readonly codeCache = new Int32Array(NAME_CACHE_SIZE);
  /** Code of the name `elementName` returned last (a field rather than a tuple: no allocation per tag). */
  private nameCode = E_OTHER;
  // Chunks still referenced by token offsets; `bufferOffset` is the absolute offset of buffers[0].
  private buffers: string[] = [];
  private bufferOffset = 0;

  // Open elements: names (for messages and end-tag matching) and their codes (for the mapping's decisions).
  private readonly stack: string[] = [];
  private codes = new Int32Array(64);
  private depth = 0;

  /** The record being read: its fields (see map.ts) and where it starts. */
  private readonly fields = new RecordFields();
  private recStartCode = E_OTHER;
  private recStartTag = "";
  private recDepth = -1;
  private recError: string | null = null;

  // Text capture of one element (and its descendants).
  private capture = CAP_NONE;
  private capDepth = -1;
  private capText = "";

  private wantAttrs = false;
  /**
   * The one attribute of the open element that matters, when only one does: its value goes to `onlyValue` (null when
   * absent), not to `attrs`, and the other attributes are never materialised.
   */
  private attrOnly: string | null = null;
  private onlyValue: string | null = null;
  /** The attribute being read is kept. */
  private attrKeep = false;
  private attrs: Record<string, string> | null = null;
  private attrName = "";
  private attrValue = "";

  /** False until the first non-empty write (where a byte-order mark may sit). */
  private started = false;
  /** Inside a skipped subtree (its root is the top of the stack): elements open below the root. */
  private skipping = false;
  private skipDepth = 0;
  /** The start tag being read is inside a skipped subtree (so was not pushed). */
  private openSkipped = false;

  /**
   * @param source file name used in error messages.
   * @param onEvent receives each article, delete list and record error, in document order.
   */
  constructor(
    private readonly source: string,
    private readonly onEvent: (event: ParseEvent) => void,
  ) {
    // Entities are decoded by `clean` on the few texts kept: scanning all text for "&" costs the tokenizer a third
    // of its speed (measured), while most text (white space, references, affiliations) is never used.
    this.tokenizer = new Tokenizer({ xmlMode: true, decodeEntities: false }, this);
  }

  /**
   * Parses the next piece of the document, given as UTF-8 bytes (any split point, even inside a tag or a character).
   * A UTF-8 byte-order mark at the very start is skipped.
   */
  writeBytes(bytes: Uint8Array): void {
    this.write(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1"));
  }

  /**
   * Parses the next piece of the document, given as a byte string: each char is one byte of UTF-8 (0..255), as
   * `Buffer#toString("latin1")` gives. For ordinary (decoded) text use `parsePubmedXml`.
   */
  write(byteString: string): void {
    if (!this.started) {
      if (byteString.length === 0) return;
      this.started = true;
      if (byteString.startsWith("\xEF\xBB\xBF")) byteString = byteString.slice(3);
    }
    if (byteString.length === 0) return;
    this.buffers.push(byteString);
    this.tokenizer.write(byteString);
  }

  /** Ends the document: a record still open is reported as cut off. */
  end(): void {
    this.tokenizer.end();
  }

  // ---- buffer access -------------------------------------------------------------------------------------------

  private getSlice(start: number, end: number): string {
    if (start >= end) return "";
    const buffers = this.buffers;
    // Token offsets only grow, so chunks before `start` will never be read again.
    while (start - this.bufferOffset >= buffers[0]!.length) {
      this.bufferOffset += buffers[0]!.length;
      buffers.shift();
    }
    let slice = buffers[0]!.slice(start - this.bufferOffset, end - this.bufferOffset);
    let base = this.bufferOffset;
    for (let i = 1; end - base > buffers[i - 1]!.length; i++) {
      base += buffers[i - 1]!.length;
      slice += buffers[i]!.slice(0, end - base);
    }
    return slice;
  }

  /**
   * Name and code of the element whose name is at [start, end).
   * A document uses a hundred or so distinct names millions of times, so names are looked up in a small cache keyed
   * by length and three characters and verified in place: for a name seen before, no string is allocated and no Map
   * is consulted.
   */
  private elementName(start: number, end: number): string {
    const buffers = this.buffers;
    while (start - this.bufferOffset >= buffers[0]!.length) {
      this.bufferOffset += buffers[0]!.length;
      buffers.shift();
    }
    const first = buffers[0]!;
    const local = start - this.bufferOffset;
    const length = end - start;
    if (local + length > first.length || length === 0) {
      // Split across two chunks: rare, take the slow way.
      const name = this.getSlice(start, end);
      this.nameCode = ELEMENT_CODES.get(name) ?? E_OTHER;
      return name;
    }
    const key =
      (length * 131 +
        first.charCodeAt(local) * 31 +
        first.charCodeAt(local + (length >> 1)) * 7 +
        first.charCodeAt(local + length - 1)) &
      (NAME_CACHE_SIZE - 1);
    const cached = this.nameCache[key];
    if (cached !== undefined && cached.length === length && first.startsWith(cached, local)) {
      this.nameCode = this.codeCache[key]!;
      return cached;
    }
    // A copy, not a slice: a slice would keep the whole chunk it came from alive for as long as it is cached.
    const name = Buffer.from(first.slice(local, local + length), "latin1").toString("latin1");
    const code = ELEMENT_CODES.get(name) ?? E_OTHER;
    this.nameCache[key] = name;
    this.codeCache[key] = code;
    this.nameCode = code;
    return name;
  }

  /** True when the token at [start, end) spells `name`, without allocating a string in the common case. */
  private tokenIs(start: number, end: number, name: string): boolean {
    if (end - start !== name.length) return false;
    const buffers = this.buffers;
    while (start - this.bufferOffset >= buffers[0]!.length) {
      this.bufferOffset += buffers[0]!.length;
      buffers.shift();
    }
    const local = start - this.bufferOffset;
    const first = buffers[0]!;
    if (end - this.bufferOffset <= first.length) return first.startsWith(name, local);
    return this.getSlice(start, end) === name;
  }

  // ---- tokenizer callbacks ---------------------------------------------------------------------------------------

  /** @internal */
  onopentagname(start: number, end: number): void {
    if (this.skipping) {
      let skipped = !mayBeRecordName(end - start);
      if (!skipped) {
        this.elementName(start, end);
        skipped = !this.isRecordStart(this.nameCode);
      }
      if (skipped) {
        this.skipDepth++;
        this.openSkipped = true;
        this.wantAttrs = false;
        return;
      }
      // A record starts inside the subtree: the current record is broken, the normal path reports it.
      this.skipping = false;
      this.skipDepth = 0;
    }
    this.openSkipped = false;
    const name = this.elementName(start, end);
    const code = this.nameCode;
    if (this.firstElement === null) this.firstElement = name;
    if (this.depth === this.codes.length) {
      const grown = new Int32Array(this.codes.length * 2);
      grown.set(this.codes);
      this.codes = grown;
    }
    this.codes[this.depth] = code;
    this.stack[this.depth++] = name;
    // Attributes are read only where the mapping needs them, and only in a record, outside captured text.
    const needed =
      this.fields.rec !== null && this.capture === CAP_NONE ? this.fields.attributesNeeded(code) : NO_ATTRIBUTES;
    this.wantAttrs = needed !== NO_ATTRIBUTES;
    this.attrOnly = needed === NO_ATTRIBUTES || needed === ALL_ATTRIBUTES ? null : needed;
    this.onlyValue = null;
    this.attrs = this.wantAttrs && this.attrOnly === null ? {} : null;
  }

  /** @internal */
  onattribname(start: number, end: number): void {
    if (!this.wantAttrs) return;
    this.attrKeep = this.attrOnly === null || this.tokenIs(start, end, this.attrOnly);
    if (!this.attrKeep) return;
    if (this.attrOnly === null) this.attrName = this.getSlice(start, end);
    this.attrValue = "";
  }

  /** @internal */
  onattribdata(start: number, end: number): void {
    if (this.wantAttrs && this.attrKeep) this.attrValue += this.getSlice(start, end);
  }

  /** @internal */
  onattribentity(codepoint: number): void {
    if (this.wantAttrs && this.attrKeep) this.attrValue += String.fromCodePoint(codepoint);
  }

  /** @internal */
  onattribend(): void {
    if (!this.wantAttrs || !this.attrKeep) return;
    if (this.attrOnly !== null) this.onlyValue = clean(this.attrValue);
    else this.attrs![this.attrName] = clean(this.attrValue);
  }

  /** @internal */
  onopentagend(): void {
    if (!this.openSkipped) this.openElement();
  }

  /** @internal */
  onselfclosingtag(): void {
    if (this.openSkipped) {
      this.openSkipped = false;
      this.skipDepth--;
      return;
    }
    this.openElement();
    this.popElement();
  }

  /** @internal */
  onclosetag(start: number, end: number): void {
    if (this.skipDepth > 0) {
      this.skipDepth--;
      return;
    }
    const depth = this.depth;
    if (depth > 0 && this.tokenIs(start, end, this.stack[depth - 1]!)) {
      this.popElement();
      return;
    }
    const name = this.getSlice(start, end);
    let i = depth - 1;
    while (i >= 0 && this.stack[i] !== name) i--;
    if (i < 0) {
      // A closing tag that matches nothing open: inside a record it makes the record malformed; outside, harmless.
      if (this.fields.rec) this.fail(`unexpected closing tag </${name}> inside <${this.stack[depth - 1]}>`);
      return;
    }
    if (this.fields.rec && depth - 1 >= this.recDepth)
      this.fail(`<${this.stack[depth - 1]}> is not closed before </${name}>`);
    while (this.depth - 1 > i) this.popElement();
    this.popElement();
  }

  /** @internal */
  ontext(start: number, end: number): void {
    if (this.capture !== CAP_NONE) this.capText += this.getSlice(start, end);
  }

  /** @internal */
  ontextentity(codepoint: number): void {
    if (this.capture !== CAP_NONE) this.capText += String.fromCodePoint(codepoint);
  }

  /** @internal */
  oncdata(start: number, end: number, endOffset: number): void {
    if (this.capture !== CAP_NONE) this.capText += this.getSlice(start, end - endOffset);
  }

  /** @internal */
  oncomment(): void {}
  /** @internal */
  ondeclaration(): void {}
  /** @internal */
  onprocessinginstruction(): void {}

  /** @internal */
  onend(): void {
    if (this.inRecord()) {
      this.fail(`the file ends inside this record (truncated file?)`);
      this.finishRecord();
    }
    this.buffers = [];
  }

  // ---- structure -------------------------------------------------------------------------------------------------

  /** A record (article, book or DeleteCitation) is open. */
  private inRecord(): boolean {
    return this.fields.rec !== null || this.fields.deletePmids !== null;
  }

  /** Marks the open record malformed; the first reason is the one reported. */
  private fail(reason: string): void {
    if (this.recError === null) this.recError = reason;
  }

  private isRecordStart(code: number): boolean {
    if (code === E_PUBMED_ARTICLE || code === E_PUBMED_BOOK_ARTICLE || code === E_DELETE_CITATION) return true;
    // In a PubmedArticle, MedlineCitation is a part; on its own (MedlineCitationSet) it is the record.
    return code === E_MEDLINE_CITATION && (this.fields.rec === null || this.recStartCode === E_MEDLINE_CITATION);
  }

  private startRecord(code: number, name: string): void {
    if (this.inRecord()) {
      // The previous record never closed: report it and drop its open elements, keeping the new one on top.
      this.fail(`<${this.recStartTag}> is not closed before the next record starts`);
      const recDepth = this.recDepth;
      this.depth = recDepth + 1;
      this.stack[recDepth] = name;
      this.codes[recDepth] = code;
      this.finishRecord();
    }
    this.records++;
    this.recStartCode = code;
    this.recStartTag = name;
    this.recDepth = this.depth - 1;
    this.recError = null;
    this.fields.start(code);
  }

  private startCapture(kind: number): void {
    this.capture = kind;
    this.capDepth = this.depth - 1;
    this.capText = "";
  }

  /** Called once the start tag (and its attributes) of the element on top of the stack is complete. */
  private openElement(): void {
    const depth = this.depth;
    const code = this.codes[depth - 1]!;
    if (code === E_OTHER) return;
    if (this.isRecordStart(code)) {
      this.startRecord(code, this.stack[depth - 1]!);
      return;
    }
    if (this.capture !== CAP_NONE) return; // descendants of a captured element only add text
    if (code === E_SKIPPED) {
      if (this.fields.rec) {
        this.skipping = true;
        this.skipDepth = 0;
      }
      return;
    }
    const parent = depth > 1 ? this.codes[depth - 2]! : E_OTHER;
    const grandparent = depth > 2 ? this.codes[depth - 3]! : E_OTHER;
    const kind = this.fields.open(code, parent, grandparent, this.attrs, this.onlyValue);
    if (kind === SKIP_SUBTREE) {
      this.codes[depth - 1] = E_SKIPPED;
      this.skipping = true;
      this.skipDepth = 0;
    } else if (kind !== CAP_NONE) {
      this.startCapture(kind);
    }
  }

  /** Closes the element on top of the stack. */
  private popElement(): void {
    const depth = --this.depth;
    const code = this.codes[depth]!;
    if (code === E_SKIPPED) this.skipping = false;
    if (this.capture !== CAP_NONE && depth === this.capDepth) {
      this.finishCapture();
    } else if (this.fields.rec && code !== E_OTHER) {
      this.fields.close(code);
    }
    if (depth === this.recDepth && this.inRecord()) this.finishRecord();
  }

  private finishCapture(): void {
    const kind = this.capture;
    const raw = this.capText;
    this.capture = CAP_NONE;
    this.capDepth = -1;
    this.capText = "";
    this.fields.text(kind, raw);
  }

  /** Ends the open record: reports it as an event, and makes ready for the next one. */
  private finishRecord(): void {
    const rec = this.fields.rec;
    const deletePmids = this.fields.deletePmids;
    const error = this.recError;
    const index = this.records;
    this.fields.reset();
    this.recError = null;
    this.recDepth = -1;
    this.recStartCode = E_OTHER;
    this.recStartTag = "";
    this.capture = CAP_NONE;
    this.capDepth = -1;
    this.capText = "";
    this.skipping = false;
    this.skipDepth = 0;

    if (deletePmids) {
      const pmids: number[] = [];
      let bad: string | null = error;
      for (const text of deletePmids) {
        const pmid = parsePmid(text);
        if (typeof pmid === "number") pmids.push(pmid);
        else bad ??= `DeleteCitation with ${pmid}`;
      }
      if (bad) this.onEvent({ type: "error", message: this.message(index, null, bad), recordIndex: index });
      if (pmids.length) this.onEvent({ type: "delete", pmids, recordIndex: index });
      return;
    }
    if (!rec) return;
    const pmid = parsePmid(rec.pmid);
    if (typeof pmid === "string" || error) {
      const known = typeof pmid === "number" ? pmid : null;
      const event: ParseEvent = {
        type: "error",
        message: this.message(index, known, error ?? (pmid as string)),
        recordIndex: index,
      };
      if (known !== null) event.pmid = known;
      this.onEvent(event);
      return;
    }
    this.onEvent({ type: "article", article: mapRecord(rec, pmid), recordIndex: index });
  }

  private message(index: number, pmid: number | null, reason: string): string {
    return `${this.source}: record ${index}${pmid !== null ? ` (PMID ${pmid})` : ""}: ${reason}`;
  }
}
