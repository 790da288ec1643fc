/**
 * Is a review's summary one a clinician can trust and act on? (issues 13 and 21). Builds at least 24 topics from the
 * real PubMed sample's MeSH headings (a topical heading with its commonest co-heading, skipping the 12 commonest
 * headings that the coverage benchmark uses), runs the real review pipeline on each (embedded database, the sample
 * ingested), and measures over the summaries:
 *  - MeSH precision: the share of cited articles indexed with both of the topic's headings (and with at least one);
 *  - faithfulness: the share of quoted sentences whose every word is found in the abstract or title they cite
 *    (1.0 for an extractive summary);
 *  - findings: the share of quoted sentences that are result or conclusion statements (issue 21's goal ≥ 0.95),
 *    judged independently of the summarizer: by the structured abstract's section (its NlmCategory, else its printed
 *    or inline label) when the sentence comes from a labelled section; by the hand-labelled sentences of unstructured
 *    abstracts in tests/fixtures/sentence-roles-labelled.json when it is one of them; else by whether it reports an
 *    effect, a comparison or a number (a heuristic, listed with --verbose). How many sentences each way judged is
 *    printed;
 *  - case reports: the share of cited articles that are case reports, over topics whose relevant list holds a trial,
 *    a cohort study or a review (issue 21's goal ≤ 0.10), and the number of case reports quoted for a finding (goal 0);
 *  - duplicate records: the groups of records of one work (src/reviews/evidence/duplicates.ts) among each topic's
 *    relevant articles, how many of them the summary cites, and that each is cited under one number with its other
 *    PMIDs listed in the evidence table; and the most citation numbers on one sentence;
 *  - the review's time, start to complete, on the sample corpus (the 100,000-record time is bench-review.ts's);
 *  - issue 37: summaries whose citation numbers follow first use; summaries of two or more primary studies that state
 *    their certainty; openings whose totals equal the table's participants (recomputed here); table rows whose
 *    participants are written in their source sentence; comparative topics whose summary says whether any cited
 *    study compares the two sides; and, with tests/fixtures/key-findings-labelled.json, the share of quoted key
 *    findings that a hand-labelled set judges as answering the topic (--dump-quotes FILE writes the quoted sentences
 *    per topic, to be judged).
 *
 * Besides the MeSH-built topics, eight clinical questions written by hand (CLINICAL_TOPICS: treatment and comparative
 * topics of the sample) are reviewed; they count for every measure but MeSH precision.
 *
 * With --hide-labels the summarizer is given every structured abstract without its section labels (the sections'
 * text joined as one unstructured abstract), so the sentence roles come from the classifier (src/reviews/roles/) and
 * the hidden labels judge them.
 *
 * With --duplicates, one sample record in DUPLICATE_EVERY (with an abstract) is copied under 1 to 4 new PMIDs before
 * the runs, as duplicate publications (exact copies), translations (the title in another language) and republished
 * records (another title, a corrected word) appear in PubMed, so that the duplicate-record measures have groups to
 * meet (the sample itself holds none).
 *
 * Then, unless --summaries-only, the two measures of the parts behind the summary, each its own script so it can be run
 * alone: the sentence-role classifier's accuracy and per-class F1 on held-out structured abstracts with their labels
 * hidden and on the hand-labelled unstructured ones (bench-sentence-roles.ts), and the participants and effect
 * extraction's precision and recall against the hand-checked abstracts of tests/fixtures/evidence-gold.json
 * (bench-extraction.ts). The review time at 100,000 records is bench-review.ts's.
 *
 *   npm run bench -- evidence [--verbose] [--topics N] [--hide-labels] [--duplicates] [--summaries-only]
 *                             [--dump-quotes FILE]
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { sql } from "kysely";
import { createTestApp, type TestApp } from "../../tests/support/app.ts";
import { ingestFiles } from "../../search/ingest.ts";
import { defaultSteps, MAX_RELEVANT, runReview, type PipelineSteps } from "../../src/reviews/pipeline.ts";
import {
  classifySection,
  normalizeWhitespace,
  splitInlineSections,
  type LabelledText,
} from "../../src/reviews/sentences.ts";
import { groupDuplicateRecords } from "../../src/reviews/evidence/duplicates.ts";
import type { SummaryArticle } from "../../src/reviews/summary/types.ts";
import { studyDesign } from "../../src/articles/evidence.ts";
import { inFirstUseOrder } from "../../src/reviews/citation-order.ts";
import { PRIMARY_DESIGNS } from "../../src/reviews/evidence/certainty.ts";
import { tokenize } from "../../src/reviews/evidence/tokens.ts";
import { STUDY_DESIGNS } from "../../src/articles/evidence.ts";
import { NON_TOPICAL_EXTRA, NON_TOPICAL_HEADINGS } from "./mesh-headings.ts";

const { values } = parseArgs({
  options: {
    verbose: { type: "boolean", default: false },
    topics: { type: "string", default: "24" },
    "hide-labels": { type: "boolean", default: false },
    duplicates: { type: "boolean", default: false },
    "summaries-only": { type: "boolean", default: false },
    "dump-quotes": { type: "string" },
  },
});
const TOPICS = Number(values.topics);
const SAMPLE = join(import.meta.dir, "..", "..", "sample", "pubmed");
/** MeSH check tags, study designs and other headings that name no topic. */
const NOT_TOPICAL = new Set([...NON_TOPICAL_HEADINGS, ...NON_TOPICAL_EXTRA]);
const STOP = new Set(
  "a an and are as at be by for from has have in is it its of on or that the this to was were with".split(" "),
);

