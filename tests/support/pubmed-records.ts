/**
 * PubMed records for the E-utilities stand-in (tests/support/eutils-stand-in.ts) and the tests that use it: each one
 * as the `<PubmedArticle>` element efetch would send and as our parser reads it.
 *
 * Two sets:
 * - the real records of the bundled sample, sample/pubmed/merged-pubmedarticleset.xml.gz (2,098 PubmedArticle, one
 *   per PMID; gzip, a PubmedArticleSet without DOCTYPE), each element cut out of the file as it is;
 * - a set the sample does not index: the 1,000 expert-annotated PubMedQA instances (Jin et al., EMNLP 2019;
 *   sample/pubmedqa/ori_pqal.json.gz), real PMIDs whose fields are rendered as PubMed XML by `renderPubmedQaXml`
 *   (see there for what is real and what is filled in). A PMID that one of the sample files also holds would not
 *   be "a record the index lacks", so such PMIDs are left out (none is today; the tests check it with the parser).
 *
 * Every article is what search/pubmed/parser.ts makes of the element's XML, so a test comparing the stand-in's
 * records with what the application ingested compares like with like.
 *
 * Loaded once per process (module-level cache); the parsed articles are also kept in a file between processes
 * (see `loadStandInRecords`).
 */
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { parsePubmedXml, type ParsedArticle } from "../../search/pubmed/parser.ts";

/** One PubMed record as the stand-in serves it. */
export interface StandInRecord {
  pmid: number;
  /** One `<PubmedArticle>…</PubmedArticle>` element (no XML declaration), as efetch puts it in a PubmedArticleSet. */
  xml: string;
  /** What search/pubmed/parser.ts reads from `xml`. */
  article: ParsedArticle;
}

/** One PubMedQA instance (the fields of ori_pqal.json used here). */
export interface PubmedQaInstance {
  QUESTION: string;
  CONTEXTS: string[];
  LABELS: string[];
  MESHES: string[];
  YEAR: string | null;
  LONG_ANSWER: string;
}

const SAMPLE_DIR = join(import.meta.dir, "..", "..", "sample", "pubmed");
const MERGED_FILE = join(SAMPLE_DIR, "merged-pubmedarticleset.xml.gz");
const PUBMEDQA_FILE = join(import.meta.dir, "..", "..", "sample", "pubmedqa", "ori_pqal.json.gz");

/** Reads a file, gunzipped when it starts with the gzip magic bytes, as UTF-8 text. */
function readText(path: string): string {
  const bytes = readFileSync(path);
  const plain = bytes[0] === 0x1f && bytes[1] === 0x8b ? Bun.gunzipSync(bytes) : bytes;
  return new TextDecoder().decode(plain);
}

/**
 * PMIDs of the records (PubmedArticle and MedlineCitation, not the PMIDs they cite) of every sample file other than
 * the merged one, read with a pattern rather than the parser: it is only for leaving PubMedQA overlaps out, and costs
 * tens of milliseconds rather than a second. A record's own PMID is the first element of its MedlineCitation (books,
 * PubmedBookArticle, are not looked at: PubMedQA holds journal articles only).
 */
function otherSamplePmids(): Set<number> {
  const pmids = new Set<number>();
  for (const name of readdirSync(SAMPLE_DIR)) {
    if (!/\.xml(\.gz)?$/.test(name) || join(SAMPLE_DIR, name) === MERGED_FILE) continue;
    for (const m of readText(join(SAMPLE_DIR, name)).matchAll(/<MedlineCitation\b[^>]*>\s*<PMID\b[^>]*>(\d+)<\/PMID>/g))
      pmids.add(Number(m[1]));
  }
  return pmids;
}

let mergedText: string | null = null;
/** The merged sample file's text, read once (the records' `xml` strings are slices of it). */
function merged(): string {
  return (mergedText ??= readText(MERGED_FILE));
}

let pubmedQa: Record<string, PubmedQaInstance> | null = null;
function pubmedQaInstances(): Record<string, PubmedQaInstance> {
  return (pubmedQa ??= JSON.parse(readText(PUBMEDQA_FILE)) as Record<string, PubmedQaInstance>);
}

/**
 * The PMIDs of the PubMedQA set the stand-in holds: the 1,000 instances' PMIDs minus any a sample file holds.
 * Filled at import (reads the sample files and PubMedQA's: about 0.15 s); `loadStandInRecords` is the rest.
 */
