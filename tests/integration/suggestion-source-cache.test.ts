import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sql } from "kysely";
import { APP_BACKENDS } from "../support/database.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { seedIndexedArticles } from "../support/articles.ts";
import type { SearchIndex } from "../../search/search-index.ts";
import { computeWeeklySuggestions } from "../../src/suggestions/service.ts";
import {
  CACHED_DEPTH,
  pruneSourceCache,
  rankedSources,
  SOURCE_CACHE_DAYS,
  sourceKey,
} from "../../src/suggestions/source-cache.ts";
import { likeText } from "../../src/suggestions/profile.ts";
import { PREPARE_RUN_JOB, PREPARE_USER_JOB, suggestionSchedules } from "../../src/suggestions/jobs.ts";

// The shared answers of suggestion sources (docs/decisions/0025-suggestion-source-cache.md), on PGlite and PostgreSQL:
// the index is asked once per text within SOURCE_CACHE_DAYS whoever asks, the daily preparation computes every
// subscriber's answers ahead of the weekly run, users' exclusions still hold on shared answers, and old answers are
// asked again and pruned.

const NOW = new Date("2026-11-24T10:00:00Z");
const DAY = 86_400_000;

const ARTICLES = [
  {
    pmid: 92000001,
    title: "Early antibiotics and mortality in sepsis",
    year: 2015,
    mesh: ["Sepsis", "Anti-Bacterial Agents"],
  },
  {
    pmid: 92000002,
    title: "Fluid resuscitation in septic shock and sepsis outcomes",
    year: 2016,
    mesh: ["Sepsis", "Fluid Therapy"],
  },
  { pmid: 92000003, title: "Lactate clearance as a sepsis marker", year: 2017, mesh: ["Sepsis", "Lactic Acid"] },
  {
    pmid: 92000004,
    title: "Procalcitonin to guide antibiotic duration in sepsis",
    year: 2018,
    mesh: ["Sepsis", "Procalcitonin"],
  },
  {
    pmid: 92000005,
    title: "Vasopressor timing in sepsis with hypotension",
    year: 2019,
    mesh: ["Sepsis", "Vasoconstrictor Agents"],
  },
  { pmid: 92000006, title: "Hip fracture surgery timing in older adults", year: 2014, mesh: ["Hip Fractures", "Aged"] },
];

/** The index, counting the any-date `similar()` questions it is asked, by text. */
function counting(index: SearchIndex): { index: SearchIndex; asked: string[] } {
  const asked: string[] = [];
  const wrapped: SearchIndex = Object.create(index);
  wrapped.similar = async (text, options) => {
    if (options?.fromYear === undefined && options?.toYear === undefined) asked.push(text);
    return index.similar(text, options);
  };
  return { index: wrapped, asked };
}

