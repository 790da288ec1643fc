/**
 * The mapping half of the parser: which element of a record goes to which field of its RawRecord. The reading half
 * (read.ts) reports each element of a record as it opens and closes, and the text of the elements this side asks
 * for; this side decides, from the element, its parent and the attributes it asked for, what that text is (a title,
 * a date part, an author's name…) and keeps it. mapping.ts then turns the finished RawRecord into an article row.
 *
 * Element names and their meaning follow NLM's PubMed DTD documentation (see mapping.ts).
 */
import {
  E_ABSTRACT,
  E_ABSTRACT_TEXT,
  E_ARTICLE,
  E_ARTICLE_DATE,
  E_ARTICLE_ID,
  E_ARTICLE_ID_LIST,
  E_ARTICLE_TITLE,
  E_AUTHOR,
  E_AUTHOR_LIST,
  E_BOOK,
  E_BOOK_DOCUMENT,
  E_BOOK_TITLE,
  E_COLLECTIVE_NAME,
  E_COMMENTS_CORRECTIONS,
  E_DAY,
  E_DELETE_CITATION,
  E_DESCRIPTOR_NAME,
  E_ELOCATION_ID,
  E_END_PAGE,
  E_FORE_NAME,
  E_HISTORY,
  E_IDENTIFIER,
  E_INITIALS,
  E_ISO_ABBREVIATION,
  E_ISSN,
  E_ISSUE,
  E_JOURNAL,
  E_JOURNAL_ISSUE,
  E_KEYWORD,
  E_KEYWORD_LIST,
  E_LANGUAGE,
  E_LAST_NAME,
  E_LOCATION_LABEL,
  E_MEDLINE_CITATION,
  E_MEDLINE_DATE,
  E_MEDLINE_JOURNAL_INFO,
  E_MEDLINE_PGN,
  E_MEDLINE_TA,
  E_MESH_HEADING,
  E_MONTH,
  E_OTHER_ID,
  E_PAGINATION,
  E_PMID,
  E_PUBLICATION_TYPE,
  E_PUBLICATION_TYPE_LIST,
  E_PUBLISHER,
  E_PUBLISHER_LOCATION,
  E_PUBLISHER_NAME,
  E_PUBMED_BOOK_ARTICLE,
  E_PUBMED_BOOK_DATA,
  E_PUBMED_DATA,
  E_PUBMED_PUB_DATE,
  E_PUB_DATE,
  E_QUALIFIER_NAME,
  E_REFERENCE,
  E_SEASON,
  E_START_PAGE,
  E_SUFFIX,
  E_TITLE,
  E_VERNACULAR_TITLE,
  E_VOLUME,
  E_YEAR,
} from "./elements.ts";
import { emptyRawDate, emptyRawRecord, type RawAuthor, type RawDate, type RawRecord } from "../mapping.ts";
import { clean } from "./text.ts";

// What the text of the element being captured is for.
export const CAP_NONE = 0;
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
/** Not a capture kind: what `RecordFields.open` returns for an element whose whole subtree is to be skipped. */
export const SKIP_SUBTREE = -1;

/** What `attributesNeeded` returns when no attribute of the element is needed. */
export const NO_ATTRIBUTES = "";
/** What `attributesNeeded` returns when several attributes may be needed: all are collected. */
export const ALL_ATTRIBUTES = "*";

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

/**
 * The record being read and what is needed to place its texts (the author, the date, the MeSH heading open…).
 * One instance per parser, reused record after record: `start` begins a record, `reset` drops it.
 * Element codes are those of elements.ts; `parent` and `grandparent` are the codes of the enclosing elements
 * (E_OTHER at the top).
 */
export class RecordFields {
  /** The article or book being read, or null (between records, or in a DeleteCitation). */
  rec: RawRecord | null = null;
  /** The PMIDs of the DeleteCitation being read, as written, or null. */
  deletePmids: string[] | null = null;

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

  /** Begins a record whose element has code `code`: a DeleteCitation collects PMIDs, the others a RawRecord. */
  start(code: number): void {
    if (code === E_DELETE_CITATION) {
      this.deletePmids = [];
    } else {
      this.rec = emptyRawRecord(code === E_PUBMED_BOOK_ARTICLE ? "book" : "article");
    }
  }

  /** Drops the record (after its event is made, or when it is abandoned) and the state of its open parts. */
  reset(): void {
    this.rec = null;
    this.deletePmids = null;
    this.author = null;
    this.authorListOpen = false;
    this.date = null;
    this.meshDescriptor = null;
    this.meshMajor = false;
  }

