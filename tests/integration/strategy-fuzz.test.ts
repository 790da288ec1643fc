import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import fc from "fast-check";
import { sql } from "kysely";
import { join } from "node:path";
import { LAYER_BACKENDS } from "../support/database.ts";
import { createTestApp, type TestApp, type TestUser } from "../support/app.ts";
import { ingestFiles } from "../../search/ingest.ts";
import {
  MAX_STRATEGY_DEPTH,
  MAX_STRATEGY_TERMS,
  matchesRecord,
  type PubmedQueryRecord,
} from "../../search/pubmed/query-syntax.ts";
import { MAX_STRATEGY_LENGTH } from "../../src/reviews/schemas.ts";
import { pubmedSyntaxOf, searchPubmedSyntax } from "../../src/reviews/syntax-search.ts";

/**
 * Issue 34: generated search strategies, of the kinds an attacker or a careless paste sends (letters of many scripts
 * and cases, deep nesting, many terms, quotes, truncation where it may and may not go, NUL and other control
 * characters, regular-expression and LIKE metacharacters, unknown tags), started as reviews through the API. Every one
 * is answered 200 or 4xx with a detail (never 5xx); an accepted one runs to a terminal status other than error within
 * REVIEW_BOUND_MS, and matches exactly the records the in-memory evaluation matches, in both ways the application finds
 * matches (the word index in one statement, the slices); the embedded engine never has to be reopened. On PGlite
 * always, on PostgreSQL too when TEST_DATABASE_URL is set. The numbers the product promises are measured by
 * scripts/bench/bench-syntax-load.ts (docs/benchmarks.md); the bound here is generous, against a machine shared with
 * other test files, and catches what issue 34 found (16 to 28 s for one review).
 */

const REVIEW_BOUND_MS = 10_000;
const RUNS = Number(process.env.STRATEGY_FUZZ_RUNS ?? 40);

const SAMPLE = join(import.meta.dir, "..", "..", "sample", "pubmed");
/** 820 real records with Greek letters, µ and μ, Turkish and Polish names, books and twelve languages. */
const FILES = [
  join(SAMPLE, "medlinecitationset_titipata_medline16n0902.xml.gz"),
  join(SAMPLE, "pubmedxml_solitude6060_fulltext_search_pubmed_result.xml.gz"),
];

/** Letters of several scripts and cases, the characters case folding has to treat specially, and astral ones. */
const SCRIPTS = [
  "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789",
  "àáâãäåæçèéêëìíîïñòóôõöøùúûüýÿÀÁÂÃÄÅÆÇÈÉÊËÌÍÎÏÑÒÓÔÕÖØÙÚÛÜÝßẞſıİǅǄǆ",
  "αβγδεζηθικλμνξοπρσςτυφχψωΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩϐϑϕΐ",
  "абвгдеёжзийклмнопрстуфхцчшщъыьэюяАБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ",
  "肺癌患者研究治疗سرطانالرئةסרטןकैंसरµΩKÅⅢⅲ\u{1D400}\u{1D401}\u0301",
];
/** Regular-expression and LIKE metacharacters, quotes, SQL comment and string marks, controls, NUL. */
const META = [".", "^", "$", "*", "+", "?", "{", "}", "|", "\\", "%", "_", "'", '"', ";", "--", ":", "/", "-", "&"];
const CONTROLS = ["\u0000", "\u0001", "\u001f", "\u007f", "\t", "\n"];
const TAGS = ["tiab", "ti", "ab", "mh", "majr", "au", "ta", "pt", "la", "tw", "ot", "all", "TIAB", "xyz", "ad", "pmid"];

/** A word: letters of one script, sometimes a metacharacter inside, sometimes truncated. */
function wordArbitrary(vocabulary: string[]): fc.Arbitrary<string> {
  const letters = fc
    .tuple(fc.constantFrom(...SCRIPTS), fc.integer({ min: 1, max: 14 }))
    .chain(([script, n]) =>
      fc.array(fc.constantFrom(...script), { minLength: n, maxLength: n }).map((c) => c.join("")),
    );
  const withMeta = fc.tuple(letters, fc.constantFrom(...META), letters).map(([a, m, b]) => `${a}${m}${b}`);
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...vocabulary) },
    { weight: 3, arbitrary: letters },
    { weight: 1, arbitrary: withMeta },
    { weight: 1, arbitrary: fc.constantFrom(...META) },
    { weight: 1, arbitrary: fc.tuple(letters, fc.constantFrom(...CONTROLS)).map(([a, c]) => `${a}${c}`) },
  );
}

/** Terms: words, tagged words and phrases, truncation, dates, unknown tags. */
function termArbitrary(vocabulary: string[]): fc.Arbitrary<string> {
  const word = wordArbitrary(vocabulary);
  const tag = fc.constantFrom(...TAGS);
  return fc.oneof(
    word,
    fc.tuple(word, tag).map(([w, t]) => `${w}[${t}]`),
    fc.tuple(fc.array(word, { minLength: 1, maxLength: 4 }), tag).map(([ws, t]) => `"${ws.join(" ")}"[${t}]`),
    word.map((w) => `${w}*`),
    fc.tuple(word, word).map(([a, b]) => `${a}*${b}`),
    fc.integer({ min: 1900, max: 2030 }).map((y) => `${y}[dp]`),
    fc
      .tuple(fc.integer({ min: 1900, max: 2030 }), fc.integer({ min: 0, max: 30 }))
      .map(([y, n]) => `${y}:${y + n}[dp]`),
  );
}

