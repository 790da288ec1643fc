import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import fc from "fast-check";
import { sql } from "kysely";
import { join } from "node:path";
import type { DatabaseHandle } from "../../src/db/database.ts";
import { LAYER_BACKENDS, createTestDatabase } from "../../tests/support/database.ts";
import { ingestFiles } from "../ingest.ts";
import { PostgresSearchIndex } from "../postgres-index.ts";
import { parsePubmedFile, type ParsedArticle } from "./parser.ts";
import { foldCase } from "./query-syntax/words.ts";
import { distinctCharacters, nestingDepth, termCount } from "./query-syntax/limits.ts";
import { indexedWords, INDEXED_WORD_CHARS, OVERFLOW_WORD } from "./query-syntax/sources.ts";
import {
  checkStrategyLimits,
  fillSyntaxIndex,
  isPubmedSyntax,
  LANGUAGE_CODES,
  matchesRecord,
  parsePubmedQuery,
  pubmedQuerySql,
  pubmedQueryWords,
  PubmedQuerySyntaxError,
  translatePubmedQuery,
  type PubmedQueryNode,
  type PubmedQueryRecord,
} from "./query-syntax.ts";

const SAMPLE = join(import.meta.dir, "..", "..", "sample", "pubmed");
/**
 * Real records rich in what the semantics must agree on: a 2016 MEDLINE slice (604 records, 267 with non-ASCII text:
 * Greek letters, µ and μ, ≥, Turkish and Polish author names, a Cyrillic initial, combining marks) and a PubMed search
 * export with books beside articles (214 records, roman numerals, twelve languages).
 */
const FILES = [
  join(SAMPLE, "medlinecitationset_titipata_medline16n0902.xml.gz"),
  join(SAMPLE, "pubmedxml_solitude6060_fulltext_search_pubmed_result.xml.gz"),
];

/** The fields the query reads; a parser without mesh_major_terms yet counts as none. */
function recordOf(a: ParsedArticle): PubmedQueryRecord {
  return {
    title: a.title,
    abstract: a.abstract,
    mesh_terms: a.mesh_terms,
    mesh_major_terms: (a as Partial<ParsedArticle>).mesh_major_terms ?? [],
    keywords: a.keywords,
    authors: a.authors,
    journal: a.journal,
    publication_date: a.publication_date,
    publication_year: a.publication_year,
    publication_types: a.publication_types,
    language: a.language,
  };
}

/** A record with every field empty but those given. */
function record(fields: Partial<PubmedQueryRecord>): PubmedQueryRecord {
  return {
    title: null,
    abstract: null,
    mesh_terms: [],
    mesh_major_terms: [],
    keywords: [],
    authors: null,
    journal: null,
    publication_date: null,
    publication_year: null,
    publication_types: [],
    language: null,
    ...fields,
  };
}

const term = (text: string, field = "all", phrase = false, truncated = false) =>
  ({ kind: "term", text, field, phrase, truncated }) as PubmedQueryNode;