  /**
   * Which attributes of the element `code` of the current article, just opened, are needed.
   * @returns NO_ATTRIBUTES, ALL_ATTRIBUTES, or the name of the only one needed. MeSH names and History dates are many
   *   per record and each needs one attribute, and only while it can matter: the dates until the Entrez date is
   *   found, a qualifier while its descriptor is not yet a major topic.
   */
  attributesNeeded(code: number): string {
    if (!wantsAttributes(code)) return NO_ATTRIBUTES;
    switch (code) {
      case E_DESCRIPTOR_NAME:
        return "MajorTopicYN";
      case E_QUALIFIER_NAME:
        return !this.meshMajor && this.meshDescriptor !== null ? "MajorTopicYN" : NO_ATTRIBUTES;
      case E_PUBMED_PUB_DATE:
        return this.rec!.entrezDate === null ? "PubStatus" : NO_ATTRIBUTES;
      case E_IDENTIFIER:
        return this.author !== null && this.author.orcid === null ? "Source" : NO_ATTRIBUTES;
      default:
        return ALL_ATTRIBUTES;
    }
  }

  /**
   * An element of the current record has opened (its start tag is complete).
   * @param attrs its attributes when `attributesNeeded` asked for all of them, else null.
   * @param onlyValue the value of the one attribute `attributesNeeded` named (null when absent or not asked for).
   * @returns the capture kind (CAP_…) its text is for, CAP_NONE when its text is not kept, or SKIP_SUBTREE when
   *   nothing inside it is to be read.
   */
  open(
    code: number,
    parent: number,
    grandparent: number,
    attrs: Record<string, string> | null,
    onlyValue: string | null,
  ): number {
    if (this.deletePmids) return code === E_PMID ? CAP_DELETE_PMID : CAP_NONE;
    const rec = this.rec;
    if (!rec) return CAP_NONE;
    // Grouped by what the elements describe, so each group's rules read together.
    switch (code) {
      case E_PUB_DATE:
      case E_ARTICLE_DATE:
      case E_PUBMED_PUB_DATE:
      case E_YEAR:
      case E_MONTH:
      case E_DAY:
      case E_SEASON:
      case E_MEDLINE_DATE:
        return this.openDatePart(rec, code, parent, grandparent, onlyValue);
      case E_AUTHOR_LIST:
      case E_AUTHOR:
      case E_LAST_NAME:
      case E_FORE_NAME:
      case E_INITIALS:
      case E_SUFFIX:
      case E_COLLECTIVE_NAME:
      case E_IDENTIFIER:
        return this.openAuthorPart(rec, code, parent, attrs, onlyValue);
      case E_PMID:
      case E_COMMENTS_CORRECTIONS:
      case E_ELOCATION_ID:
      case E_ARTICLE_ID:
      case E_OTHER_ID:
        return this.openIdentifier(rec, code, parent, grandparent, attrs);
      case E_LANGUAGE:
      case E_PUBLICATION_TYPE:
      case E_MESH_HEADING:
      case E_DESCRIPTOR_NAME:
      case E_QUALIFIER_NAME:
      case E_KEYWORD:
        return this.openClassification(rec, code, parent, onlyValue);
      default:
        return this.openBibliographic(rec, code, parent, attrs);
    }
  }

  /** Dates: the publication date, the electronic ArticleDate and, of the History, only the Entrez date. */
  private openDatePart(
    rec: RawRecord,
    code: number,
    parent: number,
    grandparent: number,
    onlyValue: string | null,
  ): number {
    switch (code) {
      case E_PUB_DATE:
        if ((parent === E_JOURNAL_ISSUE || parent === E_BOOK) && rec.pubDate === null)
          this.date = rec.pubDate = emptyRawDate();
        break;
      case E_ARTICLE_DATE:
        if (parent === E_ARTICLE && rec.articleDate === null) this.date = rec.articleDate = emptyRawDate();
        break;
      case E_PUBMED_PUB_DATE:
        // Of a record's History only the Entrez date is read; its other dates are skipped like unmapped subtrees.
        if (
          parent === E_HISTORY &&
          (grandparent === E_PUBMED_DATA || grandparent === E_PUBMED_BOOK_DATA) &&
          onlyValue === "entrez" &&
          rec.entrezDate === null
        ) {
          this.date = rec.entrezDate = emptyRawDate();
          break;
        }
        return SKIP_SUBTREE;
      case E_YEAR:
        if (this.date && (parent === E_PUB_DATE || parent === E_ARTICLE_DATE || parent === E_PUBMED_PUB_DATE))
          return CAP_YEAR;
        break;
      case E_MONTH:
        if (this.date && (parent === E_PUB_DATE || parent === E_ARTICLE_DATE || parent === E_PUBMED_PUB_DATE))
          return CAP_MONTH;
        break;
      case E_DAY:
        if (this.date && (parent === E_PUB_DATE || parent === E_ARTICLE_DATE || parent === E_PUBMED_PUB_DATE))
          return CAP_DAY;
        break;
      case E_SEASON:
        if (this.date && parent === E_PUB_DATE) return CAP_SEASON;
        break;
      case E_MEDLINE_DATE:
        if (this.date && parent === E_PUB_DATE) return CAP_MEDLINE_DATE;
        break;
    }
    return CAP_NONE;
  }

