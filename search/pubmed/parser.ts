/**
 * Streaming PubMed XML parser: .xml or .xml.gz in, one event per record out, memory flat whatever the file size.
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
 * Tokenizing is done by htmlparser2's Tokenizer in XML mode (chosen over saxes and htmlparser2's own Parser because it
 * is the only one of them fast enough for the ≥10,000 records/s target: see docs/benchmarks.md). That tokenizer
 * is tolerant, so this module keeps its own element stack and checks nesting per record: a record whose tags do not
 * match, that is cut off, or that lacks a valid PMID is reported as an `error` event naming the file, the record's
 * ordinal and its PMID when known, and parsing goes on with the next record.
 *
 * Input is UTF-8 (PubMed's only encoding). The tokenizer runs over "byte strings" (each char one byte, as
 * `Buffer#toString("latin1")` gives): UTF-8 never uses bytes below 0x80 inside a multi-byte character, so every
 * delimiter the tokenizer looks for is found exactly as in decoded text, and only the texts that are kept are decoded
 * from UTF-8 (and their entity references resolved). Byte strings are 8-bit strings, which the tokenizer scans ~10 %
 * faster than the 16-bit strings a UTF-8 decoder gives for text with any non-Latin-1 character, and they are made on
 * the reader thread (read-worker.ts) with gunzip, leaving the parsing thread only the parsing.
 * Whitespace between elements and unmapped parts (citation texts, History dates other than the Entrez date,
 * affiliations) never become strings at all; inside unmapped subtrees only the nesting depth is tracked.
 */
import { decodeXML } from "entities/decode";
import { Tokenizer, type TokenizerCallbacks } from "htmlparser2";
import {
  emptyRawDate,
  emptyRawRecord,
  mapRecord,
  parsePmid,
  type ParsedArticle,
  type RawAuthor,
  type RawDate,
  type RawRecord,
} from "./mapping.ts";

export type { ParsedArticle } from "./mapping.ts";

/** What the parser emits, in file order. `recordIndex` is the record's 1-based ordinal in its file. */
export type ParseEvent =
  | { type: "article"; article: ParsedArticle; recordIndex: number }
  /** A DeleteCitation: these PMIDs must be removed. */
  | { type: "delete"; pmids: number[]; recordIndex: number }
  /** A record that could not be used; `message` names the file, the record and why. */
  | { type: "error"; message: string; pmid?: number; recordIndex: number };

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

// What the text of the element being captured is for.
const CAP_NONE = 0;
const CAP_PMID = 1;
const CAP_DELETE_PMID = 2;
const CAP_TITLE = 3;
const CAP_VERNACULAR = 4;
const CAP_BOOK_TITLE = 5;
const CAP_JOURNAL = 6;
const CAP_YEAR = 7;
const CAP_MONTH = 8;
const CAP_DAY = 9;
const CAP_SEASON = 10;
const CAP_MEDLINE_DATE = 11;
const CAP_ABSTRACT = 12;
const CAP_LAST_NAME = 13;
const CAP_FORE_NAME = 14;
const CAP_INITIALS = 15;
const CAP_SUFFIX = 16;
const CAP_COLLECTIVE = 17;
const CAP_LANGUAGE = 18;
const CAP_PUB_TYPE = 19;
const CAP_MESH = 20;
const CAP_KEYWORD = 21;
const CAP_ELOCATION_DOI = 22;
const CAP_ARTICLE_ID_DOI = 23;
const CAP_ARTICLE_ID_PMC = 24;
const CAP_BOOK_ACCESSION = 25;
const CAP_OTHER_ID = 26;
const CAP_RETRACTION_PMID = 27;
const CAP_REFERENCE_PMID = 28;
const CAP_VOLUME = 29;
const CAP_ISSUE = 30;
const CAP_MEDLINE_PGN = 31;
const CAP_START_PAGE = 32;
const CAP_END_PAGE = 33;
const CAP_ELOCATION_PII = 34;
const CAP_ISO_ABBREVIATION = 35;
const CAP_MEDLINE_TA = 36;
const CAP_ISSN = 37;
const CAP_ORCID = 38;
const CAP_PUBLISHER_NAME = 39;
const CAP_PUBLISHER_LOCATION = 40;

