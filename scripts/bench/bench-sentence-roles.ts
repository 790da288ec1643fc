/**
 * Sentence-role classifier benchmark (src/reviews/roles/):
 * - accuracy and per-class F1 on the held-out structured abstracts (1 PMID in 5 by hash, never trained on), each
 *   presented as one unlabelled text (sections joined, split with splitSentences), the NLM labels used only to score;
 * - accuracy on the hand-labelled sentences of unstructured abstracts (tests/fixtures/sentence-roles-labelled.json);
 * - for both, the accuracy of the distinction the summary relies on: finding (RESULTS, CONCLUSIONS) or not; and the
 *   precision and recall of the sentences the summary may quote as findings (the classifier's role with the cue
 *   overrides of sentenceRole: stated aims, recruitment and procedures, calls for research, publisher lines);
 * - the time to load the weights (first call in this process) and to classify one abstract.
 *
 *   bun scripts/bench/bench-sentence-roles.ts      (or: npm run bench -- sentence-roles)
 *
 * Reference: Dernoncourt F, Lee JY. PubMed 200k RCT: a dataset for sequential sentence classification in medical
 * abstracts. IJCNLP 2017 — about 0.90 accuracy with neural models on RCT abstracts (a different, larger corpus).
 */
import { join } from "node:path";
import labelled from "../../tests/fixtures/sentence-roles-labelled.json";
import { classifySentenceRoles, loadRoleModel, WEIGHTS_URL } from "../../src/reviews/roles/classifier.ts";
import { loadLabelledAbstracts, scoreRoles, splitOf, type RoleScores } from "../../src/reviews/roles/corpus.ts";
import { SENTENCE_ROLES, type SentenceRole } from "../../src/reviews/roles/features.ts";
import { labelledAbstracts } from "../../src/reviews/roles/labelled-set.ts";
import { sentenceRole } from "../../src/reviews/summary/candidates.ts";

const t0 = performance.now();
loadRoleModel();
const loadMs = performance.now() - t0;
const size = Bun.file(WEIGHTS_URL).size;

const ROOT = join(import.meta.dir, "..", "..");
const heldout = (await loadLabelledAbstracts(ROOT)).filter((a) => splitOf(a.pmid) === "heldout");

type Pair = { gold: SentenceRole | null; predicted: SentenceRole };
const isFinding = (r: SentenceRole) => r === "RESULTS" || r === "CONCLUSIONS";

interface Evaluation {
  scores: RoleScores;
  /** Share of sentences whose finding-or-not the classifier gets right. */
  finding: number;
  /** Of the sentences the summary may quote (sentenceRole's `finding`), the share that are results or conclusions. */
  quotablePrecision: number;
  /** Of the results and conclusions, the share the summary may quote. */
  quotableRecall: number;
  ms: number[];
}

function evaluate(abstracts: readonly { sentences: string[]; roles: (SentenceRole | null)[] }[]): Evaluation {
  const pairs: Pair[] = [];
  const ms: number[] = [];
  let quotable = 0;
  let quotableTrue = 0;
  let goldFindings = 0;
  for (const a of abstracts) {
    const started = performance.now();
    const predicted = classifySentenceRoles(a.sentences);
    ms.push(performance.now() - started);
    a.roles.forEach((gold, i) => {
      pairs.push({ gold, predicted: predicted[i] as SentenceRole });
      const gf = gold !== null && isFinding(gold);
      if (gf) goldFindings++;
      if (sentenceRole("UNLABELLED", a.sentences[i] as string, predicted[i] as SentenceRole).finding) {
        quotable++;
        if (gf) quotableTrue++;
      }
    });
  }
  const scored = pairs.filter((p) => p.gold !== null);
  const agree = scored.filter((p) => isFinding(p.gold as SentenceRole) === isFinding(p.predicted)).length;
  return {
    scores: scoreRoles(pairs),
    finding: agree / scored.length,
    quotablePrecision: quotableTrue / quotable,
    quotableRecall: quotableTrue / goldFindings,
    ms,
  };
}

function report(title: string, n: number, r: Evaluation): void {
  console.log(`\n${title}: ${n} abstracts, ${r.scores.sentences} sentences`);
  console.log(`  accuracy ${r.scores.accuracy.toFixed(3)}; finding vs not ${r.finding.toFixed(3)}`);
  console.log(
    `  quotable as a finding (with the cue overrides): precision ${r.quotablePrecision.toFixed(3)}, ` +
      `recall ${r.quotableRecall.toFixed(3)}`,
  );
  console.log("  role          precision  recall  F1     n");
  for (const role of SENTENCE_ROLES) {
    const c = r.scores.perClass[role];
    console.log(
      `  ${role.padEnd(12)}  ${c.precision.toFixed(3).padStart(9)}  ${c.recall.toFixed(3).padStart(6)}  ` +
        `${c.f1.toFixed(3)}  ${String(c.support).padStart(4)}`,
    );
  }
  console.log(`  confusion (rows gold, columns predicted, ${SENTENCE_ROLES.map((x) => x.slice(0, 3)).join(" ")}):`);
  for (const g of SENTENCE_ROLES) {
    const row = SENTENCE_ROLES.map((p) => String(r.scores.confusion[g][p]).padStart(4)).join(" ");
    console.log(`    ${g.slice(0, 3)} ${row}`);
  }
}

const held = evaluate(heldout);
report("Held-out structured abstracts (labels hidden)", heldout.length, held);
const hand = labelledAbstracts(labelled);
report("Hand-labelled unstructured abstracts, all", hand.length, evaluate(hand));
for (const set of [...new Set(hand.map((a) => a.set))].sort()) {
  const part = hand.filter((a) => a.set === set);
  const r = evaluate(part);
  console.log(
    `  set "${set}": ${part.length} abstracts, ${r.scores.sentences} sentences, accuracy ` +
      `${r.scores.accuracy.toFixed(3)}, finding vs not ${r.finding.toFixed(3)}, quotable precision ` +
      `${r.quotablePrecision.toFixed(3)}, recall ${r.quotableRecall.toFixed(3)}`,
  );
}

const sorted = [...held.ms].sort((a, b) => a - b);
const pct = (q: number) => (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number).toFixed(3);
console.log(
  `\nweights ${(size / 1024).toFixed(0)} KiB; first load ${loadMs.toFixed(1)} ms; ` +
    `classification per abstract: median ${pct(0.5)} ms, p95 ${pct(0.95)} ms`,
);
