import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseMedlineDate, resolveDate, emptyRawDate, formatAuthors, normalizeDoi, normalizeOrcid } from "./mapping.ts";
import {
  parsePubmedFile,
  parsePubmedStream,
  parsePubmedXml,
  PubmedFileError,
  type ParseEvent,
  type ParsedArticle,
} from "./parser.ts";

const SAMPLE = join(import.meta.dir, "..", "..", "sample", "pubmed");
const FIXTURES = join(import.meta.dir, "fixtures");

async function collect(iterable: AsyncIterable<ParseEvent>): Promise<ParseEvent[]> {
  const events: ParseEvent[] = [];
  for await (const e of iterable) events.push(e);
  return events;
}

function articles(events: ParseEvent[]): ParsedArticle[] {
  return events.flatMap((e) => (e.type === "article" ? [e.article] : []));
}

function byPmid(events: ParseEvent[]): Map<number, ParsedArticle> {
  return new Map(articles(events).map((a) => [a.pmid, a]));
}

function errors(events: ParseEvent[]) {
  return events.flatMap((e) => (e.type === "error" ? [e] : []));
}

describe("real PubMed files", () => {
  test("merged PubmedArticleSet: every record, fields mapped as PubMed shows them", async () => {
    const events = await collect(parsePubmedFile(join(SAMPLE, "merged-pubmedarticleset.xml.gz")));
    const all = articles(events);
    expect(all.length).toBe(2098);
    expect(errors(events)).toEqual([]);
    expect(new Set(all.map((a) => a.pmid)).size).toBe(2098);
    // About 1,810 of the 2,098 have an abstract (shared data README).
    expect(all.filter((a) => a.abstract).length).toBe(1810);

    const one = byPmid(events).get(1)!;
    expect(one.title).toBe("Formate assay in body fluids: application in methanol poisoning.");
    expect(one.authors).toBe("Makar AB, McMartin KE, Palese M, Tephly TR");
    expect(one.journal).toBe("Biochemical medicine");
    expect(one.publication_date).toBe("1975-06-01");
    expect(one.publication_year).toBe(1975);
    expect(one.doi).toBe("10.1016/0006-2944(75)90147-7");
    expect(one.language).toBe("eng");
    expect(one.mesh_terms).toContain("Methanol");
    expect(one.abstract).toBeNull();
    expect(one.full_text_link).toBeNull();

    const structured = byPmid(events).get(15197627)!;
    expect(structured.abstract_sections.map((s) => s.label)).toEqual([
      "BACKGROUND",
      "METHODS",
      "RESULTS",
      "CONCLUSIONS",
    ]);
    expect(structured.abstract!.startsWith("BACKGROUND: Previous studies have shown Graf ligament")).toBe(true);
    expect(structured.abstract!.split("\n")).toHaveLength(4);
    expect(structured.pmc_id).toBe("PMC3454056");
    expect(structured.full_text_link).toBe("https://www.ncbi.nlm.nih.gov/pmc/articles/PMC3454056/");
    expect(structured.pdf_free_link).toBe("https://www.ncbi.nlm.nih.gov/pmc/articles/PMC3454056/pdf/");
    expect(structured.doi).toBe("10.1007/s00586-004-0702-8");
    expect(structured.publication_date).toBe("2004-12-01");

    const czech = byPmid(events).get(2731256)!;
    expect(czech.title).toBe("[Non-differentiated carcinoma of the nasopharynx in children].");
    expect(czech.authors).toBe("Síbl O, Veselý J, Ivasková E, Suchánková A");
    expect(czech.language).toBe("cze");
  });

  test("no full-text link is ever a DOI resolver link", async () => {
    const all = articles(await collect(parsePubmedFile(join(SAMPLE, "merged-pubmedarticleset.xml.gz"))));
    for (const a of all) {
      if (a.full_text_link !== null) expect(a.full_text_link).toStartWith("https://www.ncbi.nlm.nih.gov/");
      expect(a.pdf_free_link === null).toBe(a.pmc_id === null);
    }
  });

  test("MedlineCitationSet (NLM 2014 sample): records, DeleteCitation, group authors, MedlineDate, translated titles", async () => {
    const events = await collect(parsePubmedFile(join(SAMPLE, "medlinecitationset_nlm_medsamp2014.xml.gz")));
    expect(articles(events)).toHaveLength(161);
    expect(errors(events)).toEqual([]);
    const deletes = events.filter((e) => e.type === "delete");
    expect(deletes).toEqual([
      {
        type: "delete",
        pmids: [23203860, 23203861, 23203892, 23203893, 23203894, 23203895, 23203896],
        recordIndex: 162,
      },
    ]);
    const map = byPmid(events);
    expect(map.get(11237011)!.authors).toContain("International Human Genome Sequencing Consortium");
    expect(map.get(11243089)!.publication_date).toBe("1999-01-01"); // MedlineDate "1999 Jan-Mar"
    expect(map.get(11885531)!.title).toBe("[Microbiological diagnostics in periodontal treatment].");
    expect(map.get(11858625)!.authors).toBeNull(); // no AuthorList
  });

  test("retracted articles carry their retraction notice's PMID (CommentsCorrections RetractionIn); others none", async () => {
    const map = byPmid(await collect(parsePubmedFile(join(SAMPLE, "medlinecitationset_nlm_medsamp2014.xml.gz"))));
    expect(map.get(11543891)!.retraction_notice_pmid).toBe(11600210);
    expect(map.get(8655018)!.retraction_notice_pmid).toBe(9867474);
    expect(map.get(8863847)!.retraction_notice_pmid).toBe(9499167);
    expect([...map.values()].filter((a) => a.retraction_notice_pmid !== null)).toHaveLength(3);
  });

  test("records under a non-standard root, with reference lists full of other DOIs", async () => {
    const events = await collect(parsePubmedFile(join(SAMPLE, "pubmedxml_seedtk_ncbi-utils_pubmed.xml.gz")));
    const all = articles(events);
    expect(all).toHaveLength(100);
    expect(errors(events)).toEqual([]);
    // Each record's DOI is its own: no two records share one, as they would if taken from cited references.
    const dois = all.map((a) => a.doi).filter((d) => d !== null);
    expect(dois.length).toBeGreaterThan(90);
    expect(new Set(dois).size).toBe(dois.length);
  });

  test("reference lists give the cited articles' PMIDs (checked against an independent XML reading of the file)", async () => {
    const map = byPmid(await collect(parsePubmedFile(join(SAMPLE, "pubmedxml_seedtk_ncbi-utils_pubmed.xml.gz"))));
    const refs = map.get(37777783)!.reference_pmids;
    expect(refs).toHaveLength(23);
    expect(refs.slice(0, 4)).toEqual([22032427, 31315808, 20531085, 35847073]);
    expect(refs.at(-1)).toBe(9674487);
    expect(map.get(37773075)!.reference_pmids).toHaveLength(34);
    const withReferences = [...map.values()].filter((a) => a.reference_pmids.length > 0);
    expect(withReferences).toHaveLength(67);
    // 3,488 pubmed ids in those lists, one of them "0", which is no PMID.
    expect(withReferences.reduce((n, a) => n + a.reference_pmids.length, 0)).toBe(3487);
  });

  test("Entrez dates and MeSH major topics (checked against an independent XML reading of every sample file)", async () => {
    const merged = byPmid(await collect(parsePubmedFile(join(SAMPLE, "merged-pubmedarticleset.xml.gz"))));
    // Among History's dates (pubmed, medline, entrez…) only the Entrez date counts, whatever its place.
    const staph = merged.get(8786835)!;
    expect(staph.entrez_date).toBe("1996-01-01");
    // "Methicillin Resistance" is major by its descriptor; the others by a qualifier ("Abscess/drug therapy*"), once
    // even with two major qualifiers; "Humans", "Male" and headings with only minor qualifiers are not.
    expect(staph.mesh_major_terms).toEqual([
      "Abscess",
      "Anti-Bacterial Agents",
      "Cervical Vertebrae",
      "Discitis",
      "Methicillin",
      "Methicillin Resistance",
      "Spinal Cord",
      "Staphylococcus aureus",
    ]);
    expect(merged.get(1)!.mesh_major_terms).toEqual(["Body Fluids", "Formates"]);
    // Entered PubMed in June, in a December issue: the two dates differ.
    expect(merged.get(15197627)!.entrez_date).toBe("2004-06-16");
    expect(merged.get(15197627)!.publication_date).toBe("2004-12-01");
    const all = [...merged.values()];
    expect(all.filter((a) => a.entrez_date !== null)).toHaveLength(2098);
    expect(all.filter((a) => a.mesh_major_terms.length > 0)).toHaveLength(1769);
    for (const a of all) for (const t of a.mesh_major_terms) expect(a.mesh_terms).toContain(t);

    // A book's History sits in PubmedBookData.
    const books = byPmid(
      await collect(parsePubmedFile(join(SAMPLE, "pubmedxml_solitude6060_fulltext_search_pubmed_result.xml.gz"))),
    );
    expect(books.get(29337475)!.entrez_date).toBe("2018-09-19");
    // MedlineCitationSet records have no PubmedData, so no Entrez date; their MeSH headings still mark major topics.
    const medline = [
      ...byPmid(await collect(parsePubmedFile(join(SAMPLE, "medlinecitationset_nlm_medsamp2014.xml.gz")))).values(),
    ];
    expect(medline.every((a) => a.entrez_date === null)).toBe(true);
    expect(medline.find((a) => a.pmid === 11237011)!.mesh_major_terms).toEqual([
      "Genome, Human",
      "Human Genome Project",
      "Sequence Analysis, DNA",
    ]);
    expect(medline.filter((a) => a.mesh_major_terms.length > 0)).toHaveLength(140);
  });

  test("PubmedArticle elements with no root element and no XML declaration", async () => {
    const events = await collect(parsePubmedFile(join(SAMPLE, "pubmedxml_piratevax_pubmed_result.xml.gz")));
    expect(articles(events)).toHaveLength(10);
    expect(errors(events)).toEqual([]);
  });

  test("books (PubmedBookArticle) are kept with their chapter title, no journal and a Bookshelf link", async () => {
    const events = await collect(
      parsePubmedFile(join(SAMPLE, "pubmedxml_solitude6060_fulltext_search_pubmed_result.xml.gz")),
    );
    expect(articles(events)).toHaveLength(214);
    const book = byPmid(events).get(29337475)!;
    expect(book.title).toBe("Childhood Nasopharyngeal Cancer Treatment (PDQ®): Patient Version");
    expect(book.journal).toBeNull();
    expect(book.authors).toBe("PDQ Pediatric Treatment Editorial Board");
    expect(book.publication_year).toBe(2002);
    expect(book.full_text_link).toBe("https://www.ncbi.nlm.nih.gov/books/NBK475822/");
    expect(book.abstract).toStartWith("This PDQ cancer information summary");
  });

  test("reading on a worker thread and on the calling thread give the same events", async () => {
    const file = join(SAMPLE, "medlinecitationset_titipata_medline16n0902.xml.gz");
    const inWorker = await collect(parsePubmedFile(file));
    const inline = await collect(parsePubmedFile(file, { readInWorker: false }));
    expect(articles(inWorker)).toHaveLength(604);
    expect(inline).toEqual(inWorker);
  });

  test("content hashes are stable across runs and differ between records", async () => {
    const file = join(SAMPLE, "pubmedxml_gkountouris_pubmed23n0001_TRUNCATED_repaired.xml.gz");
    const first = articles(await collect(parsePubmedFile(file)));
    const second = articles(await collect(parsePubmedFile(file)));
    expect(first).toHaveLength(266);
    expect(second.map((a) => a.content_hash)).toEqual(first.map((a) => a.content_hash));
    expect(new Set(first.map((a) => a.content_hash)).size).toBe(266);
    for (const a of first) expect(a.content_hash).toMatch(/^[0-9a-f]{40}$/);
  });
});