// Element names the mapping looks at, as small integers: one Map lookup per start tag, then integer comparisons.
const E_OTHER = 0;
const E_PUBMED_ARTICLE = 1;
const E_PUBMED_BOOK_ARTICLE = 2;
const E_DELETE_CITATION = 3;
const E_MEDLINE_CITATION = 4;
const E_PMID = 5;
const E_ARTICLE = 6;
const E_BOOK_DOCUMENT = 7;
const E_ARTICLE_TITLE = 8;
const E_VERNACULAR_TITLE = 9;
const E_BOOK_TITLE = 10;
const E_BOOK = 11;
const E_TITLE = 12;
const E_JOURNAL = 13;
const E_PUB_DATE = 14;
const E_JOURNAL_ISSUE = 15;
const E_ARTICLE_DATE = 16;
const E_YEAR = 17;
const E_MONTH = 18;
const E_DAY = 19;
const E_SEASON = 20;
const E_MEDLINE_DATE = 21;
const E_ABSTRACT_TEXT = 22;
const E_ABSTRACT = 23;
const E_AUTHOR_LIST = 24;
const E_AUTHOR = 25;
const E_LAST_NAME = 26;
const E_FORE_NAME = 27;
const E_INITIALS = 28;
const E_SUFFIX = 29;
const E_COLLECTIVE_NAME = 30;
const E_LANGUAGE = 31;
const E_PUBLICATION_TYPE = 32;
const E_PUBLICATION_TYPE_LIST = 33;
const E_DESCRIPTOR_NAME = 34;
const E_MESH_HEADING = 35;
const E_KEYWORD = 36;
const E_KEYWORD_LIST = 37;
const E_ELOCATION_ID = 38;
const E_ARTICLE_ID = 39;
const E_ARTICLE_ID_LIST = 40;
const E_PUBMED_DATA = 41;
const E_PUBMED_BOOK_DATA = 42;
const E_OTHER_ID = 43;
/** Elements whose whole content is unused (see SKIPPED_ELEMENTS). */
const E_SKIPPED = 44;
const E_COMMENTS_CORRECTIONS = 45;
const E_REFERENCE_LIST = 46;
const E_REFERENCE = 47;
const E_HISTORY = 48;
const E_PUBMED_PUB_DATE = 49;
const E_QUALIFIER_NAME = 50;
const E_VOLUME = 51;
const E_ISSUE = 52;
const E_PAGINATION = 53;
const E_MEDLINE_PGN = 54;
const E_START_PAGE = 55;
const E_END_PAGE = 56;
const E_ISO_ABBREVIATION = 57;
const E_MEDLINE_JOURNAL_INFO = 58;
const E_MEDLINE_TA = 59;
const E_ISSN = 60;
const E_IDENTIFIER = 61;
const E_PUBLISHER = 62;
const E_PUBLISHER_NAME = 63;
const E_PUBLISHER_LOCATION = 64;
const E_LOCATION_LABEL = 65;

/**
 * Parts of a record that hold nothing the mapping uses. Inside them only the nesting depth is tracked (no names, no
 * codes, no attributes), which matters because they are most of a modern record: a reference list alone is often
 * half its tags. Their nesting is still checked where it counts: a subtree that does not close where it should
 * makes the record malformed, and a record start inside one is still recognised.
 */
const SKIPPED_ELEMENTS = [
  // A reference list is read only for its references' PMIDs (the citation graph of the disruption signal): the
  // citation texts, most of its bytes, are skipped.
  "Citation",
  "ChemicalList",
  "GrantList",
  "InvestigatorList",
  "SupplMeshList",
  "GeneSymbolList",
  "DataBankList",
  "PersonalNameSubjectList",
  "OtherAbstract",
  "AffiliationInfo",
  "DateCompleted",
  "DateRevised",
  "Sections",
  "CoiStatement",
];
/** Lengths of the record element names (PubmedArticle, DeleteCitation, MedlineCitation, PubmedBookArticle). */
function mayBeRecordName(length: number): boolean {
  return length === 13 || length === 14 || length === 15 || length === 17;
}

