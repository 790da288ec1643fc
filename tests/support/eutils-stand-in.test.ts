import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parsePubmedFile, parsePubmedXml } from "../../search/pubmed/parser.ts";
import { matchesRecord, parsePubmedQuery } from "../../search/pubmed/query-syntax.ts";
import { startEutilsStandIn, type EutilsStandIn } from "./eutils-stand-in.ts";
import {
  loadStandInRecords,
  nlmCategory,
  PUBMEDQA_PMIDS,
  renderPubmedQaXml,
  withEntrezDate,
  type PubmedQaInstance,
} from "./pubmed-records.ts";

// The E-utilities stand-in and its records: the records parse back to what they were made from, and the stand-in
// answers in NCBI's shapes (esearch JSON and XML, efetch PubMed XML, in-band errors), keeps NCBI's rate per client,
// and misbehaves when scripted to.

const SAMPLE = join(import.meta.dir, "..", "..", "sample", "pubmed");
const PUBMEDQA = join(import.meta.dir, "..", "..", "sample", "pubmedqa", "ori_pqal.json.gz");
const qa = JSON.parse(new TextDecoder().decode(Bun.gunzipSync(readFileSync(PUBMEDQA)))) as Record<
  string,
  PubmedQaInstance
>;
const squash = (s: string) => s.replace(/[\t\n\r ]+/g, " ").trim();