  /** Authors: the work's AuthorList (not a book's editors), each Author's names and ORCID. */
  private openAuthorPart(
    rec: RawRecord,
    code: number,
    parent: number,
    attrs: Record<string, string> | null,
    onlyValue: string | null,
  ): number {
    if (code === E_AUTHOR_LIST) {
      // A book's editors sit in Book/AuthorList[@Type="editors"]; only the work's authors are its authors.
      if ((parent === E_ARTICLE || parent === E_BOOK_DOCUMENT) && attrs?.Type !== "editors") {
        this.authorListOpen = true;
        rec.authors ??= [];
      }
      return CAP_NONE;
    }
    if (code === E_AUTHOR) {
      if (this.authorListOpen && parent === E_AUTHOR_LIST) {
        this.author = {
          lastName: null,
          foreName: null,
          initials: null,
          suffix: null,
          collectiveName: null,
          orcid: null,
          valid: attrs?.ValidYN !== "N",
        };
      }
      return CAP_NONE;
    }
    if (!this.author || parent !== E_AUTHOR) return CAP_NONE;
    switch (code) {
      case E_LAST_NAME:
        return CAP_LAST_NAME;
      case E_FORE_NAME:
        return CAP_FORE_NAME;
      case E_INITIALS:
        return CAP_INITIALS;
      case E_SUFFIX:
        return CAP_SUFFIX;
      case E_COLLECTIVE_NAME:
        return CAP_COLLECTIVE;
      case E_IDENTIFIER:
        // Identifiers of an affiliation sit in the skipped AffiliationInfo; only the author's own are read.
        if (onlyValue === "ORCID" && this.author.orcid === null) return CAP_ORCID;
        break;
    }
    return CAP_NONE;
  }

  /** The record's own identifiers (PMID, DOI, PMC, PII, book accession), its retraction notice and its references. */
  private openIdentifier(
    rec: RawRecord,
    code: number,
    parent: number,
    grandparent: number,
    attrs: Record<string, string> | null,
  ): number {
    switch (code) {
      case E_PMID:
        if ((parent === E_MEDLINE_CITATION || parent === E_BOOK_DOCUMENT) && rec.pmid === null) return CAP_PMID;
        if (parent === E_COMMENTS_CORRECTIONS && this.retractionOpen && rec.retractionInPmid === null)
          return CAP_RETRACTION_PMID;
        break;
      case E_COMMENTS_CORRECTIONS:
        this.retractionOpen = attrs?.RefType === "RetractionIn";
        break;
      case E_ELOCATION_ID:
        if (parent !== E_ARTICLE || attrs?.ValidYN === "N") break;
        if (attrs?.EIdType === "doi" && rec.elocationDoi === null) return CAP_ELOCATION_DOI;
        if (attrs?.EIdType === "pii" && rec.elocationPii === null) return CAP_ELOCATION_PII;
        break;
      case E_ARTICLE_ID: {
        // The record's own id lists, and a ReferenceList's Reference/ArticleIdList, which names the articles it cites.
        if (parent !== E_ARTICLE_ID_LIST) break;
        if (grandparent === E_REFERENCE) return attrs?.IdType === "pubmed" ? CAP_REFERENCE_PMID : CAP_NONE;
        if (grandparent !== E_PUBMED_DATA && grandparent !== E_PUBMED_BOOK_DATA && grandparent !== E_BOOK_DOCUMENT)
          break;
        const type = attrs?.IdType;
        if (type === "doi" && rec.articleIdDoi === null) return CAP_ARTICLE_ID_DOI;
        if (type === "pmc" && rec.articleIdPmc === null) return CAP_ARTICLE_ID_PMC;
        if (type === "bookaccession" && rec.bookAccession === null) return CAP_BOOK_ACCESSION;
        break;
      }
      case E_OTHER_ID:
        if (parent === E_MEDLINE_CITATION && attrs?.Source === "NLM" && rec.otherIdPmc === null) return CAP_OTHER_ID;
        break;
    }
    return CAP_NONE;
  }