/** Strategies: Boolean trees, deep nesting, long runs of terms, and the issue's own probe shape. */
function strategyArbitrary(vocabulary: string[]): fc.Arbitrary<string> {
  const term = termArbitrary(vocabulary);
  const op = fc.constantFrom(" AND ", " OR ", " NOT ", " ");
  const { tree } = fc.letrec<{ tree: string; group: string }>((tie) => ({
    tree: fc.oneof({ depthSize: "small", withCrossShrink: true }, term, tie("group")),
    group: fc
      .tuple(tie("tree"), op, tie("tree"), fc.boolean())
      .map(([a, o, b, paren]) => (paren ? `(${a}${o}${b})` : `${a}${o}${b}`)),
  }));
  const deep = fc
    .tuple(fc.integer({ min: 1, max: MAX_STRATEGY_DEPTH + 6 }), term, term)
    .map(([n, a, b]) => `${"(".repeat(n)}${a} AND ${b}${")".repeat(n)}`);
  const alternating = fc
    .array(term, { minLength: 2, maxLength: 2 * MAX_STRATEGY_DEPTH + 4 })
    .map((ts) => ts.map((t, i) => (i === 0 ? t : `${i % 2 ? " OR " : " AND "}${t}`)).join(""));
  const many = fc
    .tuple(fc.array(term, { minLength: 20, maxLength: MAX_STRATEGY_TERMS + 30 }), op)
    .map(([ts, o]) => ts.join(o).slice(0, MAX_STRATEGY_LENGTH + 50));
  const probe = fc
    .tuple(fc.array(fc.constantFrom(...SCRIPTS.slice(1, 4).join("")), { minLength: 20, maxLength: 400 }), fc.nat(40))
    .map(([letters, n]) => `${letters.join("")}[tiab]${Array.from({ length: n }, (_, i) => ` OR q${i}`).join("")}`);
  return fc.oneof(
    { weight: 4, arbitrary: tree },
    { weight: 1, arbitrary: deep },
    { weight: 1, arbitrary: alternating },
    { weight: 1, arbitrary: many },
    { weight: 1, arbitrary: probe },
  );
}

for (const backend of LAYER_BACKENDS) {
  describe(`generated search strategies (${backend})`, () => {
    let t: TestApp;
    let user: TestUser;
    let records: PubmedQueryRecord[];
    let vocabulary: string[];

    beforeAll(async () => {
      t = await createTestApp(backend);
      expect((await ingestFiles(t.deps, FILES)).failedFiles).toEqual([]);
      user = await t.signup();
      records = (
        await sql<PubmedQueryRecord>`
          SELECT title, abstract, mesh_terms, mesh_major_terms, keywords, authors, journal,
                 publication_date::text AS publication_date, publication_year, publication_types, language
          FROM articles`.execute(t.db)
      ).rows;
      // Words of the records themselves, so that generated strategies also match something.
      const words = new Set<string>();
      for (const r of records.slice(0, 200))
        for (const w of `${r.title ?? ""} ${r.mesh_terms.join(" ")}`.match(/[\p{L}\p{N}]{3,}/gu) ?? [])
          if (!["AND", "OR", "NOT"].includes(w)) words.add(w);
      vocabulary = [...words].slice(0, 400);
    }, 120_000);
    afterAll(async () => {
      await t?.close();
    });

    test("answered 200 or 4xx with a detail; accepted ones end in time, match exactly, in both search modes", async () => {
      let accepted = 0;
      let matchedSome = 0;
      await fc.assert(
        fc.asyncProperty(strategyArbitrary(vocabulary), async (strategy) => {
          const created = await t.app.request("/api/v1/literature_review/create", {
            method: "POST",
            headers: user.headers,
          });
          expect(created.status).toBe(200);
          const { id } = (await created.json()) as { id: string };
          const res = await t.app.request(
            `/api/v1/literature_review/start/${id}?user_query=${encodeURIComponent(strategy)}`,
            { method: "POST", headers: user.headers },
          );
          expect(res.status).toBeLessThan(500);
          if (res.status !== 200) {
            expect(res.status).toBeGreaterThanOrEqual(400);
            expect((await res.json()) as { detail: unknown }).toHaveProperty("detail");
            await t.app.request(`/api/v1/literature_review/delete/${id}`, { method: "DELETE", headers: user.headers });
            return;
          }
          accepted++;
          const started = performance.now();
          await t.runJobs();
          expect(performance.now() - started).toBeLessThan(REVIEW_BOUND_MS);
          const details = await t.app.request(`/api/v1/literature_review/details/${id}`, { headers: user.headers });
          expect(details.status).toBe(200);
          const body = (await details.json()) as {
            status: string;
            search_report: { counts: { matched: number } } | null;
          };
          expect(["complete", "no_articles_found"]).toContain(body.status);
          const node = pubmedSyntaxOf(strategy.trim());
          if (node) {
            const expected = records.filter((r) => matchesRecord(node, r)).length;
            if (expected > 0) matchedSome++;
            expect(body.search_report?.counts.matched).toBe(expected);
            for (const mode of ["index", "slices"] as const)
              expect((await searchPubmedSyntax(t.deps, node, { limit: 5, mode })).total).toBe(expected);
          }
          // Reviews in progress are capped per user: the finished one makes room for the next.
          await t.app.request(`/api/v1/literature_review/delete/${id}`, { method: "DELETE", headers: user.headers });
        }),
        { numRuns: RUNS },
      );
      // The generator reaches the evaluation, not only the validation, and some strategies match records.
      expect(accepted).toBeGreaterThan(RUNS / 5);
      expect(matchedSome).toBeGreaterThan(0);
      if (process.env.STRATEGY_FUZZ_VERBOSE) console.log({ accepted, matchedSome });
      expect(t.embedded?.reopened ?? 0).toBe(0);
    }, 600_000);
  });
}
