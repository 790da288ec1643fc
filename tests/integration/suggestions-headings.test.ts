import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { APP_BACKENDS } from "../support/database.ts";
import { createTestApp, type TestApp, type TestUser } from "../support/app.ts";
import { seedIndexedArticles, type ArticleSeed } from "../support/articles.ts";
import { startEutilsStandIn, type EutilsStandIn } from "../support/eutils-stand-in.ts";
import { parseOne, renderPubmedQaXml, type StandInRecord } from "../support/pubmed-records.ts";
import { computeWeeklySuggestions } from "../../src/suggestions/service.ts";
import { refreshMeshStats } from "../../src/suggestions/disruption.ts";
import { EutilsClient } from "../../search/pubmed/eutils.ts";
import { DatabaseRateGate } from "../../search/pubmed/rate-gate.ts";

// Potentially Disruptive's MeSH novelty checked against PubMed (issue 35, item 2), on PGlite and PostgreSQL with the
// E-utilities stand-in. This index starts in 2005 and first holds "Sepsis Phenotypes" in 2019 and "Pain Measurement"
// in 2010, so both look young here. The stand-in's PubMed lists "Sepsis Phenotypes" from 2019 only, and "Pain
// Measurement" on eight articles from the 1990s: only the first is young in the literature.

const NOW = new Date("2026-11-24T10:00:00Z");
const FAST = 50;
const PHENOTYPES = [91100004, 91100005, 91100006];
const PAIN = [91100021, 91100022, 91100023];
const LOCAL: ArticleSeed[] = [
  { pmid: 91100001, title: "Neonatal sepsis in low-income countries", date: "2005-10-10", mesh: ["Sepsis"] },
  { pmid: 91100002, title: "Vasopressor timing in sepsis with hypotension", date: "2013-04-01", mesh: ["Sepsis"] },
  ...PHENOTYPES.map((pmid, i) => ({
    pmid,
    title: `Sepsis phenotypes from routine data, cohort ${i + 1}`,
    date: `${2019 + i}-06-01`,
    mesh: ["Sepsis", "Sepsis Phenotypes"],
  })),
  ...PAIN.map((pmid, i) => ({
    pmid,
    title: `Pain measurement in sepsis survivors, cohort ${i + 1}`,
    date: `${2010 + i}-03-01`,
    mesh: ["Sepsis", "Pain Measurement"],
  })),
];

/** A PubMed record of the stand-in with a title, a year and MeSH headings. */
function record(pmid: number, title: string, year: number, mesh: string[]): StandInRecord {
  const xml = renderPubmedQaXml(pmid, {
    QUESTION: title,
    CONTEXTS: [`${title}.`],
    LABELS: [""],
    MESHES: mesh,
    YEAR: String(year),
    LONG_ANSWER: "",
  });
  return { pmid, xml, article: parseOne(xml, `PMID ${pmid}`) };
}
const PUBMED: StandInRecord[] = [
  ...LOCAL.map((a) => record(a.pmid, a.title, Number(a.date.slice(0, 4)), a.mesh)),
  ...[1991, 1993, 1995, 1996, 1998, 1999, 2001, 2003].map((year, i) =>
    record(93000001 + i, `Visual analogue scales of pain, study ${i + 1}`, year, ["Pain Measurement"]),
  ),
];

interface Suggested {
  pmid: number;
  reason: string;
  signal: string;
}

for (const backend of APP_BACKENDS) {
  describe(`Potentially Disruptive against PubMed's counts (${backend})`, () => {
    let t: TestApp;
    let standIn: EutilsStandIn;
    const disruptive = async (u: TestUser) =>
      (
        (await (await t.app.request("/api/v1/suggestions/weekly/latest", { headers: u.headers })).json()) as {
          disruptive_articles: Suggested[];
        }
      ).disruptive_articles;
    const headingQuestions = () =>
      standIn.requests.filter((r) => r.path.endsWith("/esearch.fcgi") && r.params.term?.includes("[mh:noexp]"));

    beforeAll(async () => {
      standIn = startEutilsStandIn({ records: PUBMED, limits: { withoutKey: FAST, withKey: FAST } });
      t = await createTestApp(backend, {
        env: {
          PUBMED_ON_DEMAND: "on",
          PUBMED_EUTILS_URL: standIn.url,
          PUBMED_FETCH_BUDGET_MS: "5000",
          PUBMED_EUTILS_REQUESTS_PER_SECOND: String(FAST),
        },
      });
      await seedIndexedArticles(t, LOCAL);
      await refreshMeshStats(t.db);
    });
    afterAll(async () => {
      await t.close();
      await standIn.stop();
    });

    test("a heading PubMed lists long before its first year here flags nothing; a young one is stated with PubMed's count", async () => {
      const u = await t.signup({ description: "sepsis" });
      expect(await computeWeeklySuggestions(t.deps, u.user.id, { now: NOW })).toBe("computed");
      const section = await disruptive(u);
      expect(section.map((a) => a.pmid).sort()).toEqual(PHENOTYPES);
      for (const a of section) {
        expect(a).toMatchObject({
          signal: "mesh_novelty",
          reason:
            'Among the first articles in PubMed with the MeSH heading "Sepsis Phenotypes": PubMed lists none published before 2019',
        });
      }
      // One question per heading, PubMed's own syntax for the heading alone before its first year here.
      expect(
        headingQuestions()
          .map((r) => r.params.term)
          .sort(),
      ).toEqual(['"Pain Measurement"[mh:noexp] AND 1000:2009[dp]', '"Sepsis Phenotypes"[mh:noexp] AND 1000:2018[dp]']);

      // Another reader of the same headings: answered from the cache, PubMed not asked again.
      const v = await t.signup({ description: "sepsis" });
      expect(await computeWeeklySuggestions(t.deps, v.user.id, { now: NOW })).toBe("computed");
      expect((await disruptive(v)).map((a) => a.pmid).sort()).toEqual(PHENOTYPES);
      expect(headingQuestions()).toHaveLength(2);
    });

    test("PubMed not answering: the claim is worded as what it is, a count of this library's index", async () => {
      await t.db.deleteFrom("pubmed_search_cache").execute();
      standIn.script({ kind: "status", status: 503 }, 100, "esearch");
      // The deployment's client, trying each request once so that the test does not wait out its backoff.
      const client = new EutilsClient({
        baseUrl: standIn.url,
        gate: new DatabaseRateGate(t.db, { requestsPerSecond: FAST }),
        maxAttempts: 1,
      });
      const u = await t.signup({ description: "sepsis" });
      expect(await computeWeeklySuggestions(t.deps, u.user.id, { now: NOW, pubmed: client })).toBe("computed");
      standIn.script({ kind: "status", status: 503 }, 0, "esearch");
      const section = await disruptive(u);
      expect(section.map((a) => a.pmid).sort()).toEqual([...PAIN, ...PHENOTYPES].sort());
      expect(section.find((a) => a.pmid === PAIN[0])!.reason).toBe(
        'Among the first articles in this library\'s index with the MeSH heading "Pain Measurement" (first indexed here in 2010)',
      );
    });
  });
}
