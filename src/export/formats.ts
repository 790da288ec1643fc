// The citation library: @citation-js/core with its RIS, BibTeX and CSL (formatted references) plugins, which register
// themselves on import.
import { Cite } from "@citation-js/core";
import "@citation-js/plugin-ris";
import "@citation-js/plugin-bibtex";
import "@citation-js/plugin-csl";
import { toCsl, type ExportArticle } from "./csl.ts";
import { toMedline } from "./medline.ts";

/**
 * Reference-manager formats (issue 13): RIS, BibTeX and CSL-JSON written by Citation.js (a well-kept citation library,
 * https://citation.js.org) from CSL-JSON items, and PubMed's MEDLINE (.nbib) written here (no library writes it).
 * Zotero, EndNote and Mendeley import all four.
 */
export const EXPORT_FORMATS = {
  ris: { extension: "ris", contentType: "application/x-research-info-systems; charset=utf-8" },
  bibtex: { extension: "bib", contentType: "application/x-bibtex; charset=utf-8" },
  "csl-json": { extension: "json", contentType: "application/vnd.citationstyles.csl+json; charset=utf-8" },
  nbib: { extension: "nbib", contentType: "application/x-nbib; charset=utf-8" },
} as const;
export type ExportFormat = keyof typeof EXPORT_FORMATS;

/**
 * Writes `articles` in `format`. RIS records are kept one field per line, and get the DOI (DO) and the PMID (AN) when
 * the library leaves them out, so that a reference manager can match them.
 */
export function writeReferences(articles: readonly ExportArticle[], format: ExportFormat): string {
  if (format === "nbib") return toMedline(articles);
  const items = articles.map(toCsl);
  if (format === "csl-json") return `${JSON.stringify(items, null, 2)}\n`;
  const cite = new Cite(items);
  if (format === "bibtex") return cite.format("bibtex") as string;
  // The library wraps long values at 70 characters, mid-word, with no marker on the continuation line; reference
  // managers read that as a new word. Each continuation is put back on its field's line.
  const ris = (cite.format("ris") as string).replace(/\n(?![A-Z][A-Z0-9] {2}- )/g, "");
  const records = ris.split(/^ER {2}- *$/m).filter((r) => r.trim());
  return records
    .map((record, i) => {
      const a = articles[i]!;
      let r = record.trimEnd();
      if (a.doi && !/^DO {2}- /m.test(r)) r += `\nDO  - ${a.doi}`;
      if (!/^AN {2}- /m.test(r)) r += `\nAN  - ${a.pmid}`;
      return `${r.replace(/^\n+/, "")}\nER  - \n`;
    })
    .join("\n");
}

/**
 * A review's summary followed by its references in Vancouver style (the ICMJE's recommended style for biomedical
 * journals), for pasting into a manuscript: markdown markers removed, citation numbers kept as written.
 */
export function summaryWithReferences(topic: string | null, summary: string | null, cited: readonly ExportArticle[]): string {
  const text = (summary ?? "").replace(/\*\*(.+?)\*\*/g, "$1").trim();
  const references = cited.length ? (new Cite(cited.map(toCsl)).format("bibliography", { template: "vancouver", format: "text" }) as string).trim() : "";
  return [topic ? `Literature review: ${topic}` : null, text || null, references ? `References\n${references}` : null].filter(Boolean).join("\n\n") + "\n";
}