for (const backend of APP_BACKENDS) {
  describe(`suggestion source answers shared across users and weeks (${backend})`, () => {
    let t: TestApp;

    beforeAll(async () => {
      t = await createTestApp(backend);
      await seedIndexedArticles(
        t,
        ARTICLES.map((a) => ({ pmid: a.pmid, title: a.title, date: `${a.year}-01-01`, mesh: a.mesh })),
      );
    });
    afterAll(async () => {
      await t.close();
    });

    test("a text's answer is asked of the index once within the cache's days, then asked again", async () => {
      const { index, asked } = counting(t.deps.search);
      const deps = { db: t.db, search: index };
      const first = await rankedSources(deps, ["sepsis antibiotics", "sepsis antibiotics"], NOW);
      expect(asked).toEqual(["sepsis antibiotics"]);
      // The two articles about antibiotics in sepsis first; the unrelated one not at all.
      expect(first.get("sepsis antibiotics")!.slice(0, 2).sort()).toEqual([92000001, 92000004]);
      expect(first.get("sepsis antibiotics")).not.toContain(92000006);
      // White space does not make another question; a day later the answer is read, not asked.
      const again = await rankedSources(deps, ["  sepsis   antibiotics "], new Date(NOW.getTime() + DAY));
      expect(asked).toHaveLength(1);
      expect(again.get("  sepsis   antibiotics ")).toEqual(first.get("sepsis antibiotics")!);
      // Past SOURCE_CACHE_DAYS it is asked again, and pruning then leaves only the fresh answer.
      await rankedSources(deps, ["sepsis antibiotics"], new Date(NOW.getTime() + (SOURCE_CACHE_DAYS + 1) * DAY));
      expect(asked).toHaveLength(2);
      expect(await pruneSourceCache({ db: t.db }, new Date(NOW.getTime() + (SOURCE_CACHE_DAYS + 1) * DAY))).toBe(0);
      expect(await pruneSourceCache({ db: t.db }, new Date(NOW.getTime() + (2 * SOURCE_CACHE_DAYS + 2) * DAY))).toBe(1);
    });

    test("the daily preparation computes subscribers' answers ahead; the weekly run then asks the index nothing", async () => {
      expect(suggestionSchedules().map((s) => [s.name, s.cron])).toContainEqual(["suggestions.prepare", "0 2 * * *"]);
      const a = await t.signup({ description: "Sepsis outcomes" });
      const b = await t.signup({ description: "Sepsis outcomes" });
      await t.signup({ description: "Hip fracture outcomes", subscription: "none" });
      const liked = ARTICLES[2]!;
      for (const pmid of [ARTICLES[3]!.pmid, liked.pmid])
        expect((await t.app.request(`/api/v1/likes/${pmid}`, { method: "POST", headers: a.headers })).status).toBe(200);

      const { index: preparing, asked: prepared } = counting(t.deps.search);
      const prepDeps = { ...t.deps, search: preparing };
      await prepDeps.jobs.enqueue(PREPARE_RUN_JOB, {});
      const { runJobsUntilIdle } = await import("../../src/jobs/worker.ts");
      const { suggestionJobHandlers } = await import("../../src/suggestions/jobs.ts");
      await runJobsUntilIdle(prepDeps, suggestionJobHandlers(), { workerId: "test" });
      const { rows: jobs } = await sql<{
        n: number;
      }>`SELECT count(*)::integer AS n FROM jobs WHERE kind = ${PREPARE_USER_JOB}`.execute(t.db);
      expect(jobs[0]!.n).toBe(2); // the two subscribers, not the user without a subscription
      // The shared interest once, each liked article, and a's reading list; nothing for the unsubscribed user.
      const likedTexts = [liked, ARTICLES[3]!].map((x) =>
        likeText({ title: x.title, mesh_terms: x.mesh, keywords: [] }),
      );
      expect(prepared).toHaveLength(4);
      expect(prepared).toContain("Sepsis outcomes");
      for (const text of likedTexts) expect(prepared).toContain(text);
      expect(prepared.some((p) => p.includes(liked.title) && p.includes(ARTICLES[3]!.title))).toBe(true); // the reading list
      expect(prepared.some((p) => p.includes("Hip fracture"))).toBe(false);
      const key = sourceKey(likeText({ title: liked.title, mesh_terms: liked.mesh, keywords: [] }));
      const row = await t.db
        .selectFrom("suggestion_source_cache")
        .select(["pmids"])
        .where("key", "=", key)
        .executeTakeFirst();
      expect(row?.pmids.map(Number)).not.toContain(92000006);
      expect(row!.pmids.length).toBeLessThanOrEqual(CACHED_DEPTH);
      // A second preparation the same day finds everything ready.
      await prepDeps.jobs.enqueue(PREPARE_RUN_JOB, {});
      await runJobsUntilIdle(prepDeps, suggestionJobHandlers(), { workerId: "test" });
      expect(prepared).toHaveLength(4);

      const { index, asked } = counting(t.deps.search);
      const now = new Date();
      expect(await computeWeeklySuggestions({ ...t.deps, search: index }, a.user.id, { now, sendDigest: false })).toBe(
        "computed",
      );
      expect(await computeWeeklySuggestions({ ...t.deps, search: index }, b.user.id, { now, sendDigest: false })).toBe(
        "computed",
      );
      expect(asked).toEqual([]);

      // Shared answers, personal exclusions: the liked article is never suggested to its reader.
      const res = await t.app.request("/api/v1/suggestions/weekly/latest", { headers: a.headers });
      const body = (await res.json()) as Record<string, { pmid: number }[]>;
      const suggested = [
        "new_weekly_articles",
        "new_yearly_articles",
        "pertinent_articles",
        "disruptive_articles",
      ].flatMap((s) => body[s]!.map((x) => x.pmid));
      expect(suggested.length).toBeGreaterThan(0);
      expect(suggested).not.toContain(liked.pmid);
      expect(suggested).not.toContain(ARTICLES[3]!.pmid);
      expect(suggested).not.toContain(92000006);
    });
  });
}
