import { authorsOf, isGroup, type ExportArticle, type Person } from "./csl.ts";
import { nlmCitation } from "../articles/citation.ts";

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

/** "Crawford CH 3rd" (AU) and "Crawford, Charles H 3rd" (FAU), as PubMed writes them. */
function names(p: Person): { au: string; fau: string } {
  const initials =
    p.initials ??
    (p.given ? Array.from(p.given.split(/[\s.-]+/).filter(Boolean), (w) => Array.from(w)[0]!).join("") : "");
  const au = [p.family, initials || null, p.suffix].filter(Boolean).join(" ");
  const fau = `${p.family}${p.given || initials ? `, ${[p.given || initials, p.suffix].filter(Boolean).join(" ")}` : p.suffix ? ` ${p.suffix}` : ""}`;
  return { au, fau };
}

/** YYYY-MM-DD → YYYYMMDD (DEP, the electronic publication date). */
const compactDate = (d: string | null) =>
  /^\d{4}-\d{2}-\d{2}/.test(d ?? "") ? d!.slice(0, 10).replace(/-/g, "") : null;

/**
 * SO, PubMed's source line: the NLM citation ("Spine (Phila Pa 1976). 2007 Sep 1;32(19 Suppl):S120-5."), then the DOI.
 */
function sourceLine(a: ExportArticle, dp: string | null): string {
  const line = nlmCitation(a) ?? [a.journal_medline_ta ?? a.journal, dp].filter(Boolean).join(". ");
  return a.doi ? `${line} doi: ${a.doi}.` : line;
}

/** One article as a MEDLINE record: PubMed's tags in PubMed's order, `PMID` to `SO`, no final line break. */
export function medlineRecord(a: ExportArticle): string {
  const out = [field("PMID", String(a.pmid))];
  const put = (tag: string, v: string | null | undefined) => {
    if (v?.trim()) out.push(field(tag, v));
  };
  put("IS", a.issn);
  put("VI", a.volume);
  put("IP", a.issue);
  const dp = datePublished(a);
  put("DP", dp);
  put("TI", a.record_kind === "book" ? a.title || a.book_title : a.title);
  if (a.record_kind === "chapter") put("BTI", a.book_title);
  put("PG", a.medline_pages ?? (a.start_page ? [a.start_page, a.end_page].filter(Boolean).join("-") : null));
  if (a.elocation_pii) put("LID", `${a.elocation_pii} [pii]`);
  if (a.doi) put("LID", `${a.doi} [doi]`);
  // PubMed writes a structured abstract as one paragraph: "BACKGROUND: … METHODS: …".
  put("AB", a.abstract);
  for (const au of authorsOf(a)) {
    if (isGroup(au)) {
      put("CN", au.group);
      continue;
    }
    const n = names(au);
    put("FAU", n.fau);
    put("AU", n.au);
    if (au.orcid) put("AUID", `ORCID: ${au.orcid}`);
  }
  put("LA", a.language);
  for (const pt of a.publication_types) put("PT", pt);
  put("DEP", compactDate(a.epub_date));
  put("PL", a.book_publisher_place);
  put("PB", a.book_publisher);
  put("TA", a.journal_medline_ta);
  put("JT", a.journal);
  for (const mh of a.mesh_terms) put("MH", mh);
  for (const ot of a.keywords) put("OT", ot);
  put("PMC", a.pmc_id);
  if (a.elocation_pii) put("AID", `${a.elocation_pii} [pii]`);
  if (a.doi) put("AID", `${a.doi} [doi]`);
  put("SO", sourceLine(a, dp));
  return out.join("\n");
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