describe("parsePubmedQuery", () => {
  test("field tags, short and long, any case, with or without a space before them", () => {
    const fields: [string, string][] = [
      ["asthma[tiab]", "tiab"],
      ["asthma[Title/Abstract]", "tiab"],
      ["asthma [TIAB]", "tiab"],
      ["asthma[ti]", "ti"],
      ["asthma[Title]", "ti"],
      ["asthma[ab]", "ab"],
      ["asthma[Abstract]", "ab"],
      ["asthma[mh]", "mh"],
      ["asthma[MeSH Terms]", "mh"],
      ["asthma[mesh]", "mh"],
      ["asthma[mh:noexp]", "mh"],
      ["asthma[majr]", "majr"],
      ["asthma[MeSH Major Topic]", "majr"],
      ["smith j[au]", "au"],
      ["smith j[Author]", "au"],
      ["lancet[ta]", "ta"],
      ["lancet[Journal]", "ta"],
      ["2020[dp]", "dp"],
      ["2020[Date - Publication]", "dp"],
      ["review[pt]", "pt"],
      ["review[Publication Type]", "pt"],
      ["english[la]", "la"],
      ["english[Language]", "la"],
      ["asthma[All Fields]", "all"],
      ["asthma[all]", "all"],
      ["asthma[tw]", "tw"],
      ["asthma[ot]", "ot"],
    ];
    for (const [query, field] of fields) expect((parsePubmedQuery(query) as { field: string }).field).toBe(field);
  });

  test("a tag takes all the unquoted words before it, or the quoted phrase just before it", () => {
    expect(parsePubmedQuery("heart failure[tiab]")).toEqual(term("heart failure", "tiab"));
    expect(parsePubmedQuery('"heart failure"[tiab]')).toEqual(term("heart failure", "tiab", true));
    expect(parsePubmedQuery('acute "heart failure"[tiab]')).toEqual({
      kind: "and",
      children: [term("acute"), term("heart failure", "tiab", true)],
    });
    expect(parsePubmedQuery("Asthma, Exercise-Induced[mh]")).toEqual(term("Asthma, Exercise-Induced", "mh"));
    expect(parsePubmedQuery("asthma AND heart failure[ti]")).toEqual({
      kind: "and",
      children: [term("asthma"), term("heart failure", "ti")],
    });
  });

  test("terms side by side are ANDed; untagged words are separate terms, quoted phrases one", () => {
    expect(parsePubmedQuery("asthma children")).toEqual({ kind: "and", children: [term("asthma"), term("children")] });
    expect(parsePubmedQuery('"heart failure" elderly')).toEqual({
      kind: "and",
      children: [term("heart failure", "all", true), term("elderly")],
    });
    // Curly quotes count; punctuation clinging to an untagged word or standing alone is dropped.
    expect(parsePubmedQuery("\u201Cheart failure\u201D & elderly,")).toEqual({
      kind: "and",
      children: [term("heart failure", "all", true), term("elderly")],
    });
    // Lower-case operators are words.
    expect(parsePubmedQuery("rock and roll")).toEqual({
      kind: "and",
      children: [term("rock"), term("and"), term("roll")],
    });
  });

  test("AND, OR, NOT are processed left to right, without precedence", () => {
    const [a, b, c, d] = [term("a1"), term("b1"), term("c1"), term("d1")];
    expect(parsePubmedQuery("a1 OR b1 AND c1")).toEqual({
      kind: "and",
      children: [{ kind: "or", children: [a, b] }, c],
    });
    expect(parsePubmedQuery("a1 AND b1 OR c1")).toEqual({
      kind: "or",
      children: [{ kind: "and", children: [a, b] }, c],
    });
    expect(parsePubmedQuery("a1 NOT b1 OR c1")).toEqual({
      kind: "or",
      children: [{ kind: "not", include: a, exclude: b }, c],
    });
    expect(parsePubmedQuery("a1 OR b1 NOT c1")).toEqual({
      kind: "not",
      include: { kind: "or", children: [a, b] },
      exclude: c,
    });
    expect(parsePubmedQuery("a1 b1 OR c1")).toEqual({ kind: "or", children: [{ kind: "and", children: [a, b] }, c] });
    expect(parsePubmedQuery("a1 OR b1 OR c1 OR d1")).toEqual({ kind: "or", children: [a, b, c, d] });
  });

  test("parentheses nest", () => {
    const [a, b, c, d] = [term("a1"), term("b1"), term("c1"), term("d1")];
    expect(parsePubmedQuery("a1 AND (b1 OR (c1 NOT d1))")).toEqual({
      kind: "and",
      children: [a, { kind: "or", children: [b, { kind: "not", include: c, exclude: d }] }],
    });
    expect(parsePubmedQuery("((a1))")).toEqual(a);
    expect(parsePubmedQuery("(a1 OR b1)(c1 OR d1)")).toEqual({
      kind: "and",
      children: [
        { kind: "or", children: [a, b] },
        { kind: "or", children: [c, d] },
      ],
    });
  });

  test("truncation: a final asterisk, four characters at least, only at the end", () => {
    expect(parsePubmedQuery("child*")).toEqual(term("child", "all", false, true));
    expect(parsePubmedQuery("child*[tiab]")).toEqual(term("child", "tiab", false, true));
    expect(parsePubmedQuery('"breast feed*"[tiab]')).toEqual(term("breast feed", "tiab", true, true));
    expect(parsePubmedQuery("smith j*[au]")).toEqual(term("smith j", "au", false, true));
    expect(() => parsePubmedQuery("chi*")).toThrow(/at least 4 characters/);
    expect(() => parsePubmedQuery("wom*n")).toThrow(/only at the end/);
    expect(() => parsePubmedQuery("child* care[tiab]")).toThrow(/only at the end/);
  });

  test("publication dates: years, months, days and ranges", () => {
    const range = (q: string) => (parsePubmedQuery(q) as { dateRange?: unknown }).dateRange;
    expect(range("2015:2020[dp]")).toEqual({ from: "2015-01-01", to: "2020-12-31" });
    expect(range("2015/01/01:2020/12/31[dp]")).toEqual({ from: "2015-01-01", to: "2020-12-31" });
    expect(range("2020[dp]")).toEqual({ from: "2020-01-01", to: "2020-12-31" });
    expect(range("2020/02[dp]")).toEqual({ from: "2020-02-01", to: "2020-02-29" });
    expect(range("2019/3/5[pdat]")).toEqual({ from: "2019-03-05", to: "2019-03-05" });
    expect(range('"2015/06 : 2016"[Date - Publication]')).toEqual({ from: "2015-06-01", to: "2016-12-31" });
    expect(() => parsePubmedQuery("2020/13[dp]")).toThrow(/not a month/);
    expect(() => parsePubmedQuery("2021/02/29[dp]")).toThrow(/not a date/);
    expect(() => parsePubmedQuery("2020:2015[dp]")).toThrow(/ends before it starts/);
    expect(() => parsePubmedQuery("last year[dp]")).toThrow(/YYYY/);
    expect(() => parsePubmedQuery("0000[dp]")).toThrow(/not a year/);
  });

  test("errors say what is wrong, in words", () => {
    const cases: [string, RegExp][] = [
      ["(asthma OR copd", /"\(" at character 1 is never closed/],
      ["asthma) OR copd", /closes no "\("/],
      ["asthma AND ()", /parentheses at character 12 are empty/],
      ["AND asthma", /AND at character 1 needs a term before it/],
      ["asthma AND", /AND at character 8 needs a term after it/],
      ["asthma OR OR copd", /OR at character 8 needs a term after it/],
      ['"heart failure', /quote opened at character 1 is never closed/],
      ["asthma[tiab", /never closed with "\]"/],
      ["asthma]", /closes no field tag/],
      ["asthma[xyz]", /\[xyz\] is not a PubMed field tag/],
      ["harvard[ad]", /\[ad\] is not searchable here/],
      ["drug therapy[sh]", /\[sh\] is not searchable here/],
      ['"heart failure"[tiab:~3]', /Proximity searching/],
      ["[tiab]", /does not follow a term/],
      ["asthma[tiab][mh]", /does not follow a term/],
      ["", /nothing to search/],
      ["  & - ", /nothing to search/],
      ['""', /no letters or digits/],
      ["x".repeat(10_001), /longer than 10,000 characters/],
      [`${"(".repeat(60)}a${")".repeat(60)}`, /nested more than 50/],
    ];
    for (const [query, message] of cases) {
      let error: unknown;
      try {
        parsePubmedQuery(query);
      } catch (e) {
        error = e;
      }
      expect(error, query).toBeInstanceOf(PubmedQuerySyntaxError);
      expect((error as Error).message, query).toMatch(message);
    }
    try {
      parsePubmedQuery("asthma AND (copd");
    } catch (e) {
      expect((e as PubmedQuerySyntaxError).position).toBe(11);
    }
  });
});