const t: TestApp = await createTestApp("pglite");
const files = readdirSync(SAMPLE)
  .filter((f) => f.endsWith(".xml.gz"))
  .map((f) => join(SAMPLE, f));
await ingestFiles(t.deps, files);

// ---- Topics ---------------------------------------------------------------------------------------------------------
const headings = (
  await sql<{ heading: string; n: number }>`
    SELECT h AS heading, count(*)::int AS n FROM articles, unnest(mesh_terms) h GROUP BY h ORDER BY n DESC, h`.execute(
    t.db,
  )
).rows.filter((r) => !NOT_TOPICAL.has(r.heading) && !r.heading.includes(","));
interface Topic {
  topic: string;
  headings: [string, string] | null;
}
const topics: Topic[] = [];
for (const { heading } of headings.slice(12)) {
  if (topics.length === TOPICS) break;
  const co = (
    await sql<{ h: string; n: number }>`
      SELECT h, count(*)::int AS n FROM articles, unnest(mesh_terms) h
      WHERE ${heading} = ANY(mesh_terms) AND h <> ${heading}
      GROUP BY h ORDER BY count(*) DESC, h LIMIT 30`.execute(t.db)
  ).rows.find(
    (r) => !NOT_TOPICAL.has(r.h) && !r.h.includes(",") && r.n >= 3 && !topics.some((x) => x.headings?.includes(r.h)),
  );
  if (co && !topics.some((x) => x.headings?.includes(heading)))
    topics.push({ topic: `${co.h} ${heading}`, headings: [heading, co.h] });
}
/**
 * Questions a clinician asks of the sample, written by hand (issue 37): treatment and comparative topics whose
 * summaries must appraise, rate certainty and say whether the studies compare the two sides. No MeSH pair judges
 * them (their headings are null), only the measures below.
 */
const CLINICAL_TOPICS = [
  "decompression versus fusion for lumbar spinal stenosis",
  "bracing for adolescent idiopathic scoliosis",
  "concurrent chemoradiotherapy nasopharyngeal carcinoma",
  "percutaneous vertebroplasty osteoporotic vertebral compression fractures",
  "antibiotic treatment duration vertebral osteomyelitis",
  "surgery versus conservative treatment spinal tuberculosis",
  "pedicle screws compared with hooks in scoliosis surgery",
  "pneumonia",
];
const clinical = CLINICAL_TOPICS.map((topic) => ({ topic, headings: null }));

