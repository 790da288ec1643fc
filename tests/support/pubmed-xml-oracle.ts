import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";

/**
 * What a reference needs of each record, read straight from PubMed XML with regular expressions: a reader
 * independent of the ingest parser, for the export tests to compare each exported field with the source XML.
 */
export interface XmlCitation {
  pmid: number;
  volume: string | null;
  issue: string | null;
  medlinePgn: string | null;
  startPage: string | null;
  endPage: string | null;
  pii: string | null;
  /** Valid authors in order: a person or a collective name. */
  authors: (
    | { last: string; fore: string | null; initials: string | null; suffix: string | null }
    | { group: string }
  )[];
  meshHeadings: string[];
  abstractSections: string[];
  book: { publisher: string | null; place: string | null; bookTitle: string | null } | null;
}

const decode = (s: string) =>
  s
    .replace(/<[^>]+>/g, "")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#x([0-9a-f]+);/gi, (_, h: string) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#(\d+);/g, (_, d: string) => String.fromCodePoint(Number(d)))
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ")
    .trim();
const text = (xml: string, tag: string) => {
  const m = new RegExp(`<${tag}(?:\\s[^>]*)?>([\\s\\S]*?)</${tag}>`).exec(xml);
  return m ? decode(m[1]!) || null : null;
};
const all = (xml: string, tag: string) =>
  [...xml.matchAll(new RegExp(`<${tag}(?:\\s[^>]*)?>([\\s\\S]*?)</${tag}>`, "g"))].map((m) => decode(m[1]!));

function record(xml: string): XmlCitation | null {
  const pmid = Number(text(xml, "PMID"));
  if (!pmid) return null;
  const ji = /<JournalIssue\b[\s\S]*?<\/JournalIssue>/.exec(xml)?.[0] ?? "";
  const pagination = /<Pagination>[\s\S]*?<\/Pagination>/.exec(xml)?.[0] ?? "";
  const pii = /<ELocationID EIdType="pii"[^>]*>([\s\S]*?)<\/ELocationID>/.exec(xml);
  const authorList = /<AuthorList\b[\s\S]*?<\/AuthorList>/.exec(xml)?.[0] ?? "";
  const authors = [...authorList.matchAll(/<Author\b([^>]*)>([\s\S]*?)<\/Author>/g)]
    .filter((m) => !/ValidYN="N"/.test(m[1]!))
    .map((m) => {
      const group = text(m[2]!, "CollectiveName");
      return group
        ? { group }
        : {
            last: text(m[2]!, "LastName") ?? "",
            fore: text(m[2]!, "ForeName"),
            initials: text(m[2]!, "Initials"),
            suffix: text(m[2]!, "Suffix"),
          };
    });
  const book = /<BookDocument>/.test(xml)
    ? {
        publisher: text(xml, "PublisherName"),
        place: text(xml, "PublisherLocation"),
        bookTitle: text(xml, "BookTitle"),
      }
    : null;
  const abstract = /<Abstract>[\s\S]*?<\/Abstract>/.exec(xml)?.[0] ?? "";
  return {
    pmid,
    volume: text(ji, "Volume"),
    issue: text(ji, "Issue"),
    medlinePgn: text(pagination, "MedlinePgn"),
    startPage: text(pagination, "StartPage"),
    endPage: text(pagination, "EndPage"),
    pii: pii ? decode(pii[1]!) : null,
    authors,
    meshHeadings: all(/<MeshHeadingList>[\s\S]*?<\/MeshHeadingList>/.exec(xml)?.[0] ?? "", "DescriptorName"),
    abstractSections: all(abstract, "AbstractText").filter(Boolean),
    book,
  };
}

/**
 * Every record of the files (PubmedArticle, PubmedBookArticle, or MedlineCitation of a MedlineCitationSet), by PMID;
 * the first occurrence wins, the others are kept in `repeats`.
 */
export function readXmlCitations(files: readonly string[]): {
  byPmid: Map<number, XmlCitation>;
  repeats: Map<number, XmlCitation[]>;
} {
  const byPmid = new Map<number, XmlCitation>();
  const repeats = new Map<number, XmlCitation[]>();
  for (const file of files) {
    const xml = gunzipSync(readFileSync(file)).toString("utf8");
    let chunks = [...xml.matchAll(/<(PubmedArticle|PubmedBookArticle)>[\s\S]*?<\/\1>/g)].map((m) => m[0]);
    if (!chunks.length) chunks = [...xml.matchAll(/<MedlineCitation\b[\s\S]*?<\/MedlineCitation>/g)].map((m) => m[0]);
    for (const chunk of chunks) {
      const r = record(chunk);
      if (!r) continue;
      if (byPmid.has(r.pmid)) repeats.set(r.pmid, [...(repeats.get(r.pmid) ?? []), r]);
      else byPmid.set(r.pmid, r);
    }
  }
  return { byPmid, repeats };
}

/**
 * MEDLINE's abbreviated page range written out, independently of the application's code: "123-9" → "123-129", "S120-5"
 * → "S120-S125".
 */
export function expandRange(pgn: string): string | null {
  const m = /^([A-Za-z]*)(\d+)([A-Za-z]*)-([A-Za-z]*)(\d+)([A-Za-z]*)$/.exec(pgn.trim());
  if (!m) return null;
  const [, pre, start, post, , end, post2] = m as unknown as string[];
  let fullEnd = end!.length < start!.length ? start!.slice(0, start!.length - end!.length) + end : end!;
  // "269-38": the abbreviated end crossed a hundred (269–338), never a range that ends before it starts.
  if (Number(fullEnd) < Number(start)) fullEnd = String(Number(fullEnd) + 10 ** end!.length);
  return `${pre}${start}${post}-${pre}${fullEnd}${post2 || post}`;
}
