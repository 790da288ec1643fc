import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sql } from "kysely";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { APP_BACKENDS } from "../support/database.ts";
import { createTestApp, type TestApp, type TestUser } from "../support/app.ts";
import { ingestFiles } from "../../search/ingest.ts";
import { readTopicFromCorpus } from "../../src/reviews/topic.ts";

// A review cites only articles about the topic (issue 8, item 1), end to end on the real PubMed sample: the topic
// is read as concepts, and a cited article must cover every one of them. Coverage is checked here independently of
// the search index: on each cited article's own text, with PostgreSQL's text analysis.

const SAMPLE_DIR = join(import.meta.dir, "..", "..", "sample", "pubmed");

interface Details {
  status: string;
  summary: string | null;
  articles_refs: { pmid: number }[];
  fts_articles_refs: { pmid: number; covers_topic: boolean }[];
  fts_articles_total_count: number;
  matching_articles_count: number | null;
  topic_concepts: string[];
}

for (const backend of APP_BACKENDS) {
  describe(`reviews cite only articles covering the topic (${backend})`, () => {
    let t: TestApp;
    let user: TestUser;
    beforeAll(async () => {
      t = await createTestApp(backend);
      const files = readdirSync(SAMPLE_DIR)
        .filter((f) => f.endsWith(".xml.gz"))
        .map((f) => join(SAMPLE_DIR, f));
      expect((await ingestFiles(t.deps, files)).failedFiles).toEqual([]);
      user = await t.signup();
    }, 120_000);
    afterAll(async () => {
      await t?.close();
    });

    /** Creates and starts a review on `topic`, runs its job, returns its details (first page of 100). */
    async function review(topic: string): Promise<Details> {
      const { id } = (await (
        await t.app.request("/api/v1/literature_review/create", { method: "POST", headers: user.headers })
      ).json()) as { id: string };
      const started = await t.app.request(
        `/api/v1/literature_review/start/${id}?user_query=${encodeURIComponent(topic)}`,
        { method: "POST", headers: user.headers },
      );
      expect(started.status).toBe(200);
      await t.runJobs();
      return (await (
        await t.app.request(`/api/v1/literature_review/details/${id}?fts_limit=100`, { headers: user.headers })
      ).json()) as Details;
    }

    /** Whether the article's own text (title, abstract, MeSH headings, keywords) contains one of the alternatives. */
    async function covers(pmid: number, alternatives: string[]): Promise<boolean> {
      const { rows } = await sql<{ ok: boolean }>`
        SELECT bool_or(to_tsvector('english', concat_ws(' ', title, abstract, array_to_string(mesh_terms || keywords, ' ')))
                       @@ phraseto_tsquery('english', alt)) AS ok
        FROM articles, unnest(${`{${alternatives.map((a) => JSON.stringify(a)).join(",")}}`}::text[]) AS alt
        WHERE pmid = ${pmid}`.execute(t.db);
      return rows[0]?.ok === true;
    }

    test("nonsense with one real word, and a topic the index does not hold, end in no articles found", async () => {
      for (const topic of ["xyzzy frobnicate quantum unicorn", 'covid-19 "long covid"']) {
        const d = await review(topic);
        expect(d.status).toBe("no_articles_found");
        expect(d.articles_refs).toEqual([]);
        expect(d.matching_articles_count).toBe(0);
      }
    });

    test("every cited article covers every concept of the topic", async () => {
      for (const topic of [
        "risk factors for nasopharyngeal carcinoma",
        "antibiotic treatment of vertebral osteomyelitis",
        "spinal fusion complications",
      ]) {
        const d = await review(topic);
        expect(d.status).toBe("complete");
        expect(d.articles_refs.length).toBeGreaterThan(0);
        const { concepts } = await readTopicFromCorpus(t.deps, topic);
        for (const a of d.articles_refs) {
          for (const c of concepts)
            expect(await covers(a.pmid, c.alternatives), `${topic}: PMID ${a.pmid} covers ${c.label}`).toBe(true);
        }
        // The list: covering articles first, then partial matches, each marked.
        const flags = d.fts_articles_refs.map((a) => a.covers_topic);
        expect(flags.indexOf(false) === -1 || flags.slice(flags.indexOf(false)).every((f) => !f)).toBe(true);
        expect(d.topic_concepts).toEqual(concepts.map((c) => c.label));
        expect(d.matching_articles_count).toBeGreaterThanOrEqual(flags.filter(Boolean).length);
      }
    });

    test("a thinly covered topic cites only what covers it and says so in its first sentence", async () => {
      const topic = "spinal fusion smoking";
      const d = await review(topic);
      expect(d.status).toBe("complete");
      const n = d.matching_articles_count!;
      expect(n).toBeGreaterThan(0);
      expect(n).toBeLessThan(5);
      expect(d.summary!.split("\n")[0]).toBe(
        `Only ${n} ${n === 1 ? "article in the index addresses" : "articles in the index address"} all of: ${d.topic_concepts.join(", ")}.`,
      );
      expect(d.articles_refs.length).toBeLessThanOrEqual(n);
      // Partial matches may be listed, after and marked.
      expect(d.fts_articles_refs.filter((a) => a.covers_topic)).toHaveLength(Math.min(n, d.fts_articles_refs.length));
    });

    test("an abbreviation is read with the long form the corpus gives it", async () => {
      const reading = await readTopicFromCorpus(t.deps, "NPC radiotherapy");
      expect(reading.concepts[0]!.alternatives.map((a) => a.toLowerCase())).toContain("nasopharyngeal carcinoma");
      const d = await review("NPC radiotherapy");
      expect(d.status).toBe("complete");
      expect(d.articles_refs.length).toBeGreaterThan(0);
    });
  });
}
