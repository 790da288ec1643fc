import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import Ajv from "ajv";
import { parse as parseBibtex } from "@retorquere/bibtex-parser";
import { parseRIS } from "biblatex-csl-converter";
import { APP_BACKENDS } from "../support/database.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { expandRange, readXmlCitations, type XmlCitation } from "../support/pubmed-xml-oracle.ts";
import cslSchema from "../support/csl-data.schema.json";
import { ingestFiles } from "../../search/ingest.ts";
import { fullPages, nlmCitation, splitMedlinePages } from "../../src/articles/citation.ts";
import { bibtexKeys } from "../../src/export/bibtex.ts";
import type { ExportArticle } from "../../src/export/csl.ts";
import { writeReferences } from "../../src/export/formats.ts";
import { parseMedline } from "../../src/export/medline.ts";
import { articlesForExport } from "../../src/export/repository.ts";
import { vancouverReferences } from "../../src/export/vancouver.ts";

// Issue 20: every sample record ingested through the real parser, exported in each format, and read back by a reader
// nobody here wrote (BibTeX: @retorquere/bibtex-parser, the parser of Better BibTeX for Zotero; RIS:
// biblatex-csl-converter; CSL-JSON: the CSL data schema, citation-style-language/schema csl-data.json, with ajv;
// MEDLINE: our reader, its tags checked against NLM's list). Each field is compared with the source XML, read by
// tests/support/pubmed-xml-oracle.ts, not by the ingest parser. The share of records with a volume exported with the
// right volume, issue and pages must be 1 in every format, and BibTeX keys unique over the whole sample.

const DIR = join(import.meta.dir, "..", "..", "sample", "pubmed");
const FILES = readdirSync(DIR)
  .filter((f) => f.endsWith(".xml.gz"))
  .map((f) => join(DIR, f));

/** MEDLINE tags PubMed writes (https://www.nlm.nih.gov/bsd/mms/medlineelements.html). */
const NLM_TAGS = new Set(
  "AB AD AID AU AUID BTI CI CIN CN COIS CON CP CRDT CRF CRI CTDT CTI DA DCOM DEP DP DRDT ECF ECI EDAT EFR EIN ED EN FAU FED FIR FPS GN GR GS IP IR IRAD IS ISBN JID JT LA LID LR MH MHDA MID OAB OABL OCI OID ORI OT OTO OWN PB PG PHST PL PMC PMCR PMID PS PST PT PUBM RF RIN RN ROF RPF RPI RRF RRI SB SFM SI SO SPIN STAT TA TI TT UIN UOF VI VTI".split(
    " ",
  ),
);

/** The BibTeX reader without its Zotero-style sentence-casing of titles, so that fields compare as written. */
const AS_WRITTEN = { sentenceCase: false } as const;
const norm = (s: unknown) => (s === undefined || s === null || s === "" ? null : String(s));
/** The pages a reference must give: MedlinePgn written out, else StartPage–EndPage, else the pii. */
function expectedPages(x: XmlCitation): string | null {
  if (x.medlinePgn) return fullPages(x.medlinePgn);
  if (x.startPage) return x.endPage && x.endPage !== x.startPage ? `${x.startPage}-${x.endPage}` : x.startPage;
  return x.pii;
}
/**
 * RIS's SP and EP: the article's first and last page (MedlinePgn's pieces, in full), else StartPage/EndPage, else the
 * pii.
 */
function firstAndLast(x: XmlCitation): [string | null, string | null] {
  if (x.medlinePgn) {
    const s = splitMedlinePages(x.medlinePgn);
    return s ? [s.start, s.end] : [null, null];
  }
  if (x.startPage) return [x.startPage, x.endPage && x.endPage !== x.startPage ? x.endPage : null];
  return [x.pii, null];
}
/** Rich text of biblatex-csl-converter ([{type:"text", text}] or ranges of them) as a string. */
const rich = (v: unknown): string | null =>
  Array.isArray(v) ? v.map((n: { text?: string }) => n.text ?? "").join("") || null : norm(v);