export const PUBMEDQA_PMIDS: Set<number> = (() => {
  const sample = otherSamplePmids();
  for (const m of merged().matchAll(/<MedlineCitation\b[^>]*>\s*<PMID\b[^>]*>(\d+)<\/PMID>/g)) sample.add(Number(m[1]));
  return new Set(
    Object.keys(pubmedQaInstances())
      .map(Number)
      .filter((pmid) => !sample.has(pmid)),
  );
})();

/** XML 1.0 text escaping (also for attribute values), dropping characters XML 1.0 does not allow. */
export function escapeXml(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");
}

/**
 * NLM category of a structured-abstract label, approximating NLM's mapping of the labels authors use to its five
 * categories (https://www.nlm.nih.gov/bsd/policy/structured_abstracts.html): the category of the first keyword in
 * the label, except that a background that states an aim ("BACKGROUND AND AIMS") is OBJECTIVE, "MEASUREMENTS AND
 * MAIN RESULTS" is RESULTS and "MAIN OUTCOME MEASURES" is METHODS, as NLM files them; "UNLABELLED" and labels with no
 * keyword are UNASSIGNED.
 */
export function nlmCategory(label: string): string {
  const l = label.toUpperCase();
  if (l === "UNLABELLED") return "UNASSIGNED";
  if (/\b(OBJECTIVES?|AIMS?|PURPOSES?|GOALS?|HYPOTHES[IE]S)\b/.test(l)) return "OBJECTIVE";
  if (/MEASURE\w*\s+AND\s+(MAIN\s+)?RESULTS/.test(l)) return "RESULTS";
  if (/OUTCOMES?\s+MEASURE/.test(l)) return "METHODS";
  const keywords: [RegExp, string][] = [
    [/\b(BACKGROUND|INTRODUCTION|CONTEXT|RATIONALE)/, "BACKGROUND"],
    [/\bOBJECT/, "OBJECTIVE"],
    [
      /\b(METHOD|DESIGN|SETTING|PATIENT|PARTICIPANT|SUBJECT|MATERIAL|INTERVENTION|MEASURE|POPULATION|DATA|STUDY SELECTION|CASE|SAMPLE|PROCEDURE)/,
      "METHODS",
    ],
    [/\b(RESULT|FINDING|OUTCOME)/, "RESULTS"],
    [/\b(CONCLU|DISCUSSION|INTERPRETATION|IMPLICATION|LIMITATION)/, "CONCLUSIONS"],
  ];
  let best: { at: number; category: string } | null = null;
  for (const [re, category] of keywords) {
    const m = re.exec(l);
    if (m && (best === null || m.index < best.at)) best = { at: m.index, category };
  }
  return best?.category ?? "UNASSIGNED";
}

/**
 * One PubMedQA instance as the PubmedArticle element efetch would send for its PMID (PubMed DTD element names and
 * nesting; cf. the records of the merged sample). What is real and what is filled in:
 * - PMID (Version="1") and ArticleIdList's pubmed id: real.
 * - ArticleTitle: PubMedQA's QUESTION. PubMedQA derived each question from the article's title (a title that is a
 *   question is kept as it is, others are rephrased as one), and the dataset does not ship the title itself, so the
 *   question stands in for it.
 * - Abstract: the CONTEXTS as AbstractText sections with their LABELS (Label as given, NlmCategory by `nlmCategory`),
 *   then LONG_ANSWER — the abstract's conclusion, which PubMedQA holds apart — as Label="CONCLUSIONS".
 * - MeshHeadingList: MESHES, descriptors only, all MajorTopicYN="N" (PubMedQA does not say which are major).
 * - JournalIssue/PubDate/Year: YEAR; an empty PubDate for the 58 instances without a year. No journal title, ISSN,
 *   volume or pages, no authors: PubMedQA does not give them.
 * - Language "eng" and PublicationType "Journal Article": filled in (both lists are required by the DTD; the texts are
 *   English and PubMedQA's sources are journal articles).
 * - PubmedData/History/PubMedPubDate[@PubStatus="entrez"]: SYNTHETIC, January 1 of YEAR (the real Entrez date is
 *   not in the dataset); none without a year.
 */