describe("isPubmedSyntax", () => {
  test("plain topics keep their reading", () => {
    for (const topic of [
      "asthma inhaled corticosteroids children",
      "effect of vitamin D on fracture risk in older adults",
      '"heart failure"',
      '"heart failure" elderly -aspirin',
      "smoking and lung cancer",
      "ASTHMA AND COPD IN CHILDREN",
      "covid-19 vaccines (mRNA) in pregnancy",
      "outcomes [review of the literature]",
      "5* hotel stays",
    ])
      expect(isPubmedSyntax(topic), topic).toBe(false);
  });

  test("search strategies are recognised", () => {
    for (const topic of [
      "asthma[tiab]",
      "asthma [MeSH Terms] children",
      "asthma AND children",
      "HIV OR AIDS",
      "(asthma OR wheeze) AND child*",
      "cancer NOT review",
      "child* asthma",
      "smith j[Author]",
      "harvard[ad] asthma",
      '"heart failure"[tiab:~2]',
    ])
      expect(isPubmedSyntax(topic), topic).toBe(true);
  });
});

describe("translatePubmedQuery and pubmedQueryWords", () => {
  test("PubMed's query translation notation", () => {
    expect(
      translatePubmedQuery(parsePubmedQuery("Asthma[tiab] AND (child[mh] OR pediatric*[tiab]) NOT 2010:2012[dp]")),
    ).toBe(
      '("asthma"[Title/Abstract] AND ("child"[MeSH Terms] OR "pediatric*"[Title/Abstract])) NOT 2010/01/01:2012/12/31[Date - Publication]',
    );
    expect(
      translatePubmedQuery(parsePubmedQuery('smith j[au] "heart failure" english[la] review[pt] lancet[ta]')),
    ).toBe(
      '"smith j"[Author] AND "heart failure"[All Fields] AND "english"[Language] AND "review"[Publication Type] AND "lancet"[Journal]',
    );
  });

  test("the positive topical words and phrases, once each", () => {
    const node = parsePubmedQuery(
      'Asthma[tiab] AND (asthma[mh] OR "inhaled corticosteroids" OR steroid*[tw] OR Asthma/drug therapy[majr]) NOT mice[mh] AND smith j[au] AND 2020[dp] AND review[pt]',
    );
    expect(pubmedQueryWords(node)).toEqual(["Asthma", "inhaled corticosteroids", "steroid"]);
  });
});