describe("hand-made edge cases", () => {
  let edge: Map<number, ParsedArticle>;
  beforeAll(async () => {
    edge = byPmid(await collect(parsePubmedFile(join(FIXTURES, "edge-cases.xml"))));
  });

  test("inline markup and MathML are flattened to their text; entities and non-ASCII survive", () => {
    const a = edge.get(900001)!;
    expect(a.title).toBe("Ca2+ signalling in Escherichia coli: α-helix ≥ 2 nm & Müller cells.");
    expect(a.abstract_sections[1]!.text).toBe("We measured x2 in cells, with p < 0.05.");
    expect(a.journal).toBe("Journal of Synthetic Examples & Tests");
  });

  test("structured abstract: labelled sections, NlmCategory kept, CopyrightInformation and OtherAbstract left out", () => {
    const a = edge.get(900001)!;
    expect(a.abstract_sections).toEqual([
      { label: "BACKGROUND", nlm_category: "BACKGROUND", text: "Calcium (Ca2+) matters in E. coli." },
      { label: "METHODS", nlm_category: "METHODS", text: "We measured x2 in cells, with p < 0.05." },
      { label: "RESULTS", nlm_category: "RESULTS", text: "Levels rose by 12% (95% CI, 8–16%)." },
      { label: "CONCLUSIONS", nlm_category: "CONCLUSIONS", text: "Signalling works." },
    ]);
    expect(a.abstract).toBe(
      "BACKGROUND: Calcium (Ca2+) matters in E. coli.\nMETHODS: We measured x2 in cells, with p < 0.05.\n" +
        "RESULTS: Levels rose by 12% (95% CI, 8–16%).\nCONCLUSIONS: Signalling works.",
    );
    expect(a.abstract).not.toContain("©");
    expect(a.abstract).not.toContain("Zusammenfassung");
  });

  test("unlabelled paragraphs are joined without labels", () => {
    const a = edge.get(900003)!;
    expect(a.abstract).toBe("First unlabelled paragraph.\nSecond paragraph with Cyrillic: Москва.");
    expect(a.abstract_sections[0]).toEqual({ label: "", nlm_category: null, text: "First unlabelled paragraph." });
  });

  test("authors: LastName Initials, suffix, initials from ForeName, group authors; invalid entries dropped", () => {
    expect(edge.get(900001)!.authors).toBe("Müller JA, Smith JP Jr, García-López MJ, SYNTH Study Group");
    expect(edge.get(900002)!.authors).toBeNull();
  });

  test("DOI: ELocationID first, then the record's ArticleIdList; never a reference's; ValidYN=N ignored", () => {
    expect(edge.get(900001)!.doi).toBe("10.1000/elocation.900001");
    expect(edge.get(900002)!.doi).toBe("10.1000/articleid.900002");
    expect(edge.get(900003)!.doi).toBeNull();
    expect(edge.get(900004)!.doi).toBeNull();
  });

  test("PMC id gives the PMC full-text and PDF links; a reference's PMC id does not count", () => {
    const a = edge.get(900001)!;
    expect(a.pmc_id).toBe("PMC7000001");
    expect(a.full_text_link).toBe("https://www.ncbi.nlm.nih.gov/pmc/articles/PMC7000001/");
    expect(a.pdf_free_link).toBe("https://www.ncbi.nlm.nih.gov/pmc/articles/PMC7000001/pdf/");
    expect(edge.get(900002)!.pmc_id).toBeNull();
    expect(edge.get(900002)!.full_text_link).toBeNull();
  });

  test("dates: Year/Month(abbr)/Day, MedlineDate across years, Season, ArticleDate fallback with an impossible day", () => {
    expect(edge.get(900001)!.publication_date).toBe("2021-03-15");
    expect(edge.get(900002)!.publication_date).toBe("1998-12-01");
    expect(edge.get(900002)!.publication_year).toBe(1998);
    expect(edge.get(900003)!.publication_date).toBe("2000-03-01");
    // Empty PubDate: falls back to ArticleDate; February 30th does not exist, so the first of the month.
    expect(edge.get(900004)!.publication_date).toBe("2022-02-01");
  });

  test("translated titles keep their brackets; CJK titles survive intact; lists are mapped", () => {
    expect(edge.get(900002)!.title).toBe("[Treatment of hypertension in the elderly].");
    expect(edge.get(900002)!.language).toBe("fre");
    expect(edge.get(900003)!.title).toBe("中文标题的翻译 (translated title).");
    const a = edge.get(900001)!;
    expect(a.mesh_terms).toEqual(["Calcium Signaling", "Escherichia coli"]);
    expect(a.keywords).toEqual(["calcium", "bacteria"]);
    expect(a.publication_types).toEqual(["Journal Article", "Randomized Controlled Trial"]);
  });

  test("a CommentsCorrections PMID does not replace the record's PMID", () => {
    expect(edge.has(900099)).toBe(false);
    expect([...edge.values()].every((a) => a.retraction_notice_pmid === null)).toBe(true); // a CommentIn is no retraction
    expect([...edge.keys()]).toEqual([900001, 900002, 900003, 900004]);
  });

  test("reference PMIDs: nested lists read, repeats, the record's own PMID and ids of other kinds left out; hash unchanged without them", () => {
    const record = (
      refs: string,
    ) => `<PubmedArticleSet><PubmedArticle><MedlineCitation><PMID>920001</PMID><Article><ArticleTitle>Cited things.</ArticleTitle></Article></MedlineCitation>
      <PubmedData><ArticleIdList><ArticleId IdType="pubmed">920001</ArticleId><ArticleId IdType="doi">10.1/own</ArticleId></ArticleIdList>${refs}</PubmedData></PubmedArticle></PubmedArticleSet>`;
    const refs = `<ReferenceList><Title>References</Title>
      <Reference><Citation>Doe J. <i>A</i> paper. 2001.</Citation><ArticleIdList><ArticleId IdType="doi">10.1/a</ArticleId><ArticleId IdType="pubmed">111</ArticleId></ArticleIdList></Reference>
      <Reference><Citation>Only a DOI.</Citation><ArticleIdList><ArticleId IdType="doi">10.1/b</ArticleId></ArticleIdList></Reference>
      <Reference><Citation>Itself.</Citation><ArticleIdList><ArticleId IdType="pubmed">920001</ArticleId></ArticleIdList></Reference>
      <Reference><Citation>Again.</Citation><ArticleIdList><ArticleId IdType="pubmed"> 111 </ArticleId></ArticleIdList></Reference>
      <Reference><Citation>Broken.</Citation><ArticleIdList><ArticleId IdType="pubmed">n/a</ArticleId></ArticleIdList></Reference>
      <ReferenceList><Reference><Citation>Nested.</Citation><ArticleIdList><ArticleId IdType="pubmed">222</ArticleId></ArticleIdList></Reference></ReferenceList>
    </ReferenceList>`;
    const [withRefs] = articles(parsePubmedXml(record(refs)));
    expect(withRefs!.reference_pmids).toEqual([111, 222]);
    expect(withRefs!.doi).toBe("10.1/own"); // a reference's DOI is not the record's
    const [without] = articles(parsePubmedXml(record("")));
    expect(without!.reference_pmids).toEqual([]);
    expect(without!.content_hash).not.toBe(withRefs!.content_hash); // re-ingesting fills the references in
    // A record without references hashes as it did before reference lists were read (the value the previous parser
    // gave this record), so an existing corpus is not rewritten by its next ingest.
    expect(without!.content_hash).toBe("c1dea60bfc549ab8b14d65788e114fff9ceaaad9");
  });

  test("Entrez date and major topics: hand-made History and MeSH; the hash of a record with neither is unchanged", () => {
    const record = (
      history: string,
      mesh: string,
    ) => `<PubmedArticleSet><PubmedArticle><MedlineCitation><PMID>920101</PMID><Article><ArticleTitle>Minor topics only.</ArticleTitle></Article>
  <MeshHeadingList>${mesh}<MeshHeading><DescriptorName UI="D2" MajorTopicYN="N">Child</DescriptorName></MeshHeading></MeshHeadingList></MedlineCitation>
  <PubmedData><History><PubMedPubDate PubStatus="received"><Year>2020</Year><Month>1</Month><Day>2</Day></PubMedPubDate>${history}</History>
  <ArticleIdList><ArticleId IdType="pubmed">920101</ArticleId></ArticleIdList></PubmedData></PubmedArticle></PubmedArticleSet>`;
    const minor = `<MeshHeading><DescriptorName UI="D1" MajorTopicYN="N">Asthma</DescriptorName><QualifierName UI="Q1" MajorTopicYN="N">drug therapy</QualifierName></MeshHeading>`;
    const pubmed = `<PubMedPubDate PubStatus="pubmed"><Year>2020</Year><Month>2</Month><Day>3</Day><Hour>6</Hour><Minute>0</Minute></PubMedPubDate>`;
    const [neither] = articles(parsePubmedXml(record(pubmed, minor)));
    expect(neither!.entrez_date).toBeNull();
    expect(neither!.mesh_major_terms).toEqual([]);
    // The value the parser gave this record before it read Entrez dates and major topics: an existing corpus's
    // records without them are not rewritten by their next ingest.
    expect(neither!.content_hash).toBe("846707c2b36ebfba1d6c095ed345b4154636ec03");

    const entrez = `<PubMedPubDate PubStatus="entrez"><Year>2020</Year><Month>02</Month><Day>4</Day><Hour>6</Hour><Minute>0</Minute></PubMedPubDate>`;
    const [withEntrez] = articles(parsePubmedXml(record(pubmed + entrez, minor)));
    expect(withEntrez!.entrez_date).toBe("2020-02-04");
    const major = `<MeshHeading><DescriptorName UI="D1" MajorTopicYN="N">Asthma</DescriptorName><QualifierName UI="Q1" MajorTopicYN="Y">drug therapy</QualifierName><QualifierName UI="Q2" MajorTopicYN="Y">therapy</QualifierName></MeshHeading>`;
    const [withMajor] = articles(parsePubmedXml(record(pubmed, major)));
    expect(withMajor!.mesh_major_terms).toEqual(["Asthma"]);
    expect(withMajor!.entrez_date).toBeNull();
    const [both] = articles(parsePubmedXml(record(entrez, major)));
    // Each change shows in the hash, so re-ingesting fills the new columns in.
    expect(new Set([neither, withEntrez, withMajor, both].map((a) => a!.content_hash)).size).toBe(4);
  });

  test("byte-order mark at the start of the file", async () => {
    const events = await collect(parsePubmedFile(join(FIXTURES, "bom.xml")));
    expect(articles(events).map((a) => a.title)).toEqual(["A file that starts with a byte-order mark."]);
    // The same document given as a string with U+FEFF.
    const text = await Bun.file(join(FIXTURES, "bom.xml")).text();
    expect(articles(parsePubmedXml(`\uFEFF${text.replace(/^\uFEFF/, "")}`)).map((a) => a.pmid)).toEqual([910001]);
  });

  test("no root element, and a non-standard root", async () => {
    expect(articles(await collect(parsePubmedFile(join(FIXTURES, "no-root.xml")))).map((a) => a.pmid)).toEqual([
      920001, 920002,
    ]);
    expect(articles(await collect(parsePubmedFile(join(FIXTURES, "raw-data-root.xml")))).map((a) => a.pmid)).toEqual([
      930001,
    ]);
  });

  test("MedlineCitationSet: Season, DOI from ELocationID, PMC id from OtherID (not when embargoed), DeleteCitation", async () => {
    const events = await collect(parsePubmedFile(join(FIXTURES, "medline-citation-set.xml")));
    const map = byPmid(events);
    expect(map.get(940001)!.publication_date).toBe("1975-09-01");
    expect(map.get(940001)!.doi).toBe("10.1000/old.940001");
    expect(map.get(940001)!.pmc_id).toBe("PMC3000001");
    expect(map.get(940001)!.authors).toBe("Working Group on Examples");
    expect(map.get(940002)!.pmc_id).toBeNull();
    expect(events.at(-1)).toEqual({ type: "delete", pmids: [940003, 940004], recordIndex: 3 });
  });

  test("malformed records in the middle are reported with file, record number and PMID; the rest is parsed", async () => {
    const file = join(FIXTURES, "malformed-middle.xml");
    const events = await collect(parsePubmedFile(file));
    expect(articles(events).map((a) => a.pmid)).toEqual([950001, 950005]);
    const errs = errors(events);
    expect(errs.map((e) => [e.recordIndex, e.pmid])).toEqual([
      [2, 950002],
      [3, undefined],
      [4, 950004],
    ]);
    expect(errs[0]!.message).toBe(
      `${file}: record 2 (PMID 950002): unexpected closing tag </ArticleTitel> inside <ArticleTitle>`,
    );
    expect(errs[1]!.message).toBe(`${file}: record 3: no PMID`);
    expect(errs[2]!.message).toContain("record 4 (PMID 950004)");
    expect(errs[2]!.message).toContain("not closed");
  });

  test("damage inside a reference list (in a skipped citation text) still marks the record malformed", async () => {
    const file = join(FIXTURES, "malformed-in-references.xml");
    const events = await collect(parsePubmedFile(file));
    expect(errors(events).map((e) => [e.recordIndex, e.pmid])).toEqual([
      [1, 970001],
      [2, 970002],
    ]);
    expect(errors(events)[0]!.message).toBe(
      `${file}: record 1 (PMID 970001): <Citation> is not closed before </Reference>`,
    );
    // The record that starts inside the cut-off reference list is found, with its own DOI, not a reference's.
    expect(articles(events).map((a) => [a.pmid, a.doi])).toEqual([[970003, "10.1000/own.970003"]]);
  });

  test("a file cut off inside a record: the complete records, then an error for the cut one", async () => {
    const file = join(FIXTURES, "truncated.xml");
    const events = await collect(parsePubmedFile(file));
    expect(articles(events).map((a) => a.pmid)).toEqual([960001]);
    expect(errors(events)).toEqual([
      {
        type: "error",
        message: `${file}: record 2 (PMID 960002): the file ends inside this record (truncated file?)`,
        pmid: 960002,
        recordIndex: 2,
      },
    ]);
  });

  test("chunk boundaries anywhere (inside tags and inside multi-byte characters) change nothing", async () => {
    const bytes = await Bun.file(join(FIXTURES, "edge-cases.xml")).bytes();
    async function* pieces(size: number) {
      for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
    }
    const whole = await collect(parsePubmedStream(pieces(bytes.length), "edge-cases.xml"));
    for (const size of [1, 7, 64])
      expect(await collect(parsePubmedStream(pieces(size), "edge-cases.xml"))).toEqual(whole);
  });

  test("chunk boundaries in real records (History dates, MeSH attributes) change nothing", async () => {
    const gz = await Bun.file(join(SAMPLE, "pubmedxml_piratevax_pubmed_result.xml.gz")).bytes();
    const bytes = Bun.gunzipSync(gz);
    async function* pieces(size: number) {
      for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
    }
    const whole = await collect(parsePubmedStream(pieces(bytes.length), "piratevax"));
    expect(articles(whole).every((a) => a.entrez_date !== null && a.mesh_major_terms.length > 0)).toBe(true);
    for (const size of [1, 7, 64]) expect(await collect(parsePubmedStream(pieces(size), "piratevax"))).toEqual(whole);
  });
});