export function renderPubmedQaXml(pmid: number, x: PubmedQaInstance): string {
  const year = x.YEAR && /^\d{4}$/.test(x.YEAR.trim()) ? x.YEAR.trim() : null;
  const sections = x.CONTEXTS.map((text, i) => {
    const label = x.LABELS[i] ?? "";
    return label
      ? `        <AbstractText Label="${escapeXml(label)}" NlmCategory="${nlmCategory(label)}">${escapeXml(text)}</AbstractText>`
      : `        <AbstractText>${escapeXml(text)}</AbstractText>`;
  });
  if (x.LONG_ANSWER)
    sections.push(
      `        <AbstractText Label="CONCLUSIONS" NlmCategory="CONCLUSIONS">${escapeXml(x.LONG_ANSWER)}</AbstractText>`,
    );
  const mesh = (x.MESHES ?? []).map(
    (m) =>
      `      <MeshHeading>\n        <DescriptorName MajorTopicYN="N">${escapeXml(m)}</DescriptorName>\n      </MeshHeading>`,
  );
  return [
    `<PubmedArticle>`,
    `  <MedlineCitation Status="MEDLINE" Owner="NLM">`,
    `    <PMID Version="1">${pmid}</PMID>`,
    `    <Article PubModel="Print">`,
    `      <Journal>`,
    `        <JournalIssue CitedMedium="Print">`,
    year
      ? `          <PubDate>\n            <Year>${year}</Year>\n          </PubDate>`
      : `          <PubDate></PubDate>`,
    `        </JournalIssue>`,
    `      </Journal>`,
    `      <ArticleTitle>${escapeXml(x.QUESTION)}</ArticleTitle>`,
    ...(sections.length ? [`      <Abstract>`, ...sections, `      </Abstract>`] : []),
    `      <Language>eng</Language>`,
    `      <PublicationTypeList>`,
    `        <PublicationType UI="D016428">Journal Article</PublicationType>`,
    `      </PublicationTypeList>`,
    `    </Article>`,
    ...(mesh.length ? [`    <MeshHeadingList>`, ...mesh, `    </MeshHeadingList>`] : []),
    `  </MedlineCitation>`,
    `  <PubmedData>`,
    ...(year
      ? [
          `    <History>`,
          `      <PubMedPubDate PubStatus="entrez">\n        <Year>${year}</Year>\n        <Month>1</Month>\n        <Day>1</Day>\n      </PubMedPubDate>`,
          `    </History>`,
        ]
      : []),
    `    <PublicationStatus>ppublish</PublicationStatus>`,
    `    <ArticleIdList>`,
    `      <ArticleId IdType="pubmed">${pmid}</ArticleId>`,
    `    </ArticleIdList>`,
    `  </PubmedData>`,
    `</PubmedArticle>`,
  ].join("\n");
}

/**
 * Parses one PubmedArticle element.
 * @throws Error when the parser does not read exactly one article from it (a bug in the rendering or the split).
 */
export function parseOne(xml: string, what: string): ParsedArticle {
  const events = parsePubmedXml(xml, what);
  const first = events[0];
  if (events.length !== 1 || first?.type !== "article") {
    throw new Error(
      `${what}: expected one article, got ${events.map((e) => (e.type === "error" ? e.message : e.type)).join("; ") || "nothing"}`,
    );
  }
  return first.article;
}

/** The PubmedArticle elements of a PubmedArticleSet text, each as written in the file. */
function splitArticles(text: string): string[] {
  const out: string[] = [];
  const open = "<PubmedArticle>";
  const close = "</PubmedArticle>";
  for (let from = 0; ; ) {
    const start = text.indexOf(open, from);
    if (start < 0) break;
    const end = text.indexOf(close, start);
    if (end < 0) throw new Error(`${MERGED_FILE}: unclosed PubmedArticle at ${start}`);
    out.push(text.slice(start, end + close.length));
    from = end + close.length;
  }
  return out;
}

let cache: StandInRecord[] | null = null;

/**
 * Where parsed articles are kept between processes: parsing the 3,098 elements costs ~0.6 s, reading them back as
 * JSON ~0.05 s. The file name is a SHA-1 of everything the articles depend on — the two data files, the parser and its
 * mapping (search/pubmed/parser.ts, every file of search/pubmed/parser/, mapping.ts), the versions of the parser's
 * tokenizer libraries, this module and the Bun version — so a change to any of them parses afresh; a file that cannot
 * be read or does not fit is ignored. Set LITREVIEW_STANDIN_CACHE=off to always parse. Writing a new file removes the
 * older ones.
 */