describe("matchesRecord", () => {
  const article = record({
    title: "Inhaled corticosteroids in children with asthma: a randomised trial",
    abstract: "BACKGROUND: Asthmatic children (aged 5–11) were given budesonide. RESULTS: COVID-19 was rare.",
    mesh_terms: ["Asthma", "Child", "Adrenal Cortex Hormones", "Administration, Inhalation"],
    mesh_major_terms: ["Asthma"],
    keywords: ["inhaled steroids"],
    authors: "Smith JA, Doe B, van der Berg P, O'Brien C",
    journal: "The Lancet (London, England)",
    publication_date: "2019-06-15",
    publication_year: 2019,
    publication_types: ["Journal Article", "Randomized Controlled Trial"],
    language: "eng",
  });
  const matches = (query: string, r = article) => matchesRecord(parsePubmedQuery(query), r);

  test("words are whole words, case-insensitive; phrases adjacent and in order, within one field", () => {
    expect(matches("ASTHMA")).toBe(true);
    expect(matches("asthmatic[ab]")).toBe(true);
    expect(matches("asthmatic[ti]")).toBe(false);
    expect(matches("asthm")).toBe(false);
    expect(matches('"inhaled corticosteroids"[ti]')).toBe(true);
    expect(matches('"corticosteroids inhaled"[ti]')).toBe(false);
    expect(matches("inhaled corticosteroids[tiab]")).toBe(true);
    expect(matches('"randomised trial budesonide"')).toBe(false); // title then abstract: not one phrase
    expect(matches("covid-19")).toBe(true);
    expect(matches('"covid 19"[ab]')).toBe(true);
    expect(matches("5 11[ab]")).toBe(true); // "5–11": an en dash separates words
  });

  test("truncation matches word beginnings, also at a phrase's end", () => {
    expect(matches("asthm*[ab]")).toBe(true);
    expect(matches("corticoster*[ti]")).toBe(true);
    expect(matches('"inhaled cortico*"[ti]')).toBe(true);
    expect(matches("sthma*")).toBe(false);
  });

  test("fields: MeSH headings exactly, major topics, keywords, journal, type, language, date", () => {
    expect(matches("asthma[mh]")).toBe(true);
    expect(matches("administration inhalation[mh]")).toBe(true);
    expect(matches("inhalation[mh]")).toBe(false);
    expect(matches("administration*[mh]")).toBe(true);
    expect(matches("asthma/drug therapy[mh]")).toBe(true);
    expect(matches("asthma[majr]")).toBe(true);
    expect(matches("child[majr]")).toBe(false);
    expect(matches("steroids[ot]")).toBe(true);
    expect(matches("steroids[tiab]")).toBe(false);
    expect(matches("steroids[tw]")).toBe(true);
    expect(matches("inhalation[tw]")).toBe(true);
    expect(matches("lancet[ta]")).toBe(true);
    expect(matches('"the lancet"[ta]')).toBe(true);
    expect(matches('"lancet london england"[ta]')).toBe(true);
    expect(matches("london[ta]")).toBe(false);
    expect(matches("london")).toBe(true);
    expect(matches("randomized controlled trial[pt]")).toBe(true);
    expect(matches("trial[pt]")).toBe(false);
    expect(matches("randomized*[pt]")).toBe(true);
    expect(matches("english[la]")).toBe(true);
    expect(matches("ENG[la]")).toBe(true);
    expect(matches("french[la]")).toBe(false);
    expect(LANGUAGE_CODES.french).toBe("fre");
    expect(matches("2019[dp]")).toBe(true);
    expect(matches("2019/06[dp]")).toBe(true);
    expect(matches("2019/07:2020[dp]")).toBe(false);
    expect(matches("2010:2019/06/15[dp]")).toBe(true);
    const yearOnly = record({ title: "x", publication_year: 2019 });
    expect(matches("2019/06[dp]", yearOnly)).toBe(true);
    expect(matches("2020[dp]", yearOnly)).toBe(false);
    expect(matches("2019[dp]", record({ title: "x" }))).toBe(false);
  });

  test("authors: initials are prefixes, a last name alone is whole, quotes match exactly", () => {
    expect(matches("smith[au]")).toBe(true);
    expect(matches("smith j[au]")).toBe(true);
    expect(matches("smith ja[au]")).toBe(true);
    expect(matches('"smith j"[au]')).toBe(false);
    expect(matches('"smith ja"[au]')).toBe(true);
    expect(matches("smit[au]")).toBe(false);
    expect(matches("smit*[au]")).toBe(true);
    expect(matches("doe b[au]")).toBe(true);
    expect(matches("doe a[au]")).toBe(false);
    expect(matches("van der berg[au]")).toBe(true);
    expect(matches("o'brien c[au]")).toBe(true);
    expect(matches("ja[au]")).toBe(false);
    expect(matches("smith")).toBe(true); // All Fields reads authors as words
  });

  test("Boolean combinations", () => {
    expect(matches("asthma[mh] AND child[mh] NOT mice[mh]")).toBe(true);
    expect(matches("asthma[mh] NOT child[mh]")).toBe(false);
    expect(matches("mice[mh] OR asthma[mh] AND 2019[dp]")).toBe(true);
    expect(matches("asthma[mh] OR mice[mh] AND 2018[dp]")).toBe(false); // (asthma OR mice) AND 2018
    expect(matches("asthma[mh] OR (mice[mh] AND 2018[dp])")).toBe(true);
  });

  test("Unicode: letters of any script, case classes, separators", () => {
    const r = record({
      title: "ΟΔΟΣ study of İstanbul cohorts: 10 µm particles, Stage Ⅲ, TNF‐α and “asthma”",
      abstract: "Ölçüm 3\u00A0K (kelvin \u212A). Café au lait; 肺癌 患者; naïve T‐cells.",
      authors: "Yılmaz Ş, Özdemir İ, Stroganova АМ",
    });
    expect(matches("οδος[ti]", r)).toBe(true); // final sigma folds with Σ and σ
    expect(matches("ΟΔΟς[ti]", r)).toBe(true);
    expect(matches("istanbul[ti]", r)).toBe(true); // İ folds to i
    expect(matches("μm[ti]", r)).toBe(true); // Greek mu = micro sign
    expect(matches("stage ⅲ[ti]", r)).toBe(true);
    expect(matches('"tnf α"[ti]', r)).toBe(true); // U+2010 hyphen separates
    expect(matches("asthma[ti]", r)).toBe(true); // curly quotes separate
    expect(matches("ölçüm[ab] AND ÖLÇÜM[ab]", r)).toBe(true);
    expect(matches('"3 k"[ab] AND "kelvin k"[ab]', r)).toBe(true); // no-break space separates; Kelvin sign = k
    expect(matches("café[ab] AND CAFÉ[ab]", r)).toBe(true);
    expect(matches("cafe[ab]", r)).toBe(false); // accents are not removed
    expect(matches("肺癌[ab]", r)).toBe(true);
    expect(matches("naïve[ab]", r)).toBe(true);
    expect(matches("yilmaz s[au]", r)).toBe(false); // ş is not s
    expect(matches("yılmaz ş[au] AND YILMAZ Ş[au]", r)).toBe(true); // ı and I fold with i
    expect(matches("özdemir i[au]", r)).toBe(true);
    expect(matches("stroganova am[au]", r)).toBe(false); // Cyrillic А and М are not Latin
    expect(matches("stroganova[au]", r)).toBe(true);
  });
});

