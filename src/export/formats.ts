import { bibtexEntry, bibtexKeyMaker } from "./bibtex.ts";
import { toCsl, type ExportArticle } from "./csl.ts";
import { medlineRecord } from "./medline.ts";
import { risRecord } from "./ris.ts";
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

/**
 * A file of one format written one article at a time, so that an export can be sent in batches
 * (src/export/stream.ts): `start`, then `record(a)` for each article in the list's order, then `end()`. The pieces
 * joined are exactly `writeReferences`'s file. Keeps state (how many records so far, BibTeX's keys given): one writer
 * per file.
 */
export interface ReferenceWriter {
  readonly start: string;
  record(a: ExportArticle): string;
  end(): string;
}

/**
 * Indents every line of `text` by two spaces (an item of a JSON array as JSON.stringify(list, null, 2) writes it).
 * Only at "\n": a regular expression's multiline `^` also matches after U+2028 and U+2029, which JSON leaves raw.
 */
const indented = (text: string) => `  ${text.replaceAll("\n", "\n  ")}`;

/**
 * The writer of `format`: RIS records and BibTeX entries separated by a blank line; MEDLINE records separated by a
 * blank line, the file ending with a line break; CSL-JSON one array, as JSON.stringify(items, null, 2) writes it, and
 * a line break.
 */
export function referenceWriter(format: ExportFormat): ReferenceWriter {
  let count = 0;
  const sep = (s: string) => (count++ > 0 ? s : "");
  switch (format) {
    case "ris":
      return { start: "", record: (a) => sep("\n") + risRecord(a), end: () => "" };
    case "bibtex": {
      const keyOf = bibtexKeyMaker();
      return { start: "", record: (a) => sep("\n") + bibtexEntry(a, keyOf(a)), end: () => "" };
    }
    case "nbib":
      return { start: "", record: (a) => sep("\n\n") + medlineRecord(a), end: () => "\n" };
    case "csl-json":
      return {
        start: "[",
        record: (a) => `${sep(",")}\n${indented(JSON.stringify(toCsl(a), null, 2))}`,
        end: () => (count ? "\n]\n" : "]\n"),
      };
  }
}

/** Writes `articles` in `format`, in their order: the whole file at once (small lists, tests). */
export function writeReferences(articles: readonly ExportArticle[], format: ExportFormat): string {
  const writer = referenceWriter(format);
  return writer.start + articles.map((a) => writer.record(a)).join("") + writer.end();
}

/**
 * A review's summary followed by its references in NLM's Vancouver form (the style of biomedical journals, as PubMed
 * cites; written by Citation.js, src/export/vancouver.ts), for pasting into a manuscript: markdown markers removed,
 * citation numbers kept as written.
 */
export function summaryWithReferences(
  topic: string | null,
  summary: string | null,
  cited: readonly ExportArticle[],
): string {
  const text = (summary ?? "").replace(/\*\*(.+?)\*\*/g, "$1").trim();
  const references = vancouverReferences(cited).join("\n");
  return `${[
    topic ? `Literature review: ${topic}` : null,
    text || null,
    references ? `References\n${references}` : null,
  ]
    .filter(Boolean)
    .join("\n\n")}\n`;
}

/**
 * The ASCII slug of a review's topic, at most `max` characters, cut at a word where it can be ("review" when empty).
 */
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
export function exportFileName(
  what: { likes: true } | { topic: string | null; list: "cited" | "relevant" },
  format: ExportFormat,
  now: Date,
): string {
  const stem = "likes" in what ? "likes" : `${topicSlug(what.topic)}-${what.list}`;
  return `litreview-${stem}-${day(now)}.${EXPORT_FORMATS[format].extension}`;
}
