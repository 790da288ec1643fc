// Offline evaluation of weekly suggestions (issue 11), without real users: from the PubMed sample (embedded database),
// synthetic users whose liked articles share a MeSH heading or an author; their likes split by date (the most recent
// third held out); the held-out period's articles ranked for each user; Recall@10, nDCG@10 and MRR of Pertinent For
// You's ranking (src/suggestions: one query per recent like, the pooled reading list, weighted reciprocal rank
// fusion) against a plain BM25 "more like this" baseline (one query made of the same likes' text, as PubMed's
// related-articles ranking is usually compared with), and the cold-start curve with 1, 3, 5 and 10 liked articles.
//
// Interest coverage (issue 24): synthetic users with three interests, each the name of a specific MeSH heading of the
// sample (three headings whose articles do not overlap), and three likes of the third interest's articles, as the
// issue's reader had; the sections are chosen by the weekly run's own path (retrieveCandidates, chooseSections). An
// interest is represented when one of Pertinent For You's 10 articles carries its heading; it counts only where the
// index holds a match for it (an article with the heading among the interest's own candidates, not liked). Reported:
// the mean share of interests represented, the share of users with every interest represented, and, for a fourth
// heading's likes, whether the liked theme is represented too.
//
// Usage: npm run bench -- suggestions-quality [--max-users N] [--coverage-only]
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { createTestApp } from "../../tests/support/app.ts";
import { ingestFiles } from "../../search/ingest.ts";
import { buildProfile, likeText, type ProfileLike } from "../../src/suggestions/profile.ts";
import {
  candidatePmidsToRead,
  chooseSections,
  rankProfile,
  retrieveCandidates,
  SECTION_SIZE,
  type CandidateArticle,
} from "../../src/suggestions/sections.ts";
import { readCandidateArticles } from "../../src/suggestions/repository.ts";
import { readHeadingStats } from "../../src/suggestions/disruption.ts";
import type { TestApp } from "../../tests/support/app.ts";

const SAMPLE = join(import.meta.dir, "..", "..", "sample", "pubmed");
const maxUsersAt = process.argv.indexOf("--max-users");
const MAX_USERS = maxUsersAt > 0 ? Number(process.argv[maxUsersAt + 1]) : 150;
const COVERAGE_ONLY = process.argv.includes("--coverage-only");
/** The clock of the coverage users' weeks (any fixed day: Pertinent For You is of any date). */
const COVERAGE_NOW = new Date("2026-11-24T10:00:00Z");
const K = 10;
/** Headings too general to make a reader's interest (MeSH check tags and the like). */
const CHECK_TAGS = new Set([
  "Humans",
  "Male",
  "Female",
  "Animals",
  "Adult",
  "Middle Aged",
  "Aged",
  "Aged, 80 and over",
  "Young Adult",
  "Adolescent",
  "Child",
  "Child, Preschool",
  "Infant",
  "Infant, Newborn",
  "Mice",
  "Rats",
  "Retrospective Studies",
  "Prospective Studies",
  "Risk Factors",
  "Treatment Outcome",
  "Time Factors",
  "Cohort Studies",
  "Follow-Up Studies",
  "Cross-Sectional Studies",
  "Surveys and Questionnaires",
  "Prognosis",
  "Case-Control Studies",
  "Pregnancy",
]);

interface Row {
  pmid: number;
  title: string | null;
  authors: string | null;
  mesh_terms: string[];
  keywords: string[];
  publication_date: string | null;
  publication_year: number | null;
}

interface Metrics {
  recall: number;
  ndcg: number;
  rr: number;
}

function score(ranked: number[], relevant: Set<number>): Metrics {
  const top = ranked.slice(0, K);
  const hits = top.filter((p) => relevant.has(p)).length;
  let dcg = 0;
  top.forEach((p, i) => {
    if (relevant.has(p)) dcg += 1 / Math.log2(i + 2);
  });
  let idcg = 0;
  for (let i = 0; i < Math.min(K, relevant.size); i++) idcg += 1 / Math.log2(i + 2);
  const first = ranked.findIndex((p) => relevant.has(p));
  return { recall: hits / relevant.size, ndcg: idcg ? dcg / idcg : 0, rr: first >= 0 ? 1 / (first + 1) : 0 };
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : Number.NaN);