describe("case folding (issue 34: once per text, whatever the query)", () => {
  /** Characters linked by single-character lower- or upper-casing, closed transitively: the documented classes. */
  function linkedClasses(): Map<number, number> {
    const parent = new Map<number, number>();
    const find = (x: number): number => {
      while (parent.has(x) && parent.get(x) !== x) x = parent.get(x)!;
      return x;
    };
    const union = (a: number, b: number) => {
      const [ra, rb] = [find(a), find(b)];
      if (ra !== rb) parent.set(Math.max(ra, rb), Math.min(ra, rb));
      if (!parent.has(Math.min(ra, rb))) parent.set(Math.min(ra, rb), Math.min(ra, rb));
    };
    for (let cp = 0; cp <= 0x1ffff; cp++) {
      if (cp >= 0xd800 && cp < 0xe000) continue;
      const ch = String.fromCodePoint(cp);
      for (const other of [ch.toLowerCase(), ch.toUpperCase()])
        if ([...other].length === 1 && other !== ch) union(cp, other.codePointAt(0)!);
    }
    const root = new Map<number, number>();
    for (const cp of parent.keys()) root.set(cp, find(cp));
    return root;
  }

  test("two characters fold alike exactly when they are case-linked (İ aside, which folds to i)", () => {
    const root = linkedClasses();
    const byFold = new Map<string, number>();
    for (let cp = 0; cp <= 0x1ffff; cp++) {
      if (cp >= 0xd800 && cp < 0xe000) continue;
      const ch = String.fromCodePoint(cp);
      const folded = foldCase(ch);
      expect([...folded]).toHaveLength(1);
      // Folding is idempotent and keeps a character a word character or not.
      expect(foldCase(folded)).toBe(folded);
      expect(/[\p{L}\p{M}\p{N}]/u.test(folded)).toBe(/[\p{L}\p{M}\p{N}]/u.test(ch));
      const cls = cp === 0x130 ? root.get(0x69)! : (root.get(cp) ?? cp);
      const seen = byFold.get(folded);
      if (seen === undefined) byFold.set(folded, cls);
      else expect(seen).toBe(cls);
    }
  });

  test("a text folds to its letters' usual lower case, mixed scripts at once", () => {
    expect(foldCase("ΟΔΟΣ οδος İstanbul ſtudy Kelvin K µm Ⅲ ǅ")).toBe("οδοσ οδοσ istanbul study kelvin k μm ⅲ ǆ");
    expect(foldCase("Straße STRASSE ẞ")).toBe("straße strasse ß");
    expect(foldCase("plain ASCII")).toBe("plain ascii");
  });
});

describe("strategy limits", () => {
  const parse = (q: string) => parsePubmedQuery(q);

  test("terms, nesting (runs of one operator are one level) and distinct characters are counted as documented", () => {
    expect(termCount(parse("a1 OR b1 OR c1 NOT d1"))).toBe(4);
    expect(termCount(parse('"heart failure"[tiab] AND 2010:2020[dp]'))).toBe(2);
    expect(nestingDepth(parse("asthma"))).toBe(0);
    expect(nestingDepth(parse("a1 OR b1 OR c1"))).toBe(1);
    expect(nestingDepth(parse("a1 NOT b1 NOT c1 NOT d1"))).toBe(1);
    expect(nestingDepth(parse("a1 OR b1 AND c1 OR d1"))).toBe(3);
    expect(nestingDepth(parse("(a1 OR b1) AND (c1 OR (d1 NOT e1))"))).toBe(3);
    expect(distinctCharacters("Asthma ASTHMA")).toBe(5);
    expect(distinctCharacters("ΣΗΨΗ σηψη ς")).toBe(3);
  });

  test("past a limit, a PubmedQuerySyntaxError that says which and by how much", () => {
    const many = Array.from({ length: 101 }, (_, i) => `w${i}`).join(" OR ");
    expect(() => checkStrategyLimits(many, parse(many))).toThrow("It has 101 terms; at most 100 are allowed.");
    const deep = "a1 OR b1 AND c1 OR d1 AND e1 OR f1 AND g1 OR h1 AND i1 OR j1 AND k1 OR l1";
    expect(() => checkStrategyLimits(deep, parse(deep))).toThrow(/^Its operators are nested 11 levels deep/);
    const letters =
      "αβγδεζηθικλμνξοπρστυφχψωабвгдежзийклмнопрстуфхцчшщъыьэюяàáâãäåæçèéêëìíîïñòóôõöøùúûüýþÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįĵķĸĺļľŀłńņň";
    expect(() => checkStrategyLimits(`${letters}[tiab]`, parse(`${letters}[tiab]`))).toThrow(
      /^It uses 1\d\d different characters \(not counting upper and lower case\); at most 120 are allowed\.$/,
    );
    expect(() => checkStrategyLimits("asthma[tiab] OR copd", parse("asthma[tiab] OR copd"))).not.toThrow();
  });
});

describe("the word index of a record", () => {
  test("distinct words of every source; long words cut to a prefix; too many bytes give the catch-all entry", () => {
    expect(indexedWords([" asthma in children ", "| asthma | child |"]).sort()).toEqual(
      ["asthma", "child", "children", "in"].sort(),
    );
    const long = "x".repeat(INDEXED_WORD_CHARS + 10);
    expect(indexedWords([` ${long} `])).toEqual(["x".repeat(INDEXED_WORD_CHARS)]);
    const huge = Array.from({ length: 60_000 }, (_, i) => `w${i}`).join(" ");
    expect(indexedWords([` ${huge} `])).toEqual([OVERFLOW_WORD]);
  });
});

/** The articles of the files as ingest leaves them: in file order, a DeleteCitation removing its PMIDs. */
async function sampleRecords(): Promise<Map<number, PubmedQueryRecord>> {
  const records = new Map<number, PubmedQueryRecord>();
  for (const file of FILES)
    for await (const event of parsePubmedFile(file)) {
      if (event.type === "article") records.set(event.article.pmid, recordOf(event.article));
      else if (event.type === "delete") for (const pmid of event.pmids) records.delete(pmid);
    }
  return records;
}