  /** Language, publication types, MeSH headings (and which are major topics) and keywords. */
  private openClassification(rec: RawRecord, code: number, parent: number, onlyValue: string | null): number {
    switch (code) {
      case E_LANGUAGE:
        if ((parent === E_ARTICLE || parent === E_BOOK_DOCUMENT) && rec.language === null) return CAP_LANGUAGE;
        break;
      case E_PUBLICATION_TYPE:
        if (parent === E_PUBLICATION_TYPE_LIST || parent === E_BOOK_DOCUMENT) return CAP_PUB_TYPE;
        break;
      case E_MESH_HEADING:
        this.meshDescriptor = null;
        this.meshMajor = false;
        break;
      case E_DESCRIPTOR_NAME:
        if (parent === E_MESH_HEADING) {
          this.meshMajor = onlyValue === "Y";
          return CAP_MESH;
        }
        break;
      case E_QUALIFIER_NAME:
        // "Asthma/drug therapy*": a major qualifier makes its heading's descriptor a major topic (once).
        if (parent === E_MESH_HEADING && !this.meshMajor && this.meshDescriptor !== null && onlyValue === "Y") {
          this.meshMajor = true;
          rec.meshMajorTerms.push(this.meshDescriptor);
        }
        break;
      case E_KEYWORD:
        if (parent === E_KEYWORD_LIST) return CAP_KEYWORD;
        break;
    }
    return CAP_NONE;
  }

  /** Titles, journal, volume, issue, pages, publisher, book part and the abstract. */
  private openBibliographic(
    rec: RawRecord,
    code: number,
    parent: number,
    attrs: Record<string, string> | null,
  ): number {
    switch (code) {
      case E_ARTICLE_TITLE:
        if (parent === E_ARTICLE || parent === E_BOOK_DOCUMENT) return CAP_TITLE;
        break;
      case E_VERNACULAR_TITLE:
        if (parent === E_ARTICLE) return CAP_VERNACULAR;
        break;
      case E_BOOK_TITLE:
        if (parent === E_BOOK) return CAP_BOOK_TITLE;
        break;
      case E_TITLE:
        if (parent === E_JOURNAL) return CAP_JOURNAL;
        break;
      case E_ISO_ABBREVIATION:
        if (parent === E_JOURNAL) return CAP_ISO_ABBREVIATION;
        break;
      case E_ISSN:
        if (parent === E_JOURNAL && rec.issn === null) return CAP_ISSN;
        break;
      case E_MEDLINE_TA:
        if (parent === E_MEDLINE_JOURNAL_INFO) return CAP_MEDLINE_TA;
        break;
      case E_VOLUME:
        if (parent === E_JOURNAL_ISSUE && rec.volume === null) return CAP_VOLUME;
        break;
      case E_ISSUE:
        if (parent === E_JOURNAL_ISSUE && rec.issue === null) return CAP_ISSUE;
        break;
      case E_MEDLINE_PGN:
        if (parent === E_PAGINATION && rec.medlinePgn === null) return CAP_MEDLINE_PGN;
        break;
      case E_START_PAGE:
        if (parent === E_PAGINATION && rec.startPage === null) return CAP_START_PAGE;
        break;
      case E_END_PAGE:
        if (parent === E_PAGINATION && rec.endPage === null) return CAP_END_PAGE;
        break;
      case E_PUBLISHER_NAME:
        if (parent === E_PUBLISHER && rec.publisherName === null) return CAP_PUBLISHER_NAME;
        break;
      case E_PUBLISHER_LOCATION:
        if (parent === E_PUBLISHER && rec.publisherLocation === null) return CAP_PUBLISHER_LOCATION;
        break;
      case E_LOCATION_LABEL:
        if (parent === E_BOOK_DOCUMENT) rec.bookPart = true;
        break;
      case E_ABSTRACT_TEXT:
        // OtherAbstract (translations, plain-language versions) also holds AbstractText: only Abstract counts.
        if (parent === E_ABSTRACT) {
          this.sectionLabel = attrs?.Label ?? "";
          this.sectionCategory = attrs?.NlmCategory || null;
          return CAP_ABSTRACT;
        }
        break;
    }
    return CAP_NONE;
  }

