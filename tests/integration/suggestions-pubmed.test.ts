import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sql } from "kysely";
import { APP_BACKENDS } from "../support/database.ts";
import { createTestApp, type TestApp, type TestUser } from "../support/app.ts";
import { seedIndexedArticles } from "../support/articles.ts";
import { startEutilsStandIn, type EutilsStandIn } from "../support/eutils-stand-in.ts";
import { loadStandInRecords, PUBMEDQA_PMIDS, withEntrezDate } from "../support/pubmed-records.ts";
import { computeWeeklySuggestions } from "../../src/suggestions/service.ts";
import { fetchNewThisWeek, WEEKLY_RETMAX, weeklySearchKey } from "../../src/suggestions/pubmed-new.ts";
import { buildProfile } from "../../src/suggestions/profile.ts";
import { eutilsClientFor } from "../../src/pubmed/client.ts";
import { fetchedToday, searchesToday } from "../../src/pubmed/usage.ts";

// New This Week from the Entrez date, and from PubMed (issue 19, point 5), on PGlite and PostgreSQL with a fixed
// clock in 2013 and the E-utilities stand-in serving the PubMedQA records (which the test database does not hold).
// The PubMedQA records of 2013 with "cancer" in their title are given an Entrez date in the test's week (the stand-in's
// own are January 1 of their year); the others stay outside it.

const NOW = new Date("2013-06-12T10:00:00Z"); // a Wednesday of ISO week 2013-W24; the window is June 6–12
const WEEK = "2013-W24";
const IN_WEEK = "2013-06-10";
const BUDGET_MS = 2500;
/**
 * Requests a second of the stand-in and of the app's gate (PUBMED_EUTILS_REQUESTS_PER_SECOND), so that the weekly run's
 * esearch and efetch do not wait out NCBI's 3 a second, the default (docs/decisions/0041-injected-intervals.md).
 */
const FAST = 50;

const pubmedQa = loadStandInRecords().filter((r) => PUBMEDQA_PMIDS.has(r.pmid));
const enteredThisWeek = new Set(
  pubmedQa
    .filter((r) => r.article.publication_year === 2013 && /cancer/i.test(r.article.title ?? ""))
    .map((r) => r.pmid),
);
const RECORDS = pubmedQa.map((r) => (enteredThisWeek.has(r.pmid) ? withEntrezDate(r, IN_WEEK) : r));
/** Entered this week, with these words in the title: PubMed's answer on them holds these at least. */
const titled = (words: RegExp) =>
  pubmedQa.filter((r) => enteredThisWeek.has(r.pmid) && words.test(r.article.title!)).map((r) => r.pmid);
const BREAST = titled(/breast cancer/i);
const PROSTATE = titled(/prostate/i); // "prostate cancer outcomes", "cancer detection in enlarged prostates"

// Local articles on breast cancer, with the dates that decide New This Week.
const L_ENTERED = 92000001; // published in March, entered PubMed this week: new
const L_OLD_ENTRY = 92000002; // issue dated this week, entered PubMed in April: not new (New This Year instead)
const L_NO_ENTREZ = 92000003; // no Entrez date, published this week: new by its publication date
const L_NEXT_YEAR = 92000004; // entered this week, dated next January's issue: new
const LOCAL = [
  { pmid: L_ENTERED, title: "Breast cancer screening uptake in rural clinics", date: "2013-03-01", entrez: IN_WEEK },
  {
    pmid: L_OLD_ENTRY,
    title: "Breast cancer survivorship care plans in primary care",
    date: "2013-06-11",
    entrez: "2013-04-02",
  },
  {
    pmid: L_NO_ENTREZ,
    title: "Breast cancer risk communication by genetic counsellors",
    date: "2013-06-07",
    entrez: null,
  },
  {
    pmid: L_NEXT_YEAR,
    title: "Breast cancer recurrence after partial mastectomy",
    date: "2014-01-01",
    entrez: "2013-06-08",
  },
];
const LOCAL_NEW = [L_ENTERED, L_NO_ENTREZ, L_NEXT_YEAR];

interface Latest {
  new_weekly_articles: { pmid: number }[];
  new_yearly_articles: { pmid: number }[];
}

