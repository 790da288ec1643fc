/**
 * An article's citation as PubMed (NLM) writes it, and its pages written out in full. Pure functions of the stored
 * record's citation fields (search/pubmed/mapping.ts, issue 20): the API computes them on the server, so the browser
 * ships no formatter, and the exports (src/export/*) use the same ones.
 *
 * NLM style: "Citing Medicine" (https://www.ncbi.nlm.nih.gov/books/NBK7256/), as PubMed's abstract page shows it:
 * "Spine (Phila Pa 1976). 2007 Sep 1;32(19 Suppl):S120-5."
 */
import type { Selectable } from "kysely";
import type { ArticlesTable } from "../db/types.ts";

/** The `articles` columns (besides the journal and the publication date) a citation line and full pages are made of. */
export const CITATION_COLUMNS = [
  "journal_medline_ta",
  "journal_iso_abbreviation",
  "volume",
  "issue",
  "medline_pages",
  "start_page",
  "end_page",
  "elocation_pii",
  "record_kind",
  "book_title",
  "book_publisher",
  "book_publisher_place",
] as const;

/** The stored fields a citation is made of (the `articles` columns of the same names); anything may be missing. */
export type CitationSource = {
  [K in (typeof CITATION_COLUMNS)[number] | "journal" | "publication_date" | "publication_date_precision"]?:
    | Selectable<ArticlesTable>[K]
    | null;
};

const MONTH_ABBREVIATIONS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/**
 * A page range in MEDLINE's form: a prefix (letters, or an article number and letters: "1186.e"), digits, "-", optional
 * letters, digits ("S120-5", "e4-5", "1186.e1-5", "123-129").
 */
const RANGE = /(?<![A-Za-z0-9.])((?:\d+\.)?[A-Za-z]*)(\d+)-([A-Za-z]*)(\d+)(?![A-Za-z0-9])/g;

/** The end page of a range in full: "123", "9" → "129"; "98", "2" → "102" (an end never comes before its start). */
function fullEndDigits(start: string, end: string): string {
  if (end.length >= start.length) return end;
  const full = start.slice(0, start.length - end.length) + end;
  if (Number(full) >= Number(start)) return full;
  // "98-2": the abbreviated end crossed a power of ten.
  return String(Number(full) + 10 ** end.length);
}

/**
 * MEDLINE's page text (Pagination/MedlinePgn) with every range written out in full: "123-9" → "123-129",
 * "S120-5" → "S120-S125", "e4-5" → "e4-e5", "1186.e1-5" → "1186.e1-1186.e5",
 * "1027-34; discussion 1035" → "1027-1034; discussion 1035",
 * "167-70, 173, 176-9" → "167-170, 173, 176-179". Single pages ("e123", "W98") and full ranges stay as they are.
 */
export function fullPages(medlinePgn: string): string {
  return medlinePgn
    .trim()
    .replace(RANGE, (whole, startLetters: string, start: string, endLetters: string, end: string) => {
      const letters = endLetters || startLetters;
      const fullEnd = fullEndDigits(start, end);
      return fullEnd === end && letters === endLetters ? whole : `${startLetters}${start}-${letters}${fullEnd}`;
    });
}

/**
 * The first and last page of an article from MEDLINE's page text, in full: "S120-5" → { start "S120", end "S125" };
 * "e0229999" → { start "e0229999", end null }. A list of pieces ("167-70, 173, 176-9") runs from the first page of the
 * first to the last of the last (167–179); what follows a ";" ("; discussion 1035", "; author reply W99") is another
 * item, printed with the article but not part of its page range.
 * @returns null when the text is empty.
 */
export function splitMedlinePages(medlinePgn: string): { start: string; end: string | null } | null {
  const main = fullPages(medlinePgn).split(";")[0]!.trim();
  if (!main) return null;
  const pieces = main
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean);
  const first = pieces[0]!;
  const last = pieces[pieces.length - 1]!;
  const start = first.includes("-") ? first.slice(0, first.indexOf("-")).trim() : first;
  const lastEnd = last.includes("-") ? last.slice(last.lastIndexOf("-") + 1).trim() : last;
  return { start, end: lastEnd && lastEnd !== start ? lastEnd : null };
}

