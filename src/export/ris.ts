import { authorsOf, dateParts, givenName, isGroup, journalAbbreviation, pagesOf, type ExportArticle } from "./csl.ts";

/**
 * RIS (Research Information Systems' tagged format, read by Zotero, EndNote and Mendeley), written here rather than by
 * the citation library, which split MeSH headings and group names at their commas, left out the end page, the DOI and
 * the PMID, and wrapped values mid-word (docs/decisions/0020-exports.md). One `TAG  - value` line per value; an
 * abstract's sections each on a line of their own, the later ones as continuation lines indented by six spaces, which
 * RIS readers join back with a line break. Pure.
 */

const oneLine = (s: string) => s.replace(/\s+/g, " ").trim();

/** "Family, Given, Suffix" (RIS's name syntax); a group's name whole. */
function risName(au: ReturnType<typeof authorsOf>[number]): string {
  if (isGroup(au)) return oneLine(au.group);
  return [au.family, givenName(au), au.suffix]
    .filter((p): p is string => !!p)
    .map(oneLine)
    .join(", ");
}

/** One article as a RIS record, from `TY` to `ER`, ending with a line break. */
export function risRecord(a: ExportArticle): string {
  const lines: string[] = [];
  const tag = (t: string, v: string | null | undefined) => {
    if (v?.trim()) lines.push(`${t}  - ${oneLine(v)}`);
  };
  const kind = a.record_kind;
  lines.push(`TY  - ${kind === "chapter" ? "CHAP" : kind === "book" ? "BOOK" : "JOUR"}`);
  tag("TI", kind === "book" ? a.title || a.book_title : a.title);
  for (const au of authorsOf(a)) tag("AU", risName(au));
  if (kind === "chapter") tag("T2", a.book_title);
  if (kind === "article") {
    tag("T2", a.journal);
    tag("J2", journalAbbreviation(a));
  }
  const date = dateParts(a);
  if (date) {
    tag("PY", String(date[0]));
    tag(
      "DA",
      `${date[0]}/${date[1] ? String(date[1]).padStart(2, "0") : ""}/${date[2] ? String(date[2]).padStart(2, "0") : ""}/`,
    );
  }
  tag("VL", a.volume);
  tag("IS", a.issue);
  const pages = pagesOf(a);
  if (pages) {
    tag("SP", pages.start);
    tag("EP", pages.end);
  }
  tag("PB", a.book_publisher);
  tag("CY", a.book_publisher_place);
  tag("SN", a.issn);
  tag("LA", a.language);
  if (a.abstract?.trim()) {
    const [first, ...rest] = a.abstract.split(/\n+/).map(oneLine).filter(Boolean);
    lines.push(`AB  - ${first}`, ...rest.map((s) => `      ${s}`));
  }
  for (const k of [...a.mesh_terms, ...a.keywords]) tag("KW", k);
  tag("DO", a.doi);
  tag("AN", String(a.pmid));
  tag("C2", a.pmc_id);
  tag("UR", `https://pubmed.ncbi.nlm.nih.gov/${a.pmid}/`);
  lines.push("ER  - ");
  return `${lines.join("\n")}\n`;
}