type Results = Record<string, { ours: Metrics[]; baseline: Metrics[] }>;

/** A like of record `r` at `likedAt`, as the suggestion profile reads it. */
function profileLike(pmid: number, r: Row, likedAt: Date): ProfileLike {
  return { pmid, title: r.title, mesh_terms: r.mesh_terms, keywords: r.keywords, liked_at: likedAt };
}

/** Ingests the PubMed sample into the app's database. @returns its dated articles, and the same by PMID. */
async function loadSample(t: TestApp): Promise<{ rows: Row[]; byPmid: Map<number, Row> }> {
  const files = readdirSync(SAMPLE)
    .filter((f) => f.endsWith(".xml.gz"))
    .map((f) => join(SAMPLE, f));
  await ingestFiles(t.deps, files);
  const rows = (await t.db
    .selectFrom("articles")
    .select(["pmid", "title", "authors", "mesh_terms", "keywords", "publication_year"])
    .select((eb) => eb.cast<string>("publication_date", "text").as("publication_date"))
    .where("publication_date", "is not", null)
    .execute()) as Row[];
  return { rows, byPmid: new Map(rows.map((r) => [r.pmid, r])) };
}

/**
 * The synthetic users: groups of 8–60 articles sharing a specific MeSH heading ("mesh:…") or an author
 * ("author:…"), their PMIDs by publication date, kept when the most recent third starts strictly after the rest;
 * at most MAX_USERS, half of them (at most) by author.
 * @returns the users, and every group (the interest-coverage users are drawn from them).
 */
function syntheticUsers(
  rows: Row[],
  byPmid: Map<number, Row>,
): { users: { key: string; pmids: number[] }[]; groups: Map<string, number[]> } {
  // Groups of articles that one reader might like: a shared specific MeSH heading, or a shared author.
  const groups = new Map<string, number[]>();
  const add = (key: string, pmid: number) => (groups.get(key) ?? groups.set(key, []).get(key)!).push(pmid);
  for (const r of rows) {
    for (const h of r.mesh_terms) if (!CHECK_TAGS.has(h)) add(`mesh:${h}`, r.pmid);
    for (const a of (r.authors ?? "").split(/,\s*/).slice(0, 3))
      if (a.trim().length > 3) add(`author:${a.trim()}`, r.pmid);
  }
  const users: { key: string; pmids: number[] }[] = [...groups.entries()]
    .filter(([, pmids]) => pmids.length >= 8 && pmids.length <= 60)
    .map(([key, pmids]) => ({
      key,
      pmids: [...new Set(pmids)].sort((a, b) =>
        (byPmid.get(a)!.publication_date ?? "").localeCompare(byPmid.get(b)!.publication_date ?? ""),
      ),
    }))
    // A held-out period must start strictly after the training likes.
    .filter(
      (u) =>
        byPmid.get(u.pmids[Math.floor(u.pmids.length * (2 / 3)) - 1]!)!.publication_date! <
        byPmid.get(u.pmids[Math.floor(u.pmids.length * (2 / 3))]!)!.publication_date!,
    )
    .sort((a, b) => a.key.localeCompare(b.key));
  // Every author group the sample allows (few authors have 8+ articles in it), then heading groups (by key).
  const byAuthor = users.filter((u) => u.key.startsWith("author:")).slice(0, Math.ceil(MAX_USERS / 2));
  const byHeading = users.filter((u) => u.key.startsWith("mesh:")).slice(0, MAX_USERS - byAuthor.length);
  users.splice(0, users.length, ...byHeading, ...byAuthor);
  return { users, groups };
}

/**
 * Ranks each user's held-out period with 1, 3, 5 and 10 of their latest training likes, by Pertinent For You's
 * ranking and by the BM25 "more like this" baseline. @returns each method's metrics per likes count.
 */
