import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { APP_BACKENDS } from "../support/database.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { seedIndexedArticles, type ArticleSeed } from "../support/articles.ts";
import { refreshCdIndex, readCdIndexes } from "../../src/suggestions/cd-index.ts";
import { refreshMeshStats } from "../../src/suggestions/disruption.ts";
import { computeWeeklySuggestions } from "../../src/suggestions/service.ts";
import { WEEKLY_RUN_JOB } from "../../src/suggestions/jobs.ts";
import { isoWeek } from "../../src/suggestions/week.ts";

// The citation signal of "Potentially Disruptive": the CD index (Funk & Owen-Smith 2017) from the reference lists
// the corpus holds, on a citation graph small enough to compute by hand, then through a user's weekly suggestions.

const NOW = new Date("2026-11-24T10:00:00Z");
const SEPSIS = "Sepsis";
// Outside the corpus: references need not be indexed to count (their citers are).
const R1 = 93000901;
const R2 = 93000902;
const R3 = 93000903;

const F = 93000001; // disruptive: cited mostly without its references
const K = 93000002; // consolidating: every citer also cites its reference
const L = 93000003; // cited three times but carries no reference list: no CD index
const ARTICLES: ArticleSeed[] = [
  {
    pmid: F,
    title: "A new sepsis treatment paradigm: early immunotherapy",
    date: "2015-01-10",
    mesh: [SEPSIS, "Immunotherapy"],
    references: [R1, R2],
  },
  {
    pmid: K,
    title: "Sepsis bundles revisited: a consolidation of fluid therapy evidence",
    date: "2015-02-10",
    mesh: [SEPSIS, "Fluid Therapy"],
    references: [R3],
  },
  { pmid: L, title: "Sepsis incidence in intensive care units", date: "2015-03-10", mesh: [SEPSIS, "Incidence"] },
  // F's citers: three cite F alone (+1 each), one F and R1 (−1), one R2 alone (0); n = 5, CD = (3 − 1) / 5 = 0.4.
  {
    pmid: 93000011,
    title: "Immunotherapy in sepsis: a pilot trial",
    date: "2016-05-01",
    mesh: [SEPSIS],
    references: [F, L],
  },
  { pmid: 93000012, title: "Sepsis immunotherapy dosing", date: "2017-05-01", mesh: [SEPSIS], references: [F, L] },
  {
    pmid: 93000013,
    title: "Sepsis immunotherapy in children",
    date: "2018-05-01",
    mesh: [SEPSIS],
    references: [F, L, K, R3],
  },
  {
    pmid: 93000014,
    title: "Sepsis care before and after immunotherapy",
    date: "2018-06-01",
    mesh: [SEPSIS],
    references: [F, R1, K, R3],
  },
  {
    pmid: 93000015,
    title: "Sepsis biomarkers in the emergency department",
    date: "2019-05-01",
    mesh: [SEPSIS],
    references: [R2, K, R3],
  },
  // Cites R1 before F appeared: not a later article, so not counted for F.
  { pmid: 93000016, title: "Early sepsis observations", date: "2010-05-01", mesh: [SEPSIS], references: [R1] },
];

for (const backend of APP_BACKENDS) {
  describe(`CD index of Potentially Disruptive (${backend})`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(backend);
      await seedIndexedArticles(t, ARTICLES);
      await refreshMeshStats(t.db);
    });
    afterAll(async () => {
      await t.close();
    });

    test("computed from the corpus's reference lists: later citers only; none for an article without references", async () => {
      expect(await refreshCdIndex(t.db)).toBe(2);
      const cd = await readCdIndexes(t.db, [F, K, L, 93000011]);
      expect(cd.get(F)).toEqual({ pmid: F, cdIndex: 0.4, citingArticles: 5, citeOnlyIt: 3, citeBoth: 1 });
      // K's citers 13, 14 and 15 all cite its reference R3 too.
      expect(cd.get(K)).toEqual({ pmid: K, cdIndex: -1, citingArticles: 3, citeOnlyIt: 0, citeBoth: 3 });
      expect(cd.has(L)).toBe(false); // cited, but no reference list
      expect(cd.has(93000011)).toBe(false); // has references, but nothing in the corpus cites it
      // Recomputing replaces, never adds: a reference list that changes changes the index.
      await t.db
        .updateTable("articles")
        .set({ reference_pmids: [F] })
        .where("pmid", "=", 93000014)
        .execute();
      expect(await refreshCdIndex(t.db)).toBe(2);
      expect((await readCdIndexes(t.db, [F])).get(F)).toEqual({
        pmid: F,
        cdIndex: 0.8,
        citingArticles: 5,
        citeOnlyIt: 4,
        citeBoth: 0,
      });
      await t.db
        .updateTable("articles")
        .set({ reference_pmids: [F, R1, K, R3] })
        .where("pmid", "=", 93000014)
        .execute();
      await refreshCdIndex(t.db);
    });

    test("a suggestion flagged by citations says so in its why-line and comes first; a consolidating article is not flagged", async () => {
      const u = await t.signup({ description: "sepsis immunotherapy" });
      expect(await computeWeeklySuggestions(t.deps, u.user.id, { now: NOW })).toBe("computed");
      const body = (await (
        await t.app.request("/api/v1/suggestions/weekly/latest", { headers: u.headers })
      ).json()) as {
        disruptive_articles: { pmid: number; reason: string; signal: string }[];
      };
      expect(body.disruptive_articles[0]).toMatchObject({
        pmid: F,
        signal: "cd_index",
        reason:
          "Cited without its references by 3 of the 5 later articles in the index citing it or its references (CD index 0.40)",
      });
      expect(body.disruptive_articles.map((a) => a.pmid)).not.toContain(K);
    });

    test("a failed CD refresh keeps last week's indexes and still gives the users their week", async () => {
      const u = await t.signup({ description: "sepsis immunotherapy" });
      // The refresh's statement fails (a column it reads is gone); its transaction rolls back, so nothing is lost.
      await t.db.schema.alterTable("articles").renameColumn("reference_pmids", "reference_pmids_gone").execute();
      try {
        await t.deps.jobs.enqueue(WEEKLY_RUN_JOB, { week: isoWeek(NOW) });
        await t.runJobs();
      } finally {
        await t.db.schema.alterTable("articles").renameColumn("reference_pmids_gone", "reference_pmids").execute();
      }
      expect((await readCdIndexes(t.db, [F])).get(F)?.cdIndex).toBe(0.4);
      expect(
        await t.db.selectFrom("weekly_suggestions").select("week").where("user_id", "=", u.user.id).execute(),
      ).toEqual([{ week: isoWeek(NOW) }]);
    });

    test("the weekly run recomputes the index before the users' jobs", async () => {
      await t.db.deleteFrom("article_disruption").execute();
      await t.deps.jobs.enqueue(WEEKLY_RUN_JOB, { week: isoWeek(new Date()) });
      await t.runJobs();
      expect((await readCdIndexes(t.db, [F])).get(F)?.cdIndex).toBe(0.4);
    });
  });
}
