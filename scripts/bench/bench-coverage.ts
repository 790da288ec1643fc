/**
 * Does a review cite only articles about its topic? (issue 8). Builds topics from the real PubMed sample's MeSH
 * headings and titles — well covered, thinly covered, and not covered at all — runs the real review pipeline on each
 * (embedded database, the sample ingested), and measures:
 *  - the share of cited articles that cover every concept of their topic, checked on each article's own text with
 *    PostgreSQL's text analysis, independently of the search index (goal 1.0);
 *  - topics that nothing covers but that still cite something (goal 0);
 *  - for well-covered topics, the citations kept.
 * Each measure is also taken with coverage switched off (the ranking alone decides, as before issue 8).
 *
 *   bun scripts/bench/bench-coverage.ts [--verbose]
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { sql } from "kysely";
import { createTestApp, type TestApp } from "../../tests/support/app.ts";
import { ingestFiles } from "../../search/ingest.ts";
import type { SearchIndex } from "../../search/search-index.ts";
import { runReview } from "../../src/reviews/pipeline.ts";
import { readTopicFromCorpus } from "../../src/reviews/topic.ts";
import { NON_TOPICAL_HEADINGS } from "./mesh-headings.ts";

const VERBOSE = process.argv.includes("--verbose");
const SAMPLE = join(import.meta.dir, "..", "..", "sample", "pubmed");
/** MeSH check tags and other headings that say nothing about a topic. */
const CHECK_TAGS = NON_TOPICAL_HEADINGS;

type Kind = "well" | "thin" | "none";
interface Topic {
  kind: Kind;
  topic: string;
}

const t: TestApp = await createTestApp("pglite");
const files = readdirSync(SAMPLE)
  .filter((f) => f.endsWith(".xml.gz"))
  .map((f) => join(SAMPLE, f));
await ingestFiles(t.deps, files);

// ---- Topics from the sample ------------------------------------------------------------------------------------
const headings = (
  await sql<{ heading: string; n: number }>`
    SELECT h AS heading, count(*)::int AS n FROM articles, unnest(mesh_terms) h GROUP BY h ORDER BY n DESC, h`.execute(
    t.db,
  )
).rows.filter((r) => !CHECK_TAGS.has(r.heading) && !r.heading.includes(","));
const topics: Topic[] = [];
// Well covered: the 12 commonest topical headings, each with its commonest co-heading.
for (const { heading } of headings.slice(0, 12)) {
  const co = (
    await sql<{ h: string }>`
      SELECT h FROM articles, unnest(mesh_terms) h
      WHERE ${heading} = ANY(mesh_terms) AND h <> ${heading}
      GROUP BY h ORDER BY count(*) DESC, h LIMIT 20`.execute(t.db)
  ).rows.find(
    (r) => !CHECK_TAGS.has(r.h) && !r.h.includes(",") && !topics.some((x) => x.topic === `${r.h} ${heading}`),
  );
  topics.push({ kind: "well", topic: co ? `${heading} ${co.h}` : heading });
}
// Thinly covered: a topical heading with another that it meets in only one to three records.
for (const { heading } of headings.slice(0, 40)) {
  if (topics.filter((x) => x.kind === "thin").length === 12) break;
  const co = (
    await sql<{ h: string }>`
      SELECT h FROM articles, unnest(mesh_terms) h
      WHERE ${heading} = ANY(mesh_terms) AND h <> ${heading}
      GROUP BY h HAVING count(*) BETWEEN 1 AND 3 ORDER BY count(*) DESC, h LIMIT 40`.execute(t.db)
  ).rows.find((r) => !CHECK_TAGS.has(r.h) && !r.h.includes(",") && !topics.some((x) => x.topic.includes(r.h)));
  if (co) topics.push({ kind: "thin", topic: `${heading} ${co.h}` });
}
// Not covered: headings that never meet in one record, and topics the sample does not hold.
const pairs: [string, string][] = [];
for (let i = 0; i < headings.length && pairs.length < 8; i += 3) {
  const a = headings[i]!.heading;
  const b = headings[(i * 7 + 11) % Math.min(headings.length, 60)]!.heading;
  const together = await sql<{
    n: number;
  }>`SELECT count(*)::int AS n FROM articles WHERE ${a} = ANY(mesh_terms) AND ${b} = ANY(mesh_terms)`.execute(t.db);
  if (a !== b && together.rows[0]!.n === 0) pairs.push([a, b]);
}
for (const [a, b] of pairs) topics.push({ kind: "none", topic: `"${a}" "${b}"` });
for (const topic of [
  "xyzzy frobnicate quantum unicorn",
  'covid-19 "long covid"',
  "sepsis vasopressin",
  "malaria vaccine efficacy",
  "cochlear implant outcomes in infants",
])
  topics.push({ kind: "none", topic });

