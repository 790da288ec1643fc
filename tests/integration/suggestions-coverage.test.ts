import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { APP_BACKENDS } from "../support/database.ts";
import { createTestApp, type TestApp, type TestUser } from "../support/app.ts";
import { seedIndexedArticles, type ArticleSeed } from "../support/articles.ts";
import { computeWeeklySuggestions } from "../../src/suggestions/service.ts";

// Issue 24, item 1, through the weekly run's real path (index, source cache, fusion, sections, summaries, storage,
// the API) with a fixed clock: a reader with three interests (spine surgery, an infection, a paediatric cancer) and
// three likes of the third sees each interest in Pertinent For You's first two pages, and the "new" and disruptive
// sections are filled from the index's matches, on a new installation whose MeSH statistics were never computed.

const NOW = new Date("2026-11-24T10:00:00Z"); // a Tuesday of ISO week 2026-W48
const INTERESTS = "lumbar spinal fusion, surgical site infection, childhood acute lymphoblastic leukemia";

const SPINE = "Spinal Fusion";
const INFECTION = "Surgical Wound Infection";
const LEUKEMIA = "Precursor Cell Lymphoblastic Leukemia-Lymphoma";
const seed = (pmid: number, title: string, date: string, mesh: string[]): ArticleSeed => ({ pmid, title, date, mesh });

// Many paediatric leukemia articles of any date: the likes and the third interest all rank them, and before issue 24
// they filled Pertinent For You alone.
const THEMES = [
  "relapse",
  "methotrexate",
  "asparaginase",
  "minimal residual disease",
  "cranial radiotherapy",
  "survivors",
];
const LEUKEMIA_HEADINGS = ["Methotrexate", "Asparaginase", "Neoplasm, Residual", "Recurrence"];
const LEUKEMIA_ARTICLES = Array.from({ length: 16 }, (_, i) =>
  seed(
    92000001 + i,
    `Childhood acute lymphoblastic leukemia: ${THEMES[i % 6]} in children, cohort ${i + 1}`,
    `${2006 + (i % 12)}-0${1 + (i % 9)}-15`,
    [LEUKEMIA, "Child", LEUKEMIA_HEADINGS[i % 4]!],
  ),
);
const LIKED = LEUKEMIA_ARTICLES.slice(0, 3).map((a) => a.pmid);
const ERAS = "Enhanced Recovery After Surgery";
const SPINE_ARTICLES = [
  seed(92000101, "Lumbar spinal fusion with pedicle screws: long-term outcomes", "2010-04-01", [
    SPINE,
    "Pedicle Screws",
  ]),
  seed(92000102, "Interbody cages in lumbar spinal fusion for degenerative disease", "2013-06-01", [
    SPINE,
    "Lumbar Vertebrae",
  ]),
  seed(92000103, "Adjacent segment degeneration after lumbar fusion", "2016-09-01", [
    SPINE,
    "Intervertebral Disc Degeneration",
  ]),
  // A heading first indexed in 2021: these are among its first articles (the index starts in 2005).
  seed(92000104, "Enhanced recovery after lumbar spinal fusion surgery", "2021-03-01", [SPINE, ERAS]),
  seed(92000105, "Enhanced recovery pathways shorten stays after spinal fusion", "2022-05-01", [SPINE, ERAS]),
  seed(92000106, "Opioid use in enhanced recovery after spinal fusion", "2023-02-01", [SPINE, ERAS]),
  // New this week, and new this year.
  seed(92000107, "Robotic guidance in lumbar spinal fusion: a trial", "2026-11-20", [
    SPINE,
    "Robotic Surgical Procedures",
  ]),
  seed(92000108, "Bone graft substitutes in lumbar spinal fusion", "2026-04-10", [SPINE, "Bone Substitutes"]),
];
const INFECTION_ARTICLES = [
  seed(92000201, "Surgical site infection after colorectal surgery: risk factors", "2005-02-01", [
    INFECTION,
    "Colorectal Surgery",
  ]),
  seed(92000202, "Antibiotic prophylaxis timing and surgical site infection", "2011-07-01", [
    INFECTION,
    "Antibiotic Prophylaxis",
  ]),
  seed(92000203, "Chlorhexidine skin preparation to prevent surgical site infection", "2015-10-01", [
    INFECTION,
    "Chlorhexidine",
  ]),
  seed(92000204, "Surgical site infection surveillance after discharge", "2026-11-21", [
    INFECTION,
    "Population Surveillance",
  ]),
  seed(92000205, "Negative pressure dressings and surgical site infection", "2026-02-01", [INFECTION, "Wound Therapy"]),
];
const ARTICLES = [...LEUKEMIA_ARTICLES, ...SPINE_ARTICLES, ...INFECTION_ARTICLES];
const topicOf = (pmid: number) => (pmid < 92000100 ? "leukemia" : pmid < 92000200 ? "spine" : "infection");