describe("files that cannot be read", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "pubmed-parser-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test("truncated .gz: the records before the cut, then an error naming the file", async () => {
    const gz = await Bun.file(join(SAMPLE, "pubmedxml_gkountouris_pubmed23n0001_TRUNCATED_repaired.xml.gz")).bytes();
    const file = join(dir, "cut.xml.gz");
    await Bun.write(file, gz.subarray(0, Math.floor(gz.length / 2)));
    const seen: ParseEvent[] = [];
    let failure: unknown;
    try {
      for await (const e of parsePubmedFile(file)) seen.push(e);
    } catch (error) {
      failure = error;
    }
    expect(failure).toBeInstanceOf(PubmedFileError);
    expect((failure as PubmedFileError).file).toBe(file);
    expect((failure as Error).message).toStartWith(`${file}: gzip data is corrupt or truncated`);
    expect(articles(seen).length).toBeGreaterThan(50);
    expect(articles(seen).length).toBeLessThan(266);
  });

  test("corrupt .gz: an error naming the file", async () => {
    const gz = await Bun.file(join(SAMPLE, "pubmedxml_piratevax_pubmed_result.xml.gz")).bytes();
    const bad = gz.slice();
    for (let i = 100; i < 400; i++) bad[i] = (bad[i]! * 31 + 7) & 0xff;
    const file = join(dir, "corrupt.xml.gz");
    await Bun.write(file, bad);
    await expect(collect(parsePubmedFile(file))).rejects.toThrow(`${file}: gzip data is corrupt or truncated`);
  });

  test("missing file and a file that is not PubMed XML", async () => {
    const missing = join(dir, "missing.xml");
    await expect(collect(parsePubmedFile(missing))).rejects.toThrow(`${missing}: cannot read: no such file`);
    const other = join(dir, "other.xml");
    await Bun.write(other, "<html><body>not pubmed</body></html>");
    await expect(collect(parsePubmedFile(other))).rejects.toThrow(`${other}: not PubMed XML (root element <html>`);
  });
});

