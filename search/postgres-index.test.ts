import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { sql } from "kysely";
import type { DatabaseHandle } from "../src/db/database.ts";
import { LAYER_BACKENDS, createTestDatabase } from "../tests/support/database.ts";
import { PostgresSearchIndex } from "./postgres-index.ts";
import type { IndexableArticle } from "./search-index.ts";

/** An article with defaults for the fields a test does not care about. */
function article(pmid: number, fields: Partial<Omit<IndexableArticle, "pmid">> = {}): IndexableArticle {
  return { pmid, title: null, abstract: null, mesh_terms: [], keywords: [], publication_year: 2020, ...fields };
}

/** Filler sentences that make "patients", "treatment" and "study" common across the corpus. */
const FILLER = "Patients received standard treatment in this study and outcomes of the patients were recorded.";

for (const backend of LAYER_BACKENDS) {
  describe(`PostgresSearchIndex on ${backend}`, () => {
    let handle: DatabaseHandle;
    let index: PostgresSearchIndex;

    /** Writes the canonical rows (the index reads them from articles), then indexes them. */
    async function load(articles: IndexableArticle[], into = index) {
      await writeArticles(articles);
      await into.index(articles.map((a) => a.pmid));
    }

    /** Inserts or updates rows of `articles` without indexing them. */
    async function writeArticles(articles: IndexableArticle[]) {
      for (const a of articles) {
        await sql`
          INSERT INTO articles (pmid, title, abstract, publication_year, mesh_terms, keywords, content_hash)
          VALUES (${a.pmid}, ${a.title}, ${a.abstract}, ${a.publication_year},
                  ${`{${a.mesh_terms.map((m) => JSON.stringify(m)).join(",")}}`}::text[],
                  ${`{${a.keywords.map((m) => JSON.stringify(m)).join(",")}}`}::text[], 'h')
          ON CONFLICT (pmid) DO UPDATE SET title = excluded.title, abstract = excluded.abstract,
            publication_year = excluded.publication_year, mesh_terms = excluded.mesh_terms, keywords = excluded.keywords`.execute(
          handle.db,
        );
      }
    }

    async function pmids(query: string, options = {}) {
      return (await index.search(query, options)).hits.map((h) => h.pmid);
    }

    async function df(lexeme: string): Promise<number | null> {
      const { rows } = await sql<{
        df: number;
      }>`SELECT df::integer AS df FROM search_lexeme_stats WHERE lexeme = ${lexeme}`.execute(handle.db);
      return rows[0]?.df ?? null;
    }

    /** Lexemes whose stored df differs from a full recount over article_search (should be none). */
    async function statsDrift(): Promise<unknown[]> {
      const { rows } = await sql`
        SELECT coalesce(t.word, s.lexeme) AS lexeme, t.ndoc, s.df
        FROM (SELECT word, ndoc FROM ts_stat('SELECT document FROM article_search')) t
        FULL JOIN (SELECT lexeme, df::integer AS df FROM search_lexeme_stats WHERE lexeme NOT LIKE ' %') s
          ON s.lexeme = t.word
        WHERE t.ndoc IS DISTINCT FROM s.df
        UNION ALL
        SELECT ' documents', (SELECT count(*)::integer FROM article_search), df::integer FROM search_lexeme_stats
        WHERE lexeme = ' documents' AND df <> (SELECT count(*) FROM article_search)
        UNION ALL
        SELECT ' length', (SELECT sum(doc_length)::integer FROM article_search), df::integer FROM search_lexeme_stats
        WHERE lexeme = ' length' AND df <> (SELECT sum(doc_length) FROM article_search)`.execute(handle.db);
      return rows;
    }

    beforeAll(async () => {
      handle = await createTestDatabase(backend);
      index = new PostgresSearchIndex(handle.db);
    });
    afterAll(async () => {
      await handle.close();
    });
    beforeEach(async () => {
      await sql`DELETE FROM articles`.execute(handle.db);
      // Impact lists outlive their documents until the next refresh(); start every test without any.
      await sql`DELETE FROM search_term_lists`.execute(handle.db);
    });

    test("an article with a rare query term outranks one with only a common term", async () => {
      const filler = Array.from({ length: 8 }, (_, i) =>
        article(100 + i, { title: `Outcomes report ${i}`, abstract: FILLER }),
      );
      await load([
        ...filler,
        article(1, { title: "Hospital outcomes", abstract: `${FILLER} ${FILLER} Most patients were discharged.` }),
        article(2, {
          title: "Gastric acid suppression",
          abstract: "Ranitidine reduced gastric acid output in volunteers.",
        }),
      ]);
      const hits = await pmids("ranitidine in patients");
      expect(hits[0]).toBe(2);
      expect(hits).toContain(1);
    });

    test("a title match beats an abstract-only match", async () => {
      await load([
        article(1, { title: "Bone density in athletes", abstract: "We measured sclerostin levels after training." }),
        article(2, { title: "Sclerostin in athletes", abstract: "We measured bone density levels after training." }),
        article(3, { title: "Unrelated", abstract: "Cardiac output at rest." }),
      ]);
      expect(await pmids("sclerostin")).toEqual([2, 1]);
    });

    test("MeSH terms and keywords are searchable and weigh more than the abstract", async () => {
      await load([
        article(1, { title: "A cohort", abstract: "Some participants had hypertension at baseline." }),
        article(2, { title: "A cohort", abstract: "Participants were followed up.", mesh_terms: ["Hypertension"] }),
        article(3, { title: "A cohort", abstract: "Participants were followed up.", keywords: ["blood pressure"] }),
      ]);
      expect(await pmids("hypertension")).toEqual([2, 1]);
      expect(await pmids("blood pressure")).toEqual([3]);
    });

    test("a stop-word-only or empty query returns no hits", async () => {
      await load([article(1, { title: "The role of it", abstract: "What is this and how is it done?" })]);
      for (const q of ["the of and is", "", "   ", "?!,;", '""', "-"]) {
        const r = await index.search(q);
        expect(r).toEqual({ hits: [], total: 0, totalIsLowerBound: false });
      }
    });

    test("OR semantics: an article matching some query words is found, more matches rank higher", async () => {
      await load([
        article(1, {
          title: "Smoking and lung cancer in women",
          abstract: "Smoking is associated with lung cancer risk in women.",
        }),
        article(2, { title: "Lung function in children", abstract: "Spirometry in children with asthma." }),
        article(3, { title: "Diet in women", abstract: "Dietary fibre intake in women." }),
        article(4, { title: "Knee surgery", abstract: "Arthroscopy outcomes." }),
      ]);
      const r = await index.search("Is smoking associated with lung cancer in women?");
      expect(r.hits[0]?.pmid).toBe(1);
      expect(r.hits.map((h) => h.pmid).sort()).toEqual([1, 2, 3]);
      expect(r.total).toBe(3);
      expect(r.totalIsLowerBound).toBe(false);
      for (let i = 1; i < r.hits.length; i++) expect(r.hits[i - 1]!.score).toBeGreaterThanOrEqual(r.hits[i]!.score);
    });

    test("inflected forms match (English stemming) and case and punctuation do not matter", async () => {
      await load([article(1, { title: "Vaccinating infants", abstract: "Vaccination schedules for infants." })]);
      expect(await pmids("VACCINATION, infant!")).toEqual([1]);
      expect(await pmids("vaccinated infants?")).toEqual([1]);
    });

    test("an exact quoted phrase ranks first, and a leading minus excludes", async () => {
      await load([
        article(1, {
          title: "Kidney donors",
          abstract: "Acute failure of the transplanted kidney was rare; graft failure was treated early.",
        }),
        article(2, {
          title: "Kidney donors",
          abstract: "Acute kidney failure after the transplant was rare and treated early.",
        }),
        article(3, { title: "Liver donors", abstract: "Case report: acute liver failure after donation." }),
      ]);
      // Unquoted, the first article wins on term frequency; quoted, the one with the exact phrase does.
      expect(await pmids("acute kidney failure")).toEqual([1, 2, 3]);
      expect(await pmids('"acute kidney failure"')).toEqual([2, 1, 3]);
      expect(await pmids('failure -"case report"')).not.toContain(3);
      expect((await pmids("donors -liver")).sort()).toEqual([1, 2]);
      // A stray or unclosed quote never empties the results.
      expect((await pmids('"Would a kidney donor regret it?')).length).toBeGreaterThan(0);
    });

    test("hyphenated terms and odd input are handled", async () => {
      await load([
        article(1, {
          title: "COVID-19 in non-small-cell lung cancer",
          abstract: "IL-6 levels rose in T-cell subsets.",
        }),
        article(2, { title: "Small cell lung cancer", abstract: "Chemotherapy response." }),
      ]);
      expect((await pmids("COVID-19"))[0]).toBe(1);
      expect((await pmids("non-small-cell"))[0]).toBe(1);
      expect(await pmids("IL-6")).toEqual([1]);
      for (const q of ["it's \\ 'quoted' \"unclosed", "C++ & | ! <-> :* (a", "💊 drug", "a".repeat(5000)])
        expect(Array.isArray((await index.search(q)).hits)).toBe(true);
      // Lexemes can hold quotes and backslashes (URLs, paths); they are escaped, not parsed as operators.
      await load([article(3, { title: "Data", abstract: "See http://example.org/b'c?q=\\x for data." })]);
      expect(await pmids("http://example.org/b'c?q=\\x")).toEqual([3]);
    });

    test("paging with skip and limit walks one consistent ranking", async () => {
      await load(
        Array.from({ length: 25 }, (_, i) =>
          article(i + 1, {
            title: `Migraine study ${i}`,
            abstract: `Migraine ${"headache ".repeat(i % 5)} triptan response.`,
          }),
        ),
      );
      const all = await index.search("migraine headache", { limit: 100 });
      expect(all.total).toBe(25);
      expect(all.hits).toHaveLength(25);
      const pages: number[] = [];
      for (let skip = 0; skip < 25; skip += 10) pages.push(...(await pmids("migraine headache", { skip, limit: 10 })));
      expect(pages).toEqual(all.hits.map((h) => h.pmid));
      const beyond = await index.search("migraine headache", { skip: 30, limit: 10 });
      expect(beyond.hits).toEqual([]);
      expect(beyond.total).toBe(25);
    });

    test("a year range keeps only articles published in it, inclusive", async () => {
      await load([
        article(1, { title: "Dengue outbreak", publication_year: 2001 }),
        article(2, { title: "Dengue vaccine", publication_year: 2010 }),
        article(3, { title: "Dengue serotypes", publication_year: 2020 }),
        article(4, { title: "Dengue history", publication_year: null }),
      ]);
      expect((await pmids("dengue", { fromYear: 2010 })).sort()).toEqual([2, 3]);
      expect((await pmids("dengue", { toYear: 2010 })).sort()).toEqual([1, 2]);
      expect(await pmids("dengue", { fromYear: 2005, toYear: 2015 })).toEqual([2]);
      expect((await index.search("dengue", { fromYear: 2005, toYear: 2015 })).total).toBe(1);
    });

    test("deleted PMIDs disappear from results and statistics; unknown PMIDs are ignored", async () => {
      await load([article(1, { title: "Leptospirosis in farmers" }), article(2, { title: "Leptospirosis diagnosis" })]);
      expect(await df("leptospirosi")).toBe(2);
      await index.delete([1, 999, 1]);
      expect(await pmids("leptospirosis")).toEqual([2]);
      expect(await df("leptospirosi")).toBe(1);
      expect(await df("farmer")).toBeNull();
      await index.delete([]);
      expect(await statsDrift()).toEqual([]);
    });

    test("concurrent index calls, each with new and changed articles, never deadlock and keep statistics exact", async () => {
      // Each call's statement inserts some rows and updates others, so the statistics trigger runs once for the
      // inserts and once for the updates. Call A inserts "zebra" and updates to "aardvark"; call B the reverse.
      for (let round = 0; round < 25; round++) {
        const base = 1000 + round * 10;
        await load([article(base, { title: "Placeholder one" }), article(base + 1, { title: "Placeholder two" })]);
        await writeArticles([
          article(base, { title: "Aardvark burrow" }),
          article(base + 1, { title: "Zebra stripes" }),
          article(base + 2, { title: "Zebra herd" }),
          article(base + 3, { title: "Aardvark diet" }),
        ]);
        await Promise.all([index.index([base, base + 2]), index.index([base + 1, base + 3])]);
      }
      expect(await df("zebra")).toBe(50);
      expect(await df("aardvark")).toBe(50);
      expect(await statsDrift()).toEqual([]);
    });

    test("re-indexing the same or changed articles keeps document frequencies exact", async () => {
      const first = [
        article(1, { title: "Zika virus microcephaly", mesh_terms: ["Zika Virus Infection"] }),
        article(2, { title: "Zika transmission", abstract: "Mosquito vectors of zika." }),
      ];
      await load(first);
      await index.index([1, 2]);
      await index.index([1, 2, 1]);
      expect(await df("zika")).toBe(2);
      expect(await statsDrift()).toEqual([]);
      await load([article(2, { title: "Chikungunya transmission", abstract: "Mosquito vectors." })]);
      expect(await df("zika")).toBe(1);
      expect(await df("chikungunya")).toBe(1);
      expect(await pmids("zika")).toEqual([1]);
      expect(await statsDrift()).toEqual([]);
    });

    test("deleting articles themselves (cascade) keeps the statistics exact", async () => {
      await load([article(1, { title: "Rabies prophylaxis" }), article(2, { title: "Rabies in bats" })]);
      await sql`DELETE FROM articles WHERE pmid = 1`.execute(handle.db);
      expect(await df("rabi")).toBe(1);
      expect(await df("prophylaxi")).toBeNull();
      expect(await statsDrift()).toEqual([]);
    });

    test("a large corpus is ranked from a bounded candidate set and reports a lower-bound total", async () => {
      const bounded = new PostgresSearchIndex(handle.db, { candidateBudget: 5 });
      await load(
        Array.from({ length: 30 }, (_, i) =>
          article(i + 1, {
            title: i < 3 ? "Sepsis and lactate clearance" : `Sepsis cohort ${i}`,
            abstract: i < 3 ? "Lactate clearance predicted sepsis survival." : "Sepsis outcomes in intensive care.",
          }),
        ),
      );
      const exact = await index.search("sepsis lactate clearance", { limit: 3 });
      const approx = await bounded.search("sepsis lactate clearance", { limit: 3 });
      expect(approx.hits.map((h) => h.pmid).sort()).toEqual([1, 2, 3]);
      expect(approx.hits).toEqual(exact.hits);
      expect(approx.totalIsLowerBound).toBe(true);
      expect(approx.total).toBeGreaterThanOrEqual(5);
      expect(approx.total).toBeLessThanOrEqual(30);
      expect(exact).toMatchObject({ total: 30, totalIsLowerBound: false });
      // One term and no filter: its document frequency is the exact count.
      expect(await bounded.search("sepsis")).toMatchObject({ total: 30, totalIsLowerBound: false });
    });

    test("similar() ranks articles sharing the profile's distinctive terms and skips excluded PMIDs", async () => {
      await load([
        article(1, {
          title: "Cochlear implants in children",
          abstract: "Speech perception after cochlear implantation.",
        }),
        article(2, {
          title: "Cochlear implant outcomes in adults",
          abstract: "Hearing and speech after implantation.",
        }),
        article(3, { title: "Hip arthroplasty", abstract: "Outcomes after hip replacement in adults." }),
      ]);
      const profile = "I study cochlear implants and speech perception in deaf children and adults.";
      const r = await index.similar(profile, { excludePmids: [1] });
      expect(r.hits[0]?.pmid).toBe(2);
      expect(r.hits.map((h) => h.pmid)).not.toContain(1);
      expect((await index.similar("   ")).hits).toEqual([]);
      // Quotes and minus signs in a profile are text, not query syntax.
      expect((await index.similar('-cochlear "speech perception"')).hits.map((h) => h.pmid).sort()).toEqual([1, 2]);
    });

    test("an empty index answers with no hits", async () => {
      expect(await index.search("anything at all")).toEqual({ hits: [], total: 0, totalIsLowerBound: false });
    });

    test("invalid paging is rejected", async () => {
      await expect(index.search("x", { limit: 0 })).rejects.toThrow(RangeError);
      await expect(index.search("x", { limit: 1001 })).rejects.toThrow(RangeError);
      await expect(index.search("x", { skip: -1 })).rejects.toThrow(RangeError);
      await expect(index.search("x", { fromYear: 2000.5 })).rejects.toThrow(RangeError);
    });

    describe("impact-ordered lists (frequent words)", () => {
      // Small thresholds so that a corpus of a few hundred articles has frequent words: lists for lexemes in more than
      // 20 articles, of 40 articles each; a search scores at most 20 drawn candidates.
      const options = { candidateBudget: 20, listMinDf: 20, listCapacity: 40 };
      const long =
        "Fibroblasts were grown in culture medium with serum and antibiotics for several days before imaging, " +
        "and the plates were washed, fixed, stained and counted by two observers blinded to the condition.";

      /**
       * 150 newer articles mentioning cells once in a long abstract, and the 5 best (short, cells repeated): the
       * oldest.
       */
      function corpus(): IndexableArticle[] {
        return [
          ...Array.from({ length: 5 }, (_, i) =>
            article(1 + i, { title: `Cells ${"cells ".repeat(i % 2)}`, abstract: "Cells cells cells." }),
          ),
          ...Array.from({ length: 150 }, (_, i) =>
            article(101 + i, { title: `Cells in culture ${i}`, abstract: `${long} Cells were seen.` }),
          ),
        ];
      }

      /** Exhaustive BM25's top `limit` PMIDs. */
      async function exact(query: string, limit = 10): Promise<number[]> {
        const all = new PostgresSearchIndex(handle.db, { candidateBudget: Number.MAX_SAFE_INTEGER });
        return (await all.search(query, { limit })).hits.map((h) => h.pmid);
      }

      /**
       * Everything wrong with the lists, checked against a recount (should be nothing): a list row whose tf, length or
       * presence disagrees with article_search, an entries count that is off, or a document left out whose impact
       * exceeds the floor.
       */
      async function listFaults(): Promise<string[]> {
        const faults: string[] = [];
        const lists = await sql<{ lexeme: string; floor: number; avgdl: number; entries: number }>`
          SELECT lexeme, floor::float8 AS floor, avgdl, entries FROM search_term_lists`.execute(handle.db);
        for (const l of lists.rows) {
          const q = `'${l.lexeme.replace(/'/g, "''")}'`;
          const docs = await sql<{ pmid: number; tf: number; dl: number }>`
            SELECT pmid, 3 * ts_rank_cd('{0.1,0.3333333,0.5,1}'::float4[], document, ${q}::tsquery)::float8 AS tf, doc_length AS dl
            FROM article_search WHERE document @@ ${q}::tsquery`.execute(handle.db);
          const listed = await sql<{ pmid: number; tf: number; dl: number }>`
            SELECT pmid, tf::float8 AS tf, doc_length AS dl FROM search_term_impacts WHERE lexeme = ${l.lexeme}`.execute(
            handle.db,
          );
          const inList = new Map(listed.rows.map((r) => [r.pmid, r]));
          if (listed.rows.length !== l.entries)
            faults.push(`${l.lexeme}: ${listed.rows.length} rows, entries ${l.entries}`);
          const present = new Set(docs.rows.map((d) => d.pmid));
          for (const r of listed.rows)
            if (!present.has(r.pmid)) faults.push(`${l.lexeme}: ${r.pmid} listed but absent`);
          for (const d of docs.rows) {
            const e = inList.get(d.pmid);
            const impact = (d.tf * 2.2) / (d.tf + 0.3 + (0.9 * d.dl) / l.avgdl);
            if (e && (Math.abs(e.tf - d.tf) > 1e-4 || e.dl !== d.dl))
              faults.push(`${l.lexeme}: ${d.pmid} listed with stale tf/length`);
            if (!e && impact > l.floor * (1 + 1e-6))
              faults.push(`${l.lexeme}: ${d.pmid} left out with impact ${impact} > floor ${l.floor}`);
          }
        }
        return faults;
      }

      for (const [how, sampleMinDocuments] of [
        ["read whole", undefined],
        ["sampled one article in 6", 20],
      ] as const)
        test(`a first build (postings ${how}) lists exactly the capacity best documents of each frequent word`, async () => {
          // 120 articles whose impacts for "cells" all differ (1 to 4 mentions, abstracts of 10 to 39 filler words):
          // the build keeps and sorts only the entries above a threshold (from a histogram of all postings, or of a
          // sample of every 6th article), and must still keep exactly the 40 best.
          const filler = (n: number) => Array.from({ length: n }, (_, k) => `word${k}`).join(" ");
          const idx = new PostgresSearchIndex(handle.db, { ...options, listSampleMinDocuments: sampleMinDocuments });
          await load(
            Array.from({ length: 120 }, (_, i) =>
              article(1 + i, { abstract: `${"Cells ".repeat(1 + (i % 4))}${filler(10 + (i % 30))}.` }),
            ),
            idx,
          );
          await idx.refresh();
          const list = await sql<{
            entries: number;
            avgdl: number;
          }>`SELECT entries, avgdl FROM search_term_lists WHERE lexeme = 'cell'`.execute(handle.db);
          expect(list.rows).toHaveLength(1);
          expect(list.rows[0]!.entries).toBe(options.listCapacity);
          const best = await sql<{ pmid: number }>`
          SELECT a.pmid FROM article_search a CROSS JOIN LATERAL unnest(a.document) u WHERE u.lexeme = 'cell'
          ORDER BY search_impact(search_tf(u.weights), a.doc_length, ${list.rows[0]!.avgdl}) DESC, a.pmid DESC LIMIT ${options.listCapacity}`.execute(
            handle.db,
          );
          const listed = await sql<{
            pmid: number;
          }>`SELECT pmid FROM search_term_impacts WHERE lexeme = 'cell' ORDER BY pmid`.execute(handle.db);
          expect(listed.rows.map((r) => r.pmid)).toEqual(best.rows.map((r) => r.pmid).sort((a, b) => a - b));
          expect(await listFaults()).toEqual([]);
        });

      test("two sampled builds in one transaction: the second finds no temporary table of the first", async () => {
        const filler = (n: number) => Array.from({ length: n }, (_, k) => `word${k}`).join(" ");
        const sampled = { ...options, listSampleMinDocuments: 20 };
        await load(
          Array.from({ length: 120 }, (_, i) =>
            article(1 + i, { abstract: `${"Cells ".repeat(1 + (i % 4))}${filler(10 + (i % 30))}.` }),
          ),
          new PostgresSearchIndex(handle.db, sampled),
        );
        const built = await handle.db.transaction().execute(async (trx) => {
          const inTrx = new PostgresSearchIndex(trx, sampled);
          const first = await inTrx.refreshLists();
          await sql`DELETE FROM search_term_impacts`.execute(trx);
          await sql`DELETE FROM search_term_lists`.execute(trx);
          return [first, await inTrx.refreshLists()];
        });
        expect(built[0]).toBeGreaterThan(0);
        expect(built[1]).toBe(built[0]!);
        expect(await listFaults()).toEqual([]);
      });

      test("lists built in two shares at once are the lists of one build", async () => {
        await load(corpus(), new PostgresSearchIndex(handle.db, options));
        const lists = async () =>
          (
            await sql<{ rows: string }>`
            SELECT (SELECT string_agg(concat_ws(':', lexeme, floor, avgdl, entries), ',' ORDER BY lexeme) FROM search_term_lists)
              || '|' || (SELECT string_agg(concat_ws(':', lexeme, pmid, tf, doc_length), ',' ORDER BY lexeme, pmid) FROM search_term_impacts) AS rows`.execute(
              handle.db,
            )
          ).rows[0]!.rows;
        const built: string[] = [];
        for (const listBuilders of [1, 2]) {
          await sql`DELETE FROM search_term_impacts`.execute(handle.db);
          await sql`DELETE FROM search_term_lists`.execute(handle.db);
          expect(await new PostgresSearchIndex(handle.db, { ...options, listBuilders }).refreshLists()).toBeGreaterThan(
            10,
          );
          built.push(await lists());
        }
        expect(built[1]).toBe(built[0]!);
        expect(await listFaults()).toEqual([]);
      });

      test("a frequent word finds its best articles even when they are the oldest (fails without lists)", async () => {
        const idx = new PostgresSearchIndex(handle.db, options);
        await load(corpus(), idx);
        const best = [1, 2, 3, 4, 5];
        expect((await exact("cells", 5)).sort((a, b) => a - b)).toEqual(best);
        // Without lists (before refresh) the bounded search scores the 20 newest of 155 matches: the known weakness.
        expect((await idx.search("cells", { limit: 5 })).hits.map((h) => h.pmid).some((p) => p <= 5)).toBe(false);
        await idx.refresh();
        const r = await idx.search("cells", { limit: 5 });
        expect(r.hits.map((h) => h.pmid).sort((a, b) => a - b)).toEqual(best);
        expect(r).toMatchObject({ total: 155, totalIsLowerBound: false });
        // Scores are exhaustive BM25's, and so is the order for two frequent words.
        const all = new PostgresSearchIndex(handle.db, { candidateBudget: Number.MAX_SAFE_INTEGER });
        expect(r.hits).toEqual((await all.search("cells", { limit: 5 })).hits);
        expect((await idx.search("cells culture", { limit: 10 })).hits).toEqual(
          (await all.search("cells culture", { limit: 10 })).hits,
        );
        expect((await idx.search("culture cells", { skip: 3, limit: 4 })).hits).toEqual(
          (await all.search("culture cells", { skip: 3, limit: 4 })).hits,
        );
        expect(await listFaults()).toEqual([]);
      });

      test("two frequent words: articles holding both, under both lists' floors, are found through the impact tiers", async () => {
        const idx = new PostgresSearchIndex(handle.db, options);
        const both = "Cells in culture were examined.";
        await load(
          [
            // The best for both words together, and the oldest: each word weighs well, less than in the lists'
            // articles.
            ...Array.from({ length: 10 }, (_, i) => article(1 + i, { title: `Cells in culture ${i}`, abstract: both })),
            // Each word alone, heavily: they fill the two lists (40 each).
            ...Array.from({ length: 60 }, (_, i) =>
              article(101 + i, { title: "Cells", abstract: "Cells cells cells cells." }),
            ),
            ...Array.from({ length: 60 }, (_, i) =>
              article(201 + i, { title: "Culture", abstract: "Culture culture culture culture." }),
            ),
            // Both words once in a long abstract, and the newest: what the conjunction branches read first.
            ...Array.from({ length: 200 }, (_, i) =>
              article(1001 + i, { title: `Observers ${i}`, abstract: `${long} Cells in culture were seen.` }),
            ),
          ],
          idx,
        );
        await idx.refresh();
        const best = await exact("cells culture", 10);
        expect(best.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
        const { rows } = await sql<{
          n: number;
        }>`SELECT count(*)::integer AS n FROM search_term_impacts WHERE pmid <= 10`.execute(handle.db);
        expect(rows[0]!.n).toBe(0); // in neither list
        const r = await idx.search("cells culture", { limit: 10 });
        expect(r.hits.map((h) => h.pmid).sort((a, b) => a - b)).toEqual(best);
        // Without the tiers, only the lists' articles and the conjunction's newest would be scored.
        await sql`DELETE FROM article_search_tiers`.execute(handle.db);
        expect((await idx.search("cells culture", { limit: 10 })).hits.some((h) => h.pmid <= 10)).toBe(false);
      });

      test("a rare word with frequent ones: its articles are all scored", async () => {
        const idx = new PostgresSearchIndex(handle.db, options);
        await load([...corpus(), article(60, { title: "Osteoclast", abstract: `${long} Osteoclast cells.` })], idx);
        await idx.refresh();
        const r = await idx.search("osteoclast cells", { limit: 10 });
        expect(r.hits[0]?.pmid).toBe(60);
        expect(r.hits.map((h) => h.pmid)).toEqual(await exact("osteoclast cells", 10));
      });

      test("inserts, updates and deletes keep the lists right without a refresh", async () => {
        const idx = new PostgresSearchIndex(handle.db, options);
        await load(corpus(), idx);
        await idx.refresh();
        expect(await listFaults()).toEqual([]);
        // A new best article enters the list at once.
        await load([article(7, { title: "Cells cells cells", abstract: "Cells cells cells cells." })], idx);
        expect((await idx.search("cells", { limit: 1 })).hits[0]?.pmid).toBe(7);
        // 40 more newer and weaker articles: the list overflows its capacity and is cut back, its floor rising.
        await load(
          Array.from({ length: 40 }, (_, i) => article(300 + i, { title: `Cells ${i}`, abstract: "Cells in a dish." })),
          idx,
        );
        const { rows } = await sql<{ entries: number; floor: number }>`
          SELECT entries, floor::float8 AS floor FROM search_term_lists WHERE lexeme = 'cell'`.execute(handle.db);
        expect(rows[0]!.entries).toBeLessThanOrEqual(60);
        expect(await listFaults()).toEqual([]);
        // An update that removes the word takes the article out of the list; one that weakens it updates its entry.
        await load([article(2, { title: "Fibroblast morphology", abstract: "Fibroblasts were imaged." })], idx);
        await load([article(3, { title: "Cells", abstract: long })], idx);
        expect(await listFaults()).toEqual([]);
        expect((await idx.search("cells", { limit: 5 })).hits.map((h) => h.pmid)).not.toContain(2);
        // Deletes, direct or cascading from articles.
        await idx.delete([7]);
        await sql`DELETE FROM articles WHERE pmid IN (1, 300)`.execute(handle.db);
        expect(await listFaults()).toEqual([]);
        const after = await idx.search("cells", { limit: 5 });
        expect(after.hits.map((h) => h.pmid)).not.toContain(7);
        expect(after.hits).toEqual(
          (
            await new PostgresSearchIndex(handle.db, { candidateBudget: Number.MAX_SAFE_INTEGER }).search("cells", {
              limit: 5,
            })
          ).hits,
        );
        const stale = await sql<{ n: number }>`
          SELECT count(*)::integer AS n FROM search_term_impacts WHERE pmid IN (1, 7, 300) OR (pmid = 2 AND lexeme = 'cell')`.execute(
          handle.db,
        );
        expect(stale.rows[0]!.n).toBe(0);
      });

      test("refresh builds lists for words that became frequent, drops those that became rare, rebuilds emptied ones", async () => {
        const idx = new PostgresSearchIndex(handle.db, options);
        await load(corpus().slice(0, 15), idx);
        await idx.refresh();
        const listed = async () =>
          (
            await sql<{ lexeme: string }>`SELECT lexeme FROM search_term_lists ORDER BY lexeme`.execute(handle.db)
          ).rows.map((r) => r.lexeme);
        expect(await listed()).toEqual([]);
        await load(corpus().slice(15), idx);
        expect(await listed()).toEqual([]);
        await idx.refresh();
        expect(await listed()).toContain("cell");
        expect(await listFaults()).toEqual([]);
        // Deleting most articles with "cells" empties the list; the next refresh drops it (df now under half the
        // threshold) or rebuilds it.
        await sql`DELETE FROM articles WHERE pmid > 104`.execute(handle.db);
        expect(await listFaults()).toEqual([]);
        await idx.refresh();
        expect(await listed()).not.toContain("cell");
        expect(await listFaults()).toEqual([]);
      });
    });

    test("works inside a caller's transaction", async () => {
      await load([article(1, { title: "Brucellosis in cattle" })]);
      const hits = await handle.db.transaction().execute(async (trx) => {
        const inTrx = new PostgresSearchIndex(trx);
        return (await inTrx.search("brucellosis")).hits.map((h) => h.pmid);
      });
      expect(hits).toEqual([1]);
    });
  });
}
