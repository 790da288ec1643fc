/**
 * How well the evidence extractor (src/reviews/evidence/extract.ts) reads hand-labelled abstracts (issue 33), and how
 * fast. The gold set (tests/fixtures/evidence-gold.json, conventions in its `conventions` field) has a TRAINING split,
 * which the models were fitted on and developers read, and a TEST split (tests/fixtures/evidence-gold-test.json),
 * labelled by readers who did not develop the extractor and read by nobody while it was developed. The test split's
 * figures are the ones to report; the training split's are printed for comparison (optimistic: the models saw them).
 *
 * Measures, per split:
 *  - participants: a prediction is right when it equals the labelled count; precision over the answers given,
 *    recall over the abstracts that state a count;
 *  - effects: an extracted effect matches a labelled one when the measure and value agree, the other group's value
 *    too where labelled, and both interval bounds where labelled (lenient); strict also asks the p value be the one
 *    labelled for that comparison; each label matches one extraction at most;
 *  - design: the share of abstracts whose design is right (an abstention counts as wrong; "other" is no design),
 *    and the share right among those the extractor answers;
 *  - appraisal: for randomised, comparison group, timing and blinding, the share right among the answers shown and
 *    how many are shown; follow-up: a clause found where one is labelled and overlapping it.
 * Timing: extractEvidence over every labelled abstract, `runs` times after a warm-up.
 *
 *   npm run bench -- extraction [runs=30] [--verbose]   (--verbose lists the TRAINING split's differences only)
 */
import { loadArticles, loadGold } from "../evidence/data.ts";
import type { GoldRecord } from "../evidence/gold.ts";
import { effectMatches, effectMatchesStrictly } from "../evidence/match.ts";
import { extractEvidence } from "../../src/reviews/evidence/extract.ts";
import type { StudyEvidence } from "../../src/reviews/evidence/types.ts";
import type { SummaryArticle } from "../../src/reviews/summary/types.ts";
import { sentenceSignificance, significanceProbability } from "../../src/reviews/evidence/significance/classify.ts";
import { join } from "node:path";

const args = process.argv.slice(2);
const runs = Math.max(1, Number(args.find((a) => /^\d+$/u.test(a)) ?? 30));
const verbose = args.includes("--verbose");

interface Tally {
  pRight: number;
  pAnswered: number;
  pStated: number;
  eMatched: number;
  eStrict: number;
  eExtracted: number;
  eLabelled: number;
  designRight: number;
  designAnswered: number;
  designAnsweredRight: number;
  abstracts: number;
  appraisal: Record<string, { right: number; shown: number; labelled: number }>;
  followUpFound: number;
  followUpLabelled: number;
  followUpExtra: number;
}
const tally = (): Tally => ({
  pRight: 0,
  pAnswered: 0,
  pStated: 0,
  eMatched: 0,
  eStrict: 0,
  eExtracted: 0,
  eLabelled: 0,
  designRight: 0,
  designAnswered: 0,
  designAnsweredRight: 0,
  abstracts: 0,
  appraisal: {},
  followUpFound: 0,
  followUpLabelled: 0,
  followUpExtra: 0,
});

const overlap = (a: string, b: string) => a.includes(b) || b.includes(a) || a.slice(0, 25) === b.slice(0, 25);

function score(g: GoldRecord, got: StudyEvidence, t: Tally, differences: string[]): void {
  t.abstracts++;
  if (got.participants !== null) t.pAnswered++;
  if (g.participants !== null) t.pStated++;
  if (g.participants !== null && got.participants === g.participants) t.pRight++;
  if (got.participants !== g.participants) {
    differences.push(`${g.pmid} participants: labelled ${g.participants}, read ${got.participants}`);
  }
  const free = [...got.effects];
  t.eExtracted += got.effects.length;
  t.eLabelled += g.effects.length;
  for (const ge of g.effects) {
    const i = free.findIndex((e) => effectMatches(ge, e));
    if (i < 0) {
      differences.push(
        `${g.pmid} missed ${ge.measure} ${ge.value} vs ${ge.compared_value} [${ge.ci_low}, ${ge.ci_high}]`,
      );
      continue;
    }
    t.eMatched++;
    if (effectMatchesStrictly(ge, free[i] as (typeof free)[number])) t.eStrict++;
    free.splice(i, 1);
  }
  for (const e of free) differences.push(`${g.pmid} extra ${e.measure} ${e.value} vs ${e.compared_value}: "${e.text}"`);
  const labelledDesign = g.design === "other" ? null : g.design;
  const right = got.design === labelledDesign || (got.design === "observational" && labelledDesign === null);
  if (got.design === labelledDesign) t.designRight++;
  if (got.design !== null) {
    t.designAnswered++;
    if (right) t.designAnsweredRight++;
  }
  if (got.design !== labelledDesign) differences.push(`${g.pmid} design: labelled ${g.design}, read ${got.design}`);
  const yesNo = (v: boolean | null | undefined) => (v === true ? "yes" : v === false ? "no" : null);
  const items: [string, string | null, string | null][] = [
    ["randomised", yesNo(g.appraisal?.randomised), yesNo(got.appraisal.randomised)],
    ["comparison group", yesNo(g.appraisal?.comparison_group), yesNo(got.appraisal.comparison_group)],
    ["timing", g.appraisal?.timing ?? null, got.appraisal.timing],
    ["blinding", g.appraisal?.blinding ?? null, got.appraisal.blinding],
  ];
  for (const [name, gold, read] of items) {
    const a = (t.appraisal[name] ??= { right: 0, shown: 0, labelled: 0 });
    if (gold !== null) a.labelled++;
    if (read !== null) {
      a.shown++;
      if (read === gold) a.right++;
    }
  }
  const gf = g.appraisal?.follow_up ?? null;
  if (gf !== null) t.followUpLabelled++;
  if (gf !== null && got.appraisal.follow_up !== null && overlap(gf, got.appraisal.follow_up)) t.followUpFound++;
  if (gf === null && got.appraisal.follow_up !== null) t.followUpExtra++;
}