// ---- Duplicate records (--duplicates) -------------------------------------------------------------------------------
/** One record in this many (by PMID order, among those with an abstract) is copied. */
const DUPLICATE_EVERY = 10;
/** First PMID of the copies: above any real PMID. */
const FIRST_COPY_PMID = 95_000_000;
let copiesMade = 0;
/** A copy's PMID → its original's, so that the original's hand labels judge the copy's sentences. */
const copyOf = new Map<number, number>();
if (values.duplicates) {
  const withAbstract = t.db.selectFrom("articles").selectAll().where("abstract", "is not", null);
  const originals = await withAbstract.orderBy("pmid").execute();
  const copies: Record<string, unknown>[] = [];
  originals.forEach((original, i) => {
    if (i % DUPLICATE_EVERY !== 0) return;
    const { search_vector: _ignored, ...fields } = original as typeof original & { search_vector?: unknown };
    const n = 1 + (original.pmid % 4);
    for (let k = 0; k < n; k++) {
      const pmid = FIRST_COPY_PMID + copies.length;
      copyOf.set(pmid, original.pmid);
      // Exact copies (k = 0, 3) keep the title, so the search's re-ranking already drops those with a title of four
      // words or more; a translation's record (k = 1) and a republished one (k = 2) have another title.
      const bare = (original.title ?? "").replace(/\.$/u, "");
      const title =
        k === 1 ? `${bare} (traducción al español).` : k === 2 ? `Republished article: ${bare}.` : original.title;
      // A republished record with one corrected word: the abstract's first "the" becomes "this".
      const abstract = k === 2 ? (original.abstract ?? "").replace(/\bthe\b/u, "this") : original.abstract;
      const raw = original.abstract_sections as unknown;
      const sections = ((typeof raw === "string" ? JSON.parse(raw) : raw) ?? []) as { text: string }[];
      const first = sections[0];
      const abstractSections =
        k === 2 && first
          ? [{ ...first, text: first.text.replace(/\bthe\b/u, "this") }, ...sections.slice(1)]
          : sections;
      const stored = JSON.stringify(abstractSections);
      copies.push({
        ...fields,
        pmid,
        title,
        abstract,
        abstract_sections: stored,
        content_hash: `copy-${pmid}`,
        doi: null,
      });
    }
  });
  for (let i = 0; i < copies.length; i += 500) {
    await t.db
      .insertInto("articles")
      .values(copies.slice(i, i + 500) as never)
      .execute();
  }
  await t.deps.search.index(copies.map((c) => c.pmid as number));
  await t.deps.search.refresh();
  copiesMade = copies.length;
}

