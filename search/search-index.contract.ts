import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { IndexableArticle, SearchIndex } from "./search-index.ts";
import { readTopic } from "./concepts.ts";

/**
 * The behaviour every SearchIndex adapter must have, as one suite that each adapter's test file runs with its own
 * set-up (the PostgreSQL adapter on PGlite and PostgreSQL; Elasticsearch against its stand-in, and against a real
 * cluster when TEST_ELASTICSEARCH_URL is set). The corpus is small and written so that each expectation follows
 * from the contract, not from one engine's scoring details.
 */

/** What a contract run needs from an adapter's test file. */
export interface ContractSetup {
  /** A fresh, empty index (and whatever stores the articles' canonical rows). */
  open(): Promise<{ index: SearchIndex; write(articles: IndexableArticle[]): Promise<void>; close(): Promise<void> }>;
}

const art = (
  pmid: number,
  title: string,
  abstract: string,
  extra: Partial<IndexableArticle> = {},
): IndexableArticle => ({
  pmid,
  title,
  abstract,
  mesh_terms: [],
  keywords: [],
  publication_year: 2020,
  ...extra,
});

/** The contract corpus. */
export const CONTRACT_CORPUS: IndexableArticle[] = [
  art(
    1,
    "Risk factors for nasopharyngeal carcinoma in southern China",
    "Salted fish and smoking were associated with nasopharyngeal carcinoma.",
  ),
  art(
    2,
    "Radiotherapy outcomes in NPC",
    "Patients with nasopharyngeal carcinoma (NPC) received intensity-modulated radiotherapy.",
  ),
  art(3, "Nasopharyngeal neoplasms: a review", "Tumors of the nasopharynx are reviewed.", {
    mesh_terms: ["Nasopharyngeal Neoplasms"],
  }),
  art(4, "Carcinoma of the lung", "Lung carcinoma and smoking."),
  art(5, "Spinal fusion outcomes", "Lumbar spinal fusion improved pain.", { publication_year: 2010 }),
  art(6, "Gene fusion in leukemia", "A fusion gene was found in leukemia cells."),
  art(7, "Quantum dots for imaging", "Quantum dots were used for fluorescence imaging."),
  art(8, "Long-term covid outcomes", "Persistent symptoms after infection.", { keywords: ["long covid"] }),
  art(9, "Spinal cord injury and vertebral fusion", "Vertebral fusion after spinal cord injury.", {
    publication_year: 2022,
  }),
];

/** Runs the contract suite for one adapter. */
export function describeSearchContract(label: string, setup: ContractSetup): void {
  describe(`SearchIndex contract: ${label}`, () => {
    let ctx: Awaited<ReturnType<ContractSetup["open"]>>;
    beforeAll(async () => {
      ctx = await setup.open();
      await ctx.write(CONTRACT_CORPUS);
      await ctx.index.index(CONTRACT_CORPUS.map((a) => a.pmid));
      await ctx.index.refresh();
    });
    afterAll(async () => {
      await ctx?.close();
    });

    const search = (q: string, o: Parameters<SearchIndex["search"]>[1] = {}) =>
      ctx.index.search(q, { limit: 20, ...o });
    const pmids = async (q: string, o: Parameters<SearchIndex["search"]>[1] = {}) =>
      (await search(q, o)).hits.map((h) => h.pmid).sort((a, b) => a - b);

    test("without coverage, any article sharing a term with the query is a hit", async () => {
      expect(await pmids("quantum unicorn")).toEqual([7]);
      expect((await pmids("spinal fusion")).sort()).toEqual([5, 6, 9]);
    });

    test("coverage: only articles containing every concept are hits, and the total is exact", async () => {
      const concepts = readTopic("spinal fusion").concepts;
      const r = await search("spinal fusion", { requireAll: concepts });
      expect(r.hits.map((h) => h.pmid).sort()).toEqual([5, 9]);
      expect(r.total).toBe(2);
      expect(r.totalIsLowerBound).toBe(false);
    });

    test("coverage: nothing covers nonsense, however many of its words match something", async () => {
      const topic = "xyzzy frobnicate quantum unicorn";
      const r = await search(topic, { requireAll: readTopic(topic).concepts });
      expect(r.hits).toEqual([]);
      expect(r.total).toBe(0);
    });

    test("coverage: any alternative of a concept covers it (synonyms, an abbreviation's long form, MeSH headings, keywords)", async () => {
      // "cancer" is covered by carcinoma (1, 2, 4) and by the MeSH heading "Nasopharyngeal Neoplasms" (3).
      expect(await pmids("nasopharyngeal cancer", { requireAll: readTopic("nasopharyngeal cancer").concepts })).toEqual(
        [1, 2, 3],
      );
      const npc = readTopic("NPC radiotherapy", () => ["nasopharyngeal carcinoma"]).concepts;
      expect(await pmids("NPC radiotherapy", { requireAll: npc })).toEqual([2]);
      expect(await pmids('"long covid"', { requireAll: readTopic('"long covid"').concepts })).toEqual([8]);
    });

    test("coverage: a phrase alternative matches as a phrase, not as separate words", async () => {
      const r = await search("lung smoking", { requireAll: [{ label: "salted fish", alternatives: ["salted fish"] }] });
      expect(r.hits.map((h) => h.pmid)).toEqual([1]);
      const apart = await search("fish", { requireAll: [{ label: "fish salted", alternatives: ["fish salted"] }] });
      expect(apart.total).toBe(0);
    });

    test("coverage combines with the year range, and ranking stays by the query's score", async () => {
      const concepts = readTopic("spinal fusion").concepts;
      expect(await pmids("spinal fusion", { requireAll: concepts, fromYear: 2015 })).toEqual([9]);
      const ranked = await search("lumbar fusion pain", { requireAll: readTopic("fusion").concepts });
      expect(ranked.total).toBe(3);
      // 5 alone has every word of the query.
      expect(ranked.hits[0]!.pmid).toBe(5);
    });

    test("a concept with no indexable word restricts nothing; an empty list is no restriction", async () => {
      const all = await pmids("spinal");
      expect(await pmids("spinal", { requireAll: [] })).toEqual(all);
      expect(await pmids("spinal", { requireAll: [{ label: "the", alternatives: ["the"] }] })).toEqual(all);
    });
  });
}
