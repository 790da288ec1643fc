/**
 * What an export reads of an article, the parts every format shares (authors, pages, date), and the article as a
 * CSL-JSON item (the Citation Style Language's data model,
 * https://citeproc-js.readthedocs.io/en/latest/csl-json/markup.html, valid against its schema csl-data.json). Pure.
 */
import { pagesOf as fullPagesOf, splitMedlinePages } from "../articles/citation.ts";

/** One author of `author_list`: a person, or a collective name (kept whole, never split at its commas). */
export type ExportAuthor =
  | { family: string; given: string | null; initials: string | null; suffix: string | null; orcid: string | null }
  | { group: string };

/** What an export reads of an article (the columns of `articles` of the same names). */
export interface ExportArticle {
  pmid: number;
  title: string | null;
  /** PubMed's display string ("Doe J, COVID Study Group"), for rows ingested before `author_list` existed. */
  authors: string | null;
  author_list: ExportAuthor[];
  /** Labelled sections as "LABEL: text", joined with "\n". */
  abstract: string | null;
  journal: string | null;
  journal_iso_abbreviation: string | null;
  journal_medline_ta: string | null;
  issn: string | null;
  language: string | null;
  /** YYYY-MM-DD, with `publication_date_precision` saying how much of it the record states. */
  publication_date: string | null;
  publication_date_precision: "day" | "month" | "year" | null;
  /** ArticleDate DateType="Electronic", YYYY-MM-DD. */
  epub_date: string | null;
  volume: string | null;
  issue: string | null;
  /** MedlinePgn as given ("123-9"). */
  medline_pages: string | null;
  start_page: string | null;
  end_page: string | null;
  elocation_pii: string | null;
  doi: string | null;
  pmc_id: string | null;
  publication_types: string[];
  mesh_terms: string[];
  keywords: string[];
  record_kind: "article" | "book" | "chapter";
  book_title: string | null;
  book_publisher: string | null;
  book_publisher_place: string | null;
}

/** A person or a group as the formats need them: given name (or the initials written out), suffix, or a group. */
export type Person = {
  family: string;
  given: string | null;
  initials: string | null;
  suffix: string | null;
  orcid: string | null;
};
export type Author = Person | { group: string };
export const isGroup = (a: Author): a is { group: string } => "group" in a;

/** "CH" → "C. H." (initials as letters, whatever their script). */
export const spacedInitials = (initials: string): string =>
  Array.from(initials.replace(/[.\s]/g, ""))
    .map((c) => `${c}.`)
    .join(" ");

/**
 * PubMed's author string ("Doe J, van der Berg AB, COVID Study Group") as authors, for rows ingested before
 * `author_list` existed: the last token of an author is its initials when it is 1–3 capital letters; anything else is a
 * collective name.
 */
export function parseAuthors(authors: string | null): Author[] {
  if (!authors) return [];
  return authors
    .split(/,\s*/)
    .map((a) => a.trim())
    .filter(Boolean)
    .map((a): Author => {
      const m = /^(.+?)\s+(\p{Lu}{1,3})$/u.exec(a);
      return m ? { family: m[1]!, given: null, initials: m[2]!, suffix: null, orcid: null } : { group: a };
    });
}

/** The article's authors: its structured list, else what its display string says. */
export function authorsOf(a: ExportArticle): Author[] {
  return a.author_list.length ? a.author_list : parseAuthors(a.authors);
}

/** A person's given name, or the initials written out ("C. H.") when the record has no forename. */
export const givenName = (p: Person): string | null => p.given || (p.initials ? spacedInitials(p.initials) : null);

/**
 * The pages as a reference needs them (src/articles/citation.ts): `full` written out ("123-129", "S120-S125",
 * "1027-1034; discussion 1035"), and the first and (full) last page of the article; from MedlinePgn, else
 * StartPage–EndPage, else the e-location (pii).
 */
export function pagesOf(a: ExportArticle): { full: string; start: string; end: string | null } | null {
  const full = fullPagesOf(a);
  if (!full) return null;
  if (a.medline_pages?.trim()) {
    const split = splitMedlinePages(a.medline_pages);
    if (split) return { full, ...split };
  }
  if (a.start_page?.trim())
    return {
      full,
      start: a.start_page.trim(),
      end: a.end_page?.trim() && a.end_page.trim() !== a.start_page.trim() ? a.end_page.trim() : null,
    };
  return { full, start: full, end: null };
}

/** The date parts the record states: [year], [year, month] or [year, month, day]. */
export function dateParts(a: ExportArticle): number[] | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(a.publication_date ?? "");
  if (!m) return null;
  const parts = [Number(m[1])];
  if (a.publication_date_precision !== "year") parts.push(Number(m[2]));
  if (a.publication_date_precision === "day" || a.publication_date_precision === null) parts.push(Number(m[3]));
  return parts;
}

/** The journal's abbreviation: ISO's, else NLM's (MedlineTA). */
export const journalAbbreviation = (a: ExportArticle): string | null =>
  a.journal_iso_abbreviation || a.journal_medline_ta || null;

function cslName(au: Author): Record<string, string> {
  if (isGroup(au)) return { literal: au.group };
  const name: Record<string, string> = { family: au.family };
  const given = givenName(au);
  if (given) name.given = given;
  if (au.suffix) name.suffix = au.suffix;
  return name;
}

/**
 * One article as a CSL-JSON item (id "pmid-<PMID>"; type article-journal, book or chapter). MeSH headings and
 * keywords go in `custom`: CSL's `keyword` is one comma-separated string, which would split "Child, Preschool".
 */
export function toCsl(a: ExportArticle): Record<string, unknown> {
  const pages = pagesOf(a);
  const date = dateParts(a);
  const epub = /^(\d{4})-(\d{2})-(\d{2})/.exec(a.epub_date ?? "");
  const chapter = a.record_kind === "chapter";
  const book = a.record_kind === "book";
  const item: Record<string, unknown> = {
    id: `pmid-${a.pmid}`,
    type: chapter ? "chapter" : book ? "book" : "article-journal",
    title: (book ? a.title || a.book_title : a.title) ?? undefined,
    author: authorsOf(a).map(cslName),
    "container-title": (chapter ? a.book_title : book ? null : a.journal) ?? undefined,
    "container-title-short": (!book && !chapter ? journalAbbreviation(a) : null) ?? undefined,
    publisher: a.book_publisher ?? undefined,
    "publisher-place": a.book_publisher_place ?? undefined,
    volume: a.volume ?? undefined,
    issue: a.issue ?? undefined,
    page: pages?.full,
    issued: date ? { "date-parts": [date] } : undefined,
    "available-date": epub ? { "date-parts": [[Number(epub[1]), Number(epub[2]), Number(epub[3])]] } : undefined,
    abstract: a.abstract ?? undefined,
    DOI: a.doi ?? undefined,
    ISSN: a.issn ?? undefined,
    PMID: String(a.pmid),
    PMCID: a.pmc_id ?? undefined,
    URL: `https://pubmed.ncbi.nlm.nih.gov/${a.pmid}/`,
    custom:
      a.mesh_terms.length || a.keywords.length ? { "mesh-headings": a.mesh_terms, keywords: a.keywords } : undefined,
  };
  return Object.fromEntries(
    Object.entries(item).filter(([, v]) => v !== undefined && v !== "" && !(Array.isArray(v) && v.length === 0)),
  );
}