describe("stand-in records", () => {
  test("the merged sample's 2,098 records and PubMedQA's 1,000, none of which a sample file holds", async () => {
    const records = loadStandInRecords();
    expect(records.length).toBe(2098 + 1000);
    expect(new Set(records.map((r) => r.pmid)).size).toBe(records.length);
    expect(PUBMEDQA_PMIDS.size).toBe(1000);
    expect(records.slice(2098).every((r) => PUBMEDQA_PMIDS.has(r.pmid))).toBe(true);
    // What the sample indexes, read with the parser itself: every record of every sample file.
    const sample = new Set<number>();
    for (const name of readdirSync(SAMPLE).filter((n) => n.endsWith(".xml.gz"))) {
      for await (const e of parsePubmedFile(join(SAMPLE, name))) if (e.type === "article") sample.add(e.article.pmid);
    }
    expect(sample.size).toBeGreaterThan(2800);
    for (const pmid of PUBMEDQA_PMIDS) expect(sample.has(pmid)).toBe(false);
    expect(loadStandInRecords()).toBe(records);
  });

  test("each record's XML is one PubmedArticle that our parser reads as the record's article", () => {
    for (const r of loadStandInRecords()) {
      expect(r.xml.startsWith("<PubmedArticle>")).toBe(true);
      expect(r.xml.endsWith("</PubmedArticle>")).toBe(true);
      const events = parsePubmedXml(r.xml);
      expect(events.length).toBe(1);
      expect(events[0]!.type === "article" && events[0]!.article).toEqual(r.article);
    }
  });

  test("PubMedQA instances are rendered as PubMed XML and read back field by field", () => {
    let withMarkup = 0;
    for (const r of loadStandInRecords().slice(2098)) {
      const x = qa[String(r.pmid)]!;
      const a = r.article;
      expect(a.pmid).toBe(r.pmid);
      expect(a.title).toBe(squash(x.QUESTION));
      const sections = [
        ...x.CONTEXTS.map((c, i) => ({ label: x.LABELS[i]!, text: c })),
        { label: "CONCLUSIONS", text: x.LONG_ANSWER },
      ];
      expect(a.abstract_sections.map((s) => ({ label: s.label, text: s.text }))).toEqual(
        sections.map((s) => ({ label: s.label, text: squash(s.text) })),
      );
      expect(a.abstract_sections.at(-1)!.nlm_category).toBe("CONCLUSIONS");
      for (const s of a.abstract_sections)
        expect(["BACKGROUND", "OBJECTIVE", "METHODS", "RESULTS", "CONCLUSIONS", "UNASSIGNED"]).toContain(
          s.nlm_category!,
        );
      expect(a.mesh_terms).toEqual(x.MESHES);
      expect(a.authors).toBeNull();
      expect(a.journal).toBeNull();
      expect(a.language).toBe("eng");
      expect(a.publication_types).toEqual(["Journal Article"]);
      if (x.YEAR) {
        expect(a.publication_year).toBe(Number(x.YEAR));
        expect(a.publication_date).toBe(`${x.YEAR}-01-01`);
        expect(a.entrez_date).toBe(`${x.YEAR}-01-01`);
      } else {
        expect(a.publication_date).toBeNull();
        expect(a.entrez_date).toBeNull();
      }
      if (/[<>&"]/.test(x.CONTEXTS.join("") + x.LONG_ANSWER + x.QUESTION)) withMarkup++;
    }
    // Texts with characters XML must escape ("p<0.001", "&") came through intact.
    expect(withMarkup).toBeGreaterThan(100);
  });

  test("the example record: 15841770", () => {
    const r = loadStandInRecords().find((x) => x.pmid === 15841770)!;
    expect(r.xml).toContain('<PMID Version="1">15841770</PMID>');
    expect(r.xml).toContain('<AbstractText Label="METHODS" NlmCategory="METHODS">');
    expect(r.xml).toContain('<PubMedPubDate PubStatus="entrez">');
    expect(r.xml).toContain('<ArticleId IdType="pubmed">15841770</ArticleId>');
    expect(r.xml).toContain("(p&lt;0.001)");
    expect(r.article.title).toBe(
      "Do inhaled steroids differ from cromones in terms of hospital admission rates for asthma in children?",
    );
    expect(r.article.abstract).toContain(
      "CONCLUSIONS: Our results suggest that inhaled steroids are better than cromones",
    );
  });

  test("labels map to NLM categories", () => {
    expect(nlmCategory("BACKGROUND")).toBe("BACKGROUND");
    expect(nlmCategory("INTRODUCTION")).toBe("BACKGROUND");
    expect(nlmCategory("BACKGROUND AND AIMS")).toBe("OBJECTIVE");
    expect(nlmCategory("PURPOSE")).toBe("OBJECTIVE");
    expect(nlmCategory("MATERIALS AND METHODS")).toBe("METHODS");
    expect(nlmCategory("DESIGN, SETTING, AND PARTICIPANTS")).toBe("METHODS");
    expect(nlmCategory("MAIN OUTCOME MEASURES")).toBe("METHODS");
    expect(nlmCategory("MEASUREMENTS AND MAIN RESULTS")).toBe("RESULTS");
    expect(nlmCategory("PRINCIPAL FINDINGS")).toBe("RESULTS");
    expect(nlmCategory("CONCLUSION")).toBe("CONCLUSIONS");
    expect(nlmCategory("UNLABELLED")).toBe("UNASSIGNED");
    expect(nlmCategory("ICU LOS")).toBe("UNASSIGNED");
  });

  test("an instance without a year has no dates, and escaping covers attributes", () => {
    const xml = renderPubmedQaXml(1, {
      QUESTION: 'Is "x" < y & z?',
      CONTEXTS: ["a < b"],
      LABELS: ['A "B"'],
      MESHES: ["X & Y"],
      YEAR: null,
      LONG_ANSWER: "Yes.",
    });
    const [e] = parsePubmedXml(xml);
    expect(e?.type).toBe("article");
    if (e?.type !== "article") return;
    expect(e.article.title).toBe('Is "x" < y & z?');
    expect(e.article.abstract_sections[0]).toEqual({ label: 'A "B"', nlm_category: "UNASSIGNED", text: "a < b" });
    expect(e.article.mesh_terms).toEqual(["X & Y"]);
    expect(e.article.publication_date).toBeNull();
    expect(e.article.entrez_date).toBeNull();
  });

  test("withEntrezDate re-dates a record", () => {
    const [real, qaRecord] = [loadStandInRecords()[0]!, loadStandInRecords().find((r) => r.pmid === 15841770)!];
    expect(withEntrezDate(real, "2026-11-20").article.entrez_date).toBe("2026-11-20");
    const redated = withEntrezDate(qaRecord, "2026-11-21");
    expect(redated.article.entrez_date).toBe("2026-11-21");
    expect(redated.article.title).toBe(qaRecord.article.title);
  });
});

/** The stand-in's answer to a GET. */
async function get(
  s: EutilsStandIn,
  path: string,
  params: Record<string, string>,
  init?: RequestInit,
): Promise<Response> {
  return fetch(`${s.url}${path}?${new URLSearchParams(params)}`, init);
}
async function esearchJson(s: EutilsStandIn, params: Record<string, string>): Promise<any> {
  const res = await get(s, "esearch.fcgi", { db: "pubmed", retmode: "json", ...params });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toStartWith("application/json");
  return res.json();
}
const articlesOf = (xml: string) => parsePubmedXml(xml).flatMap((e) => (e.type === "article" ? [e.article] : []));

describe("E-utilities stand-in", () => {
  let s: EutilsStandIn;
  beforeAll(() => {
    s = startEutilsStandIn({ enforceRate: false });
  });
  afterAll(async () => {
    await s.stop();
  });

  test("listens on 127.0.0.1 under /entrez/eutils/", () => {
    expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/entrez\/eutils\/$/);
  });

  test("esearch JSON has NCBI's fields, numbers as strings", async () => {
    const j = await esearchJson(s, { term: "spinal fusion", retmax: "5" });
    expect(j.header).toEqual({ type: "esearch", version: "0.3" });
    const r = j.esearchresult;
    expect(typeof r.count).toBe("string");
    expect(Number(r.count)).toBeGreaterThan(5);
    expect(r.retmax).toBe("5");
    expect(r.retstart).toBe("0");
    expect(r.idlist.length).toBe(5);
    for (const id of r.idlist) expect(id).toMatch(/^\d+$/);
    expect(Array.isArray(r.translationset)).toBe(true);
    expect(r.querytranslation).toContain('"spinal"[All Fields]');
    expect(r.webenv).toBeUndefined();
    expect(r.querykey).toBeUndefined();
  });

  test("usehistory=y gives a WebEnv and query_key; efetch of that set by retstart/retmax returns the same PMIDs", async () => {
    const all = (await esearchJson(s, { term: "asthma", retmax: "10000", sort: "relevance" })).esearchresult;
    const r = (await esearchJson(s, { term: "asthma", usehistory: "y", retmax: "3", sort: "relevance" })).esearchresult;
    expect(r.webenv).toMatch(/^MCID_[0-9a-f]{24}$/);
    expect(r.querykey).toBe("1");
    expect(r.count).toBe(all.count);
    expect(r.idlist).toEqual(all.idlist.slice(0, 3));
    const pages: number[] = [];
    for (let start = 0; start < Number(r.count); start += 7) {
      const res = await get(s, "efetch.fcgi", {
        db: "pubmed",
        retmode: "xml",
        WebEnv: r.webenv,
        query_key: r.querykey,
        retstart: String(start),
        retmax: "7",
      });
      pages.push(...articlesOf(await res.text()).map((a) => a.pmid));
    }
    expect(pages.map(String)).toEqual(all.idlist);
    // The same WebEnv given again keeps it and numbers the next set 2.
    const again = (await esearchJson(s, { term: "asthma children", usehistory: "y", WebEnv: r.webenv })).esearchresult;
    expect(again.webenv).toBe(r.webenv);
    expect(again.querykey).toBe("2");
  });

  test("retstart/retmax page through a result set", async () => {
    const all = (await esearchJson(s, { term: "surgery", retmax: "10000" })).esearchresult;
    expect(Number(all.count)).toBeGreaterThan(20);
    const pages: string[] = [];
    for (let start = 0; start < Number(all.count); start += 20)
      pages.push(...(await esearchJson(s, { term: "surgery", retstart: String(start) })).esearchresult.idlist);
    expect(pages).toEqual(all.idlist);
    const past = (await esearchJson(s, { term: "surgery", retstart: all.count })).esearchresult;
    expect(past.idlist).toEqual([]);
    expect(past.retmax).toBe("0");
  });

  test("esearch XML is an eSearchResult", async () => {
    const res = await get(s, "esearch.fcgi", { db: "pubmed", term: "asthma", retmax: "2", usehistory: "y" });
    expect(res.headers.get("content-type")).toStartWith("text/xml");
    const xml = await res.text();
    expect(xml).toStartWith('<?xml version="1.0" encoding="UTF-8" ?>\n<!DOCTYPE eSearchResult PUBLIC');
    expect(xml).toMatch(
      /<eSearchResult><Count>\d+<\/Count><RetMax>2<\/RetMax><RetStart>0<\/RetStart><QueryKey>1<\/QueryKey><WebEnv>MCID_[0-9a-f]{24}<\/WebEnv><IdList>\n<Id>\d+<\/Id>\n<Id>\d+<\/Id>\n<\/IdList>/,
    );
    expect(xml).toContain("<QueryTranslation>(&quot;asthma&quot;[MeSH Terms] OR &quot;asthma&quot;[All Fields]");
    const none = await (await get(s, "esearch.fcgi", { db: "pubmed", term: "qwertyzzz" })).text();
    expect(none).toContain("<Count>0</Count><RetMax>0</RetMax><RetStart>0</RetStart><IdList/>");
    expect(none).toContain(
      "<ErrorList><PhraseNotFound>qwertyzzz</PhraseNotFound></ErrorList><WarningList><OutputMessage>No items found.</OutputMessage></WarningList>",
    );
  });

  test("errors as NCBI answers them: missing term, other database, in JSON and XML", async () => {
    expect(await esearchJson(s, {})).toEqual({
      header: { type: "esearch", version: "0.3" },
      esearchresult: { ERROR: "Empty term and query_key - nothing todo" },
    });
    expect((await esearchJson(s, { term: "x", db: "nucleotide" })).esearchresult.ERROR).toBe(
      "Invalid db name specified: nucleotide",
    );
    const xml = await (await get(s, "esearch.fcgi", { db: "pubmed", term: "" })).text();
    expect(xml).toContain("<eSearchResult><ERROR>Empty term and query_key - nothing todo</ERROR></eSearchResult>");
    const none = (await esearchJson(s, { term: "qwertyzzz" })).esearchresult;
    expect(none.count).toBe("0");
    expect(none.errorlist.phrasesnotfound).toEqual(["qwertyzzz"]);
    expect(none.warninglist.outputmessages).toEqual(["No items found."]);
    expect((await get(s, "einfo.fcgi", {})).status).toBe(404);
  });

  test("efetch by id (GET): PubMed XML of the held records in request order, unknown ids left out", async () => {
    const ids = [15841770, 1, 999999999, 21645374];
    const res = await get(s, "efetch.fcgi", { db: "pubmed", id: ids.join(","), retmode: "xml" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toStartWith("text/xml");
    const xml = await res.text();
    expect(xml).toStartWith(
      '<?xml version="1.0" ?>\n<!DOCTYPE PubmedArticleSet PUBLIC "-//NLM//DTD PubMedArticle, 1st January 2025//EN"',
    );
    expect(xml.trimEnd()).toEndWith("</PubmedArticleSet>");
    const events = parsePubmedXml(xml);
    expect(events.every((e) => e.type === "article")).toBe(true);
    expect(articlesOf(xml).map((a) => a.pmid)).toEqual([15841770, 1, 21645374]);
    expect(articlesOf(xml)[0]).toEqual(s.records.get(15841770)!.article);
    // Only unknown ids: an empty set.
    expect(await (await get(s, "efetch.fcgi", { db: "pubmed", id: "999999999" })).text()).toContain(
      "<PubmedArticleSet></PubmedArticleSet>",
    );
  });

  test("efetch and esearch by POST; a long id list", async () => {
    const held = [...s.records.keys()].slice(0, 300);
    const res = await fetch(`${s.url}efetch.fcgi`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ db: "pubmed", retmode: "xml", id: held.join(",") }),
    });
    expect(articlesOf(await res.text()).map((a) => a.pmid)).toEqual(held);
    const post = await fetch(`${s.url}esearch.fcgi`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ db: "pubmed", retmode: "json", term: "asthma" }),
    });
    expect(Number(((await post.json()) as any).esearchresult.count)).toBeGreaterThan(0);
    const logged = s.requests.at(-1)!;
    expect(logged).toMatchObject({
      method: "POST",
      status: 200,
      params: { db: "pubmed", retmode: "json", term: "asthma" },
    });
    expect(logged.path).toBe("/entrez/eutils/esearch.fcgi");
  });

  test("efetch in-band errors: no ids, an unknown WebEnv", async () => {
    const empty = await (await get(s, "efetch.fcgi", { db: "pubmed" })).text();
    expect(empty).toContain("<eFetchResult>\n\t<ERROR>Empty id list - nothing todo</ERROR>\n</eFetchResult>");
    const res = await get(s, "efetch.fcgi", { db: "pubmed", WebEnv: "MCID_000000000000000000000000", query_key: "1" });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("<ERROR>Unable to obtain query #1</ERROR>");
  });

  test("a plain topic is read by the imitation of automatic term mapping and finds PubMedQA records", async () => {
    const r = (
      await esearchJson(s, { term: "asthma inhaled corticosteroids children", sort: "relevance", retmax: "100" })
    ).esearchresult;
    expect(r.querytranslation).toStartWith('("asthma"[MeSH Terms] OR "asthma"[All Fields]');
    expect(r.querytranslation).toContain(' AND "inhaled"[All Fields] AND ');
    expect(r.querytranslation).toContain('"adrenal cortex hormones"[MeSH Terms]');
    expect(r.querytranslation).toEndWith(' AND ("child"[MeSH Terms] OR "child"[All Fields] OR "children"[All Fields])');
    // PubMedQA's 15841770 ("inhaled steroids … asthma in children"), and the sample's 29768149 (inhaled
    // glucocorticoid, MeSH Glucocorticoids and Child), as PubMed's mapping to Adrenal Cortex Hormones would find it.
    expect([...r.idlist].sort()).toEqual(["15841770", "29768149"]);
    expect(PUBMEDQA_PMIDS.has(15841770)).toBe(true);
    expect(r.translationset.map((t: { from: string }) => t.from)).toContain("corticosteroids");
    // Stop words are dropped and reported.
    const w = (await esearchJson(s, { term: "the cromones and asthma in children" })).esearchresult;
    expect(w.idlist).toContain("15841770");
    expect(w.warninglist.phrasesignored).toEqual(["the", "and", "in"]);
  });

  test("a term in PubMed's syntax is evaluated by the syntax module over the records", async () => {
    const term = `(asthma[tiab] OR "asthma"[mh]) AND (child*[tiab] OR adolescent[mh]) NOT "adult"[ti]`;
    const r = (await esearchJson(s, { term, retmax: "10000" })).esearchresult;
    const node = parsePubmedQuery(term);
    const expected = loadStandInRecords()
      .filter((x) => matchesRecord(node, x.article))
      .map((x) => x.pmid);
    expect(Number(r.count)).toBe(expected.length);
    expect(expected.length).toBeGreaterThan(0);
    expect(new Set(r.idlist.map(Number))).toEqual(new Set(expected));
  });

  test("sort=relevance is deterministic, title hits first; the default is the newest Entrez date first", async () => {
    const a = (await esearchJson(s, { term: "asthma", sort: "relevance", retmax: "100" })).esearchresult.idlist;
    const b = (await esearchJson(s, { term: "asthma", sort: "relevance", retmax: "100" })).esearchresult.idlist;
    expect(a).toEqual(b);
    const titled = (id: string) => /\basthmas?\b/i.test(s.records.get(Number(id))!.article.title ?? "");
    const firstUntitled = a.findIndex((id: string) => !titled(id));
    expect(firstUntitled).toBeGreaterThan(0);
    expect(a.slice(firstUntitled).some(titled)).toBe(false);
    const recent = (await esearchJson(s, { term: "asthma", retmax: "100" })).esearchresult.idlist.map((id: string) => {
      const art = s.records.get(Number(id))!.article;
      return art.entrez_date ?? art.publication_date ?? "";
    });
    expect(recent).toEqual([...recent].sort().reverse());
    const byPub = (await esearchJson(s, { term: "asthma", sort: "pub_date", retmax: "100" })).esearchresult.idlist.map(
      (id: string) => s.records.get(Number(id))!.article.publication_date ?? "",
    );
    expect(byPub).toEqual([...byPub].sort().reverse());
  });

  test("date limits: reldate on the Entrez date, mindate/maxdate on the publication date", async () => {
    const now = Date.parse("2026-11-26T12:00:00Z");
    const all = loadStandInRecords();
    const fresh = all
      .filter((r) => PUBMEDQA_PMIDS.has(r.pmid))
      .slice(0, 5)
      .map((r, i) => withEntrezDate(r, `2026-11-${String(20 + i).padStart(2, "0")}`));
    const d = startEutilsStandIn({
      records: [...all.filter((r) => !fresh.some((f) => f.pmid === r.pmid)), ...fresh],
      enforceRate: false,
      now: () => now,
    });
    try {
      const week = (await esearchJson(d, { term: "humans[mh]", datetype: "edat", reldate: "7", retmax: "100" }))
        .esearchresult;
      const expected = fresh.filter((f) => f.article.mesh_terms.includes("Humans")).map((f) => String(f.pmid));
      expect(new Set(week.idlist)).toEqual(new Set(expected));
      expect(week.querytranslation).toEndWith(" AND 2026/11/19:2026/11/26[Date - Entry]");
      const years = (
        await esearchJson(d, { term: "asthma", datetype: "pdat", mindate: "2004", maxdate: "2005/06", retmax: "1000" })
      ).esearchresult;
      expect(Number(years.count)).toBeGreaterThan(0);
      for (const id of years.idlist) {
        const date = d.records.get(Number(id))!.article.publication_date!;
        expect(date >= "2004-01-01" && date <= "2005-06-30").toBe(true);
      }
      expect(years.querytranslation).toEndWith(" AND 2004/01/01:2005/06/30[Date - Publication]");
      // mindate alone is ignored (NBK25499: only together with maxdate).
      const alone = (await esearchJson(d, { term: "asthma", mindate: "2030" })).esearchresult;
      expect(Number(alone.count)).toBeGreaterThan(0);
    } finally {
      await d.stop();
    }
  });
});