for (const backend of APP_BACKENDS) {
  describe(`export fidelity over the whole sample (${backend})`, () => {
    let t: TestApp;
    let articles: ExportArticle[];
    let xml: ReturnType<typeof readXmlCitations>;
    let wholeBib: ReturnType<typeof parseBibtex> | undefined;

    beforeAll(async () => {
      t = await createTestApp(backend);
      await ingestFiles(t.deps, FILES);
      const pmids = (await t.db.selectFrom("articles").select("pmid").orderBy("pmid").execute()).map((r) => r.pmid);
      articles = await articlesForExport(t.db, pmids);
      xml = readXmlCitations(FILES);
    }, 240_000);
    afterAll(() => t.close());

    test("records with a volume: volume, issue and pages right in every format (share = 1); BibTeX keys unique", () => {
      const withVolume = articles.filter((a) => xml.byPmid.get(a.pmid)?.volume);
      expect(withVolume.length).toBeGreaterThan(2000);
      const ok = { ris: 0, bibtex: 0, "csl-json": 0, nbib: 0 };
      const wrong: Record<string, string[]> = { ris: [], bibtex: [], "csl-json": [], nbib: [] };
      const independentExpansionDiffers: string[] = [];

      const csl = JSON.parse(writeReferences(withVolume, "csl-json")) as Record<string, unknown>[];
      const validate = new Ajv({ allErrors: true, strict: false }).compile(cslSchema);
      expect(validate(csl) ? [] : validate.errors?.slice(0, 5)).toEqual([]);
      // The whole sample's BibTeX is parsed once (the slowest reader); the entries of records with a volume are
      // checked.
      wholeBib = parseBibtex(writeReferences(articles, "bibtex"), AS_WRITTEN);
      expect(wholeBib.errors).toEqual([]);
      const entryOf = new Map(wholeBib.entries.map((e) => [Number(e.fields.pmid), e]));
      const bib = { entries: withVolume.map((a) => entryOf.get(a.pmid)!) };
      const ris = Object.values(parseRIS(writeReferences(withVolume, "ris")).entries) as {
        fields: Record<string, unknown>;
      }[];
      const nbibText = writeReferences(withVolume, "nbib");
      const nbib = parseMedline(nbibText);
      expect(csl).toHaveLength(withVolume.length);
      expect(bib.entries).toHaveLength(withVolume.length);
      expect(ris).toHaveLength(withVolume.length);
      expect(nbib).toHaveLength(withVolume.length);
      const unknownTags = new Set(nbib.flatMap((r) => Object.keys(r)).filter((tag) => !NLM_TAGS.has(tag)));
      expect([...unknownTags]).toEqual([]);

      for (const [i, a] of withVolume.entries()) {
        const x = xml.byPmid.get(a.pmid)!;
        const pages = expectedPages(x);
        const [start, end] = firstAndLast(x);
        if (x.medlinePgn && expandRange(x.medlinePgn) && expandRange(x.medlinePgn) !== pages)
          independentExpansionDiffers.push(`${a.pmid}: ${x.medlinePgn} → ${pages}`);
        const check = (fmt: keyof typeof ok, got: [unknown, unknown, unknown], want: [unknown, unknown, unknown]) => {
          const g = got.map(norm);
          const w = want.map(norm);
          if (g.every((v, k) => v === w[k])) ok[fmt]++;
          else if (wrong[fmt]!.length < 5)
            wrong[fmt]!.push(`${a.pmid}: got ${JSON.stringify(g)} want ${JSON.stringify(w)}`);
        };
        const c = csl[i]!;
        expect(c.PMID).toBe(String(a.pmid));
        check("csl-json", [c.volume, c.issue, c.page], [x.volume, x.issue, pages]);
        const b = bib.entries[i]!;
        expect(b.fields.pmid).toBe(String(a.pmid));
        check(
          "bibtex",
          [b.fields.volume, b.fields.number, (b.fields.pages as string | undefined)?.replace(/–/g, "-")],
          [x.volume, x.issue, pages],
        );
        const r = ris[i]!.fields;
        // Its range: [[start, end]] as text nodes (the reader's shape for pages).
        const nodes = ((r.pages as unknown[][] | undefined)?.[0] ?? []).flat(2) as { text?: string }[];
        check(
          "ris",
          [rich(r.volume), rich(r.issue), `${norm(nodes[0]?.text)}|${norm(nodes[1]?.text)}`],
          [x.volume, x.issue, `${start}|${end}`],
        );
        const n = nbib[i]!;
        expect(n.PMID).toEqual([String(a.pmid)]);
        const pg = x.medlinePgn ?? (x.startPage ? [x.startPage, x.endPage].filter(Boolean).join("-") : null);
        const nbibPages = pg ? n.PG?.[0] : (n.LID ?? []).includes(`${x.pii} [pii]`) ? x.pii : null;
        check("nbib", [n.VI?.[0], n.IP?.[0], nbibPages], [x.volume, x.issue, pg ?? x.pii]);
      }
      const share = Object.fromEntries(Object.entries(ok).map(([f, n]) => [f, n / withVolume.length]));
      console.log(
        `export fidelity (${backend}): ${withVolume.length} of ${articles.length} stored records have a volume; share with volume, issue and pages right: ${JSON.stringify(share)}`,
      );
      expect(wrong).toEqual({ ris: [], bibtex: [], "csl-json": [], nbib: [] });
      expect(share).toEqual({ ris: 1, bibtex: 1, "csl-json": 1, nbib: 1 });
      expect(independentExpansionDiffers).toEqual([]);
    }, 180_000);

    test("BibTeX keys are unique over the whole sample, and the parser reads every entry under its own key", () => {
      const keys = bibtexKeys(articles);
      const parsed = wholeBib ?? parseBibtex(writeReferences(articles, "bibtex"), AS_WRITTEN);
      expect(parsed.errors).toEqual([]);
      expect(parsed.entries.map((e) => e.key)).toEqual(keys);
      const stems = articles.map((a) => bibtexKeys([a])[0]!);
      const collisions = keys.filter((k, i) => k !== stems[i]).length;
      // Same first author, year and title word: "a", "b"… appended, never a key already given.
      const twin = (pmid: number, title: string) => ({
        ...articles[0]!,
        pmid,
        title,
        author_list: [{ family: "Crawford", given: "Charles H", initials: "CH", suffix: "3rd", orcid: null }],
        publication_date: "2007-09-01",
      });
      expect(
        bibtexKeys([twin(1, "Spine surgery"), twin(2, "Spine fusion"), twin(3, "Spine again"), twin(4, "Other")]),
      ).toEqual(["crawford2007spine", "crawford2007spinea", "crawford2007spineb", "crawford2007other"]);
      console.log(
        `bibtex keys (${backend}): ${new Set(keys).size} unique of ${keys.length} (${collisions} given a letter on a collision)`,
      );
      expect(new Set(keys).size).toBe(keys.length);
    }, 120_000);

    test("the sample's edge cases in every format, each compared with the source XML", async () => {
      type Person = { last: string; fore: string | null; initials: string | null; suffix: string | null };
      const find = (what: string, ok: (x: XmlCitation) => boolean) => {
        const a = articles.find(
          (r) => xml.byPmid.has(r.pmid) && !xml.repeats.has(r.pmid) && ok(xml.byPmid.get(r.pmid)!),
        );
        if (!a) throw new Error(`the sample has no ${what}`);
        return { a, x: xml.byPmid.get(a.pmid)! };
      };
      const persons = (x: XmlCitation) => x.authors.filter((au): au is Person => "last" in au);
      const cases = {
        suffix: find("author with a suffix", (x) => persons(x).some((p) => !!p.suffix && !!p.fore)),
        group: find("group author with commas", (x) => x.authors.some((au) => "group" in au && au.group.includes(","))),
        nonAscii: find("non-ASCII initials", (x) =>
          persons(x).some((p) => /[^\x00-\x7f]/.test(p.initials ?? "") && !!p.fore),
        ),
        structured: find("structured abstract", (x) => x.abstractSections.length > 2),
        supplement: find("supplement issue", (x) => /suppl/i.test(x.issue ?? "")),
        ePage: find("e-page", (x) => /^e\d+/.test(x.medlinePgn ?? x.pii ?? "")),
        mesh: find("MeSH heading with a comma", (x) => x.meshHeadings.some((m) => m.includes(","))),
        noVolume: find("journal record without a volume", (x) => !x.volume && !x.book),
        book: find("book", (x) => !!x.book?.publisher),
      };
      const sel = Object.values(cases).map((c) => c.a);
      const fmt = (f: Parameters<typeof writeReferences>[1]) => writeReferences(sel, f);
      const ris = fmt("ris")
        .split(/^ER {2}- *\n?/m)
        .filter((r) => r.trim());
      const risTags = (i: number, tag: string) =>
        [...ris[i]!.matchAll(new RegExp(`^${tag}  - (.*)$`, "gm"))].map((m) => m[1]!);
      const risParsed = Object.values(parseRIS(fmt("ris")).entries) as { fields: Record<string, unknown> }[];
      const bibText = fmt("bibtex");
      const bib = parseBibtex(bibText, AS_WRITTEN).entries;
      const csl = JSON.parse(fmt("csl-json")) as Record<string, any>[];
      const nbib = parseMedline(fmt("nbib"));
      const idx = (k: keyof typeof cases) => Object.keys(cases).indexOf(k);

      // Every format has as many authors as the XML's valid authors: no group split into fake authors.
      for (const [i, { x }] of Object.values(cases).entries()) {
        expect(risTags(i, "AU")).toHaveLength(x.authors.length);
        expect(((bib[i]!.fields.author as unknown[]) ?? []).length).toBe(x.authors.length);
        expect((csl[i]!.author ?? []).length).toBe(x.authors.length);
        expect((nbib[i]!.AU ?? []).length + (nbib[i]!.CN ?? []).length).toBe(x.authors.length);
      }
      // A suffix: "Family, Given, Suffix" in RIS, BibTeX's "Last, Jr, First", CSL's suffix, MEDLINE's "Crawford CH
      // 3rd".
      {
        const i = idx("suffix");
        const k = cases.suffix.x.authors.findIndex((au) => "last" in au && !!au.suffix && !!au.fore);
        const p = cases.suffix.x.authors[k] as Person;
        expect(risTags(i, "AU")[k]).toBe(`${p.last}, ${p.fore}, ${p.suffix}`);
        expect((bib[i]!.fields.author as any[])[k]).toEqual({ lastName: p.last, firstName: p.fore, suffix: p.suffix });
        expect(csl[i]!.author[k]).toEqual({ family: p.last, given: p.fore, suffix: p.suffix });
        expect(
          nbib[i]!.AU![nbib[i]!.AU!.length - persons(cases.suffix.x).length + persons(cases.suffix.x).indexOf(p)],
        ).toBe(`${p.last} ${p.initials} ${p.suffix}`);
        expect(nbib[i]!.FAU).toContain(`${p.last}, ${p.fore} ${p.suffix}`);
      }
      // A group with commas: whole in every format, CN in MEDLINE, literal in CSL, braced in BibTeX.
      {
        const i = idx("group");
        const k = cases.group.x.authors.findIndex((au) => "group" in au && au.group.includes(","));
        const g = (cases.group.x.authors[k] as { group: string }).group;
        expect(risTags(i, "AU")[k]).toBe(g);
        expect((bib[i]!.fields.author as any[])[k]).toEqual({ name: g });
        expect(csl[i]!.author[k]).toEqual({ literal: g });
        expect(nbib[i]!.CN).toContain(g);
      }
      // Non-ASCII initials: the given name in UTF-8, never a LaTeX escape with a space in its braces.
      {
        const i = idx("nonAscii");
        const k = cases.nonAscii.x.authors.findIndex(
          (au) => "last" in au && /[^\x00-\x7f]/.test(au.initials ?? "") && !!au.fore,
        );
        const p = cases.nonAscii.x.authors[k] as Person;
        expect(bibText).not.toMatch(/\{\\\S /);
        expect((bib[i]!.fields.author as any[])[k]).toMatchObject({ lastName: p.last, firstName: p.fore });
        expect(csl[i]!.author[k]).toMatchObject({ family: p.last, given: p.fore });
        expect(nbib[i]!.AU).toContain(`${p.last} ${p.initials}`);
      }
      // A structured abstract: its sections on lines of their own in RIS (read back with line breaks), all of it in
      // BibTeX, CSL and MEDLINE.
      {
        const i = idx("structured");
        const sections = cases.structured.x.abstractSections;
        expect(String(rich(risParsed[i]!.fields.abstract)).split("\n").length).toBe(sections.length);
        for (const s of sections) {
          expect(String(rich(risParsed[i]!.fields.abstract))).toContain(s);
          expect(String(bib[i]!.fields.abstract)).toContain(s.slice(0, 40));
          expect(String(csl[i]!.abstract)).toContain(s);
          expect(nbib[i]!.AB![0]).toContain(s);
        }
      }
      // A supplement and an e-page.
      expect(risTags(idx("supplement"), "IS")).toEqual([cases.supplement.x.issue!]);
      expect(csl[idx("supplement")]!.issue).toBe(cases.supplement.x.issue);
      expect(String(bib[idx("ePage")]!.fields.pages).replace(/–/g, "-")).toBe(expectedPages(cases.ePage.x)!);
      expect(risTags(idx("ePage"), "SP")).toEqual([firstAndLast(cases.ePage.x)[0]!]);
      // MeSH headings whole: one KW per heading, MH in MEDLINE.
      for (const m of cases.mesh.x.meshHeadings) {
        expect(risTags(idx("mesh"), "KW")).toContain(m);
        expect(nbib[idx("mesh")]!.MH).toContain(m);
      }
      expect(csl[idx("mesh")]!.custom["mesh-headings"]).toEqual(cases.mesh.x.meshHeadings);
      // No volume: none written.
      expect(risTags(idx("noVolume"), "VL")).toEqual([]);
      expect(bib[idx("noVolume")]!.fields.volume).toBeUndefined();
      expect(csl[idx("noVolume")]!.volume).toBeUndefined();
      expect(nbib[idx("noVolume")]!.VI).toBeUndefined();
      // A book: its kind, publisher and place.
      {
        const i = idx("book");
        const b = cases.book.x.book!;
        const kind = cases.book.a.record_kind;
        expect(kind === "book" || kind === "chapter").toBe(true);
        expect(risTags(i, "TY")).toEqual([kind === "chapter" ? "CHAP" : "BOOK"]);
        expect(risTags(i, "PB")).toEqual([b.publisher!]);
        if (b.place) expect(risTags(i, "CY")).toEqual([b.place]);
        expect(bib[i]!.type).toBe(kind === "chapter" ? "incollection" : "book");
        expect([bib[i]!.fields.publisher].flat()).toEqual([b.publisher!]);
        if (kind === "chapter") {
          expect(bib[i]!.fields.booktitle).toBe(b.bookTitle!);
          expect(risTags(i, "T2")).toEqual([b.bookTitle!]);
        }
        expect(csl[i]!.type).toBe(kind);
        expect(csl[i]!.publisher).toBe(b.publisher);
        expect(nbib[i]!.PB).toEqual([b.publisher!]);
      }
      // Months as BibTeX's macros.
      expect(bibText).toMatch(/^ {2}month = [a-z]{3},$/m);
      expect(bibText).not.toMatch(/month = \{/);
    });

    test("the summary's Vancouver references (Citation.js, NLM's style) hold the card's citation line for every record with a volume", () => {
      const withVolume = articles.filter((a) => a.volume && a.record_kind === "article");
      const references = vancouverReferences(withVolume);
      expect(references).toHaveLength(withVolume.length);
      const differ = withVolume
        .filter((a, i) => !references[i]!.startsWith(`${i + 1}. `) || !references[i]!.includes(nlmCitation(a)!))
        .map((a) => a.pmid);
      expect(differ).toEqual([]);
      const spine = withVolume.findIndex((a) => a.pmid === 17728678);
      expect(references[spine]).toContain("Spine (Phila Pa 1976). 2007 Sep 1;32(19 Suppl):S120-5.");
      // About 8 s of CPU (Citation.js over 2,800 records): the limit leaves room for a machine busy with other files.
    }, 180_000);

    test("the whole sample's CSL-JSON is valid against the CSL data schema", () => {
      const validate = new Ajv({ allErrors: true, strict: false }).compile(cslSchema);
      const items = JSON.parse(writeReferences(articles, "csl-json"));
      expect(validate(items) ? [] : validate.errors?.slice(0, 5)).toEqual([]);
    });
  });
}