const ELEMENT_CODES = new Map<string, number>([
  ["PubmedArticle", E_PUBMED_ARTICLE],
  ["PubmedBookArticle", E_PUBMED_BOOK_ARTICLE],
  ["DeleteCitation", E_DELETE_CITATION],
  ["MedlineCitation", E_MEDLINE_CITATION],
  ["PMID", E_PMID],
  ["Article", E_ARTICLE],
  ["BookDocument", E_BOOK_DOCUMENT],
  ["ArticleTitle", E_ARTICLE_TITLE],
  ["VernacularTitle", E_VERNACULAR_TITLE],
  ["BookTitle", E_BOOK_TITLE],
  ["Book", E_BOOK],
  ["Title", E_TITLE],
  ["Journal", E_JOURNAL],
  ["PubDate", E_PUB_DATE],
  ["JournalIssue", E_JOURNAL_ISSUE],
  ["ArticleDate", E_ARTICLE_DATE],
  ["Year", E_YEAR],
  ["Month", E_MONTH],
  ["Day", E_DAY],
  ["Season", E_SEASON],
  ["MedlineDate", E_MEDLINE_DATE],
  ["AbstractText", E_ABSTRACT_TEXT],
  ["Abstract", E_ABSTRACT],
  ["AuthorList", E_AUTHOR_LIST],
  ["Author", E_AUTHOR],
  ["LastName", E_LAST_NAME],
  ["ForeName", E_FORE_NAME],
  ["Initials", E_INITIALS],
  ["Suffix", E_SUFFIX],
  ["CollectiveName", E_COLLECTIVE_NAME],
  ["Language", E_LANGUAGE],
  ["PublicationType", E_PUBLICATION_TYPE],
  ["PublicationTypeList", E_PUBLICATION_TYPE_LIST],
  ["DescriptorName", E_DESCRIPTOR_NAME],
  ["MeshHeading", E_MESH_HEADING],
  ["Keyword", E_KEYWORD],
  ["KeywordList", E_KEYWORD_LIST],
  ["ELocationID", E_ELOCATION_ID],
  ["ArticleId", E_ARTICLE_ID],
  ["ArticleIdList", E_ARTICLE_ID_LIST],
  ["PubmedData", E_PUBMED_DATA],
  ["PubmedBookData", E_PUBMED_BOOK_DATA],
  ["OtherID", E_OTHER_ID],
  ["CommentsCorrections", E_COMMENTS_CORRECTIONS],
  ["ReferenceList", E_REFERENCE_LIST],
  ["Reference", E_REFERENCE],
  ["History", E_HISTORY],
  ["PubMedPubDate", E_PUBMED_PUB_DATE],
  ["QualifierName", E_QUALIFIER_NAME],
  ["Volume", E_VOLUME],
  ["Issue", E_ISSUE],
  ["Pagination", E_PAGINATION],
  ["MedlinePgn", E_MEDLINE_PGN],
  ["StartPage", E_START_PAGE],
  ["EndPage", E_END_PAGE],
  ["ISOAbbreviation", E_ISO_ABBREVIATION],
  ["MedlineJournalInfo", E_MEDLINE_JOURNAL_INFO],
  ["MedlineTA", E_MEDLINE_TA],
  ["ISSN", E_ISSN],
  ["Identifier", E_IDENTIFIER],
  ["Publisher", E_PUBLISHER],
  ["PublisherName", E_PUBLISHER_NAME],
  ["PublisherLocation", E_PUBLISHER_LOCATION],
  ["LocationLabel", E_LOCATION_LABEL],
  ...SKIPPED_ELEMENTS.map((name): [string, number] => [name, E_SKIPPED]),
]);

/** Slots of the element-name cache (a power of two, well above the ~150 element names of the PubMed DTD). */
const NAME_CACHE_SIZE = 1024;

/** Elements whose attributes matter; attributes of all others are never materialised. */
function wantsAttributes(code: number): boolean {
  return (
    code === E_ABSTRACT_TEXT ||
    code === E_AUTHOR_LIST ||
    code === E_AUTHOR ||
    code === E_ELOCATION_ID ||
    code === E_ARTICLE_ID ||
    code === E_OTHER_ID ||
    code === E_COMMENTS_CORRECTIONS ||
    code === E_DESCRIPTOR_NAME ||
    code === E_QUALIFIER_NAME ||
    code === E_PUBMED_PUB_DATE ||
    code === E_IDENTIFIER
  );
}

/** XML white space (S production of XML 1.0), collapsed to one space; other Unicode spaces are content and stay. */
const XML_SPACE = /[ \t\r\n]+/g;
/** Anything `clean` has to act on: a byte outside printable ASCII, "&", two spaces, a space at either end. */
const NEEDS_CLEANING = /[^\x20-\x25\x27-\x7E]| {2}|^ | $/;
/** C0 controls other than tab, LF and CR (not XML 1.0 characters; see the Char production). */
const NOT_XML_CHARS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g;