function articleCachePath(): string | null {
  if (process.env.LITREVIEW_STANDIN_CACHE === "off") return null;
  const root = join(import.meta.dir, "..", "..");
  const hasher = new Bun.CryptoHasher("sha1");
  hasher.update(Bun.version);
  for (const file of [
    MERGED_FILE,
    PUBMEDQA_FILE,
    import.meta.path,
    join(root, "search", "pubmed", "parser.ts"),
    ...readdirSync(join(root, "search", "pubmed", "parser"))
      .sort()
      .map((name) => join(root, "search", "pubmed", "parser", name)),
    join(root, "search", "pubmed", "mapping.ts"),
    join(root, "node_modules", "htmlparser2", "package.json"),
    join(root, "node_modules", "entities", "package.json"),
  ]) {
    hasher.update(existsSync(file) ? readFileSync(file) : file);
  }
  return join(tmpdir(), `litreview-standin-articles-${hasher.digest("hex")}.json`);
}

function readArticleCache(path: string | null, pmids: number[]): ParsedArticle[] | null {
  if (!path || !existsSync(path)) return null;
  try {
    const articles = JSON.parse(readFileSync(path, "utf8")) as ParsedArticle[];
    return Array.isArray(articles) && articles.length === pmids.length && articles.every((a, i) => a?.pmid === pmids[i])
      ? articles
      : null;
  } catch {
    return null;
  }
}

function writeArticleCache(path: string | null, articles: ParsedArticle[]): void {
  if (!path) return;
  try {
    // Written aside then renamed: a concurrent reader sees the whole file or none.
    const partial = `${path}.${process.pid}.partial`;
    writeFileSync(partial, JSON.stringify(articles));
    renameSync(partial, path);
    // Earlier versions' files (another parser, another sample) are of no more use.
    const dir = dirname(path);
    for (const name of readdirSync(dir)) {
      if (/^litreview-standin-articles-[0-9a-f]{40}\.json$/.test(name) && join(dir, name) !== path)
        rmSync(join(dir, name), { force: true });
    }
  } catch {
    // A cache that cannot be written only costs the next process the parse.
  }
}

/**
 * Every record the stand-in holds: the merged sample's 2,098 (file order), then the PubMedQA set (PMID order).
 * Cached in the process (later calls return the same array: do not mutate it, copy a record to change it) and its
 * parsed articles across processes (see `articleCachePath`). About 0.2 s with the file cache, 0.8 s without.
 * @throws Error when a record does not parse as exactly one article.
 */
export function loadStandInRecords(): StandInRecord[] {
  if (cache) return cache;
  const elements: { pmid: number; xml: string; what: string }[] = [];
  for (const xml of splitArticles(merged())) {
    const pmid = /<PMID\b[^>]*>(\d+)<\/PMID>/.exec(xml)?.[1];
    elements.push({ pmid: Number(pmid), xml, what: `merged-pubmedarticleset.xml.gz PMID ${pmid}` });
  }
  const qa = pubmedQaInstances();
  for (const pmid of [...PUBMEDQA_PMIDS].sort((a, b) => a - b)) {
    elements.push({ pmid, xml: renderPubmedQaXml(pmid, qa[String(pmid)]!), what: `PubMedQA ${pmid}` });
  }
  const cachePath = articleCachePath();
  let articles = readArticleCache(
    cachePath,
    elements.map((e) => e.pmid),
  );
  if (!articles) {
    articles = elements.map((e) => parseOne(e.xml, e.what));
    writeArticleCache(cachePath, articles);
  }
  cache = elements.map((e, i) => ({ pmid: articles[i]!.pmid, xml: e.xml, article: articles[i]! }));
  return cache;
}

/**
 * A copy of a record with its Entrez date replaced (the History's entrez PubMedPubDate; one is added when the record
 * has none), re-parsed: for tests that need records "added to PubMed this week".
 * @param date ISO YYYY-MM-DD.
 */
export function withEntrezDate(record: StandInRecord, date: string): StandInRecord {
  const [y, m, d] = date.split("-");
  const entrez = `<PubMedPubDate PubStatus="entrez"><Year>${y}</Year><Month>${Number(m)}</Month><Day>${Number(d)}</Day></PubMedPubDate>`;
  let xml = record.xml.replace(/<PubMedPubDate PubStatus="entrez">[\s\S]*?<\/PubMedPubDate>/, entrez);
  if (xml === record.xml && !xml.includes(entrez)) {
    if (/<History>/.test(xml)) xml = xml.replace(/<History>/, `<History>${entrez}`);
    else if (/<PubmedData>/.test(xml)) xml = xml.replace(/<PubmedData>/, `<PubmedData><History>${entrez}</History>`);
    else
      xml = xml.replace(/<\/PubmedArticle>$/, `<PubmedData><History>${entrez}</History></PubmedData></PubmedArticle>`);
  }
  return { pmid: record.pmid, xml, article: parseOne(xml, `PMID ${record.pmid}`) };
}