async function evaluateRanking(
  t: TestApp,
  users: { key: string; pmids: number[] }[],
  byPmid: Map<number, Row>,
): Promise<Results> {
  const results: Results = {};
  for (const likesCount of [1, 3, 5, 10]) results[likesCount] = { ours: [], baseline: [] };
  for (const u of users) {
    const cut = Math.floor(u.pmids.length * (2 / 3));
    const train = u.pmids.slice(0, cut);
    const heldOut = new Set(u.pmids.slice(cut));
    const splitDate = byPmid.get(u.pmids[cut]!)!.publication_date!;
    const splitYear = Number(splitDate.slice(0, 4));
    const now = new Date(`${splitDate}T00:00:00Z`);
    const inPeriod = (pmid: number) => (byPmid.get(pmid)?.publication_date ?? "") >= splitDate;
    for (const likesCount of [1, 3, 5, 10]) {
      const likedPmids = train.slice(-likesCount);
      const likes = likedPmids.map((p) => {
        const r = byPmid.get(p)!;
        return profileLike(p, r, new Date(`${r.publication_date}T00:00:00Z`));
      });
      const exclude = new Set(train);
      // Ours: Pertinent For You's ranking (every source of the profile, fused), over the held-out period's years.
      const profile = buildProfile(null, likes, now);
      const ours = (await rankProfile(t.deps.search, profile.sources, exclude, { fromYear: splitYear }))
        .map((c) => c.pmid)
        .filter(inPeriod);
      // Baseline: one BM25 "more like this" query of the same likes' text.
      const mlt = await t.deps.search.similar(likes.map(likeText).join(". "), {
        limit: 100,
        excludePmids: [...exclude],
        fromYear: splitYear,
      });
      const baseline = mlt.hits.map((h) => h.pmid).filter(inPeriod);
      results[likesCount]!.ours.push(score(ours, heldOut));
      results[likesCount]!.baseline.push(score(baseline, heldOut));
    }
  }
  return results;
}

