import { authorsOf, dateParts, givenName, isGroup, pagesOf, type ExportArticle } from "./csl.ts";

/**
 * BibTeX, written here rather than by the citation library (docs/decisions/0020-exports.md): names and titles in UTF-8
 * (only BibTeX's special characters escaped), months as BibTeX's three-letter macros (`month = sep`), pages with "--",
 * the abstract, PMID and DOI, group authors braced whole, "Family, Suffix, Given" for a suffix (BibTeX's "Last, Jr,
 * First"), @book and @incollection for PubMed's books, and keys unique over the export. Pure.
 */

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

/** A value inside braces: whitespace collapsed, BibTeX's special characters escaped, UTF-8 kept as it is. */
export function bibValue(s: string): string {
  return s
    .replace(/\s+/g, " ")
    .trim()
    .replace(/[\\{}&%$#_~^]/g, (c) =>
      c === "\\"
        ? "\\textbackslash{}"
        : c === "~"
          ? "\\textasciitilde{}"
          : c === "^"
            ? "\\textasciicircum{}"
            : `\\${c}`,
    );
}

/** A name part: escaped, and " and " protected so that it does not split the author list. */
const namePart = (s: string) => bibValue(s).replace(/ and /gi, (m) => ` {${m.trim()}} `);

/** The key's stem: first author's family name (ASCII letters), year, first title word of four letters or more. */
function keyStem(a: ExportArticle): string {
  const ascii = (s: string) =>
    s
      .normalize("NFKD")
      .replace(/[^A-Za-z0-9]/g, "")
      .toLowerCase();
  const first = authorsOf(a)[0];
  const who = first ? ascii(isGroup(first) ? first.group.split(/[\s,]+/)[0]! : first.family) : "";
  const year = dateParts(a)?.[0] ?? "";
  const word =
    (a.title ?? a.book_title ?? "")
      .split(/\s+/)
      .map(ascii)
      .find((w) => w.length >= 4) ?? "";
  return `${who || "pmid"}${year}${word}` || `pmid${a.pmid}`;
}

/** One article as a BibTeX entry under `key`, ending with a line break. */
export function bibtexEntry(a: ExportArticle, key: string): string {
  const fields: [string, string][] = [];
  const put = (name: string, v: string | null | undefined) => {
    if (v?.trim()) fields.push([name, `{${bibValue(v)}}`]);
  };
  const kind = a.record_kind;
  const type = kind === "chapter" ? "incollection" : kind === "book" ? "book" : "article";
  const authors = authorsOf(a).map((au) =>
    isGroup(au)
      ? `{${bibValue(au.group)}}`
      : [au.family, au.suffix, givenName(au)]
          .filter((p): p is string => !!p)
          .map(namePart)
          .join(", "),
  );
  if (authors.length) fields.push(["author", `{${authors.join(" and ")}}`]);
  put("title", kind === "book" ? a.title || a.book_title : a.title);
  if (kind === "chapter") put("booktitle", a.book_title);
  if (kind === "article") put("journal", a.journal);
  const date = dateParts(a);
  if (date) {
    fields.push(["year", `{${date[0]}}`]);
    if (date[1]) fields.push(["month", MONTHS[date[1] - 1]!]);
  }
  put("volume", a.volume);
  put("number", a.issue);
  const pages = pagesOf(a);
  if (pages) put("pages", pages.full.replace(/(?<=[\p{L}\p{N}])-(?=[\p{L}\p{N}])/gu, "--"));
  put("publisher", a.book_publisher);
  put("address", a.book_publisher_place);
  put("issn", a.issn);
  put("doi", a.doi);
  put("pmid", String(a.pmid));
  put("pmcid", a.pmc_id);
  put("url", `https://pubmed.ncbi.nlm.nih.gov/${a.pmid}/`);
  if (a.abstract?.trim())
    fields.push(["abstract", `{${a.abstract.split(/\n+/).map(bibValue).filter(Boolean).join("\n\n")}}`]);
  return `@${type}{${key},\n${fields.map(([k, v]) => `  ${k} = ${v},`).join("\n")}\n}\n`;
}

/**
 * Keys for `articles`, unique over them: the stem ("crawford2007spine"); a second article with the same stem gets "a"
 * appended, a third "b", and so on (never a key already given).
 */
export function bibtexKeys(articles: readonly ExportArticle[]): string[] {
  return articles.map(bibtexKeyMaker());
}

/**
 * The key of each article of one export, given in the export's order, one article at a time (a streamed export sees
 * its articles batch by batch): the same keys as `bibtexKeys` over the whole list. Remembers every key given.
 */
export function bibtexKeyMaker(): (a: ExportArticle) => string {
  const used = new Set<string>();
  const seen = new Map<string, number>();
  return (a) => {
    const stem = keyStem(a);
    let n = seen.get(stem) ?? 0;
    let key = stem;
    while (used.has(key)) key = `${stem}${suffix(n++)}`;
    seen.set(stem, n);
    used.add(key);
    return key;
  };
}

/** 0 → "a", 25 → "z", 26 → "aa"… */
function suffix(n: number): string {
  let s = "";
  for (n += 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(97 + ((n - 1) % 26)) + s;
  return s;
}
