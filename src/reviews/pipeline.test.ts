import { afterAll, beforeAll, beforeEach, describe, expect, spyOn, test } from "bun:test";
import { sql } from "kysely";
import { APP_BACKENDS, createTestDatabase } from "../../tests/support/database.ts";
import type { DatabaseHandle } from "../db/database.ts";
import { loadConfig } from "../config.ts";
import type { AppDeps } from "../deps.ts";
import type { SearchIndex, SearchResult } from "../../search/search-index.ts";
import { PgJobQueue } from "../jobs/queue-pg.ts";
import { runReview, type PipelineSteps } from "./pipeline.ts";

// The pipeline's state machine with scripted search, ranking and summary steps: what is stored at each
// transition, how a re-run resumes, and how failures and deletions end a run.

const PMIDS = Array.from({ length: 8 }, (_, i) => 1000 + i);

/** A search index answering every query with `result` and letting a test observe each call. */
function scriptedSearch(result: SearchResult, onSearch: () => Promise<void> | void = () => {}): SearchIndex {
  return {
    index: async () => {},
    delete: async () => {},
    refresh: async () => {},
    search: async () => {
      await onSearch();
      return result;
    },
    similar: async () => ({ hits: [], total: 0, totalIsLowerBound: false }),
  };
}

const allHits: SearchResult = {
  hits: PMIDS.map((pmid, i) => ({ pmid, score: 10 - i })),
  total: PMIDS.length,
  totalIsLowerBound: false,
};

/** Keeps the index order, scores each hit relative to the best; cites the second and first source, in that order. */
const keepOrder: PipelineSteps["rank"] = (_query, hits) =>
  hits.map((h) => ({ pmid: h.pmid, score: h.score, relevance: h.score / hits[0]!.score }));

function steps(overrides: Partial<PipelineSteps> = {}): PipelineSteps {
  return {
    rank: keepOrder,
    summarizer: {
      name: "scripted",
      summarize: async (_q, sources) => ({
        summary: `Second [1]. First [2].`,
        citedPmids: [sources[1]!.pmid, sources[0]!.pmid],
      }),
    },
    ...overrides,
  };
}

