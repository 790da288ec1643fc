import { toBibtex } from "./bibtex.ts";
import { toCsl, type ExportArticle } from "./csl.ts";
import { toMedline } from "./medline.ts";
import { toRis } from "./ris.ts";
import { vancouverReferences } from "./vancouver.ts";

/**
 * Reference-manager formats (issues 13 and 20): RIS, BibTeX, CSL-JSON and PubMed's MEDLINE (.nbib), written here from
 * the stored record as their readers expect (docs/decisions/0020-exports.md says why Citation.js writes none of them;
 * it writes the Vancouver references of the summary). Zotero, EndNote and Mendeley import all four.
 */
export const EXPORT_FORMATS = {
  ris: { extension: "ris", contentType: "application/x-research-info-systems; charset=utf-8" },
  bibtex: { extension: "bib", contentType: "application/x-bibtex; charset=utf-8" },
  "csl-json": { extension: "json", contentType: "application/vnd.citationstyles.csl+json; charset=utf-8" },
  nbib: { extension: "nbib", contentType: "application/x-nbib; charset=utf-8" },
} as const;
export type ExportFormat = keyof typeof EXPORT_FORMATS;

/** Writes `articles` in `format`, in their order. */
export function writeReferences(articles: readonly ExportArticle[], format: ExportFormat): string {
  switch (format) {
    case "nbib":
      return toMedline(articles);
    case "csl-json":
      return `${JSON.stringify(articles.map(toCsl), null, 2)}\n`;
    case "bibtex":
      return toBibtex(articles);
    case "ris":
      return toRis(articles);
  }
}

/**
 * A review's summary followed by its references in NLM's Vancouver form (the style of biomedical journals, as PubMed
 * cites; written by Citation.js, src/export/vancouver.ts), for pasting into a manuscript: markdown markers removed,
 * citation numbers kept as written.
 */
export function summaryWithReferences(topic: string | null, summary: string | null, cited: readonly ExportArticle[]): string {
  const text = (summary ?? "").replace(/\*\*(.+?)\*\*/g, "$1").trim();
  const references = vancouverReferences(cited).join("\n");
  return [topic ? `Literature review: ${topic}` : null, text || null, references ? `References\n${references}` : null].filter(Boolean).join("\n\n") + "\n";
}

/** The ASCII slug of a review's topic, at most `max` characters, cut at a word where it can be ("review" when empty). */
export function topicSlug(topic: string | null, max = 40): string {
  const slug = (topic ?? "")
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  if (slug.length <= max) return slug || "review";
  const cut = slug.slice(0, max + 1);
  const atWord = cut.lastIndexOf("-");
  return (atWord >= max / 2 ? cut.slice(0, atWord) : slug.slice(0, max)).replace(/-+$/g, "");
}

/** The UTC day of `now`, YYYY-MM-DD. */
const day = (now: Date) => now.toISOString().slice(0, 10);

/**
 * File names that say what they hold: "litreview-likes-2026-11-26.ris",
 * "litreview-nasopharyngeal-carcinoma-radiotherapy-cited-2026-11-26.bib".
 */
export function exportFileName(what: { likes: true } | { topic: string | null; list: "cited" | "relevant" }, format: ExportFormat, now: Date): string {
  const stem = "likes" in what ? "likes" : `${topicSlug(what.topic)}-${what.list}`;
  return `litreview-${stem}-${day(now)}.${EXPORT_FORMATS[format].extension}`;
}
