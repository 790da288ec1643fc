/**
 * Writes a synthetic PubMed-baseline-like corpus for the ingest benchmarks:
 *
 *   bun scripts/bench/generate-corpus.ts N [--seed 1] [--first-pmid 90000000] [--out bench-data/pubmed-N.xml.gz]
 *
 * N is the number of records (30000, 100000, 1000000 are the benchmark sizes). The output is a gzipped
 * PubmedArticleSet written as a stream (memory does not grow with N). bench-data/ is git-ignored.
 *
 * The corpus is SYNTHETIC, derived from the real sample in sample/pubmed/:
 * - PMIDs are new: 90,000,000 + i (or --first-pmid + i), so they never collide with real ones; DOIs use the 10.5555
 *   test prefix;
 *   about a quarter of the records get a made-up PMC id.
 * - Titles are real titles of the sample, re-sampled. Abstracts are recombined from real sentences: the section
 *   structure (labels, NlmCategory, sentences per section) of a random real abstract, each section filled with
 *   random real sentences of the same NlmCategory. About one record in seven has no abstract, as in the sample.
 * - Journal (with its real PubDate: Year/Month, Season or MedlineDate), author list (names, affiliations, ORCIDs),
 *   publication types, MeSH headings, keywords, chemicals, grants, history and reference lists are real XML
 *   fragments of the sample, each re-sampled from a different record.
 * - Records average about 12 KB of XML, like a recent baseline file: reference lists are added until the running
 *   average reaches that size.
 * Deterministic: the same N and seed give the same bytes (a seeded PRNG; sample files read in name order).
 */
