/**
 * Is a review's summary one a clinician can trust? (issue 13). Builds at least 20 topics from the real PubMed
 * sample's MeSH headings (a topical heading with its commonest co-heading, skipping the 12 commonest headings that
 * the coverage benchmark uses), runs the real review pipeline on each (embedded database, the sample ingested), and
 * measures over the summaries:
 *  - MeSH precision: the share of cited articles indexed with both of the topic's headings (and with at least one);
 *  - faithfulness: the share of quoted sentences whose every word is found in the abstract or title they cite
 *    (1.0 for an extractive summary);
 *  - findings: the share of quoted sentences that are result or conclusion statements, judged independently of the
 *    summarizer: by the structured abstract's NlmCategory when the sentence comes from a labelled section (RESULTS or
 *    CONCLUSIONS), else by whether it reports an effect, a comparison or a number (goal ≥ 0.9);
 *  - case reports: the share of cited articles that are case reports, over topics whose relevant list holds a trial
 *    or a review (goal < 0.2);
 *  - the review's time, start to complete, on the sample corpus (the 100,000-record time is bench-review.ts's).
 *
 *   bun scripts/bench/bench-evidence.ts [--verbose] [--topics N]
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { sql } from "kysely";
import { createTestApp, type TestApp } from "../../tests/support/app.ts";
import { ingestFiles } from "../../search/ingest.ts";
import { runReview } from "../../src/reviews/pipeline.ts";
import { normalizeWhitespace } from "../../src/reviews/sentences.ts";
import { studyDesign } from "../../src/articles/evidence.ts";
import { NON_TOPICAL_EXTRA, NON_TOPICAL_HEADINGS } from "./mesh-headings.ts";

const { values } = parseArgs({ options: { verbose: { type: "boolean", default: false }, topics: { type: "string", default: "24" } } });
const TOPICS = Number(values.topics);
const SAMPLE = join(import.meta.dir, "..", "..", "sample", "pubmed");
/** MeSH check tags, study designs and other headings that name no topic. */
const NOT_TOPICAL = new Set([...NON_TOPICAL_HEADINGS, ...NON_TOPICAL_EXTRA]);
const STOP = new Set("a an and are as at be by for from has have in is it its of on or that the this to was were with".split(" "));