for (const backend of APP_BACKENDS) {
  describe(`new this week from Entrez dates and PubMed (${backend})`, () => {
    let t: TestApp;
    let standIn: EutilsStandIn;

    const latest = async (u: TestUser) =>
      (await (await t.app.request("/api/v1/suggestions/weekly/latest", { headers: u.headers })).json()) as Latest;
    const weekly = async (u: TestUser) => (await latest(u)).new_weekly_articles.map((a) => a.pmid);
    const requests = (path: "esearch" | "efetch") => standIn.requests.filter((r) => r.path.endsWith(`/${path}.fcgi`));
    const entrezDates = async (pmids: number[]) =>
      new Map(
        (
          await sql<{
            pmid: number;
            entrez_date: string | null;
          }>`SELECT pmid, entrez_date::text AS entrez_date FROM articles WHERE pmid = ANY(${pmids}::integer[])`.execute(
            t.db,
          )
        ).rows.map((r) => [Number(r.pmid), r.entrez_date]),
      );
    const heldPubmedQa = async () =>
      (await t.db.selectFrom("articles").select("pmid").execute())
        .map((r) => Number(r.pmid))
        .filter((p) => PUBMEDQA_PMIDS.has(p))
        .sort((a, b) => a - b);

    beforeAll(async () => {
      standIn = startEutilsStandIn({ records: RECORDS, limits: { withoutKey: FAST, withKey: FAST } });
      t = await createTestApp(backend, {
        env: {
          PUBMED_ON_DEMAND: "on",
          PUBMED_EUTILS_URL: standIn.url,
          PUBMED_FETCH_BUDGET_MS: String(BUDGET_MS),
          PUBMED_EUTILS_REQUESTS_PER_SECOND: String(FAST),
        },
      });
      await seedIndexedArticles(
        t,
        LOCAL.map((a) => ({ pmid: a.pmid, title: a.title, date: a.date, mesh: ["Breast Neoplasms", "Female"] })),
      );
      for (const a of LOCAL)
        await sql`UPDATE articles SET entrez_date = ${a.entrez}::date WHERE pmid = ${a.pmid}`.execute(t.db);
    });
    afterAll(async () => {
      await t.close();
      await standIn.stop();
    });

    test("the test's records: PubMed holds breast and prostate cancer records entered this week, the index none", async () => {
      expect(BREAST.length).toBeGreaterThanOrEqual(2);
      expect(PROSTATE.length).toBeGreaterThanOrEqual(2);
      expect(await heldPubmedQa()).toEqual([]);
    });

    test("without PubMed: New This Week is what entered PubMed in the week, by Entrez date, else publication date", async () => {
      const u = await t.signup({ description: "breast cancer" });
      expect(await computeWeeklySuggestions(t.deps, u.user.id, { now: NOW, pubmed: null })).toBe("computed");
      const body = await latest(u);
      expect(body.new_weekly_articles.map((a) => a.pmid).sort()).toEqual(LOCAL_NEW);
      expect(body.new_yearly_articles.map((a) => a.pmid)).toEqual([L_OLD_ENTRY]);
      expect(standIn.requests).toEqual([]);
    });

    test("with PubMed: the week's new records on the interest are fetched first and rank with the local ones", async () => {
      const u = await t.signup({ description: "breast cancer" });
      expect(await computeWeeklySuggestions(t.deps, u.user.id, { now: NOW })).toBe("computed");

      // One esearch: the interest as written, Entrez dates within the week, Best Match, the best few.
      expect(requests("esearch").map((r) => r.params)).toEqual([
        expect.objectContaining({
          db: "pubmed",
          term: "breast cancer",
          datetype: "edat",
          mindate: "2013/06/06",
          maxdate: "2013/06/12",
          sort: "relevance",
          retmax: String(WEEKLY_RETMAX),
        }),
      ]);
      // Fetched: PubMed's answer, only records entered this week, which the index now holds with their Entrez date.
      const fetched = await heldPubmedQa();
      for (const pmid of BREAST) expect(fetched).toContain(pmid);
      for (const pmid of fetched) expect(enteredThisWeek.has(pmid)).toBe(true);
      expect([...(await entrezDates(fetched)).values()].every((d) => d === IN_WEEK)).toBe(true);
      expect(requests("efetch")).toHaveLength(1);
      expect(await fetchedToday(t.db, u.user.id)).toBe(fetched.length); // the user's daily budget counts them
      const cached = await t.db
        .selectFrom("pubmed_search_cache")
        .select(["pmids"])
        .where("key", "=", weeklySearchKey(WEEK, "breast cancer"))
        .executeTakeFirstOrThrow();
      expect(cached.pmids.map(Number).sort((a, b) => a - b)).toEqual(fetched);

      // New This Week: PubMed's new records and the local ones, ranked together; nothing entered outside the week.
      const pmids = await weekly(u);
      for (const pmid of [...LOCAL_NEW, ...BREAST]) expect(pmids).toContain(pmid);
      expect(pmids.length).toBe(new Set([...LOCAL_NEW, ...fetched]).size);
      expect(pmids).not.toContain(L_OLD_ENTRY);
    });

    test("a second user with the same interest: answered from the week's cache, nothing asked or fetched again", async () => {
      const first = await t.signup({ description: "breast cancer" });
      await computeWeeklySuggestions(t.deps, first.user.id, { now: NOW, pubmed: null });
      const before = standIn.requests.length;
      const u = await t.signup({ description: "  Breast   Cancer " });
      expect(await computeWeeklySuggestions(t.deps, u.user.id, { now: NOW })).toBe("computed");
      expect(standIn.requests.length).toBe(before);
      expect(requests("esearch")).toHaveLength(1);
      expect(requests("efetch")).toHaveLength(1);
      expect(await fetchedToday(t.db, u.user.id)).toBe(0);
      // The same week as the first user's, the PubMed records included.
      const pmids = await weekly(u);
      for (const pmid of [...LOCAL_NEW, ...BREAST]) expect(pmids).toContain(pmid);
      expect(pmids.sort()).toEqual((await weekly(first)).sort());
    });

    test("the week's look-ups count against the user's daily allowance; past it the other interests are not asked", async () => {
      const u = await t.signup();
      const deps = { ...t.deps, config: { ...t.deps.config, PUBMED_USER_DAILY_SEARCHES: 1 } };
      const profile = buildProfile("pancreatitis, melanoma, glaucoma", [], NOW);
      const asked = requests("esearch").length;
      const lines: string[] = [];
      const result = await fetchNewThisWeek(
        deps,
        eutilsClientFor(deps.config, deps.db, { userId: u.user.id }),
        profile,
        {
          userId: u.user.id,
          week: WEEK,
          now: NOW,
          log: (line) => lines.push(line),
        },
      );
      expect(result.outcome).toBe("budget");
      expect(result.asked).toBe(1);
      expect(requests("esearch").length).toBe(asked + 1);
      expect(await searchesToday(t.db, u.user.id)).toBe(1);
      expect(lines.some((l) => l.includes("allowance of PubMed look-ups is used up; 2 interests not asked"))).toBe(
        true,
      );
    });

    test("PubMed unreachable: the week goes out within the budget; the failed question is not cached, so a later run asks it", async () => {
      const u = await t.signup({ description: "prostate cancer" });
      standIn.setUnreachable(true);
      const started = performance.now();
      try {
        expect(await computeWeeklySuggestions(t.deps, u.user.id, { now: NOW })).toBe("computed");
      } finally {
        standIn.setUnreachable(false);
      }
      expect(performance.now() - started).toBeLessThan(BUDGET_MS + 4000);
      for (const pmid of PROSTATE) expect(await heldPubmedQa()).not.toContain(pmid);
      expect(
        await t.db
          .selectFrom("pubmed_search_cache")
          .select("key")
          .where("key", "=", weeklySearchKey(WEEK, "prostate cancer"))
          .executeTakeFirst(),
      ).toBeUndefined();

      const again = await t.signup({ description: "prostate cancer" });
      const asked = requests("esearch").length;
      expect(await computeWeeklySuggestions(t.deps, again.user.id, { now: NOW })).toBe("computed");
      expect(requests("esearch").length).toBe(asked + 1);
      const pmids = await weekly(again);
      for (const pmid of PROSTATE) expect(pmids).toContain(pmid);
    });
  });
}