for (const backend of APP_BACKENDS) {
  describe(`review pipeline on ${backend}`, () => {
    let handle: DatabaseHandle;
    let baseDeps: AppDeps;
    let userId: string;

    beforeAll(async () => {
      handle = await createTestDatabase(backend);
      baseDeps = {
        config: loadConfig({ PUBMED_ON_DEMAND: "off" }),
        db: handle.db,
        search: scriptedSearch(allHits),
        jobs: new PgJobQueue(handle.db),
        secretKey: new Uint8Array(32),
      };
      const user = await handle.db
        .insertInto("users")
        .values({ email: "pipeline@example.com", hashed_password: "x" })
        .returning("id")
        .executeTakeFirstOrThrow();
      userId = user.id;
      await handle.db
        .insertInto("articles")
        .values(
          PMIDS.map((pmid) => ({
            pmid,
            title: `Article ${pmid}`,
            authors: null,
            abstract: `Abstract of ${pmid}.`,
            abstract_sections: "[]",
            journal: null,
            publication_date: null,
            publication_year: 2020,
            doi: null,
            pmc_id: null,
            full_text_link: null,
            pdf_free_link: null,
            language: "eng",
            publication_types: ["Journal Article"],
            mesh_terms: [],
            keywords: [],
            content_hash: `h${pmid}`,
          })),
        )
        .execute();
    });
    afterAll(async () => {
      await handle.close();
    });
    beforeEach(async () => {
      await handle.db.deleteFrom("literature_reviews").execute();
    });

    const withSearch = (search: SearchIndex): AppDeps => ({ ...baseDeps, search });
    const review = (id: string) =>
      handle.db.selectFrom("literature_reviews").selectAll().where("id", "=", id).executeTakeFirst();
    const rankedRows = (id: string) =>
      handle.db
        .selectFrom("literature_review_articles")
        .select(["rank", "pmid", "citation_number"])
        .where("review_id", "=", id)
        .orderBy("rank")
        .execute();
    async function startedReview(query = "anything"): Promise<string> {
      const row = await handle.db
        .insertInto("literature_reviews")
        .values({ user_id: userId, user_query: query, status: "searching" })
        .returning("id")
        .executeTakeFirstOrThrow();
      return row.id;
    }

    test("each status is stored before the next step starts, ending complete with numbered citations", async () => {
      const id = await startedReview();
      const seen: string[] = [];
      const observe = async (step: string) => {
        seen.push(`${step}:${(await review(id))!.status}`);
      };
      await runReview(
        withSearch(scriptedSearch(allHits, () => observe("search"))),
        id,
        steps({
          rank: async (q, hits, articles) => {
            await observe("rank");
            return keepOrder(q, hits, articles);
          },
          summarizer: {
            name: "observing",
            summarize: async (q, sources) => {
              await observe("summarize");
              // The summary is written from the stored ranked list, best first.
              expect(sources.map((s) => s.pmid)).toEqual(PMIDS);
              return steps().summarizer.summarize(q, sources);
            },
          },
        }),
      );
      // Two searches (articles covering the topic, then partial matches), both before the status moves on.
      expect(seen).toEqual(["search:searching", "search:searching", "rank:sorting", "summarize:summarizing"]);

      const done = (await review(id))!;
      expect(done.status).toBe("complete");
      expect(done.summary).toBe("Second [1]. First [2].");
      expect(done.fts_articles_total_count).toBe(PMIDS.length);
      const rows = await rankedRows(id);
      expect(rows.map((r) => r.pmid)).toEqual(PMIDS);
      expect(rows.map((r) => r.citation_number)).toEqual([2, 1, null, null, null, null, null, null]);
    });

    test("a run resumed in summarizing works from the stored list without duplicating it; a finished review is left alone", async () => {
      const id = await startedReview();
      await runReview(baseDeps, id, steps());
      const before = await rankedRows(id);
      // As a crash right after the ranked list was stored would leave it.
      await handle.db
        .updateTable("literature_reviews")
        .set({ status: "summarizing", summary: null })
        .where("id", "=", id)
        .execute();
      await handle.db
        .updateTable("literature_review_articles")
        .set({ citation_number: null })
        .where("review_id", "=", id)
        .execute();

      let searched = false;
      await runReview(withSearch(scriptedSearch(allHits, () => void (searched = true))), id, steps());
      expect(searched).toBe(false);
      expect((await review(id))!.status).toBe("complete");
      expect(await rankedRows(id)).toEqual(before);

      // Running the job once more (a duplicate delivery) changes nothing.
      await runReview(
        baseDeps,
        id,
        steps({ summarizer: { name: "never", summarize: () => Promise.reject(new Error("must not run")) } }),
      );
      expect((await review(id))!.status).toBe("complete");
    });

    test("a run resumed in sorting searches again and replaces the list instead of appending to it", async () => {
      const id = await startedReview();
      await handle.db.updateTable("literature_reviews").set({ status: "sorting" }).where("id", "=", id).execute();
      await runReview(baseDeps, id, steps());
      await handle.db.updateTable("literature_reviews").set({ status: "sorting" }).where("id", "=", id).execute();
      await runReview(baseDeps, id, steps());
      const rows = await rankedRows(id);
      expect(rows.length).toBe(PMIDS.length);
      expect((await review(id))!.status).toBe("complete");
    });

    test("articles covering the topic come first, then partial matches above the floor; duplicates out", async () => {
      const id = await startedReview();
      const covering: SearchResult = {
        hits: [1000, 1001].map((pmid, i) => ({ pmid, score: 5 - i })),
        total: 2,
        totalIsLowerBound: false,
      };
      const coverageAware: SearchIndex = {
        ...scriptedSearch(allHits),
        search: async (_q, o) => (o?.requireAll?.length ? covering : allHits),
      };
      const relevance: Record<number, number> = { 1000: 1, 1001: 0.1, 1002: 1, 1003: 0.3, 1004: 0.05 };
      await runReview(
        withSearch(coverageAware),
        id,
        steps({
          rank: (_q, hits) =>
            [...hits, hits[0]!].map((h) => ({ pmid: h.pmid, score: h.score, relevance: relevance[h.pmid] ?? 0 })),
        }),
      );
      const rows = await handle.db
        .selectFrom("literature_review_articles")
        .select(["pmid", "covers_topic"])
        .where("review_id", "=", id)
        .orderBy("rank")
        .execute();
      // 1001 covers the topic: kept however weak its text score; 1004 is a partial match below the floor.
      expect(rows.filter((r) => r.covers_topic).map((r) => r.pmid)).toEqual([1000, 1001]);
      expect(rows.filter((r) => !r.covers_topic).map((r) => r.pmid)).toEqual(
        [1002, 1003, 1005, 1006, 1007].filter((p) => (relevance[p] ?? 0) >= 0.2),
      );
      const done = (await review(id))!;
      expect(done.fts_articles_total_count).toBe(rows.length);
      expect(done.matching_count).toBe(2);
      // Only covering articles are cited; two of them, and the summary says so in its first sentence.
      expect(done.summary!.startsWith("Only 2 articles in the index address all of: anything.\n\n")).toBe(true);
    });

    test("nothing covering the topic ends in no_articles_found, even when articles share a word with it", async () => {
      const id = await startedReview();
      const coverageAware: SearchIndex = {
        ...scriptedSearch(allHits),
        search: async (_q, o) => (o?.requireAll?.length ? { hits: [], total: 0, totalIsLowerBound: false } : allHits),
      };
      await runReview(withSearch(coverageAware), id, steps());
      const done = (await review(id))!;
      expect(done.status).toBe("no_articles_found");
      expect(done.matching_count).toBe(0);
      expect(await rankedRows(id)).toEqual([]);
    });

    test("no hits, or hits for articles that are not stored, end in no_articles_found", async () => {
      const none = await startedReview();
      await runReview(withSearch(scriptedSearch({ hits: [], total: 0, totalIsLowerBound: false })), none, steps());
      expect((await review(none))!.status).toBe("no_articles_found");

      const unknown = await startedReview();
      await runReview(
        withSearch(scriptedSearch({ hits: [{ pmid: 999_999, score: 1 }], total: 1, totalIsLowerBound: false })),
        unknown,
        steps(),
      );
      expect((await review(unknown))!.status).toBe("no_articles_found");
      expect(await rankedRows(unknown)).toEqual([]);
    });

    test("a failing step ends the review in error with the reason stored and logged", async () => {
      const errors = spyOn(console, "error").mockImplementation(() => {});
      try {
        const id = await startedReview();
        const failing: SearchIndex = {
          ...scriptedSearch(allHits),
          search: () => Promise.reject(new Error("index unreachable")),
        };
        await runReview(withSearch(failing), id, steps());
        const failed = (await review(id))!;
        expect(failed.status).toBe("error");
        expect(failed.error_message).toBe("index unreachable");
        expect(errors).toHaveBeenCalledTimes(1);
        expect(String(errors.mock.calls[0]![0])).toContain(id);
      } finally {
        errors.mockRestore();
      }
    });

    test("a summary citing an article it was not given is refused, not stored", async () => {
      const errors = spyOn(console, "error").mockImplementation(() => {});
      try {
        const id = await startedReview();
        await runReview(
          baseDeps,
          id,
          steps({
            summarizer: {
              name: "inventing",
              summarize: async () => ({ summary: "Made up [1].", citedPmids: [424242] }),
            },
          }),
        );
        const failed = (await review(id))!;
        expect(failed.status).toBe("error");
        expect(failed.summary).toBeNull();
        expect(failed.error_message).toContain("424242");
      } finally {
        errors.mockRestore();
      }
    });

    test("a review deleted while its pipeline runs ends the run quietly", async () => {
      const errors = spyOn(console, "error").mockImplementation(() => {});
      try {
        const id = await startedReview();
        const deleting = scriptedSearch(allHits, async () => {
          await handle.db.deleteFrom("literature_reviews").where("id", "=", id).execute();
        });
        await runReview(withSearch(deleting), id, steps());
        expect(await review(id)).toBeUndefined();
        expect(await rankedRows(id)).toEqual([]);
        expect(errors).not.toHaveBeenCalled();

        // Deleted during the summary instead: nothing is written back either.
        const other = await startedReview();
        await runReview(
          baseDeps,
          other,
          steps({
            summarizer: {
              name: "deleting",
              summarize: async (q, sources) => {
                await handle.db.deleteFrom("literature_reviews").where("id", "=", other).execute();
                return steps().summarizer.summarize(q, sources);
              },
            },
          }),
        );
        expect(await review(other)).toBeUndefined();
        expect(errors).not.toHaveBeenCalled();
        const orphans = await handle.db
          .selectFrom("literature_review_articles")
          .select(sql<number>`count(*)::int`.as("n"))
          .executeTakeFirstOrThrow();
        expect(orphans.n).toBe(0);
      } finally {
        errors.mockRestore();
      }
    });
  });
}