const t: TestApp = await createTestApp("pglite");
const files = readdirSync(SAMPLE).filter((f) => f.endsWith(".xml.gz")).map((f) => join(SAMPLE, f));
await ingestFiles(t.deps, files);
const records = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM articles`.execute(t.db)).rows[0]!.n;

// ---- Topics ---------------------------------------------------------------------------------------------------------
const headings = (
  await sql<{ heading: string; n: number }>`
    SELECT h AS heading, count(*)::int AS n FROM articles, unnest(mesh_terms) h GROUP BY h ORDER BY n DESC, h`.execute(t.db)
).rows.filter((r) => !NOT_TOPICAL.has(r.heading) && !r.heading.includes(","));
interface Topic {
  topic: string;
  headings: [string, string];
}
const topics: Topic[] = [];
for (const { heading } of headings.slice(12)) {
  if (topics.length === TOPICS) break;
  const co = (
    await sql<{ h: string; n: number }>`
      SELECT h, count(*)::int AS n FROM articles, unnest(mesh_terms) h
      WHERE ${heading} = ANY(mesh_terms) AND h <> ${heading}
      GROUP BY h ORDER BY count(*) DESC, h LIMIT 30`.execute(t.db)
  ).rows.find((r) => !NOT_TOPICAL.has(r.h) && !r.h.includes(",") && r.n >= 3 && !topics.some((x) => x.headings.includes(r.h)));
  if (co && !topics.some((x) => x.headings.includes(heading))) topics.push({ topic: `${co.h} ${heading}`, headings: [heading, co.h] });
}

// ---- Reading a summary ------------------------------------------------------------------------------------------------
interface Quoted {
  body: string;
  numbers: number[];
}
function quotedSentences(summary: string): Quoted[] {
  const out: Quoted[] = [];
  for (const block of summary.split("\n\n")) {
    if (block.startsWith("**Case reports.**") || !/\[\d/u.test(block)) continue;
    const text = block.replace(/^\*\*[^*]+\*\*\s*/u, "").replace(/^- /gmu, "");
    for (const line of text.split("\n")) {
      const re = /(.+?) \[(\d+(?:, \d+)*)\][.!?](?= |$)/gu;
      for (let m = re.exec(line); m !== null; m = re.exec(line)) out.push({ body: (m[1] ?? "").trim(), numbers: (m[2] ?? "").split(", ").map(Number) });
    }
  }
  return out;
}
const words = (s: string) => (s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => !STOP.has(w));
const REPORTS_EFFECT =
  /\b(?:significant\w*|associat\w*|increas\w*|decreas\w*|reduc\w*|improv\w*|higher|lower|greater|fewer|compared|versus|vs|odds|hazard|ratio|risks?|effective\w*|efficacy|superior|inferior|similar|differ\w*|correlat\w*|predict\w*|suggest\w*|conclu\w*|indicat\w*|show\w*|demonstrat\w*|found|reveal\w*|confirm\w*|resulted|caused?|induc\w*|inhibit\w*|enhanc\w*|prevent\w*)\b|\d/iu;

interface ArticleRow {
  pmid: number;
  title: string | null;
  abstract: string | null;
  abstract_sections: { label: string; nlm_category: string | null; text: string }[] | string;
  publication_types: string[];
  mesh_terms: string[];
}
async function articles(pmids: number[]): Promise<Map<number, ArticleRow>> {
  if (pmids.length === 0) return new Map();
  const rows = (await t.db.selectFrom("articles").select(["pmid", "title", "abstract", "abstract_sections", "publication_types", "mesh_terms"]).where("pmid", "in", pmids).execute()) as ArticleRow[];
  return new Map(rows.map((r) => [r.pmid, r]));
}
function isFinding(sentence: string, article: ArticleRow): boolean {
  const raw = typeof article.abstract_sections === "string" ? JSON.parse(article.abstract_sections) : article.abstract_sections;
  const sections = raw as { nlm_category: string | null; text: string }[];
  const labelled = sections.find((s) => s.nlm_category !== null && s.nlm_category !== "UNASSIGNED" && normalizeWhitespace(s.text).includes(sentence));
  if (labelled) return labelled.nlm_category === "RESULTS" || labelled.nlm_category === "CONCLUSIONS";
  return REPORTS_EFFECT.test(sentence);
}
const STRONG = new Set(["meta-analysis", "systematic-review", "rct", "clinical-trial", "review"]);

// ---- Runs -----------------------------------------------------------------------------------------------------------
const user = await t.signup();
const totals = { cited: 0, bothHeadings: 0, oneHeading: 0, sentences: 0, faithful: 0, findings: 0, strongTopics: 0, strongCited: 0, strongCaseReports: 0 };
const times: number[] = [];
async function review(topic: string): Promise<{ summary: string; cited: number[]; relevant: number[]; ms: number; status: string }> {
  const { id } = await t.db.insertInto("literature_reviews").values({ user_id: user.user.id, user_query: topic, status: "searching" }).returning("id").executeTakeFirstOrThrow();
  const started = performance.now();
  await runReview(t.deps, id);
  const ms = performance.now() - started;
  const row = await t.db.selectFrom("literature_reviews").select(["status", "summary"]).where("id", "=", id).executeTakeFirstOrThrow();
  const list = await t.db.selectFrom("literature_review_articles").select(["pmid", "citation_number", "covers_topic"]).where("review_id", "=", id).orderBy("rank").execute();
  const cited = list.filter((r) => r.citation_number !== null).sort((a, b) => (a.citation_number ?? 0) - (b.citation_number ?? 0)).map((r) => r.pmid);
  return { summary: row.summary ?? "", cited, relevant: list.filter((r) => r.covers_topic).map((r) => r.pmid), ms, status: row.status };
}

for (const { topic, headings: [a, b] } of topics) {
  const r = await review(topic);
  times.push(r.ms);
  const byPmid = await articles([...new Set([...r.cited, ...r.relevant])]);
  let both = 0;
  let caseReports = 0;
  for (const pmid of r.cited) {
    const m = byPmid.get(pmid)?.mesh_terms ?? [];
    if (m.includes(a) && m.includes(b)) both++;
    if (m.includes(a) || m.includes(b)) totals.oneHeading++;
    if (studyDesign(byPmid.get(pmid)?.publication_types ?? [], m) === "case-report") caseReports++;
  }
  totals.cited += r.cited.length;
  totals.bothHeadings += both;
  let faithful = 0;
  let findings = 0;
  const quoted = quotedSentences(r.summary);
  for (const q of quoted) {
    const source = byPmid.get(r.cited[(q.numbers[0] ?? 0) - 1] ?? -1);
    if (!source) continue;
    const text = new Set(words(`${source.title ?? ""} ${source.abstract ?? ""}`));
    if (words(q.body).every((w) => text.has(w))) faithful++;
    if (isFinding(q.body, source)) findings++;
  }
  totals.sentences += quoted.length;
  totals.faithful += faithful;
  totals.findings += findings;
  const strong = r.relevant.some((p) => STRONG.has(studyDesign(byPmid.get(p)?.publication_types ?? [], byPmid.get(p)?.mesh_terms ?? []) ?? ""));
  if (strong) {
    totals.strongTopics++;
    totals.strongCited += r.cited.length;
    totals.strongCaseReports += caseReports;
  }
  if (values.verbose)
    console.log(
      `${topic.slice(0, 60).padEnd(60)} ${r.status.padEnd(17)} cited ${String(r.cited.length).padStart(2)} | both headings ${both} | findings ${findings}/${quoted.length} | case reports ${caseReports}${strong ? " (trials/reviews on topic)" : ""} | ${r.ms.toFixed(0)} ms`,
    );
}

// ---- Report ---------------------------------------------------------------------------------------------------------
const ratio = (x: number, y: number) => (y === 0 ? "n/a" : (x / y).toFixed(3));
times.sort((x, y) => x - y);
console.log(`records: ${records} (${files.length} sample files); topics: ${topics.length}`);
console.log(`MeSH precision of cited articles: ${ratio(totals.bothHeadings, totals.cited)} with both headings, ${ratio(totals.oneHeading, totals.cited)} with at least one (${totals.cited} cited)`);
console.log(`faithfulness: ${ratio(totals.faithful, totals.sentences)} of ${totals.sentences} quoted sentences found word for word in the abstract they cite`);
console.log(`findings: ${ratio(totals.findings, totals.sentences)} of quoted sentences are result or conclusion statements`);
console.log(`case reports among cited articles, ${totals.strongTopics} topics with trials or reviews: ${ratio(totals.strongCaseReports, totals.strongCited)} (${totals.strongCaseReports} of ${totals.strongCited})`);
console.log(`review time on the sample corpus: median ${times[Math.floor(times.length / 2)]?.toFixed(0)} ms, p95 ${times[Math.min(times.length - 1, Math.floor(times.length * 0.95))]?.toFixed(0)} ms`);
await t.close();
