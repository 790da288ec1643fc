import { beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { parsePubmedFile, type ParsedArticle } from "../../search/pubmed/parser.ts";
import { fullPages, nlmCitation, nlmDate, pagesOf, splitMedlinePages } from "./citation.ts";

const SAMPLE = join(import.meta.dir, "..", "..", "sample", "pubmed");

async function read(file: string): Promise<Map<number, ParsedArticle>> {
  const out = new Map<number, ParsedArticle>();
  for await (const e of parsePubmedFile(join(SAMPLE, file)))
    if (e.type === "article") out.set(e.article.pmid, e.article);
  return out;
}

describe("fullPages: MEDLINE's abbreviated pages written out (forms met in the sample)", () => {
  test.each([
    ["123-9", "123-129"],
    ["S120-5", "S120-S125"],
    ["e123", "e123"],
    ["123-129", "123-129"],
    ["1027-34; discussion 1035", "1027-1034; discussion 1035"],
    ["167-70, 173, 176-9", "167-170, 173, 176-179"],
    ["e4-5", "e4-e5"],
    ["E463-7", "E463-E467"],
    ["OL1442-6", "OL1442-OL1446"],
    ["1186.e1-5", "1186.e1-1186.e5"],
    ["1016-1021.e6", "1016-1021.e6"],
    ["W98; author reply W99", "W98; author reply W99"],
    ["SUPPL:4309-22", "SUPPL:4309-4322"],
    ["1S-20S", "1S-20S"],
    ["98-2", "98-102"],
    ["77-95, viii", "77-95, viii"],
  ])("%s → %s", (given, full) => {
    expect(fullPages(given)).toBe(full);
  });

  test("first and last page", () => {
    expect(splitMedlinePages("S120-5")).toEqual({ start: "S120", end: "S125" });
    expect(splitMedlinePages("e0180707")).toEqual({ start: "e0180707", end: null });
    expect(splitMedlinePages("167-70, 173, 176-9")).toEqual({ start: "167", end: "179" });
    expect(splitMedlinePages("1027-34; discussion 1035")).toEqual({ start: "1027", end: "1034" });
    expect(splitMedlinePages(" ")).toBeNull();
  });
});

describe("nlmCitation on real records: as PubMed shows them", () => {
  let merged: Map<number, ParsedArticle>;
  let books: Map<number, ParsedArticle>;
  beforeAll(async () => {
    merged = await read("merged-pubmedarticleset.xml.gz");
    books = await read("pubmedxml_solitude6060_fulltext_search_pubmed_result.xml.gz");
  });

  test("journal articles: MedlineTA, date as far as stated, volume(issue):MEDLINE pages", () => {
    // PubMed: "Spine (Phila Pa 1976). 2007 Sep 1;32(19 Suppl):S120-5."
    expect(nlmCitation(merged.get(17728678)!)).toBe("Spine (Phila Pa 1976). 2007 Sep 1;32(19 Suppl):S120-5.");
    expect(pagesOf(merged.get(17728678)!)).toBe("S120-S125");
    expect(nlmCitation(merged.get(3)!)).toBe("Biochem Biophys Res Commun. 1975 Oct 27;66(4):1281-6.");
    expect(nlmCitation(merged.get(27171663)!)).toBe("Clin Spine Surg. 2016 Oct;29(8):E384-8.");
    expect(nlmCitation(merged.get(7574850)!)).toBe("Arch Dis Child. 1995 Aug;73(2):100-4; discussion 104-5.");
    // Volume, no issue; issue, no volume.
    expect(nlmCitation(merged.get(19385576)!)).toBe("Instr Course Lect. 2009;58:669-76.");
    expect(nlmCitation(merged.get(97)!)).toBe("Biotechnol Bioeng Symp. 1975;(5):151-9.");
  });

  test("e-only articles: the e-page or the pii is the location; ahead of print, it follows the date", () => {
    expect(nlmCitation(merged.get(28786991)!)).toBe("PLoS One. 2017;12(8):e0180707.");
    expect(nlmCitation(merged.get(22587885)!)).toBe("BMJ Open. 2012;2(3):e000988.");
    expect(pagesOf(merged.get(22587885)!)).toBe("e000988");
    expect(nlmCitation(merged.get(23117106)!)).toBe("Respir Physiol Neurobiol. 2012 Oct 29:S1569-9048(12)00312-6.");
  });

  test("a book chapter", () => {
    expect(nlmCitation(books.get(29337475)!)).toBe(
      "In: PDQ Cancer Information Summaries. Bethesda (MD): National Cancer Institute (US); 2002.",
    );
    expect(
      nlmCitation({
        record_kind: "book",
        book_publisher: "Springer",
        book_publisher_place: "Cham (CH)",
        publication_date: "2019-01-01",
        publication_date_precision: "year",
      }),
    ).toBe("Cham (CH): Springer; 2019.");
  });

  test("every sample record with a volume cites its volume, issue and MEDLINE pages exactly", async () => {
    let checked = 0;
    for (const file of [
      "merged-pubmedarticleset.xml.gz",
      "medlinecitationset_nlm_medsamp2014.xml.gz",
      "medlinecitationset_titipata_medline16n0902.xml.gz",
    ]) {
      for (const a of (await read(file)).values()) {
        if (!a.volume) continue;
        const line = nlmCitation(a)!;
        const where = `${a.volume}${a.issue ? `(${a.issue})` : ""}`;
        expect(line).toContain(a.medline_pages ? `;${where}:${a.medline_pages}.` : `;${where}`);
        expect(line.startsWith(`${a.journal_medline_ta}. ${a.publication_year}`)).toBe(true);
        checked++;
      }
    }
    expect(checked).toBe(2049 + 154 + 603);
  });

  test("dates and missing parts", () => {
    expect(nlmDate("2007-09-01", "day")).toBe("2007 Sep 1");
    expect(nlmDate("2007-09-01", "month")).toBe("2007 Sep");
    expect(nlmDate("2007-01-01", "year")).toBe("2007");
    expect(nlmDate(null, null)).toBeNull();
    expect(nlmCitation({ journal: "Some Journal" })).toBe("Some Journal.");
    expect(nlmCitation({ journal: null })).toBeNull();
  });
});
