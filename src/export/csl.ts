/**
 * Articles as CSL-JSON items (the Citation Style Language's data model, https://citeproc-js.readthedocs.io/en/latest/csl-json/markup.html),
 * from which the citation library writes RIS, BibTeX and Vancouver references. Pure.
 */

/** What an export reads of an article. */
export interface ExportArticle {
  pmid: number;
  title: string | null;
  authors: string | null;
  abstract: string | null;
  journal: string | null;
  /** YYYY-MM-DD, with `publication_date_precision` saying how much of it the record states. */
  publication_date: string | null;
  publication_date_precision: "day" | "month" | "year" | null;
  doi: string | null;
  pmc_id: string | null;
  publication_types: string[];
  mesh_terms: string[];
  keywords: string[];
}

/** A CSL-JSON name: family and given names, or a literal (a collective author). */
export type CslName = { family: string; given?: string } | { literal: string };

/**
 * PubMed's author list ("Doe J, van der Berg AB, COVID Study Group") as CSL names: the last token of an author is its
 * initials when it is 1–3 capital letters; anything else is a collective name, kept whole.
 */
export function parseAuthors(authors: string | null): CslName[] {
  if (!authors) return [];
  return authors
    .split(/,\s*/)
    .map((a) => a.trim())
    .filter(Boolean)
    .map((a) => {
      const m = /^(.+?)\s+([A-Z]{1,3})$/u.exec(a);
      return m ? { family: m[1]!, given: m[2]!.split("").join(". ") + "." } : { literal: a };
    });
}

/** The CSL `issued` date of an article: as many parts as the record states. */
function issued(a: ExportArticle): { "date-parts": number[][] } | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(a.publication_date ?? "");
  if (!m) return undefined;
  const parts = [Number(m[1])];
  if (a.publication_date_precision !== "year") parts.push(Number(m[2]));
  if (a.publication_date_precision === "day" || a.publication_date_precision === null) parts.push(Number(m[3]));
  return { "date-parts": [parts] };
}

/** One article as a CSL-JSON item (id "pmid-<PMID>"; type article-journal). */
export function toCsl(a: ExportArticle): Record<string, unknown> {
  const item: Record<string, unknown> = {
    id: `pmid-${a.pmid}`,
    type: "article-journal",
    title: a.title ?? undefined,
    author: parseAuthors(a.authors),
    "container-title": a.journal ?? undefined,
    issued: issued(a),
    abstract: a.abstract ?? undefined,
    DOI: a.doi ?? undefined,
    PMID: String(a.pmid),
    PMCID: a.pmc_id ?? undefined,
    URL: `https://pubmed.ncbi.nlm.nih.gov/${a.pmid}/`,
    keyword: [...a.mesh_terms, ...a.keywords].join(",") || undefined,
  };
  return Object.fromEntries(Object.entries(item).filter(([, v]) => v !== undefined && !(Array.isArray(v) && v.length === 0)));
}