import { createWriteStream, mkdirSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { parseArgs } from "node:util";
import { createGzip } from "node:zlib";
import { once } from "node:events";
import { Parser } from "htmlparser2";
import { parsePubmedFile } from "../../search/pubmed/parser.ts";

const ROOT = join(import.meta.dir, "..", "..");
const SAMPLE_DIR = join(ROOT, "sample", "pubmed");
/** First PMID of the synthetic records; real PMIDs are below 41 million today. */
const FIRST_PMID = 90_000_000;
const FIRST_PMC = 20_000_000;
/** Target mean record size in bytes of XML: the ~12 KB per record asked of a baseline-like benchmark file. */
const TARGET_RECORD_BYTES = 12_000;
/** Records per write to the gzip stream. */
const WRITE_BATCH = 200;

/** Small, fast, seedable PRNG (mulberry32, public domain, by Tommy Ettinger). Returns floats in [0, 1). */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Raw XML fragments of the sample, by element name. */
interface FragmentPools {
  Journal: string[];
  AuthorList: string[];
  PublicationTypeList: string[];
  MeshHeadingList: string[];
  KeywordList: string[];
  ChemicalList: string[];
  GrantList: string[];
  MedlineJournalInfo: string[];
  History: string[];
  ReferenceList: string[];
}

type PoolName = keyof FragmentPools;

/** Where each fragment is taken from: its parent element (so that e.g. a book's editor list is not taken). */
const FRAGMENT_PARENTS: Record<PoolName, string> = {
  Journal: "Article",
  AuthorList: "Article",
  PublicationTypeList: "Article",
  MeshHeadingList: "MedlineCitation",
  KeywordList: "MedlineCitation",
  ChemicalList: "MedlineCitation",
  GrantList: "Article",
  MedlineJournalInfo: "MedlineCitation",
  History: "PubmedData",
  ReferenceList: "PubmedData",
};

/** XML-escapes text for element content. */
function escapeXml(text: string): string {
  return text.replace(/[&<>]/g, (c) => (c === "&" ? "&amp;" : c === "<" ? "&lt;" : "&gt;"));
}

function escapeAttr(text: string): string {
  return escapeXml(text).replace(/"/g, "&quot;");
}

/**
 * Collects the raw XML of the wanted elements from one document. The tokenizing is htmlparser2's; its
 * startIndex/endIndex give each element's exact span in the source.
 */
function collectFragments(xml: string, pools: FragmentPools): void {
  const stack: string[] = [];
  const open = new Map<string, number>();
  let inBook = false;
  const parser = new Parser(
    {
      onopentag(name) {
        if (name === "PubmedBookArticle") inBook = true;
        const parent = stack[stack.length - 1];
        stack.push(name);
        if (!inBook && name in FRAGMENT_PARENTS && FRAGMENT_PARENTS[name as PoolName] === parent && !open.has(name)) {
          open.set(name, parser.startIndex);
        }
      },
      onclosetag(name) {
        stack.pop();
        if (name === "PubmedBookArticle") inBook = false;
        const start = open.get(name);
        if (start !== undefined && !stack.includes(name)) {
          pools[name as PoolName].push(xml.slice(start, parser.endIndex + 1));
          open.delete(name);
        }
      },
    },
    { xmlMode: true },
  );
  parser.end(xml);
}

interface SectionShape {
  label: string;
  category: string | null;
  sentences: number;
}

interface TextPools {
  titles: string[];
  /** Real sentences by NlmCategory ("" for unlabelled sections). */
  sentences: Map<string, string[]>;
  /** Section structure of each real abstract; an empty list stands for a record without an abstract. */
  shapes: SectionShape[][];
}

async function loadSample(): Promise<{ fragments: FragmentPools; text: TextPools; records: number }> {
  const files = readdirSync(SAMPLE_DIR)
    .filter((f) => f.endsWith(".xml.gz") || f.endsWith(".xml"))
    .sort()
    .map((f) => join(SAMPLE_DIR, f));
  const fragments: FragmentPools = {
    Journal: [],
    AuthorList: [],
    PublicationTypeList: [],
    MeshHeadingList: [],
    KeywordList: [],
    ChemicalList: [],
    GrantList: [],
    MedlineJournalInfo: [],
    History: [],
    ReferenceList: [],
  };
  const text: TextPools = { titles: [], sentences: new Map(), shapes: [] };
  const segmenter = new Intl.Segmenter("en", { granularity: "sentence" });
  const seen = new Set<number>();
  for (const file of files) {
    const bytes = await Bun.file(file).bytes();
    const xml = new TextDecoder().decode(file.endsWith(".gz") ? Bun.gunzipSync(bytes) : bytes);
    collectFragments(xml, fragments);
    for await (const event of parsePubmedFile(file)) {
      if (event.type !== "article" || event.article.journal === null || seen.has(event.article.pmid)) continue;
      const a = event.article;
      seen.add(a.pmid);
      if (a.title) text.titles.push(a.title);
      const shape: SectionShape[] = [];
      for (const section of a.abstract_sections) {
        const sentences = [...segmenter.segment(section.text)]
          .map((s) => s.segment.trim())
          .filter((s) => s.length > 20);
        if (sentences.length === 0) continue;
        const key = section.nlm_category ?? "";
        let pool = text.sentences.get(key);
        if (!pool) text.sentences.set(key, (pool = []));
        pool.push(...sentences);
        shape.push({ label: section.label, category: section.nlm_category, sentences: sentences.length });
      }
      text.shapes.push(shape);
    }
  }
  return { fragments, text, records: seen.size };
}

/**
 * Builds records one at a time from the pools.
 */
class RecordMaker {
  private bytes = 0;
  private made = 0;

  constructor(
    private readonly rand: () => number,
    private readonly fragments: FragmentPools,
    private readonly text: TextPools,
    private readonly firstPmid = FIRST_PMID,
  ) {}

  private pick<T>(list: T[]): T {
    return list[Math.floor(this.rand() * list.length)]!;
  }

  private maybe(pool: PoolName, probability: number): string {
    return this.fragments[pool].length && this.rand() < probability ? this.pick(this.fragments[pool]) : "";
  }

  private abstract(): string {
    const shape = this.pick(this.text.shapes);
    if (shape.length === 0) return "";
    const unlabelled = this.text.sentences.get("") ?? [];
    const sections = shape.map((s) => {
      const pool = this.text.sentences.get(s.category ?? "") ?? unlabelled;
      const sentences: string[] = [];
      for (let i = 0; i < s.sentences; i++) sentences.push(this.pick(pool.length ? pool : unlabelled));
      const attrs = s.label ? ` Label="${escapeAttr(s.label)}"${s.category ? ` NlmCategory="${s.category}"` : ""}` : "";
      return `        <AbstractText${attrs}>${escapeXml(sentences.join(" "))}</AbstractText>`;
    });
    return `      <Abstract>\n${sections.join("\n")}\n      </Abstract>\n`;
  }

  /** One PubmedArticle element with PMID `pmid`, as XML text. */
  make(index: number): string {
    const pmid = this.firstPmid + index;
    const doi = `10.5555/synthetic.${pmid}`;
    const pmc = this.rand() < 0.25 ? `PMC${FIRST_PMC + (pmid - FIRST_PMID)}` : null;
    const year = 1950 + Math.floor(this.rand() * 75);
    const completed = `<DateCompleted><Year>${year}</Year><Month>${String(1 + Math.floor(this.rand() * 12)).padStart(2, "0")}</Month><Day>${String(1 + Math.floor(this.rand() * 28)).padStart(2, "0")}</Day></DateCompleted>`;
    // Below the running target, a reference list is added: records come out at ~TARGET_RECORD_BYTES on average,
    // with the wide spread of sizes of real files (from 1 KB citations to 60 KB records).
    const wantReferences = this.bytes < this.made * TARGET_RECORD_BYTES;
    const references =
      wantReferences && this.fragments.ReferenceList.length ? this.pick(this.fragments.ReferenceList) : "";
    const xml =
      `<PubmedArticle>\n` +
      `    <MedlineCitation Status="MEDLINE" Owner="NLM">\n` +
      `      <PMID Version="1">${pmid}</PMID>\n` +
      `      ${completed}\n` +
      `      <Article PubModel="Print-Electronic">\n` +
      `      ${this.pick(this.fragments.Journal)}\n` +
      `      <ArticleTitle>${escapeXml(this.pick(this.text.titles))}</ArticleTitle>\n` +
      `      <Pagination><MedlinePgn>${1 + Math.floor(this.rand() * 900)}-${1000 + Math.floor(this.rand() * 50)}</MedlinePgn></Pagination>\n` +
      `      <ELocationID EIdType="doi" ValidYN="Y">${doi}</ELocationID>\n` +
      this.abstract() +
      `      ${this.maybe("AuthorList", 0.95)}\n` +
      `      <Language>eng</Language>\n` +
      `      ${this.maybe("GrantList", 0.2)}\n` +
      `      ${this.maybe("PublicationTypeList", 1)}\n` +
      `      </Article>\n` +
      `      ${this.maybe("MedlineJournalInfo", 1)}\n` +
      `      ${this.maybe("ChemicalList", 0.5)}\n` +
      `      <CitationSubset>IM</CitationSubset>\n` +
      `      ${this.maybe("MeshHeadingList", 0.9)}\n` +
      `      ${this.maybe("KeywordList", 0.3)}\n` +
      `    </MedlineCitation>\n` +
      `    <PubmedData>\n` +
      `      ${this.maybe("History", 1)}\n` +
      `      <PublicationStatus>ppublish</PublicationStatus>\n` +
      `      <ArticleIdList>\n` +
      `        <ArticleId IdType="pubmed">${pmid}</ArticleId>\n` +
      `        <ArticleId IdType="doi">${doi}</ArticleId>\n` +
      (pmc ? `        <ArticleId IdType="pmc">${pmc}</ArticleId>\n` : "") +
      `      </ArticleIdList>\n` +
      (references ? `      ${references}\n` : "") +
      `    </PubmedData>\n` +
      `</PubmedArticle>\n`;
    this.made++;
    this.bytes += Buffer.byteLength(xml);
    return xml;
  }

  /** Mean record size so far, bytes. */
  get meanBytes(): number {
    return this.made ? this.bytes / this.made : 0;
  }
}

/**
 * Generates `count` records into `out` (gzip), PMIDs from `firstPmid` on.
 * @returns bytes of XML written (before compression) and seconds taken.
 */
export async function generateCorpus(
  count: number,
  out: string,
  seed = 1,
  firstPmid = FIRST_PMID,
): Promise<{ xmlBytes: number; seconds: number; meanRecordBytes: number }> {
  const started = performance.now();
  const { fragments, text } = await loadSample();
  const maker = new RecordMaker(mulberry32(seed), fragments, text, firstPmid);
  mkdirSync(dirname(out), { recursive: true });
  const gzip = createGzip({ level: 6 });
  const file = createWriteStream(out);
  gzip.pipe(file);
  const fileDone = once(file, "finish");
  let xmlBytes = 0;
  const write = async (chunk: string) => {
    xmlBytes += Buffer.byteLength(chunk);
    // Back-pressure: wait for the compressor when its buffer is full, so memory stays flat.
    if (!gzip.write(chunk)) await once(gzip, "drain");
  };
  await write(
    `<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE PubmedArticleSet PUBLIC "-//NLM//DTD PubMedArticle, 1st January 2025//EN" "https://dtd.nlm.nih.gov/ncbi/pubmed/out/pubmed_250101.dtd">\n<PubmedArticleSet>\n`,
  );
  for (let i = 0; i < count; i += WRITE_BATCH) {
    let chunk = "";
    for (let j = i; j < Math.min(count, i + WRITE_BATCH); j++) chunk += maker.make(j);
    await write(chunk);
    if (i % 50_000 === 0 && i > 0) console.error(`  ${i} records…`);
  }
  await write(`</PubmedArticleSet>\n`);
  gzip.end();
  await fileDone;
  return { xmlBytes, seconds: (performance.now() - started) / 1000, meanRecordBytes: maker.meanBytes };
}

if (import.meta.main) {
  const { values, positionals } = parseArgs({
    args: process.argv.slice(2),
    options: {
      seed: { type: "string", default: "1" },
      "first-pmid": { type: "string", default: String(FIRST_PMID) },
      out: { type: "string" },
    },
    allowPositionals: true,
  });
  const count = Number(positionals[0] ?? "30000");
  const firstPmid = Number(values["first-pmid"]);
  if (!Number.isInteger(count) || count < 1 || !Number.isInteger(firstPmid) || firstPmid < 1) {
    console.error(
      "usage: bun scripts/bench/generate-corpus.ts N [--seed 1] [--first-pmid 90000000] [--out FILE.xml.gz]",
    );
    process.exit(2);
  }
  const out = values.out ?? join(ROOT, "bench-data", `pubmed-${count}.xml.gz`);
  const r = await generateCorpus(count, out, Number(values.seed), firstPmid);
  const size = Bun.file(out).size;
  console.log(
    `${out}: ${count} synthetic records, ${(r.xmlBytes / 1e6).toFixed(0)} MB of XML (${(r.meanRecordBytes / 1000).toFixed(1)} KB/record), ` +
      `${(size / 1e6).toFixed(0)} MB gzipped, in ${r.seconds.toFixed(1)} s`,
  );
}