/** Byte string (one char per byte) of UTF-8 → the text it encodes. */
function utf8(bytes: string): string {
  return Buffer.from(bytes, "latin1").toString("utf8");
}

/** Unicode text → byte string of its UTF-8 encoding, the form the parser reads. */
function toByteString(text: string): string {
  return Buffer.from(text, "utf8").toString("latin1");
}

/**
 * A kept text as stored: UTF-8 decoded, entity and character references resolved (by the `entities` library, the one
 * htmlparser2 itself uses), XML white space collapsed and trimmed.
 * Most kept texts are one clean ASCII line, so one scan decides which of those steps are needed at all.
 * @param bytes byte string (see the module comment).
 */
function clean(bytes: string): string {
  // Fast path, taken by most names, MeSH terms, dates and ids: printable ASCII without "&" or doubled/edge spaces.
  if (!NEEDS_CLEANING.test(bytes)) return bytes;
  const n = bytes.length;
  let wide = false;
  let entity = false;
  let control = false;
  let space = bytes.charCodeAt(0) <= 32 || bytes.charCodeAt(n - 1) <= 32;
  for (let i = 0; i < n; i++) {
    const c = bytes.charCodeAt(i);
    if (c >= 0x80) wide = true;
    else if (c === 38) entity = true;
    else if (c === 10 || c === 13 || c === 9 || (c === 32 && bytes.charCodeAt(i + 1) === 32)) space = true;
    else if (c < 32) control = true;
  }
  // UTF-8 first: references are ASCII and survive it, while a character a reference produces would not.
  let text = wide ? utf8(bytes) : bytes;
  if (entity) text = decodeXML(text);
  // Control characters are not allowed in XML text, and PostgreSQL cannot store U+0000: a damaged file must not make
  // a record impossible to store.
  if (control || entity) text = text.replace(NOT_XML_CHARS, "");
  return space || entity ? text.replace(XML_SPACE, " ").trim() : text;
}

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

  // The record being read.
  private rec: RawRecord | null = null;
  private recStartCode = E_OTHER;
  private recStartTag = "";
  private recDepth = -1;
  private recError: string | null = null;
  private deletePmids: string[] | null = null;

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

  private authorListOpen = false;
  /** Inside CommentsCorrections[@RefType="RetractionIn"]: its PMID is the retraction notice. */
  private retractionOpen = false;
  private author: RawAuthor | null = null;
  /** The descriptor of the MeshHeading being read (null before it, or when empty), and whether it is already major. */
  private meshDescriptor: string | null = null;
  private meshMajor = false;
  private date: RawDate | null = null;
  private sectionLabel = "";
  private sectionCategory: string | null = null;
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
    this.wantAttrs = this.rec !== null && this.capture === CAP_NONE && wantsAttributes(code);
    this.attrOnly = null;
    this.onlyValue = null;
    if (this.wantAttrs) {
      // MeSH names and History dates are many per record and each needs one attribute, and only while it can matter:
      // the dates until the Entrez date is found, a qualifier while its descriptor is not yet a major topic.
      if (code === E_DESCRIPTOR_NAME) this.attrOnly = "MajorTopicYN";
      else if (code === E_QUALIFIER_NAME) {
        this.attrOnly = "MajorTopicYN";
        this.wantAttrs = !this.meshMajor && this.meshDescriptor !== null;
      } else if (code === E_PUBMED_PUB_DATE) {
        this.attrOnly = "PubStatus";
        this.wantAttrs = this.rec!.entrezDate === null;
      } else if (code === E_IDENTIFIER) {
        this.attrOnly = "Source";
        this.wantAttrs = this.author !== null && this.author.orcid === null;
      }
    }
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
      if (this.rec) this.fail(`unexpected closing tag </${name}> inside <${this.stack[depth - 1]}>`);
      return;
    }
    if (this.rec && depth - 1 >= this.recDepth) this.fail(`<${this.stack[depth - 1]}> is not closed before </${name}>`);
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
    if (this.rec || this.deletePmids) {
      this.fail(`the file ends inside this record (truncated file?)`);
      this.finishRecord();
    }
    this.buffers = [];
  }

  // ---- structure -------------------------------------------------------------------------------------------------

  private fail(reason: string): void {
    if (this.recError === null) this.recError = reason;
  }

  private isRecordStart(code: number): boolean {
    if (code === E_PUBMED_ARTICLE || code === E_PUBMED_BOOK_ARTICLE || code === E_DELETE_CITATION) return true;
    // In a PubmedArticle, MedlineCitation is a part; on its own (MedlineCitationSet) it is the record.
    return code === E_MEDLINE_CITATION && (this.rec === null || this.recStartCode === E_MEDLINE_CITATION);
  }

  private startRecord(code: number, name: string): void {
    if (this.rec || this.deletePmids) {
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
    if (code === E_DELETE_CITATION) {
      this.deletePmids = [];
    } else {
      this.rec = emptyRawRecord(code === E_PUBMED_BOOK_ARTICLE ? "book" : "article");
    }
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
      if (this.rec) {
        this.skipping = true;
        this.skipDepth = 0;
      }
      return;
    }
    if (this.deletePmids) {
      if (code === E_PMID) this.startCapture(CAP_DELETE_PMID);
      return;
    }
    const rec = this.rec;
    if (!rec) return;
    const parent = depth > 1 ? this.codes[depth - 2]! : E_OTHER;
    switch (code) {
      case E_PMID:
        if ((parent === E_MEDLINE_CITATION || parent === E_BOOK_DOCUMENT) && rec.pmid === null)
          this.startCapture(CAP_PMID);
        else if (parent === E_COMMENTS_CORRECTIONS && this.retractionOpen && rec.retractionInPmid === null)
          this.startCapture(CAP_RETRACTION_PMID);
        break;
      case E_COMMENTS_CORRECTIONS:
        this.retractionOpen = this.attrs?.RefType === "RetractionIn";
        break;
      case E_ARTICLE_TITLE:
        if (parent === E_ARTICLE || parent === E_BOOK_DOCUMENT) this.startCapture(CAP_TITLE);
        break;
      case E_VERNACULAR_TITLE:
        if (parent === E_ARTICLE) this.startCapture(CAP_VERNACULAR);
        break;
      case E_BOOK_TITLE:
        if (parent === E_BOOK) this.startCapture(CAP_BOOK_TITLE);
        break;
      case E_TITLE:
        if (parent === E_JOURNAL) this.startCapture(CAP_JOURNAL);
        break;
      case E_PUB_DATE:
        if ((parent === E_JOURNAL_ISSUE || parent === E_BOOK) && rec.pubDate === null)
          this.date = rec.pubDate = emptyRawDate();
        break;
      case E_ARTICLE_DATE:
        if (parent === E_ARTICLE && rec.articleDate === null) this.date = rec.articleDate = emptyRawDate();
        break;
      case E_PUBMED_PUB_DATE: {
        // Of a record's History only the Entrez date is read; its other dates are skipped like unmapped subtrees.
        const grandparent = depth > 2 ? this.codes[depth - 3]! : E_OTHER;
        if (
          parent === E_HISTORY &&
          (grandparent === E_PUBMED_DATA || grandparent === E_PUBMED_BOOK_DATA) &&
          this.onlyValue === "entrez" &&
          rec.entrezDate === null
        ) {
          this.date = rec.entrezDate = emptyRawDate();
        } else {
          this.codes[depth - 1] = E_SKIPPED;
          this.skipping = true;
          this.skipDepth = 0;
        }
        break;
      }
      case E_YEAR:
        if (this.date && (parent === E_PUB_DATE || parent === E_ARTICLE_DATE || parent === E_PUBMED_PUB_DATE))
          this.startCapture(CAP_YEAR);
        break;
      case E_MONTH:
        if (this.date && (parent === E_PUB_DATE || parent === E_ARTICLE_DATE || parent === E_PUBMED_PUB_DATE))
          this.startCapture(CAP_MONTH);
        break;
      case E_DAY:
        if (this.date && (parent === E_PUB_DATE || parent === E_ARTICLE_DATE || parent === E_PUBMED_PUB_DATE))
          this.startCapture(CAP_DAY);
        break;
      case E_SEASON:
        if (this.date && parent === E_PUB_DATE) this.startCapture(CAP_SEASON);
        break;
      case E_MEDLINE_DATE:
        if (this.date && parent === E_PUB_DATE) this.startCapture(CAP_MEDLINE_DATE);
        break;
      case E_ABSTRACT_TEXT:
        // OtherAbstract (translations, plain-language versions) also holds AbstractText: only Abstract counts.
        if (parent === E_ABSTRACT) {
          this.sectionLabel = this.attrs?.Label ?? "";
          this.sectionCategory = this.attrs?.NlmCategory || null;
          this.startCapture(CAP_ABSTRACT);
        }
        break;
      case E_AUTHOR_LIST:
        // A book's editors sit in Book/AuthorList[@Type="editors"]; only the work's authors are its authors.
        if ((parent === E_ARTICLE || parent === E_BOOK_DOCUMENT) && this.attrs?.Type !== "editors") {
          this.authorListOpen = true;
          rec.authors ??= [];
        }
        break;
      case E_AUTHOR:
        if (this.authorListOpen && parent === E_AUTHOR_LIST) {
          this.author = {
            lastName: null,
            foreName: null,
            initials: null,
            suffix: null,
            collectiveName: null,
            orcid: null,
            valid: this.attrs?.ValidYN !== "N",
          };
        }
        break;
      case E_LAST_NAME:
        if (this.author && parent === E_AUTHOR) this.startCapture(CAP_LAST_NAME);
        break;
      case E_FORE_NAME:
        if (this.author && parent === E_AUTHOR) this.startCapture(CAP_FORE_NAME);
        break;
      case E_INITIALS:
        if (this.author && parent === E_AUTHOR) this.startCapture(CAP_INITIALS);
        break;
      case E_SUFFIX:
        if (this.author && parent === E_AUTHOR) this.startCapture(CAP_SUFFIX);
        break;
      case E_COLLECTIVE_NAME:
        if (this.author && parent === E_AUTHOR) this.startCapture(CAP_COLLECTIVE);
        break;
      case E_IDENTIFIER:
        // Identifiers of an affiliation sit in the skipped AffiliationInfo; only the author's own are read.
        if (this.author && parent === E_AUTHOR && this.onlyValue === "ORCID" && this.author.orcid === null)
          this.startCapture(CAP_ORCID);
        break;
      case E_VOLUME:
        if (parent === E_JOURNAL_ISSUE && rec.volume === null) this.startCapture(CAP_VOLUME);
        break;
      case E_ISSUE:
        if (parent === E_JOURNAL_ISSUE && rec.issue === null) this.startCapture(CAP_ISSUE);
        break;
      case E_MEDLINE_PGN:
        if (parent === E_PAGINATION && rec.medlinePgn === null) this.startCapture(CAP_MEDLINE_PGN);
        break;
      case E_START_PAGE:
        if (parent === E_PAGINATION && rec.startPage === null) this.startCapture(CAP_START_PAGE);
        break;
      case E_END_PAGE:
        if (parent === E_PAGINATION && rec.endPage === null) this.startCapture(CAP_END_PAGE);
        break;
      case E_ISO_ABBREVIATION:
        if (parent === E_JOURNAL) this.startCapture(CAP_ISO_ABBREVIATION);
        break;
      case E_ISSN:
        if (parent === E_JOURNAL && rec.issn === null) this.startCapture(CAP_ISSN);
        break;
      case E_MEDLINE_TA:
        if (parent === E_MEDLINE_JOURNAL_INFO) this.startCapture(CAP_MEDLINE_TA);
        break;
      case E_PUBLISHER_NAME:
        if (parent === E_PUBLISHER && rec.publisherName === null) this.startCapture(CAP_PUBLISHER_NAME);
        break;
      case E_PUBLISHER_LOCATION:
        if (parent === E_PUBLISHER && rec.publisherLocation === null) this.startCapture(CAP_PUBLISHER_LOCATION);
        break;
      case E_LOCATION_LABEL:
        if (parent === E_BOOK_DOCUMENT) rec.bookPart = true;
        break;
      case E_LANGUAGE:
        if ((parent === E_ARTICLE || parent === E_BOOK_DOCUMENT) && rec.language === null)
          this.startCapture(CAP_LANGUAGE);
        break;
      case E_PUBLICATION_TYPE:
        if (parent === E_PUBLICATION_TYPE_LIST || parent === E_BOOK_DOCUMENT) this.startCapture(CAP_PUB_TYPE);
        break;
      case E_MESH_HEADING:
        this.meshDescriptor = null;
        this.meshMajor = false;
        break;
      case E_DESCRIPTOR_NAME:
        if (parent === E_MESH_HEADING) {
          this.meshMajor = this.onlyValue === "Y";
          this.startCapture(CAP_MESH);
        }
        break;
      case E_QUALIFIER_NAME:
        // "Asthma/drug therapy*": a major qualifier makes its heading's descriptor a major topic (once).
        if (parent === E_MESH_HEADING && !this.meshMajor && this.meshDescriptor !== null && this.onlyValue === "Y") {
          this.meshMajor = true;
          rec.meshMajorTerms.push(this.meshDescriptor);
        }
        break;
      case E_KEYWORD:
        if (parent === E_KEYWORD_LIST) this.startCapture(CAP_KEYWORD);
        break;
      case E_ELOCATION_ID:
        if (parent !== E_ARTICLE || this.attrs?.ValidYN === "N") break;
        if (this.attrs?.EIdType === "doi" && rec.elocationDoi === null) this.startCapture(CAP_ELOCATION_DOI);
        else if (this.attrs?.EIdType === "pii" && rec.elocationPii === null) this.startCapture(CAP_ELOCATION_PII);
        break;
      case E_ARTICLE_ID: {
        // The record's own id lists, and a ReferenceList's Reference/ArticleIdList, which names the articles it cites.
        const grandparent = depth > 2 ? this.codes[depth - 3]! : E_OTHER;
        if (parent !== E_ARTICLE_ID_LIST) break;
        if (grandparent === E_REFERENCE) {
          if (this.attrs?.IdType === "pubmed") this.startCapture(CAP_REFERENCE_PMID);
          break;
        }
        if (grandparent !== E_PUBMED_DATA && grandparent !== E_PUBMED_BOOK_DATA && grandparent !== E_BOOK_DOCUMENT)
          break;
        const type = this.attrs?.IdType;
        if (type === "doi" && rec.articleIdDoi === null) this.startCapture(CAP_ARTICLE_ID_DOI);
        else if (type === "pmc" && rec.articleIdPmc === null) this.startCapture(CAP_ARTICLE_ID_PMC);
        else if (type === "bookaccession" && rec.bookAccession === null) this.startCapture(CAP_BOOK_ACCESSION);
        break;
      }
      case E_OTHER_ID:
        if (parent === E_MEDLINE_CITATION && this.attrs?.Source === "NLM" && rec.otherIdPmc === null)
          this.startCapture(CAP_OTHER_ID);
        break;
    }
  }

  /** Closes the element on top of the stack. */
  private popElement(): void {
    const depth = --this.depth;
    const code = this.codes[depth]!;
    if (code === E_SKIPPED) this.skipping = false;
    if (this.capture !== CAP_NONE && depth === this.capDepth) {
      this.finishCapture();
    } else if (this.rec && code !== E_OTHER) {
      switch (code) {
        case E_AUTHOR:
          if (this.author) {
            const author = this.author;
            if (author.foreName !== null) author.foreName = clean(author.foreName) || null;
            this.rec.authors?.push(author);
            this.author = null;
          }
          break;
        case E_AUTHOR_LIST:
          this.authorListOpen = false;
          break;
        case E_COMMENTS_CORRECTIONS:
          this.retractionOpen = false;
          break;
        case E_PUB_DATE:
        case E_ARTICLE_DATE:
        case E_PUBMED_PUB_DATE:
          this.date = null;
          break;
      }
    }
    if (depth === this.recDepth && (this.rec || this.deletePmids)) this.finishRecord();
  }

  private finishCapture(): void {
    const kind = this.capture;
    const raw = this.capText;
    this.capture = CAP_NONE;
    this.capDepth = -1;
    this.capText = "";
    if (kind === CAP_FORE_NAME) {
      // Cleaned when the Author closes.
      if (this.author) this.author.foreName = raw || null;
      return;
    }
    const text = clean(raw);
    if (kind === CAP_DELETE_PMID) {
      this.deletePmids?.push(text);
      return;
    }
    const rec = this.rec;
    if (!rec) return;
    switch (kind) {
      case CAP_PMID:
        rec.pmid = text;
        break;
      case CAP_TITLE:
        rec.title ??= text || null;
        break;
      case CAP_VERNACULAR:
        rec.vernacularTitle ??= text || null;
        break;
      case CAP_BOOK_TITLE:
        rec.bookTitle ??= text || null;
        break;
      case CAP_JOURNAL:
        rec.journal ??= text || null;
        break;
      case CAP_YEAR:
        if (this.date) this.date.year = text;
        break;
      case CAP_MONTH:
        if (this.date) this.date.month = text;
        break;
      case CAP_DAY:
        if (this.date) this.date.day = text;
        break;
      case CAP_SEASON:
        if (this.date) this.date.season = text;
        break;
      case CAP_MEDLINE_DATE:
        if (this.date) this.date.medlineDate = text;
        break;
      case CAP_ABSTRACT:
        if (text || this.sectionLabel)
          rec.abstractSections.push({ label: this.sectionLabel, nlm_category: this.sectionCategory, text });
        break;
      case CAP_LAST_NAME:
        if (this.author) this.author.lastName = text || null;
        break;
      case CAP_INITIALS:
        if (this.author) this.author.initials = text || null;
        break;
      case CAP_SUFFIX:
        if (this.author) this.author.suffix = text || null;
        break;
      case CAP_COLLECTIVE:
        if (this.author) this.author.collectiveName = text || null;
        break;
      case CAP_LANGUAGE:
        rec.language = text || null;
        break;
      case CAP_PUB_TYPE:
        if (text) rec.publicationTypes.push(text);
        break;
      case CAP_MESH:
        if (text) {
          rec.meshTerms.push(text);
          this.meshDescriptor = text;
          if (this.meshMajor) rec.meshMajorTerms.push(text);
        }
        break;
      case CAP_KEYWORD:
        if (text) rec.keywords.push(text);
        break;
      case CAP_ELOCATION_DOI:
        rec.elocationDoi = text || null;
        break;
      case CAP_ARTICLE_ID_DOI:
        rec.articleIdDoi = text || null;
        break;
      case CAP_ARTICLE_ID_PMC:
        rec.articleIdPmc = text || null;
        break;
      case CAP_BOOK_ACCESSION:
        rec.bookAccession = text || null;
        break;
      case CAP_RETRACTION_PMID:
        rec.retractionInPmid = text || null;
        break;
      case CAP_REFERENCE_PMID:
        if (text) rec.referencePmids.push(text);
        break;
      case CAP_OTHER_ID:
        if (/^PMC\d+$/.test(text)) rec.otherIdPmc = text;
        break;
      case CAP_VOLUME:
        rec.volume = text || null;
        break;
      case CAP_ISSUE:
        rec.issue = text || null;
        break;
      case CAP_MEDLINE_PGN:
        rec.medlinePgn = text || null;
        break;
      case CAP_START_PAGE:
        rec.startPage = text || null;
        break;
      case CAP_END_PAGE:
        rec.endPage = text || null;
        break;
      case CAP_ELOCATION_PII:
        rec.elocationPii = text || null;
        break;
      case CAP_ISO_ABBREVIATION:
        rec.isoAbbreviation ??= text || null;
        break;
      case CAP_MEDLINE_TA:
        rec.medlineTa ??= text || null;
        break;
      case CAP_ISSN:
        rec.issn = text || null;
        break;
      case CAP_ORCID:
        if (this.author) this.author.orcid = text || null;
        break;
      case CAP_PUBLISHER_NAME:
        rec.publisherName = text || null;
        break;
      case CAP_PUBLISHER_LOCATION:
        rec.publisherLocation = text || null;
        break;
    }
  }

  private finishRecord(): void {
    const rec = this.rec;
    const deletePmids = this.deletePmids;
    const error = this.recError;
    const index = this.records;
    this.rec = null;
    this.deletePmids = null;
    this.recError = null;
    this.recDepth = -1;
    this.recStartCode = E_OTHER;
    this.recStartTag = "";
    this.capture = CAP_NONE;
    this.capDepth = -1;
    this.capText = "";
    this.author = null;
    this.authorListOpen = false;
    this.date = null;
    this.meshDescriptor = null;
    this.meshMajor = false;
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

async function* toByteStrings(bytes: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  for await (const chunk of bytes)
    yield Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString("latin1");
}

/** `parsePubmedStream` over byte strings (see the module comment). */
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

/** Reads a file, gunzipping it when it starts with the gzip magic bytes 1f 8b (whatever its name), on this thread. */
async function* readBytesInline(path: string): AsyncGenerator<Uint8Array> {
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
async function* readByteStringsInWorker(path: string): AsyncGenerator<string> {
  const worker = new Worker(new URL("./read-worker.ts", import.meta.url).href);
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