  /** An element of the current article has closed (not one whose text was captured: see `text`). */
  close(code: number): void {
    switch (code) {
      case E_AUTHOR:
        if (this.author) {
          const author = this.author;
          if (author.foreName !== null) author.foreName = clean(author.foreName) || null;
          this.rec?.authors?.push(author);
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

  /**
   * The text of a captured element, complete.
   * @param kind what `open` returned for the element.
   * @param raw its text as a byte string (see text.ts), not yet cleaned.
   */
  text(kind: number, raw: string): void {
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
      case CAP_YEAR:
      case CAP_MONTH:
      case CAP_DAY:
      case CAP_SEASON:
      case CAP_MEDLINE_DATE:
        if (this.date) setDatePart(this.date, kind, text);
        return;
      case CAP_LAST_NAME:
      case CAP_INITIALS:
      case CAP_SUFFIX:
      case CAP_COLLECTIVE:
      case CAP_ORCID:
        if (this.author) setAuthorPart(this.author, kind, text);
        return;
      case CAP_ABSTRACT:
        if (text || this.sectionLabel)
          rec.abstractSections.push({ label: this.sectionLabel, nlm_category: this.sectionCategory, text });
        return;
      case CAP_MESH:
        if (text) {
          rec.meshTerms.push(text);
          this.meshDescriptor = text;
          if (this.meshMajor) rec.meshMajorTerms.push(text);
        }
        return;
      default:
        setRecordText(rec, kind, text);
    }
  }
}

/** A part of a PubDate, ArticleDate or Entrez date. */
function setDatePart(date: RawDate, kind: number, text: string): void {
  if (kind === CAP_YEAR) date.year = text;
  else if (kind === CAP_MONTH) date.month = text;
  else if (kind === CAP_DAY) date.day = text;
  else if (kind === CAP_SEASON) date.season = text;
  else if (kind === CAP_MEDLINE_DATE) date.medlineDate = text;
}

/** A name or the ORCID of an author (its ForeName is set apart: it is cleaned when the Author closes). */
function setAuthorPart(author: RawAuthor, kind: number, text: string): void {
  if (kind === CAP_LAST_NAME) author.lastName = text || null;
  else if (kind === CAP_INITIALS) author.initials = text || null;
  else if (kind === CAP_SUFFIX) author.suffix = text || null;
  else if (kind === CAP_COLLECTIVE) author.collectiveName = text || null;
  else if (kind === CAP_ORCID) author.orcid = text || null;
}

/**
 * A text that is one field of the record, or one item of one of its lists. Where a record may hold several
 * candidates (titles, journal names), the first one kept wins (`??=`); elsewhere `open` asks for the text only
 * while the field is still empty.
 */
function setRecordText(rec: RawRecord, kind: number, text: string): void {
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
    case CAP_ISO_ABBREVIATION:
      rec.isoAbbreviation ??= text || null;
      break;
    case CAP_MEDLINE_TA:
      rec.medlineTa ??= text || null;
      break;
    case CAP_LANGUAGE:
      rec.language = text || null;
      break;
    case CAP_PUB_TYPE:
      if (text) rec.publicationTypes.push(text);
      break;
    case CAP_KEYWORD:
      if (text) rec.keywords.push(text);
      break;
    case CAP_REFERENCE_PMID:
      if (text) rec.referencePmids.push(text);
      break;
    case CAP_OTHER_ID:
      if (/^PMC\d+$/.test(text)) rec.otherIdPmc = text;
      break;
    default:
      setIdOrLocator(rec, kind, text);
  }
}

/** Identifiers and where the work sits in its journal or with its publisher: each kept once, empty as null. */
function setIdOrLocator(rec: RawRecord, kind: number, text: string): void {
  const value = text || null;
  switch (kind) {
    case CAP_ELOCATION_DOI:
      rec.elocationDoi = value;
      break;
    case CAP_ELOCATION_PII:
      rec.elocationPii = value;
      break;
    case CAP_ARTICLE_ID_DOI:
      rec.articleIdDoi = value;
      break;
    case CAP_ARTICLE_ID_PMC:
      rec.articleIdPmc = value;
      break;
    case CAP_BOOK_ACCESSION:
      rec.bookAccession = value;
      break;
    case CAP_RETRACTION_PMID:
      rec.retractionInPmid = value;
      break;
    case CAP_VOLUME:
      rec.volume = value;
      break;
    case CAP_ISSUE:
      rec.issue = value;
      break;
    case CAP_MEDLINE_PGN:
      rec.medlinePgn = value;
      break;
    case CAP_START_PAGE:
      rec.startPage = value;
      break;
    case CAP_END_PAGE:
      rec.endPage = value;
      break;
    case CAP_ISSN:
      rec.issn = value;
      break;
    case CAP_PUBLISHER_NAME:
      rec.publisherName = value;
      break;
    case CAP_PUBLISHER_LOCATION:
      rec.publisherLocation = value;
      break;
  }
}