interface Suggested {
  pmid: number;
  reason: string;
}
type SectionName = "new_weekly_articles" | "new_yearly_articles" | "pertinent_articles" | "disruptive_articles";
type Latest = Record<SectionName, Suggested[]> & Record<"pertinent_articles_summary", string | null>;

for (const backend of APP_BACKENDS) {
  describe(`suggestions cover every interest (${backend})`, () => {
    let t: TestApp;
    let u: TestUser;
    let body: Latest;

    beforeAll(async () => {
      t = await createTestApp(backend);
      await seedIndexedArticles(t, ARTICLES);
      u = await t.signup({ description: INTERESTS, full_name: "Three Interests" });
      for (const pmid of LIKED) {
        expect((await t.app.request(`/api/v1/likes/${pmid}`, { method: "POST", headers: u.headers })).status).toBe(200);
      }
      // A new installation: the weekly run has never computed the MeSH statistics.
      expect(await t.db.selectFrom("mesh_heading_stats").select("heading").execute()).toHaveLength(0);
      expect(await computeWeeklySuggestions(t.deps, u.user.id, { now: NOW, pubmed: null })).toBe("computed");
      const res = await t.app.request("/api/v1/suggestions/weekly/latest", { headers: u.headers });
      expect(res.status).toBe(200);
      body = (await res.json()) as Latest;
    });
    afterAll(async () => {
      await t.close();
    });

    test("Pertinent For You: each interest on the first two pages, interleaved, saying which interest chose it", () => {
      const pertinent = body.pertinent_articles;
      expect(pertinent.length).toBeGreaterThanOrEqual(4);
      expect(new Set(pertinent.slice(0, 4).map((a) => topicOf(a.pmid)))).toEqual(
        new Set(["spine", "infection", "leukemia"]),
      );
      expect(pertinent.slice(0, 3).map((a) => a.reason)).toEqual([
        'Matches your interest "lumbar spinal fusion"',
        'Matches your interest "surgical site infection"',
        'Matches your interest "childhood acute lymphoblastic leukemia"',
      ]);
      // The likes' theme keeps its place, and the liked articles themselves are never suggested.
      expect(pertinent.slice(3).some((a) => topicOf(a.pmid) === "leukemia")).toBe(true);
      for (const a of pertinent) expect(LIKED).not.toContain(a.pmid);
      // The summary cites within the section.
      expect(body.pertinent_articles_summary).toMatch(/\[\d+(?:, \d+)*\]/);
    });

    test("New This Week and New This Year hold the index's new matches of each interest", () => {
      expect(body.new_weekly_articles.map((a) => a.pmid).sort()).toEqual([92000107, 92000204]);
      expect(body.new_yearly_articles.map((a) => a.pmid).sort()).toEqual([92000108, 92000205]);
    });

    test("Potentially Disruptive is filled on a new installation: MeSH statistics computed on first need", async () => {
      const disruptive = body.disruptive_articles.map((a) => a.pmid);
      expect(disruptive).toEqual(expect.arrayContaining([92000104, 92000105, 92000106]));
      expect(body.disruptive_articles.find((a) => a.pmid === 92000105)!.reason).toBe(
        'Among the first articles in this library\'s index with the MeSH heading "Enhanced Recovery After Surgery" (first indexed here in 2021)',
      );
      expect((await t.db.selectFrom("mesh_heading_stats").select("heading").execute()).length).toBeGreaterThan(0);
      const all = Object.values(body).filter(Array.isArray).flat() as Suggested[];
      expect(new Set(all.map((a) => a.pmid)).size).toBe(all.length); // no article in two sections
    });
  });
}
