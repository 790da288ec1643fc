/**
 * The shapes of PubMed's search syntax shared by every part of search/pubmed/query-syntax/: the fields a term can
 * search, the parsed query tree, the record the evaluation reads, and the error a query that cannot be read raises.
 */
/** A field a term searches (PubMed's short tag names). */
export type PubmedField = "all" | "tiab" | "ti" | "ab" | "tw" | "ot" | "mh" | "majr" | "au" | "ta" | "dp" | "pt" | "la";

/** One search term: a word, a phrase or a date range, in one field. */
export interface PubmedQueryTerm {
  kind: "term";
  /** As written, without the quotes, the truncation asterisk and the tag; runs of white space made one space. */
  text: string;
  field: PubmedField;
  /** Written in double quotes. */
  phrase: boolean;
  /** Ended with `*`. */
  truncated: boolean;
  /** [dp] only: the inclusive range of publication dates, ISO YYYY-MM-DD. */
  dateRange?: { from: string; to: string };
}

/** A parsed PubMed query: terms combined by AND, OR (any number of children) and NOT (include AND NOT exclude). */
export type PubmedQueryNode =
  | PubmedQueryTerm
  | { kind: "and"; children: PubmedQueryNode[] }
  | { kind: "or"; children: PubmedQueryNode[] }
  | { kind: "not"; include: PubmedQueryNode; exclude: PubmedQueryNode };

/**
 * What the evaluation reads of an article: a subset of both search/pubmed/mapping.ts ParsedArticle and the `articles`
 * row. A missing `mesh_major_terms` counts as none.
 */
export interface PubmedQueryRecord {
  title: string | null;
  abstract: string | null;
  mesh_terms: string[];
  mesh_major_terms: string[];
  keywords: string[];
  /** "Smith J, Doe AB" (search/pubmed/mapping.ts formatAuthors). */
  authors: string | null;
  journal: string | null;
  /** ISO YYYY-MM-DD. */
  publication_date: string | null;
  publication_year: number | null;
  publication_types: string[];
  /** ISO 639-2 code as PubMed gives it ("eng"). */
  language: string | null;
}

/** A query PubMed's syntax cannot read; `message` says what and where, for the user. */
export class PubmedQuerySyntaxError extends Error {
  constructor(
    message: string,
    /** 0-based character offset in the query where the problem is, when there is one place. */
    readonly position: number | null = null,
  ) {
    super(message);
    this.name = "PubmedQuerySyntaxError";
  }
}
