/**
 * What an article card shows for each field (docs/product.md §2 Article card), including the texts for missing values,
 * and the outbound links. Pure, so the card, the citation preview and tests agree.
 */
import type { Article } from "./types.ts";
import { formatDate } from "../lib/format.ts";

/** Texts docs/product.md gives for missing fields. */
export const NO_TITLE = "No Title Available";
export const NO_AUTHORS = "Authors N/A";
export const NO_ABSTRACT = "No abstract available.";
export const NO_JOURNAL = "Journal N/A";

function present(value: string | null | undefined): string | null {
  const v = value?.trim();
  return v ? v : null;
}

/** The article's title, or 'No Title Available'. */
export function titleOf(a: Article): string {
  return present(a.title) ?? NO_TITLE;
}

/** The author list, or 'Authors N/A'. */
export function authorsOf(a: Article): string {
  return present(a.authors) ?? NO_AUTHORS;
}

/** The abstract, or 'No abstract available.' */
export function abstractOf(a: Article): string {
  return present(a.abstract) ?? NO_ABSTRACT;
}

/**
 * The publication date as precisely as the record states it: "Jun 5, 1983", "Jun 1983" or "1983", never a day the
 * record does not give (issue 8); 'N/A' or 'Invalid Date' as formatDate says.
 */
export function publicationDateOf(a: Article, locales?: string | string[]): string {
  const value = a.publication_date;
  if (typeof value !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return formatDate(value, locales);
  if (a.publication_date_precision === "year") return formatDate(value.slice(0, 4), locales);
  if (a.publication_date_precision === "month") return formatDate(value.slice(0, 7), locales);
  return formatDate(value, locales);
}

/** PubMed's page of an article, from its PMID. */
export function pubmedUrl(pmid: string | number): string {
  return `https://pubmed.ncbi.nlm.nih.gov/${encodeURIComponent(String(pmid))}/`;
}

/** The journal, or 'Journal N/A'. */
export function journalOf(a: Article): string {
  return present(a.journal) ?? NO_JOURNAL;
}

/**
 * An address that is safe to put in an href: only http and https, so stored data can never smuggle in a
 * `javascript:` link. Returns null for anything else.
 */
export function safeHttpUrl(value: string | null | undefined): string | null {
  const v = present(value);
  if (!v) return null;
  try {
    const url = new URL(v);
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : null;
  } catch {
    return null;
  }
}

/**
 * The resolver address of a DOI (https://doi.org/{doi}). Accepts a bare DOI, a `doi:` prefix or an address
 * that already points at a DOI resolver; null when there is no DOI.
 */
export function doiUrl(doi: string | null | undefined): string | null {
  let v = present(doi);
  if (!v) return null;
  v = v.replace(/^doi:\s*/i, "").replace(/^https?:\/\/(dx\.)?doi\.org\//i, "");
  if (!v) return null;
  // DOIs may contain characters such as "<" or "#" that must be escaped, but "/" separates prefix and suffix.
  return `https://doi.org/${v.split("/").map(encodeURIComponent).join("/")}`;
}

/** One icon link of the card: only those whose value is present are returned, in the product's order. */
export interface ArticleLink {
  kind: "doi" | "full_text" | "pdf";
  label: string;
  href: string;
}

/** The card's links: 'View on DOI', 'Full Text Link' and 'Free PDF Link', each only when present. */
export function articleLinks(a: Article): ArticleLink[] {
  const links: ArticleLink[] = [];
  const doi = doiUrl(a.doi);
  if (doi) links.push({ kind: "doi", label: "View on DOI", href: doi });
  const full = safeHttpUrl(a.full_text_link);
  if (full) links.push({ kind: "full_text", label: "Full Text Link", href: full });
  const pdf = safeHttpUrl(a.pdf_free_link);
  if (pdf) links.push({ kind: "pdf", label: "Free PDF Link", href: pdf });
  return links;
}