describe("mapping rules", () => {
  const date = (parts: Partial<ReturnType<typeof emptyRawDate>>) => resolveDate({ ...emptyRawDate(), ...parts });

  test("MedlineDate forms met in PubMed", () => {
    expect(parseMedlineDate("1998 Dec-1999 Jan")).toEqual([1998, 12, null]);
    expect(parseMedlineDate("2000 Spring")).toEqual([2000, 3, null]);
    expect(parseMedlineDate("Winter 2016")).toEqual([2016, 12, null]);
    expect(parseMedlineDate("2019 Sep/Oct")).toEqual([2019, 9, null]);
    expect(parseMedlineDate("2017 Mar - Apr")).toEqual([2017, 3, null]);
    expect(parseMedlineDate("1976-1977")).toEqual([1976, null, null]);
    expect(parseMedlineDate("1983 Jul 1-15")).toEqual([1983, 7, 1]);
    expect(parseMedlineDate("undated")).toBeNull();
  });

  test("PubDate parts to ISO dates, with the precision the record states (never an invented day or month)", () => {
    expect(date({ year: "2004", month: "Dec" })).toEqual({ date: "2004-12-01", year: 2004, precision: "month" });
    expect(date({ year: "1975", month: "06", day: "5" })).toEqual({ date: "1975-06-05", year: 1975, precision: "day" });
    expect(date({ year: "2001", month: "7" })).toEqual({ date: "2001-07-01", year: 2001, precision: "month" });
    expect(date({ year: "2000", season: "Summer" })).toEqual({ date: "2000-06-01", year: 2000, precision: "month" });
    expect(date({ year: "2000", season: "Jan-Dec" })).toEqual({ date: "2000-01-01", year: 2000, precision: "month" });
    expect(date({ year: "2019" })).toEqual({ date: "2019-01-01", year: 2019, precision: "year" });
    expect(date({ year: "2020", month: "02", day: "29" })).toEqual({
      date: "2020-02-29",
      year: 2020,
      precision: "day",
    });
    expect(date({ year: "2019", month: "02", day: "29" })).toEqual({
      date: "2019-02-01",
      year: 2019,
      precision: "month",
    });
    expect(date({ year: "2019", month: "13" })).toEqual({ date: "2019-01-01", year: 2019, precision: "year" });
    expect(date({ medlineDate: "1975 Sep-Oct" })).toEqual({ date: "1975-09-01", year: 1975, precision: "month" });
    expect(date({ medlineDate: "1983 Jul 1-15" })).toEqual({ date: "1983-07-01", year: 1983, precision: "day" });
    expect(date({ medlineDate: "1976-1977" })).toEqual({ date: "1976-01-01", year: 1976, precision: "year" });
    expect(date({})).toBeNull();
  });

  test("author display string and DOI normalisation", () => {
    const person = {
      lastName: "Doe",
      foreName: "Jane",
      initials: "J",
      suffix: null,
      collectiveName: null,
      orcid: null,
      valid: true,
    };
    expect(formatAuthors([person])).toBe("Doe J");
    expect(formatAuthors([])).toBeNull();
    expect(formatAuthors(null)).toBeNull();
    expect(normalizeDoi("https://doi.org/10.1/abc")).toBe("10.1/abc");
    expect(normalizeDoi("doi: 10.1/abc")).toBe("10.1/abc");
    expect(normalizeDoi("S0000-0000(21)00001-1")).toBeNull();
  });
});