/** Prints the ranking evaluation: the table of metrics, and ours against the baseline. */
function reportRanking(rows: Row[], users: { key: string; pmids: number[] }[], results: Results, started: number) {
  console.log(
    `sample: ${rows.length} dated records; ${users.length} synthetic users (${users.filter((u) => u.key.startsWith("mesh:")).length} by MeSH heading, ${users.filter((u) => u.key.startsWith("author:")).length} by author)`,
  );
  console.log(
    "each user: 8–60 articles sharing the heading or author; the most recent third held out, ranked among the period's articles",
  );
  console.log("likes | method   | Recall@10 | nDCG@10 | MRR");
  for (const likesCount of [1, 3, 5, 10]) {
    for (const method of ["ours", "baseline"] as const) {
      const m = results[likesCount]![method];
      console.log(
        `${String(likesCount).padStart(5)} | ${method.padEnd(8)} | ${mean(m.map((x) => x.recall))
          .toFixed(3)
          .padStart(9)} | ${mean(m.map((x) => x.ndcg))
          .toFixed(3)
          .padStart(7)} | ${mean(m.map((x) => x.rr)).toFixed(3)}`,
      );
    }
  }
  for (const likesCount of [1, 3, 5, 10]) {
    const o = results[likesCount]!.ours;
    const b = results[likesCount]!.baseline;
    const gain = (f: (m: Metrics) => number) => ((mean(o.map(f)) / mean(b.map(f)) - 1) * 100).toFixed(1);
    console.log(
      `${likesCount} likes: ours vs baseline: Recall@10 ${gain((m) => m.recall)}%, nDCG@10 ${gain((m) => m.ndcg)}%, MRR ${gain((m) => m.rr)}%`,
    );
  }
  console.log(`evaluated in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

async function main() {
  const t = await createTestApp("pglite");
  try {
    const { rows, byPmid } = await loadSample(t);
    const { users, groups } = syntheticUsers(rows, byPmid);
    await interestCoverage(t, groups, byPmid);
    if (COVERAGE_ONLY) return;
    const started = performance.now();
    const results = await evaluateRanking(t, users, byPmid);
    reportRanking(rows, users, results, started);
  } finally {
    await t.close();
  }
}

/**
 * The interest-coverage evaluation (see the header): prints the mean share of interests represented in Pertinent For
 * You's top SECTION_SIZE, and of the liked theme.
 */
async function interestCoverage(t: TestApp, groups: Map<string, number[]>, byPmid: Map<number, Row>): Promise<void> {
  const headings = [...groups.entries()]
    // A heading with a comma ("Administration, Oral") would be two interests: a description's interests are separated
    // by commas.
    .filter(
      ([key, pmids]) =>
        key.startsWith("mesh:") && !key.includes(",") && new Set(pmids).size >= 8 && new Set(pmids).size <= 60,
    )
    .map(([key, pmids]) => ({ heading: key.slice(5), pmids: [...new Set(pmids)] }))
    .sort((a, b) => a.heading.localeCompare(b.heading));
  // Four strata of the alphabetical list, so that one user's headings are not neighbours ("Leukemia", "Leukemia, …").
  const stratum = Math.floor(headings.length / 4);
  const shares: number[] = [];
  const sharesByQuery: number[] = [];
  const likedTheme: number[] = [];
  let full = 0;
  let users = 0;
  for (let i = 0; i < stratum && users < MAX_USERS; i++) {
    const four = [0, 1, 2, 3].map((s) => headings[s * stratum + i]!);
    const all = four.flatMap((h) => h.pmids);
    if (new Set(all).size !== all.length) continue; // overlapping headings: not distinct interests
    users++;
    const [a, b, c, d] = four as [(typeof four)[0], (typeof four)[0], (typeof four)[0], (typeof four)[0]];
    const likeOf = (pmids: number[]) =>
      pmids
        .slice(0, 3)
        .map((p, n) => profileLike(p, byPmid.get(p)!, new Date(COVERAGE_NOW.getTime() - (n + 1) * 86_400_000)));
    const interests = [a, b, c];
    for (const [likes, theme] of [
      [likeOf(c.pmids), null],
      [likeOf(d.pmids), d],
    ] as const) {
      const profile = buildProfile(interests.map((h) => h.heading).join(", "), likes, COVERAGE_NOW);
      const exclude = new Set(likes.map((l) => l.pmid));
      const year = COVERAGE_NOW.getUTCFullYear();
      const candidates = await retrieveCandidates(t.deps, profile, exclude, year, year + 1, COVERAGE_NOW);
      const rows = await readCandidateArticles(t.db, candidatePmidsToRead(candidates));
      const articles = new Map<number, CandidateArticle>(rows.map((r) => [r.pmid, r]));
      const stats = await readHeadingStats(
        t.db,
        rows.flatMap((r) => r.mesh_terms),
      );
      const sections = chooseSections(candidates, articles, { ...stats, cdIndexes: new Map() }, COVERAGE_NOW);
      const top = sections.pertinent_articles.slice(0, SECTION_SIZE).map((e) => byPmid.get(e.pmid)?.mesh_terms ?? []);
      const represented = (h: { heading: string }) => top.some((mesh) => mesh.includes(h.heading));
      if (theme) {
        likedTheme.push(represented(theme) ? 1 : 0);
        continue;
      }
      // Only interests the index can serve: one of the interest's own candidates carries the heading.
      const servable: typeof interests = [];
      let byQuery = 0;
      const chosen = new Set(sections.pertinent_articles.map((e) => e.pmid));
      for (const h of interests) {
        const own = (await t.deps.search.similar(h.heading, { limit: 100, excludePmids: [...exclude] })).hits;
        if (own.some((hit) => byPmid.get(hit.pmid)?.mesh_terms.includes(h.heading))) servable.push(h);
        // The looser reading: one of the interest's own 10 best matches is among the section's 10.
        if (own.slice(0, SECTION_SIZE).some((hit) => chosen.has(hit.pmid))) byQuery++;
      }
      sharesByQuery.push(byQuery / interests.length);
      if (servable.length === 0) continue;
      const share = servable.filter(represented).length / servable.length;
      shares.push(share);
      if (share === 1) full++;
    }
  }
  console.log(`interest coverage: ${users} synthetic users, 3 interests (MeSH heading names) and 3 likes each`);
  console.log(
    `  share of servable interests represented in Pertinent For You's top ${SECTION_SIZE}: ${mean(shares).toFixed(3)} (${shares.length} users)`,
  );
  console.log(`  users with every servable interest represented: ${full}/${shares.length}`);
  console.log(
    `  share of interests with one of their own query's 10 best in the top ${SECTION_SIZE}: ${mean(sharesByQuery).toFixed(3)}`,
  );
  console.log(
    `  likes of a fourth heading: liked theme represented for ${(mean(likedTheme) * 100).toFixed(1)} % of users`,
  );
}

await main();