// ---- Runs ----------------------------------------------------------------------------------------------------------
const user = await t.signup();

/** The search index with coverage switched off: what the pipeline did before issue 8. */
const withoutCoverage: SearchIndex = {
  ...t.deps.search,
  search: (q, o) => t.deps.search.search(q, { ...o, requireAll: undefined }),
};

/** Whether the article's own text has one of the alternatives. */
async function covers(pmid: number, alternatives: string[]): Promise<boolean> {
  const { rows } = await sql<{ ok: boolean }>`
    SELECT bool_or(to_tsvector('english', concat_ws(' ', title, abstract, array_to_string(mesh_terms || keywords, ' ')))
                   @@ phraseto_tsquery('english', alt)) AS ok
    FROM articles, unnest(${`{${alternatives.map((a) => JSON.stringify(a)).join(",")}}`}::text[]) AS alt
    WHERE pmid = ${pmid}`.execute(t.db);
  return rows[0]?.ok === true;
}

interface Outcome {
  cited: number;
  citedCovering: number;
  matching: number | null;
  status: string;
  ms: number;
}

async function run(topic: string, coverage: boolean): Promise<Outcome> {
  const { id } = await t.db
    .insertInto("literature_reviews")
    .values({ user_id: user.user.id, user_query: topic, status: "searching" })
    .returning("id")
    .executeTakeFirstOrThrow();
  const started = performance.now();
  await runReview(coverage ? t.deps : { ...t.deps, search: withoutCoverage }, id);
  const ms = performance.now() - started;
  const review = await t.db
    .selectFrom("literature_reviews")
    .select(["status", "matching_count"])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
  const cited = await t.db
    .selectFrom("literature_review_articles")
    .select("pmid")
    .where("review_id", "=", id)
    .where("citation_number", "is not", null)
    .execute();
  const { concepts } = await readTopicFromCorpus(t.deps, topic);
  let citedCovering = 0;
  for (const { pmid } of cited)
    if ((await Promise.all(concepts.map((c) => covers(pmid, c.alternatives)))).every(Boolean)) citedCovering++;
  return { cited: cited.length, citedCovering, matching: review.matching_count, status: review.status, ms };
}

const results: { kind: Kind; topic: string; on: Outcome; off: Outcome }[] = [];
for (const { kind, topic } of topics) {
  const on = await run(topic, true);
  const off = await run(topic, false);
  results.push({ kind, topic, on, off });
  if (VERBOSE)
    console.log(
      `${kind.padEnd(4)} ${topic.slice(0, 70).padEnd(70)} covering ${String(on.matching).padStart(4)} | cited ${on.citedCovering}/${on.cited} (off: ${off.citedCovering}/${off.cited})`,
    );
}

// ---- Report ---------------------------------------------------------------------------------------------------------
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const share = (side: "on" | "off") =>
  sum(results.map((r) => r[side].citedCovering)) / Math.max(1, sum(results.map((r) => r[side].cited)));
const uncoveredCiting = (side: "on" | "off") => results.filter((r) => r.on.matching === 0 && r[side].cited > 0).length;
const byKind = (k: Kind) => results.filter((r) => r.kind === k);
const meanCited = (k: Kind, side: "on" | "off") =>
  sum(byKind(k).map((r) => r[side].cited)) / Math.max(1, byKind(k).length);
const times = results.map((r) => r.on.ms).sort((a, b) => a - b);
console.log(
  `topics: ${results.length} (well ${byKind("well").length}, thin ${byKind("thin").length}, none ${byKind("none").length}); records: ${files.length} sample files`,
);
console.log(
  `cited articles covering every concept: ${share("on").toFixed(3)} with coverage (${sum(results.map((r) => r.on.cited))} cited) | ${share("off").toFixed(3)} without (${sum(results.map((r) => r.off.cited))} cited)`,
);
console.log(
  `topics nothing covers that still cite something: ${uncoveredCiting("on")} of ${results.filter((r) => r.on.matching === 0).length} with coverage | ${uncoveredCiting("off")} without`,
);
console.log(
  `citations per well-covered topic: ${meanCited("well", "on").toFixed(1)} with coverage | ${meanCited("well", "off").toFixed(1)} without; thin topics: ${meanCited("thin", "on").toFixed(1)} | ${meanCited("thin", "off").toFixed(1)}`,
);
console.log(
  `thin topics opening with "Only N articles…": ${byKind("thin").filter((r) => (r.on.matching ?? 99) < 5).length} of ${byKind("thin").length}`,
);
console.log(
  `review pipeline time with coverage, sample corpus: median ${times[Math.floor(times.length / 2)]!.toFixed(0)} ms, p95 ${times[Math.floor(times.length * 0.95)]!.toFixed(0)} ms`,
);
await t.close();