describe("citation fields (issue 20), on real records; values as their XML gives them", () => {
  let merged: Map<number, ParsedArticle>;
  let books: Map<number, ParsedArticle>;
  beforeAll(async () => {
    merged = byPmid(await collect(parsePubmedFile(join(SAMPLE, "merged-pubmedarticleset.xml.gz"))));
    books = byPmid(
      await collect(parsePubmedFile(join(SAMPLE, "pubmedxml_solitude6060_fulltext_search_pubmed_result.xml.gz"))),
    );
  });

  test("supplement issue, MEDLINE pages, both journal abbreviations, ISSN", () => {
    const a = merged.get(17728678)!;
    expect([a.volume, a.issue, a.medline_pages, a.start_page, a.end_page]).toEqual([
      "32",
      "19 Suppl",
      "S120-5",
      null,
      null,
    ]);
    expect([a.journal, a.journal_iso_abbreviation, a.journal_medline_ta, a.issn]).toEqual([
      "Spine",
      "Spine",
      "Spine (Phila Pa 1976)",
      "1528-1159",
    ]);
    expect(a.record_kind).toBe("article");
  });

  test("e-only articles: the e-page, StartPage, the pii of an article without pagination, the electronic date", () => {
    const plos = merged.get(28786991)!;
    expect([plos.volume, plos.issue, plos.medline_pages, plos.start_page, plos.elocation_pii, plos.epub_date]).toEqual([
      "12",
      "8",
      "e0180707",
      "e0180707",
      "e0180707",
      "2017-08-07",
    ]);
    const bmjOpen = merged.get(22587885)!;
    expect([bmjOpen.volume, bmjOpen.issue, bmjOpen.medline_pages, bmjOpen.elocation_pii]).toEqual([
      "2",
      "3",
      null,
      "e000988",
    ]);
  });

  test("a record without a volume", () => {
    const a = merged.get(97)!;
    expect([a.volume, a.issue, a.medline_pages, a.journal_medline_ta]).toEqual([
      null,
      "5",
      "151-9",
      "Biotechnol Bioeng Symp",
    ]);
  });

  test("authors: suffix apart from the initials, group with commas whole, non-ASCII initials, ORCID normalised; the display string unchanged", () => {
    const crawford = merged.get(19385576)!;
    expect(crawford.authors).toBe("Crawford CH 3rd, Glassman SD");
    expect(crawford.author_list).toEqual([
      { family: "Crawford", given: "Charles H", initials: "CH", suffix: "3rd", orcid: null },
      { family: "Glassman", given: "Steven D", initials: "SD", suffix: null, orcid: null },
    ]);
    const group = merged.get(27171663)!;
    expect(group.author_list.at(-1)).toEqual({ group: "International Spine Study Group, Denver, CO" });
    expect(group.author_list).toHaveLength(7);
    expect(merged.get(19811750)!.author_list[1]).toEqual({
      family: "Andersen",
      given: "Mikkel Ø",
      initials: "MØ",
      suffix: null,
      orcid: null,
    });
    expect(merged.get(27637996)!.author_list[2]).toEqual({
      family: "Öztürk",
      given: "İbrahim",
      initials: "İ",
      suffix: null,
      orcid: null,
    });
    // Given as "http://orcid.org/0000-0002-8370-0891" in the XML.
    expect(merged.get(27079541)!.author_list.find((e) => "family" in e && e.family === "Šikić")).toMatchObject({
      orcid: "0000-0002-8370-0891",
    });
    // A no-break space before "for the …" is no part of the group's name (the display string keeps its text).
    expect(merged.get(27767682)!.author_list.at(-1)).toEqual({ group: "for the International Spine Study Group" });
  });

  test("a book chapter: publisher, place, the book's title", () => {
    const chapter = books.get(29337475)!;
    expect(chapter.record_kind).toBe("chapter");
    expect([chapter.book_publisher, chapter.book_publisher_place, chapter.book_title]).toEqual([
      "National Cancer Institute (US)",
      "Bethesda (MD)",
      "PDQ Cancer Information Summaries",
    ]);
    expect(chapter.author_list).toEqual([{ group: "PDQ Pediatric Treatment Editorial Board" }]);
    expect([chapter.volume, chapter.journal_medline_ta]).toEqual([null, null]);
  });

  test("counts over the sample (checked against an independent XML reading of every sample file)", () => {
    const all = [...merged.values()];
    expect(all.filter((a) => a.volume !== null)).toHaveLength(2049);
    expect(all.filter((a) => a.issue?.includes("Suppl"))).toHaveLength(6);
    expect(all.filter((a) => a.medline_pages !== null)).toHaveLength(2037);
    expect(all.filter((a) => !a.medline_pages && !a.start_page && a.elocation_pii)).toHaveLength(50);
    expect(all.filter((a) => a.journal_medline_ta !== null)).toHaveLength(2098);
    const entries = all.flatMap((a) => a.author_list);
    expect(entries.filter((e) => "family" in e && e.orcid !== null)).toHaveLength(309);
    expect(entries.filter((e) => "family" in e && e.suffix !== null)).toHaveLength(48);
    expect(entries.filter((e) => "group" in e)).toHaveLength(55);
    expect([...books.values()].filter((a) => a.record_kind === "chapter")).toHaveLength(6);
  });

  test("a whole book (no part of it named) and the hash: records without the new fields hash as before", () => {
    const book = `<PubmedArticleSet><PubmedBookArticle><BookDocument><PMID>930001</PMID><Book><Publisher><PublisherName>Springer</PublisherName><PublisherLocation>Cham (CH)</PublisherLocation></Publisher>
      <BookTitle book="x">A Whole Book</BookTitle><PubDate><Year>2019</Year></PubDate></Book><AuthorList Type="editors"><Author><LastName>Ed</LastName><Initials>E</Initials></Author></AuthorList>
      <AuthorList Type="authors"><Author><LastName>Smith</LastName><ForeName>Jo</ForeName><Initials>J</Initials><Suffix>Jr</Suffix><Identifier Source="ORCID">0000000218250097</Identifier></Author></AuthorList></BookDocument></PubmedBookArticle></PubmedArticleSet>`;
    const [b] = articles(parsePubmedXml(book));
    expect(b!.record_kind).toBe("book");
    expect([b!.title, b!.book_title, b!.book_publisher, b!.book_publisher_place]).toEqual([
      "A Whole Book",
      "A Whole Book",
      "Springer",
      "Cham (CH)",
    ]);
    expect(b!.author_list).toEqual([
      { family: "Smith", given: "Jo", initials: "J", suffix: "Jr", orcid: "0000-0002-1825-0097" },
    ]);
    const withLabel = book.replace(
      "</AuthorList></BookDocument>",
      '</AuthorList><LocationLabel Type="chapter">3</LocationLabel></BookDocument>',
    );
    expect(articles(parsePubmedXml(withLabel))[0]!.record_kind).toBe("chapter");
    // A record with no author and none of the citation fields keeps the hash it had before they were read.
    const bare = `<PubmedArticleSet><PubmedArticle><MedlineCitation><PMID>920001</PMID><Article><ArticleTitle>Cited things.</ArticleTitle></Article></MedlineCitation>
      <PubmedData><ArticleIdList><ArticleId IdType="pubmed">920001</ArticleId><ArticleId IdType="doi">10.1/own</ArticleId></ArticleIdList></PubmedData></PubmedArticle></PubmedArticleSet>`;
    expect(articles(parsePubmedXml(bare))[0]!.content_hash).toBe("c1dea60bfc549ab8b14d65788e114fff9ceaaad9");
    const withVolume = bare.replace(
      "<ArticleTitle>",
      "<Journal><JournalIssue><Volume>7</Volume></JournalIssue></Journal><ArticleTitle>",
    );
    expect(articles(parsePubmedXml(withVolume))[0]!.content_hash).not.toBe("c1dea60bfc549ab8b14d65788e114fff9ceaaad9");
  });

  test("ORCID forms", () => {
    expect(normalizeOrcid("https://orcid.org/0000-0002-1825-0097")).toBe("0000-0002-1825-0097");
    expect(normalizeOrcid("0000-0002-1694-233x")).toBe("0000-0002-1694-233X");
    expect(normalizeOrcid("0000-0002-1825-0098")).toBeNull(); // wrong check digit
    expect(normalizeOrcid("not an id")).toBeNull();
  });
});