/**
 * A few records, for the stand-ins of the tests of faults and of the rate: they need answers, not search results, and
 * are spared the first search's scan of all 3,098 records (about a second each on a busy machine).
 */
const few = () => loadStandInRecords().slice(0, 20);

describe("E-utilities stand-in: scripted faults", () => {
  let s: EutilsStandIn;
  beforeAll(() => {
    s = startEutilsStandIn({ records: few(), enforceRate: false });
  });
  afterAll(async () => {
    await s.stop();
  });

  test("429 with Retry-After and NCBI's body, then normal service", async () => {
    s.script({ kind: "status", status: 429, retryAfter: 2 });
    const res = await get(s, "esearch.fcgi", { db: "pubmed", term: "asthma", retmode: "json" });
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("2");
    expect(await res.json()).toEqual({
      error: "API rate limit exceeded",
      "api-key": "127.0.0.1",
      count: "4",
      limit: "3",
    });
    expect(s.requests.at(-1)!.status).toBe(429);
    expect((await get(s, "esearch.fcgi", { db: "pubmed", term: "asthma" })).status).toBe(200);
  });

  test("5xx answers, aimed at one endpoint, counted, and cleared with times = 0", async () => {
    s.script({ kind: "status", status: 503 }, 2, "efetch");
    expect((await get(s, "esearch.fcgi", { db: "pubmed", term: "asthma" })).status).toBe(200);
    expect((await get(s, "efetch.fcgi", { db: "pubmed", id: "1" })).status).toBe(503);
    expect((await get(s, "efetch.fcgi", { db: "pubmed", id: "1" })).status).toBe(503);
    expect((await get(s, "efetch.fcgi", { db: "pubmed", id: "1" })).status).toBe(200);
    s.script({ kind: "status", status: 500 });
    const r500 = await get(s, "efetch.fcgi", { db: "pubmed", id: "1" });
    expect(r500.status).toBe(500);
    expect(await r500.json()).toMatchObject({ error: "error forwarding request" });
    s.script({ kind: "status", status: 502 }, 5, "esearch");
    expect((await get(s, "esearch.fcgi", { db: "pubmed", term: "asthma" })).status).toBe(502);
    s.script({ kind: "status", status: 502 }, 0, "esearch");
    expect((await get(s, "esearch.fcgi", { db: "pubmed", term: "asthma" })).status).toBe(200);
  });

  test("truncated XML: a 200 whose PubmedArticleSet is cut off", async () => {
    s.script({ kind: "truncated" }, 1, "efetch");
    const ids = [...s.records.keys()].slice(0, 20).join(",");
    const res = await get(s, "efetch.fcgi", { db: "pubmed", id: ids });
    expect(res.status).toBe(200);
    const xml = await res.text();
    expect(xml.trimEnd().endsWith("</PubmedArticleSet>")).toBe(false);
    const events = parsePubmedXml(xml);
    expect(events.filter((e) => e.type === "article").length).toBeLessThan(20);
    expect(events.some((e) => e.type === "error")).toBe(true);
  });

  test("hang: no answer; the client's own timeout ends the wait", async () => {
    s.script({ kind: "hang" });
    const t0 = performance.now();
    const error = await get(
      s,
      "esearch.fcgi",
      { db: "pubmed", term: "asthma" },
      { signal: AbortSignal.timeout(300) },
    ).then(
      () => null,
      (e: Error) => e,
    );
    expect(error?.name).toBe("TimeoutError");
    expect(performance.now() - t0).toBeLessThan(2000);
    expect(s.requests.at(-1)!.status).toBe(0);
    expect((await get(s, "esearch.fcgi", { db: "pubmed", term: "asthma" })).status).toBe(200);
  });

  test("slow answers and added latency", async () => {
    s.script({ kind: "slow", ms: 300 });
    let t0 = performance.now();
    expect((await get(s, "esearch.fcgi", { db: "pubmed", term: "asthma" })).status).toBe(200);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(290);
    s.setLatency(150);
    t0 = performance.now();
    await get(s, "efetch.fcgi", { db: "pubmed", id: "1" });
    expect(performance.now() - t0).toBeGreaterThanOrEqual(140);
    s.setLatency(0);
  });

  test("unreachable: hanging, or refusing connections; then back on the same port", async () => {
    s.setUnreachable(true);
    const hung = await get(
      s,
      "esearch.fcgi",
      { db: "pubmed", term: "asthma" },
      { signal: AbortSignal.timeout(300) },
    ).then(
      () => null,
      (e: Error) => e,
    );
    expect(hung?.name).toBe("TimeoutError");
    s.setUnreachable(true, "refuse");
    const refused = await get(s, "esearch.fcgi", { db: "pubmed", term: "asthma" }).then(
      () => null,
      (e: Error) => e,
    );
    expect(refused).toBeInstanceOf(Error);
    s.setUnreachable(false);
    expect((await get(s, "esearch.fcgi", { db: "pubmed", term: "asthma" })).status).toBe(200);
  });
});