const records = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM articles`.execute(t.db)).rows[0]!.n;

// ---- Reading a summary
//   ------------------------------------------------------------------------------------------------
interface Quoted {
  body: string;
  numbers: number[];
  /** A stated limitation quoted after a recommendation: part of the appraisal, not a key finding. */
  limitation: boolean;
}
/** The quoted sentences of the "Overview" and "Key findings" blocks (not the opening in the product's own words). */
function quotedSentences(summary: string): Quoted[] {
  const out: Quoted[] = [];
  for (const block of summary.split("\n\n")) {
    if (!block.startsWith("**Overview.**") && !block.startsWith("**Key findings**")) continue;
    const text = block.replace(/^\*\*[^*]+\*\*\s*/u, "").replace(/^- /gmu, "");
    for (const line of text.split("\n")) {
      const re = /(.+?) \[(\d+(?:, \d+)*)\][.!?](?= |$)/gu;
      for (let m = re.exec(line); m !== null; m = re.exec(line)) {
        // A stated limitation is quoted inside the product's own words: the quote is what is judged.
        const raw = (m[1] ?? "").trim();
        const limitation = /^The same abstract states a limitation: “(.*)”$/u.exec(raw);
        out.push({
          body: limitation?.[1] ?? raw,
          numbers: (m[2] ?? "").split(", ").map(Number),
          limitation: !!limitation,
        });
      }
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
  publication_year: number | null;
}
async function articles(pmids: number[]): Promise<Map<number, ArticleRow>> {
  if (pmids.length === 0) return new Map();
  const rows = (await t.db
    .selectFrom("articles")
    .select(["pmid", "title", "abstract", "abstract_sections", "publication_types", "mesh_terms", "publication_year"])
    .where("pmid", "in", pmids)
    .execute()) as ArticleRow[];
  return new Map(rows.map((r) => [r.pmid, r]));
}
const sectionsOf = (article: ArticleRow) =>
  (typeof article.abstract_sections === "string"
    ? JSON.parse(article.abstract_sections)
    : article.abstract_sections) as {
    label: string;
    nlm_category: string | null;
    text: string;
  }[];

// Hand-labelled sentences of unstructured abstracts (helper H1's set); absent, every unstructured sentence is judged
// by the heuristic.
const LABELLED_FILE = join(import.meta.dir, "..", "..", "tests", "fixtures", "sentence-roles-labelled.json");
const handLabels = new Map<number, { sentence: string; role: string | null }[]>();
if (existsSync(LABELLED_FILE)) {
  type Labelled = { pmid: number; sentence: string; role: string | null };
  const file = JSON.parse(readFileSync(LABELLED_FILE, "utf8")) as { sentences: Labelled[] };
  for (const s of file.sentences) handLabels.set(s.pmid, [...(handLabels.get(s.pmid) ?? []), s]);
}
/** Without final punctuation and with whitespace normalised, for matching a quoted body to a labelled sentence. */
const bare = (s: string) => normalizeWhitespace(s).replace(/[.!?]+$/u, "");

type Judge = "section label" | "hand label" | "heuristic";
/**
 * The sections of an abstract as its authors labelled them: by NlmCategory, else by the printed label ("MATERIALS AND
 * METHODS", "Results" filed as UNASSIGNED), else by headings written inline ("RESULTS: ..."), also inside a labelled
 * section (PMID 30124210 files "... Methods: ... Results: ... Conclusion: ..." under OBJECTIVE). An abstract
 * structured only by its printed labels is still structured: its labels judge, not the heuristic nor a hand label.
 */
function authorSections(article: ArticleRow): LabelledText[] {
  const sections = sectionsOf(article).flatMap((s) => {
    const kind = classifySection(s.label ?? "", s.nlm_category);
    return splitInlineSections(s.text).map((part) => ({
      kind: part.kind === "UNLABELLED" ? kind : part.kind,
      text: part.text,
    }));
  });
  if (sections.some((s) => s.kind !== "UNLABELLED")) return sections;
  return splitInlineSections(sections.length > 0 ? sections.map((s) => s.text).join(" ") : (article.abstract ?? ""));
}
/** Whether a quoted sentence is a result or conclusion, and what judged it. */
function judgeFinding(sentence: string, article: ArticleRow): { finding: boolean; by: Judge } {
  const labelled = authorSections(article).find((s) => s.kind !== "UNLABELLED" && s.text.includes(sentence));
  if (labelled) return { finding: labelled.kind === "RESULTS" || labelled.kind === "CONCLUSIONS", by: "section label" };
  const hand = handLabels
    .get(copyOf.get(article.pmid) ?? article.pmid)
    ?.find((s) => bare(s.sentence) === bare(sentence) && s.role !== null);
  if (hand) return { finding: hand.role === "RESULTS" || hand.role === "CONCLUSIONS", by: "hand label" };
  return { finding: REPORTS_EFFECT.test(sentence), by: "heuristic" };
}
/** Designs where case reports must stay ≤ 0.10 of citations (issue 21: trials, cohorts or reviews on the topic). */
const STRONG = new Set(["meta-analysis", "systematic-review", "rct", "clinical-trial", "cohort", "review"]);

// ---- The summarizer, labels hidden or not ---------------------------------------------------------------------------
/** A structured abstract as an unstructured one: its sections' text joined, labels and categories dropped. */
function withoutLabels<T extends SummaryArticle>(article: T): T {
  const sections = Array.isArray(article.abstract_sections) ? article.abstract_sections : [];
  if (sections.length === 0) return article;
  const text = sections.map((s) => normalizeWhitespace(s.text).replace(/^[:;,.]\s*/u, "")).join(" ");
  return { ...article, abstract: text, abstract_sections: [] };
}
const steps: PipelineSteps = values["hide-labels"]
  ? {
      ...defaultSteps,
      summarizer: {
        name: defaultSteps.summarizer.name,
        summarize: (query, list) => defaultSteps.summarizer.summarize(query, list.map(withoutLabels)),
      },
    }
  : defaultSteps;

// ---- Runs -----------------------------------------------------------------------------------------------------------
const user = await t.signup();
const totals = {
  cited: 0,
  bothHeadings: 0,
  oneHeading: 0,
  sentences: 0,
  faithful: 0,
  findings: 0,
  strongTopics: 0,
  strongCited: 0,
  strongCaseReports: 0,
  caseReportsQuoted: 0,
  duplicateGroups: 0,
  duplicateRecords: 0,
  duplicateGroupsCited: 0,
  duplicateGroupsListed: 0,
  duplicateGroupsCitedTwice: 0,
  maxNumbersPerSentence: 0,
  stray: 0,
  summaries: 0,
  inOrder: 0,
  bodiesOfEvidence: 0,
  certaintyStated: 0,
  openings: 0,
  openingsTotalsRight: 0,
  rowsWithParticipants: 0,
  participantsInSource: 0,
  comparative: 0,
  comparativeAnswered: 0,
};
/** Quoted sentences per topic, for the hand-labelled judgement of whether they answer it (--dump-quotes). */
const dumped: { topic: string; pmid: number; sentence: string }[] = [];
/** Stray punctuation where a label or a sentence part was removed: a quote opening with punctuation or a number. */
const STRAY = /^(?:[:;,.)\]]|\(?\d{1,2}\)\s)/u;
const judged: Record<Judge, { n: number; findings: number }> = {
  "section label": { n: 0, findings: 0 },
  "hand label": { n: 0, findings: 0 },
  heuristic: { n: 0, findings: 0 },
};
const notFindings: string[] = [];
/** Quoted sentences no label judged (for growing the hand-labelled set), with --verbose. */
const byHeuristic: string[] = [];
const times: number[] = [];
interface EvidenceRowLike {
  pmid: number;
  citation: number;
  duplicate_pmids: number[];
  same_cohort: number[];
  design: string | null;
  participants: number | null;
  participants_arms: number[] | null;
  participants_text: string | null;
}

/**
 * Whether the opening's count sentence states, for every design, the sum of the participants its rows read (each
 * cohort once), and nothing for rows that read none: recomputed here from the table, independently of synthesis.ts.
 */
function openingTotalsRight(summary: string, table: readonly EvidenceRowLike[]): boolean {
  const opening = summary.split("\n\n").find((b) => b.startsWith("**The evidence.**"));
  if (!opening) return true;
  const counted = new Set<number>();
  for (const design of [...STUDY_DESIGNS, null]) {
    const rows = table.filter((r) => r.design === design);
    if (rows.length === 0) continue;
    let n = 0;
    const stated = rows.filter((r) => r.participants !== null);
    for (const r of stated) {
      if (!r.same_cohort.some((c) => counted.has(c))) n += r.participants ?? 0;
      counted.add(r.citation);
    }
    // "(n = 510)", "(n = 96 in 1 study; n not stated for 3 studies)", "(n not stated)".
    const some = stated.length < rows.length ? ` in ${stated.length} stud(?:y|ies)` : "";
    const expected = stated.length === 0 ? "n not stated" : `n = ${n.toLocaleString("en-US")}${some}`;
    const clause = new RegExp(`\\b${rows.length} [^(]*\\(${expected}[;)]`, "u");
    if (!clause.test(opening)) return false;
  }
  return true;
}

interface Run {
  summary: string;
  cited: number[];
  relevant: number[];
  table: EvidenceRowLike[] | null;
  ms: number;
  status: string;
}
async function review(topic: string): Promise<Run> {
  const { id } = await t.db
    .insertInto("literature_reviews")
    .values({ user_id: user.user.id, user_query: topic, status: "searching" })
    .returning("id")
    .executeTakeFirstOrThrow();
  const started = performance.now();
  await runReview(t.deps, id, steps);
  const ms = performance.now() - started;
  const row = await t.db.selectFrom("literature_reviews").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
  const list = await t.db
    .selectFrom("literature_review_articles")
    .select(["pmid", "citation_number", "covers_topic"])
    .where("review_id", "=", id)
    .orderBy("rank")
    .execute();
  const cited = list
    .filter((r) => r.citation_number !== null)
    .sort((a, b) => (a.citation_number ?? 0) - (b.citation_number ?? 0))
    .map((r) => r.pmid);
  // The evidence table (issue 21), when the column exists and the pipeline wrote it.
  const raw = (row as { evidence_table?: unknown }).evidence_table ?? null;
  const table = (typeof raw === "string" ? JSON.parse(raw) : raw) as Run["table"];
  const relevant = list.filter((r) => r.covers_topic).map((r) => r.pmid);
  return { summary: row.summary ?? "", cited, relevant, table, ms, status: row.status };
}

for (const { topic, headings } of [...topics, ...clinical]) {
  const [a, b] = headings ?? ["", ""];
  const r = await review(topic);
  if (r.summary) {
    totals.summaries++;
    if (inFirstUseOrder(r.summary)) totals.inOrder++;
    else if (values.verbose) console.log(`  out of citation order: ${topic}`);
  }
  const table = r.table ?? [];
  if (r.summary && table.filter((x) => x.design !== null && PRIMARY_DESIGNS.has(x.design)).length >= 2) {
    totals.bodiesOfEvidence++;
    if (r.summary.includes("Certainty of the evidence")) totals.certaintyStated++;
  }
  if (r.summary && table.length > 0) {
    totals.openings++;
    if (openingTotalsRight(r.summary, table)) totals.openingsTotalsRight++;
    else if (values.verbose) {
      const opening = r.summary.split("\n\n").find((b) => b.startsWith("**The evidence.**")) ?? "";
      const rows = table.map(
        (x) =>
          `[${x.citation}] ${x.design} n=${x.participants}${x.same_cohort.length ? ` same cohort as ${x.same_cohort}` : ""}`,
      );
      console.log(
        `  opening totals differ from the table: ${topic}\n    ${opening.slice(0, 300)}\n    ${rows.join("; ")}`,
      );
    }
  }
  for (const row of table) {
    if (row.participants === null) continue;
    totals.rowsWithParticipants++;
    const source = row.participants_text ?? "";
    const arms = row.participants_arms ?? [row.participants];
    // Every number read must be written in the source (digits or words); one person described individually
    // ("a 45-year-old woman") states the 1 of a case report.
    const stated = new Set(tokenize(source).flatMap((x) => (x.kind === "number" ? [x.value] : [])));
    const onePerson =
      row.participants === 1 &&
      /\b(?:a|an|one)\s+(?:[\w-]+\s+){0,3}?(?:man|woman|boy|girl|patient|child|infant)\b/iu.test(source);
    if (arms.every((x) => stated.has(x)) || onePerson) totals.participantsInSource++;
    else if (values.verbose)
      console.log(`  participants ${arms.join(" + ")} not in their source: ${source.slice(0, 120)}`);
  }
  if (/\b(?:versus|vs\.?|compared with)\b/iu.test(topic) && r.summary) {
    totals.comparative++;
    if (/\b(?:None of the cited studies compares|of the cited studies compares?)\b/u.test(r.summary))
      totals.comparativeAnswered++;
  }
  times.push(r.ms);
  const byPmid = await articles([...new Set([...r.cited, ...r.relevant])]);
  const design = (pmid: number) =>
    studyDesign(byPmid.get(pmid)?.publication_types ?? [], byPmid.get(pmid)?.mesh_terms ?? []);
  let both = 0;
  let caseReports = 0;
  for (const pmid of r.cited) {
    const m = byPmid.get(pmid)?.mesh_terms ?? [];
    if (headings && m.includes(a) && m.includes(b)) both++;
    if (headings && (m.includes(a) || m.includes(b))) totals.oneHeading++;
    if (design(pmid) === "case-report") caseReports++;
  }
  // MeSH precision only over the MeSH-built topics (the hand-written ones have no heading pair).
  if (headings) totals.cited += r.cited.length;
  totals.bothHeadings += both;
  let faithful = 0;
  let findings = 0;
  const quoted = quotedSentences(r.summary);
  for (const q of quoted) {
    totals.maxNumbersPerSentence = Math.max(totals.maxNumbersPerSentence, q.numbers.length);
    if (STRAY.test(q.body)) {
      totals.stray++;
      if (values.verbose) console.log(`  stray punctuation: ${q.body.slice(0, 100)}`);
    }
    const pmid = r.cited[(q.numbers[0] ?? 0) - 1] ?? -1;
    const source = byPmid.get(pmid);
    if (!source) continue;
    if (!q.limitation) dumped.push({ topic, pmid, sentence: q.body });
    if (q.numbers.some((n) => design(r.cited[n - 1] ?? -1) === "case-report")) totals.caseReportsQuoted++;
    const text = new Set(words(`${source.title ?? ""} ${source.abstract ?? ""}`));
    if (words(q.body).every((w) => text.has(w))) faithful++;
    const j = judgeFinding(q.body, source);
    judged[j.by].n++;
    if (j.by === "heuristic") byHeuristic.push(`  PMID ${pmid}: ${q.body}`);
    if (j.finding) {
      findings++;
      judged[j.by].findings++;
    } else notFindings.push(`  [${j.by}] PMID ${pmid}: ${q.body.slice(0, 150)}`);
  }
  totals.sentences += quoted.length;
  totals.faithful += faithful;
  totals.findings += findings;
  const strong = r.relevant.some((p) => STRONG.has(design(p) ?? ""));
  if (strong) {
    totals.strongTopics++;
    totals.strongCited += r.cited.length;
    totals.strongCaseReports += caseReports;
  }
  // Duplicate records among the relevant articles (the list the pipeline groups), and what the summary made of them.
  const relevantRows = r.relevant
    .slice(0, MAX_RELEVANT)
    .map((p) => byPmid.get(p))
    .filter((x): x is ArticleRow => x !== undefined)
    .map((x) => ({ ...x, abstract_sections: sectionsOf(x) }) as SummaryArticle);
  const { duplicatesOf } = groupDuplicateRecords(relevantRows);
  let groupsCited = 0;
  for (const [kept, others] of duplicatesOf) {
    totals.duplicateGroups++;
    totals.duplicateRecords += others.length + 1;
    const members = [kept, ...others];
    const citedMembers = members.filter((p) => r.cited.includes(p));
    if (citedMembers.length === 0) continue;
    groupsCited++;
    totals.duplicateGroupsCited++;
    if (citedMembers.length > 1) totals.duplicateGroupsCitedTwice++;
    const row = r.table?.find((x) => x.pmid === citedMembers[0]);
    if (row && members.every((p) => p === row.pmid || row.duplicate_pmids.includes(p))) totals.duplicateGroupsListed++;
  }
  if (values.verbose)
    console.log(
      `${topic.slice(0, 60).padEnd(60)} ${r.status.padEnd(17)} cited ${String(r.cited.length).padStart(2)} | both headings ${both} | findings ${findings}/${quoted.length} | case reports ${caseReports}${strong ? " (trials/cohorts/reviews on topic)" : ""} | duplicate groups ${duplicatesOf.size} (${groupsCited} cited) | ${r.ms.toFixed(0)} ms`,
    );
}

// ---- Report ---------------------------------------------------------------------------------------------------------
const ratio = (x: number, y: number) => (y === 0 ? "n/a" : (x / y).toFixed(3));
const pct = (q: number) => times[Math.min(times.length - 1, Math.floor(times.length * q))]?.toFixed(0);
times.sort((x, y) => x - y);
const added = copiesMade > 0 ? `, ${copiesMade} duplicate records added` : "";
const labels = values["hide-labels"] ? "HIDDEN from the summarizer (roles from the classifier)" : "shown";
const report = [
  `records: ${records} (${files.length} sample files${added}); topics: ${topics.length}; section labels ${labels}`,
  `MeSH precision of cited articles: ${ratio(totals.bothHeadings, totals.cited)} with both headings, ` +
    `${ratio(totals.oneHeading, totals.cited)} with at least one (${totals.cited} cited)`,
  `faithfulness: ${ratio(totals.faithful, totals.sentences)} of ${totals.sentences} quoted sentences found word for ` +
    "word in the abstract they cite",
  `findings: ${ratio(totals.findings, totals.sentences)} of quoted sentences are result or conclusion statements`,
  ...Object.entries(judged).map(
    ([by, j]) =>
      `  judged by ${by.padEnd(13)}: ${String(j.n).padStart(3)} sentences, ${ratio(j.findings, j.n)} findings`,
  ),
  `case reports among cited articles, ${totals.strongTopics} topics with trials, cohorts or reviews: ` +
    `${ratio(totals.strongCaseReports, totals.strongCited)} (${totals.strongCaseReports} of ${totals.strongCited}); ` +
    `case reports quoted for a finding: ${totals.caseReportsQuoted}`,
  `duplicate records: ${totals.duplicateGroups} groups (${totals.duplicateRecords} records) among the relevant ` +
    `articles; ${totals.duplicateGroupsCited} cited, ${totals.duplicateGroupsCitedTwice} under two numbers or more, ` +
    `${totals.duplicateGroupsListed} with every other PMID listed in the evidence table`,
  `most citation numbers on one quoted sentence: ${totals.maxNumbersPerSentence}; quotes opening with stray ` +
    `punctuation or a list marker: ${totals.stray}`,
  `summaries in citation order (first use): ${totals.inOrder} of ${totals.summaries}`,
  `summaries of two or more primary studies that state their certainty: ${totals.certaintyStated} of ${totals.bodiesOfEvidence}`,
  `openings whose totals equal the table's participants (each cohort once, "not stated" where none): ` +
    `${totals.openingsTotalsRight} of ${totals.openings}; table rows whose participants are written in their source ` +
    `sentence: ${totals.participantsInSource} of ${totals.rowsWithParticipants}`,
  `comparative topics whose summary says whether any cited study compares the two sides: ${totals.comparativeAnswered} of ${totals.comparative}`,
  `review time on the sample corpus: median ${pct(0.5)} ms, p95 ${pct(0.95)} ms, max ${times.at(-1)?.toFixed(0)} ms`,
];
console.log(report.join("\n"));
if (values.verbose && notFindings.length > 0) {
  console.log(`quoted sentences judged not to be findings:\n${notFindings.join("\n")}`);
}
if (values.verbose && byHeuristic.length > 0) {
  console.log(`quoted sentences judged by the heuristic (no section or hand label):\n${byHeuristic.join("\n")}`);
}
// Key findings that answer the topic (issue 37 item 5): judged by the hand-labelled set of (topic, sentence) pairs.
const ANSWERS_FILE = join(import.meta.dir, "..", "..", "tests", "fixtures", "key-findings-labelled.json");
if (existsSync(ANSWERS_FILE)) {
  type Judged = { topic: string; sentence: string; answers: boolean };
  const labelled = (JSON.parse(readFileSync(ANSWERS_FILE, "utf8")) as { judgements: Judged[] }).judgements;
  const key = (topic: string, sentence: string) => `${topic}\u0000${bare(sentence)}`;
  const judgement = new Map(labelled.map((j) => [key(j.topic, j.sentence), j.answers]));
  let judgedQuotes = 0;
  let answering = 0;
  for (const q of dumped) {
    const j = judgement.get(key(q.topic, q.sentence));
    if (j === undefined) continue;
    judgedQuotes++;
    if (j) answering++;
  }
  console.log(
    `key findings that answer the topic (hand-labelled): ${ratio(answering, judgedQuotes)} (${answering} of ` +
      `${judgedQuotes} judged; ${dumped.length - judgedQuotes} quoted sentences have no judgement)`,
  );
}
if (values["dump-quotes"]) {
  writeFileSync(values["dump-quotes"], JSON.stringify(dumped, null, 1));
  console.log(`wrote ${dumped.length} quoted sentences to ${values["dump-quotes"]}`);
}
await t.close();
if (!values["summaries-only"]) {
  for (const part of ["bench-sentence-roles.ts", "bench-extraction.ts"]) {
    console.log(`\n== ${part}`);
    const child = Bun.spawn([process.execPath, join(import.meta.dir, part)], {
      stdio: ["inherit", "inherit", "inherit"],
    });
    if ((await child.exited) !== 0) process.exitCode = 1;
  }
}