/**
 * The article's pages as the API gives them: MedlinePgn in full, else StartPage–EndPage, else the pii of an e-only
 * article's ELocationID; null when the record has none.
 */
export function pagesOf(a: CitationSource): string | null {
  if (a.medline_pages?.trim()) return fullPages(a.medline_pages);
  if (a.start_page?.trim())
    return a.end_page?.trim() && a.end_page !== a.start_page ? `${a.start_page}-${a.end_page}` : a.start_page;
  return a.elocation_pii?.trim() || null;
}

/**
 * The pages as PubMed's citation line writes them: MedlinePgn as given (abbreviated), else StartPage–EndPage, else the
 * pii.
 */
function citationPages(a: CitationSource): string | null {
  if (a.medline_pages?.trim()) return a.medline_pages.trim();
  return pagesOf(a);
}

/** "2007 Sep 1", "2007 Sep" or "2007" from an ISO date and what the record states of it; null without a date. */
export function nlmDate(isoDate: string | null | undefined, precision: string | null | undefined): string | null {
  const m = isoDate?.match(/^(\d{4})-(\d{2})-(\d{2})/);
  if (!m) return null;
  const year = m[1]!;
  if (precision === "year") return year;
  const month = MONTH_ABBREVIATIONS[Number(m[2]) - 1];
  if (!month) return year;
  // Rows ingested before the precision was recorded: a first of the month is as likely "month only" as a real day.
  if (precision === "month" || (precision !== "day" && m[3] === "01")) return `${year} ${month}`;
  return `${year} ${month} ${Number(m[3])}`;
}

function present(s: string | null | undefined): string | null {
  const t = s?.trim();
  return t ? t : null;
}

/**
 * The citation line as PubMed shows it under a title:
 * - a journal article: "Spine (Phila Pa 1976). 2007 Sep 1;32(19 Suppl):S120-5." — NLM's title abbreviation (MedlineTA,
 *   else the ISO abbreviation, else the full title), the date as far as the record states it, then
 *   ";volume(issue):pages" with MEDLINE's pages (or an e-only article's pii: "PLoS One. 2020;15(3):e0229999.");
 *   without volume and issue the pages follow the date ("2012 Oct 23:S1569-9048(12)00312-6.");
 * - a book: "Bethesda (MD): National Cancer Institute (US); 2002."; a chapter adds its book first:
 *   "In: PDQ Cancer Information Summaries. Bethesda (MD): National Cancer Institute (US); 2002."
 * @returns null when the record names no journal (or, for a book, nothing to cite it by).
 */
export function nlmCitation(a: CitationSource): string | null {
  const date = nlmDate(a.publication_date, a.publication_date_precision);
  if (a.record_kind === "book" || a.record_kind === "chapter") {
    const publisher = present(a.book_publisher);
    const place = present(a.book_publisher_place);
    const year = date?.slice(0, 4) ?? null;
    let imprint = place && publisher ? `${place}: ${publisher}` : (publisher ?? place ?? "");
    if (year) imprint = imprint ? `${imprint}; ${year}` : year;
    const book = a.record_kind === "chapter" ? present(a.book_title) : null;
    const parts = [book ? `In: ${book}` : null, imprint || null].filter((p): p is string => p !== null);
    return parts.length ? `${parts.join(". ")}.` : null;
  }
  const journal = present(a.journal_medline_ta) ?? present(a.journal_iso_abbreviation) ?? present(a.journal);
  if (!journal) return null;
  const volume = present(a.volume);
  const issue = present(a.issue);
  const pages = citationPages(a);
  const issuePart = (volume ?? "") + (issue ? `(${issue})` : "");
  let line = `${journal}.`;
  if (date) line += ` ${date}`;
  if (issuePart) {
    line += date ? `;${issuePart}` : ` ${issuePart}`;
    if (pages) line += `:${pages}`;
  } else if (pages) {
    line += date ? `:${pages}` : ` ${pages}`;
  }
  return line.endsWith(".") ? line : `${line}.`;
}
