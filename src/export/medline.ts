import type { ExportArticle } from "./csl.ts";
import { parseAuthors } from "./csl.ts";

/**
 * PubMed's MEDLINE display format (the `.nbib` files PubMed's "Send to: Citation manager" writes, read by EndNote,
 * Zotero and Mendeley): one `TAG - value` line per field, the tag padded to four characters, long values wrapped at
 * 80 columns with continuation lines indented by six spaces, records separated by a blank line
 * (https://www.nlm.nih.gov/bsd/mms/medlineelements.html). Pure.
 */

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** One field, wrapped at 80 columns. */
function field(tag: string, value: string): string {
  const words = value.replace(/\s+/g, " ").trim().split(" ");
  const lines: string[] = [];
  let line = `${tag.padEnd(4)}- `;
  for (const w of words) {
    if (line.length + w.length > 80 && line.trim().length > 5) {
      lines.push(line.trimEnd());
      line = "      ";
    }
    line += `${w} `;
  }
  lines.push(line.trimEnd());
  return lines.join("\n");
}

/** The DP (date of publication) value: "2020 May 14", "2020 May" or "2020". */
function datePublished(a: ExportArticle): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(a.publication_date ?? "");
  if (!m) return null;
  if (a.publication_date_precision === "year") return m[1]!;
  const month = MONTHS[Number(m[2]) - 1]!;
  return a.publication_date_precision === "month" ? `${m[1]} ${month}` : `${m[1]} ${month} ${Number(m[3])}`;
}

/** Articles as MEDLINE records. */
export function toMedline(articles: readonly ExportArticle[]): string {
  return (
    articles
      .map((a) => {
        const out = [field("PMID", String(a.pmid))];
        if (a.title) out.push(field("TI", a.title));
        if (a.abstract) out.push(field("AB", a.abstract));
        for (const au of parseAuthors(a.authors)) out.push(field("AU", "literal" in au ? au.literal : `${au.family} ${au.given?.replace(/[. ]/g, "") ?? ""}`.trim()));
        for (const pt of a.publication_types) out.push(field("PT", pt));
        const dp = datePublished(a);
        if (dp) out.push(field("DP", dp));
        if (a.journal) out.push(field("JT", a.journal));
        for (const mh of a.mesh_terms) out.push(field("MH", mh));
        for (const ot of a.keywords) out.push(field("OT", ot));
        if (a.doi) out.push(field("LID", `${a.doi} [doi]`), field("AID", `${a.doi} [doi]`));
        if (a.pmc_id) out.push(field("PMC", a.pmc_id));
        out.push(field("SO", [a.journal, dp].filter(Boolean).join(". ")));
        return out.join("\n");
      })
      .join("\n\n") + "\n"
  );
}

/** Reads MEDLINE records back (tag → values, continuation lines joined): for tests and for importing. */
export function parseMedline(text: string): Record<string, string[]>[] {
  return text
    .split(/\n\s*\n/)
    .filter((r) => r.trim())
    .map((record) => {
      const fields: Record<string, string[]> = {};
      let last: string[] | null = null;
      for (const line of record.split("\n")) {
        const m = /^([A-Z]{2,4})\s*- (.*)$/.exec(line);
        if (m) {
          last = fields[m[1]!] ??= [];
          last.push(m[2]!);
        } else if (last && line.startsWith("      ")) last[last.length - 1] += ` ${line.trim()}`;
      }
      return fields;
    });
}