/** Hand-made rows for the corners of Unicode the sample lacks, inserted beside the real ones. */
const EDGE_ROWS: [number, PubmedQueryRecord][] = [
  [
    2_000_000_001,
    record({
      title: "ΟΔΟΣ and οδος: İstanbul cohort, 3 \u212A (Kelvin sign), ſtudy of Ⅲ and ⅲ",
      abstract:
        "Cafe\u0301 versus Café; ẞ and ß; ǅ digraph; 肺癌患者; \u{1D400}\u{1D401} bold; A\u200DB joined; tab\there",
      authors: "Yılmaz Ş, Özdemir İ, Ǆukić D",
      journal: "Ärztliche Praxis (München)",
      mesh_terms: ["Straße", "Σήψη"],
      mesh_major_terms: ["Σήψη"],
      keywords: ["µ-opioid", "naïve"],
      publication_types: ["Journal Article"],
      language: "ger",
      publication_date: "2001-02-03",
      publication_year: 2001,
    }),
  ],
  [
    2_000_000_002,
    record({
      title: "ISTANBUL STUDY: KELVIN K, STUDY OF III",
      abstract: "CAFÉ, STRASSE and ǄUKIĆ; ΣΗΨΗ",
      authors: "Yilmaz S, Ozdemir I",
      journal: "The Journal of Testing",
      publication_year: 1999,
      language: "eng",
    }),
  ],
];

async function insertEdgeRows(db: DatabaseHandle["db"]): Promise<void> {
  await db
    .insertInto("articles")
    .values(
      EDGE_ROWS.map(([pmid, r]) => ({
        pmid,
        title: r.title,
        authors: r.authors,
        abstract: r.abstract,
        abstract_sections: "[]",
        journal: r.journal,
        publication_date: r.publication_date,
        publication_date_precision: r.publication_date ? "day" : "year",
        publication_year: r.publication_year,
        doi: null,
        pmc_id: null,
        full_text_link: null,
        pdf_free_link: null,
        language: r.language,
        publication_types: r.publication_types,
        mesh_terms: r.mesh_terms,
        mesh_major_terms: r.mesh_major_terms,
        keywords: r.keywords,
        content_hash: `edge-${pmid}`,
      })),
    )
    .execute();
}

/** Searchable words, phrases and field values drawn from the records, for the generated queries. */
function vocabulary(records: PubmedQueryRecord[]) {
  const wordsOf = (text: string | null) => text?.match(/[\p{L}\p{M}\p{N}]+/gu) ?? [];
  const unique = <T>(xs: T[]) => [...new Set(xs)];
  const textWords = unique(records.flatMap((r) => [...wordsOf(r.title), ...wordsOf(r.abstract)])).filter(
    (w) => !["AND", "OR", "NOT"].includes(w),
  );
  const nonAscii = textWords.filter((w) => /[^\x00-\x7f]/.test(w));
  const common = textWords.filter((w, i) => i % 7 === 0 && w.length > 2);
  const words = unique([
    ...nonAscii,
    ...common,
    ...nonAscii.map((w) => w.toUpperCase()),
    ...common.slice(0, 100).map((w) => w.toUpperCase()),
  ]);
  const phrases = records.flatMap((r) => {
    const w = wordsOf(r.title);
    return w.length >= 3 ? [w.slice(0, 2).join(" "), w.slice(1, 4).join(" ")] : [];
  });
  const prefixes = unique(
    textWords.filter((w) => [...w].length >= 5).map((w) => [...w].slice(0, 4 + (w.length % 3)).join("")),
  );
  const noQuote = (s: string) => !s.includes('"');
  const headings = unique(records.flatMap((r) => r.mesh_terms)).filter(noQuote);
  const majors = unique(records.flatMap((r) => r.mesh_major_terms)).filter(noQuote);
  const authors = unique(records.flatMap((r) => r.authors?.split(", ") ?? [])).filter((a) => !a.includes('"'));
  const journals = unique(
    records.flatMap((r) => (r.journal ? [r.journal, r.journal.replace(/\s*\([^()]*\)\s*$/, "")] : [])),
  ).filter((j) => !j.includes('"'));
  const types = unique(records.flatMap((r) => r.publication_types)).filter(noQuote);
  const languages = unique([
    ...records.flatMap((r) => (r.language ? [r.language] : [])),
    ...Object.keys(LANGUAGE_CODES).slice(0, 20),
  ]);
  return {
    words,
    phrases: unique(phrases),
    prefixes,
    headings,
    majors: majors.length ? majors : headings,
    authors,
    journals,
    types,
    languages,
  };
}