const fmt = (num: number, den: number) => (den === 0 ? "n/a" : `${(num / den).toFixed(3)} (${num}/${den})`);

function report(name: string, t: Tally): void {
  console.log(`\n${name}: ${t.abstracts} abstracts`);
  console.log(`  participants  precision ${fmt(t.pRight, t.pAnswered)}  recall ${fmt(t.pRight, t.pStated)}`);
  console.log(
    `  effects       precision ${fmt(t.eMatched, t.eExtracted)}  recall ${fmt(t.eMatched, t.eLabelled)}` +
      `   strict (p value too): precision ${fmt(t.eStrict, t.eExtracted)}  recall ${fmt(t.eStrict, t.eLabelled)}`,
  );
  console.log(
    `  design        right ${fmt(t.designRight, t.abstracts)}  right when answered ${fmt(t.designAnsweredRight, t.designAnswered)}`,
  );
  for (const [item, a] of Object.entries(t.appraisal)) {
    console.log(
      `  ${item.padEnd(16)} right when shown ${fmt(a.right, a.shown)}  shown ${a.shown}, labelled ${a.labelled}`,
    );
  }
  console.log(
    `  follow-up     found ${fmt(t.followUpFound, t.followUpLabelled)}; given where none is labelled: ${t.followUpExtra}`,
  );
}

const splits = { train: await loadGold("train"), test: await loadGold("test") };
const everything = [...splits.train, ...splits.test];
const articles = await loadArticles(everything.map((g) => g.pmid));
const missing = everything.filter((g) => !articles.has(g.pmid)).map((g) => g.pmid);
if (missing.length > 0) throw new Error(`labelled PMIDs not in the sample: ${missing.join(", ")}`);

const t0 = performance.now();
const results = new Map(everything.map((g) => [g.pmid, extractEvidence(articles.get(g.pmid) as SummaryArticle)]));
const cold = performance.now() - t0;

for (const [split, records] of Object.entries(splits)) {
  const t = tally();
  const differences: string[] = [];
  for (const g of records) score(g, results.get(g.pmid) as StudyEvidence, t, differences);
  report(split === "test" ? "TEST split (never read while developing)" : "training split (fitted on)", t);
  if (verbose && split === "train") for (const d of differences) console.log(`    ${d}`);
}

// The significance classifier on the Evidence Inference corpus's TEST split (sample/evidence-inference), which
// training never reads (it fits on the training split and sets its threshold on the validation split).
{
  const text = await Bun.file(join(import.meta.dir, "../../sample/evidence-inference/evidence-spans.jsonl")).text();
  const test = text
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { split: string; label: string; evidence: string })
    .filter((r) => r.split === "test");
  const truth = (r: { label: string }) => (r.label === "no significant difference" ? "not_significant" : "significant");
  let answered = 0;
  let right = 0;
  let forced = 0;
  for (const r of test) {
    const said = sentenceSignificance(r.evidence);
    if (said !== null) {
      answered++;
      if (said === truth(r)) right++;
    }
    const p = significanceProbability(r.evidence);
    if ((p >= 0.5 ? "significant" : "not_significant") === truth(r)) forced++;
  }
  console.log(
    `\nsignificance of a result sentence, Evidence Inference TEST split (${test.length} spans): right when it answers ` +
      `${fmt(right, answered)}, answers ${fmt(answered, test.length)}; always answering: accuracy ${fmt(forced, test.length)}`,
  );
}

const list = everything.map((g) => articles.get(g.pmid) as SummaryArticle);
for (let i = 0; i < 3; i++) for (const a of list) extractEvidence(a);
const times: number[] = [];
for (let r = 0; r < runs; r++) {
  const s = performance.now();
  for (const a of list) extractEvidence(a);
  times.push((performance.now() - s) / list.length);
}
times.sort((a, b) => a - b);
const median = times[Math.floor(times.length / 2)] as number;
const p95 = times[Math.min(times.length - 1, Math.floor(times.length * 0.95))] as number;
console.log(`\ntiming: first pass over ${list.length} abstracts (loads the models) ${cold.toFixed(1)} ms`);
console.log(
  `  warm, ${runs} runs: median ${median.toFixed(3)} ms per abstract, p95 ${p95.toFixed(3)} ms; ` +
    `30 abstracts ≈ ${(30 * median).toFixed(1)} ms`,
);