describe("E-utilities stand-in: NCBI's rate", () => {
  // Each test starts its own stand-in (the rate is counted per stand-in), of a few records (`few`).
  test("more than 3 requests in a second from one client without a key: 429 with NCBI's body", async () => {
    const s = startEutilsStandIn({ records: few() });
    try {
      const since = Date.now();
      const answers = await Promise.all(
        Array.from({ length: 5 }, () => get(s, "esearch.fcgi", { db: "pubmed", term: "asthma", retmode: "json" })),
      );
      const statuses = answers.map((r) => r.status).sort();
      expect(statuses).toEqual([200, 200, 200, 429, 429]);
      const limited = answers.find((r) => r.status === 429)!;
      expect(limited.headers.get("x-ratelimit-limit")).toBe("3");
      const body = (await limited.json()) as Record<string, string>;
      expect(body.error).toBe("API rate limit exceeded");
      expect(body["api-key"]).toBe("127.0.0.1");
      expect(body.limit).toBe("3");
      expect(["4", "5"]).toContain(body.count!);
      expect(s.maxRequestsPerSecond(since)).toBe(5);
      // A second later the client may ask again.
      await Bun.sleep(1000);
      expect((await get(s, "esearch.fcgi", { db: "pubmed", term: "asthma" })).status).toBe(200);
    } finally {
      await s.stop();
    }
  });

  test("with an API key: 10 a second, counted per key", async () => {
    const s = startEutilsStandIn({ records: few() });
    try {
      const burst = (key: string, n: number) =>
        Promise.all(
          Array.from({ length: n }, () =>
            get(s, "esearch.fcgi", { db: "pubmed", term: "asthma", api_key: key }).then((r) => r.status),
          ),
        );
      expect((await burst("KEY1", 11)).filter((st) => st === 429).length).toBe(1);
      expect((await burst("KEY2", 10)).every((st) => st === 200)).toBe(true);
    } finally {
      await s.stop();
    }
  });

  test("a client whose requests arrive 1/3 s apart is never limited, and the measured rate is 3 a second", async () => {
    const s = startEutilsStandIn({ records: few() });
    try {
      // Each request leaves 1/3 s (and 5 ms for the two clocks the stand-in reads) after the previous one *arrived*,
      // as the stand-in recorded it. Spacing by the moment of sending, as a rate gate does, is not enough on a
      // loaded machine: a request held up on its way in arrives just before the next one, and four then fall within
      // one second at the stand-in (seen when the suite shared the cores with other work).
      const since = Date.now();
      for (let i = 0; i < 7; i++) {
        const previous = s.requests.at(-1);
        if (previous) await Bun.sleep(Math.max(0, previous.at + 1000 / 3 + 5 - Date.now()));
        expect((await get(s, "esearch.fcgi", { db: "pubmed", term: "asthma" })).status).toBe(200);
      }
      expect(s.maxRequestsPerSecond(since)).toBe(3);
      expect(s.maxRequestsPerSecond(Date.now() + 1)).toBe(0);
    } finally {
      await s.stop();
    }
  });

  test("limits: a stand-in for clients configured faster enforces the rate it is given", async () => {
    const s = startEutilsStandIn({ records: few(), limits: { withoutKey: 8, withKey: 20 } });
    try {
      const burst = (n: number, key?: string) =>
        Promise.all(
          Array.from({ length: n }, () =>
            get(s, "esearch.fcgi", { db: "pubmed", term: "asthma", ...(key ? { api_key: key } : {}) }).then(
              (r) => r.status,
            ),
          ),
        );
      expect((await burst(9)).filter((st) => st === 429).length).toBe(1);
      expect((await burst(21, "KEY")).filter((st) => st === 429).length).toBe(1);
    } finally {
      await s.stop();
    }
  });

  test("enforceRate: false lets a burst through but still measures it", async () => {
    const s = startEutilsStandIn({ records: few(), enforceRate: false });
    try {
      const statuses = await Promise.all(
        Array.from({ length: 6 }, () => get(s, "efetch.fcgi", { db: "pubmed", id: "1" }).then((r) => r.status)),
      );
      expect(statuses.every((st) => st === 200)).toBe(true);
      expect(s.maxRequestsPerSecond()).toBe(6);
    } finally {
      await s.stop();
    }
  });
});