/** Can be written unquoted before a tag. */
const bare = (s: string) => !/[()"[\]*]/.test(s) && !/(^|\s)(AND|OR|NOT)(\s|$)/.test(s) && /[\p{L}\p{N}]/u.test(s);

/** Random queries in PubMed's syntax over the vocabulary: every field, phrases, truncation, dates, nested Booleans. */
function queryArbitrary(v: ReturnType<typeof vocabulary>): fc.Arbitrary<string> {
  const pick = <T>(xs: T[]) => fc.constantFrom(...xs);
  const textTag = pick(["tiab", "ti", "ab", "Title/Abstract", "tw", "ot", "All Fields", "TIAB"]);
  /** A value with a tag, in quotes or (when it can be) without. */
  const tagged = (values: string[], tag: string, shape = (s: string) => s) =>
    fc
      .tuple(pick(values), fc.boolean())
      .map(([s, quoted]) => (bare(shape(s)) && !quoted ? `${shape(s)}[${tag}]` : `"${shape(s)}"[${tag}]`));
  const wordChars = (s: string) => (s.match(/[\p{L}\p{M}\p{N}]/gu) ?? []).length;
  const headingPrefixes = v.headings
    .map((h) => [...h].slice(0, 4 + (h.length % 4)).join(""))
    .filter((p) => wordChars(p) >= 4);
  const year = fc.integer({ min: 1950, max: 2020 });
  const term = fc.oneof(
    pick(v.words),
    fc.tuple(pick(v.words), textTag).map(([w, t]) => `${w}[${t}]`),
    fc.tuple(pick(v.phrases), textTag).map(([p, t]) => `"${p}"[${t}]`),
    pick(v.phrases).map((p) => `"${p}"`),
    pick(v.prefixes).map((p) => `${p}*`),
    fc.tuple(pick(v.prefixes), textTag).map(([p, t]) => `${p}*[${t}]`),
    fc.tuple(pick(v.phrases), pick(v.prefixes)).map(([p, x]) => `"${p.split(" ")[0]} ${x}*"[tiab]`),
    tagged(v.headings, "mh"),
    tagged(v.headings, "MeSH Terms", (h) => h.toUpperCase()),
    pick(headingPrefixes).map((h) => `"${h}*"[mh]`),
    tagged(v.majors, "majr"),
    tagged(v.authors, "au"),
    pick(v.authors).map((a) => `"${a}"[au]`),
    pick(v.authors)
      .map((a) => a.split(" ")[0]!)
      .filter(bare)
      .map((a) => `${a}[au]`),
    pick(v.authors)
      .filter(bare)
      .map((a) => `${a.slice(0, a.lastIndexOf(" ") + 2)}[Author]`),
    tagged(v.journals, "ta"),
    tagged(v.types, "pt"),
    pick(v.languages).map((l) => `${l}[la]`),
    year.map((y) => `${y}[dp]`),
    fc.tuple(year, fc.integer({ min: 0, max: 15 })).map(([y, n]) => `${y}:${y + n}[dp]`),
    fc.tuple(year, fc.integer({ min: 1, max: 12 })).map(([y, m]) => `${y}/${String(m).padStart(2, "0")}[dp]`),
    fc.constantFrom("zzqxv", "zzqxv[tiab]", "nonexistentheading[mh]"),
  );
  const { node } = fc.letrec<{ node: string; group: string }>((tie) => ({
    node: fc.oneof({ depthSize: "small", withCrossShrink: true }, term, tie("group")),
    group: fc
      .tuple(tie("node"), fc.constantFrom(" AND ", " OR ", " NOT ", " "), tie("node"), fc.boolean())
      // Side by side, untagged words before a tagged term would join it (`a b[ti]` is the phrase "a b"): keep them
      // apart.
      .map(([a, op, b, paren]) => {
        const text = op === " " ? `${a} (${b})` : `${a}${op}${b}`;
        return paren ? `(${text})` : text;
      }),
  }));
  return node;
}

/** Queries researchers write, over what the sample holds. */
const STRATEGIES: { query: string; least?: number; pmids?: number[]; includes?: number[] }[] = [
  {
    query: "(randomized controlled trial[pt] OR randomized[tiab] OR randomised[tiab] OR placebo[tiab]) AND humans[mh]",
    least: 5,
  },
  {
    query: "(neoplasms[mh] OR cancer*[tiab] OR carcinoma*[tiab] OR tumour*[tiab] OR tumor*[tiab]) NOT animals[mh]",
    least: 20,
  },
  { query: "nasopharyngeal neoplasms[mh] AND (child[mh] OR adolescent[mh]) AND 2000:2018[dp]", least: 1 },
  { query: "nasopharyngeal neoplasms[majr] OR carcinoma[majr] NOT humans[mh]" },
  {
    query:
      '("cataract extraction"[tiab] OR phacoemulsification[tiab] OR cataract[mh]) AND "journal of cataract and refractive surgery"[ta]',
    least: 1,
  },
  { query: "english[la] AND review[pt] AND 2015/01:2016/12[dp]", least: 5 },
  { query: "(german[la] OR fre[la] OR chinese[la]) NOT english abstract[pt]" },
  { query: "β[tiab] OR μm[tiab] OR µm[tiab] OR α[tiab] OR ΔH[tiab]", least: 5 },
  { query: "hancı v[au] OR arı s[au] OR çağlar aa[au]", pmids: [25241607, 26701098, 26702341] },
  { query: '"stage ⅲ"[tiab] OR "STAGE Ⅲ"[tiab]', pmids: [23607949] },
  {
    query: "kardiochirurgia i torakochirurgia polska*[ta] AND (surg*[tiab] OR cardiac surgical procedures[mh])",
    least: 1,
  },
  { query: "istanbul[ti] AND kelvin[ti] AND ſtudy[ti]", pmids: [2_000_000_001, 2_000_000_002] },
  { query: 'σήψη[majr] OR straße[mh] OR ǆukić[au] OR "ärztliche praxis"[ta] OR cafe[ab]', pmids: [2_000_000_001] },
  {
    query: "café[ab] AND (ΣΗΨΗ[ab] OR ⅲ[ti] OR \u{1D400}\u{1D401}[ab] OR joined[ab])",
    pmids: [2_000_000_001, 2_000_000_002],
  },
  { query: "yilmaz s[au] OR özdemir i[au]", includes: [2_000_000_001, 2_000_000_002] },
];

for (const backend of LAYER_BACKENDS) {
  describe(`the SQL reads queries as matchesRecord does, on ${backend}`, () => {
    let handle: DatabaseHandle;
    let records: Map<number, PubmedQueryRecord>;

    beforeAll(async () => {
      handle = await createTestDatabase(backend);
      await ingestFiles({ db: handle.db, search: new PostgresSearchIndex(handle.db) }, FILES);
      await insertEdgeRows(handle.db);
      // Rows inserted directly lack the syntax index the ingest writes.
      expect(await fillSyntaxIndex(handle.db)).toBe(EDGE_ROWS.length);
      records = await sampleRecords();
      for (const [pmid, r] of EDGE_ROWS) records.set(pmid, r);
      // While the ingest path does not write mesh_major_terms yet, read the stored ones: both sides must see one
      // record.
      const stored = await handle.db.selectFrom("articles").select(["pmid", "mesh_major_terms"]).execute();
      let differing = 0;
      for (const row of stored) {
        const r = records.get(row.pmid);
        if (r && JSON.stringify(r.mesh_major_terms) !== JSON.stringify(row.mesh_major_terms)) {
          differing++;
          records.set(row.pmid, { ...r, mesh_major_terms: row.mesh_major_terms });
        }
      }
      if (differing)
        console.warn(
          `query-syntax.test: ${differing} stored mesh_major_terms differ from the parser's; using the stored ones`,
        );
    });
    afterAll(async () => {
      await handle?.close();
    });

    const inMemory = (node: PubmedQueryNode) =>
      [...records]
        .filter(([, r]) => matchesRecord(node, r))
        .map(([pmid]) => pmid)
        .sort((a, b) => a - b);
    const inSql = async (node: PubmedQueryNode) =>
      (
        await sql<{
          pmid: number;
        }>`SELECT a.pmid FROM articles a WHERE ${pubmedQuerySql(node)} ORDER BY a.pmid`.execute(handle.db)
      ).rows.map((r) => r.pmid);

    test("the database holds the records parsed from the same files", async () => {
      const { rows } = await sql<{ pmid: number }>`SELECT pmid FROM articles ORDER BY pmid`.execute(handle.db);
      expect(rows.map((r) => r.pmid)).toEqual([...records.keys()].sort((a, b) => a - b));
      expect(records.size).toBe(820);
    });

    test("real search strategies select the same PMIDs", async () => {
      for (const { query, least, pmids, includes } of STRATEGIES) {
        const node = parsePubmedQuery(query);
        const expected = inMemory(node);
        expect(await inSql(node), query).toEqual(expected);
        if (least !== undefined) expect(expected.length, query).toBeGreaterThanOrEqual(least);
        if (pmids) expect(expected, query).toEqual(pmids);
        for (const pmid of includes ?? []) expect(expected, query).toContain(pmid);
      }
    });

    test("property: random queries over the records' own words select the same PMIDs", async () => {
      const arbitrary = queryArbitrary(vocabulary([...records.values()]));
      let nonEmpty = 0;
      let runs = 0;
      await fc.assert(
        fc.asyncProperty(arbitrary, async (query) => {
          const node = parsePubmedQuery(query);
          const expected = inMemory(node);
          runs++;
          if (expected.length > 0 && expected.length < records.size) nonEmpty++;
          expect(await inSql(node)).toEqual(expected);
        }),
        { numRuns: Number(process.env.QUERY_SYNTAX_RUNS ?? 60) },
      );
      // The generated queries are not all trivially empty or full.
      expect(nonEmpty).toBeGreaterThan(runs / 4);
    });

    test("a record whose words exceed the index entry is still found, through the catch-all entry", async () => {
      const abstract = Array.from({ length: 60_000 }, (_, i) => `w${i}`).join(" ");
      const big = record({ title: "Overflowing", abstract, publication_year: 2020 });
      await handle.db
        .insertInto("articles")
        .values({
          pmid: 2_000_000_009,
          title: big.title,
          abstract,
          abstract_sections: "[]",
          publication_year: 2020,
          content_hash: "big",
        })
        .execute();
      try {
        await fillSyntaxIndex(handle.db);
        for (const query of ["w59999[ab]", '"w7 w8"[tiab]', "w5999*[ab] NOT zz9zz[ti]", '"w8 w7"[ab]']) {
          const node = parsePubmedQuery(query);
          const found = (await inSql(node)).includes(2_000_000_009);
          expect(found, query).toBe(matchesRecord(node, big));
        }
      } finally {
        await handle.db.deleteFrom("articles").where("pmid", "=", 2_000_000_009).execute();
      }
    });

    test("a word longer than the index keeps is found whole, as a prefix, and not by a longer one", async () => {
      const long = `acgt${"tgca".repeat(30)}`;
      const abstract = `sequence ${long} end`;
      const r = record({ title: "Long word", abstract, publication_year: 2020 });
      await handle.db
        .insertInto("articles")
        .values({ pmid: 2_000_000_010, title: r.title, abstract, abstract_sections: "[]", content_hash: "long" })
        .execute();
      try {
        await fillSyntaxIndex(handle.db);
        for (const query of [`${long}[ab]`, `${long.slice(0, 90)}*[ab]`, `${long}x[ab]`, `${long.slice(0, 90)}[ab]`]) {
          const node = parsePubmedQuery(query);
          const found = (await inSql(node)).includes(2_000_000_010);
          expect(found, query).toBe(matchesRecord(node, r));
        }
        expect(matchesRecord(parsePubmedQuery(`${long}[ab]`), r)).toBe(true);
      } finally {
        await handle.db.deleteFrom("articles").where("pmid", "=", 2_000_000_010).execute();
      }
    });
  });
}
