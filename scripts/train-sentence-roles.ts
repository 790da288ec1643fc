/**
 * Trains the sentence-role classifier (src/reviews/roles/) on the structured abstracts of the real PubMed XML in
 * sample/pubmed and /work/shared/data/pubmed, plus PubMedQA's structured abstracts (sample/pubmedqa) for training
 * only, and writes src/reviews/roles/weights.json. See docs/decisions/0027-sentence-role-classifier.md.
 *
 *   bun scripts/train-sentence-roles.ts          # train on the training split, write the weights (npm run train:roles)
 *   bun scripts/train-sentence-roles.ts --dev    # tune: train on 3/4 of the training split, report the other 1/4
 *   EPOCHS=n MIN_COUNT=n PUBMEDQA=0              # environment overrides, for tuning only
 *
 * Model: averaged structured perceptron over a linear chain (Collins 2002), features from features.ts. Deterministic:
 * files and PMIDs are read in sorted order, each PMID once, the epoch order is shuffled by a fixed-seed PRNG
 * (mulberry32), and the output is the same byte for byte on every run. The held-out split (splitOf: 1 PMID in 5 by
 * hash) is never read here beyond being set aside; scripts/bench/bench-sentence-roles.ts evaluates on it.
 */
import { writeFileSync } from "node:fs";
import { mulberry32 } from "../src/reviews/evidence/model/train.ts";
import { join } from "node:path";
import {
  loadLabelledAbstracts,
  loadPubmedQaAbstracts,
  pmidHash,
  scoreRoles,
  splitOf,
  type LabelledAbstract,
} from "../src/reviews/roles/corpus.ts";
import { abstractFeatures, SENTENCE_ROLES, type SentenceRole } from "../src/reviews/roles/features.ts";
import {
  emissionScores,
  modelFromFile,
  packWeights,
  viterbi,
  type RoleModel,
  type RoleModelFile,
} from "../src/reviews/roles/model.ts";

const ROOT = join(import.meta.dir, "..");
const OUT = join(ROOT, "src/reviews/roles/weights.json");
const R = SENTENCE_ROLES.length;
/** Passes over the training data (chosen with --dev: accuracy levels off by about 10). */
const EPOCHS = Number(process.env.EPOCHS ?? 12);
/** A feature seen in fewer training sentences than this is left out (keeps the shipped file small). */
const MIN_COUNT = Number(process.env.MIN_COUNT ?? 3);
const SEED = 20171127;

interface Example {
  features: number[][];
  gold: number[];
}

/** Gold role indices; a sentence spanning two sections takes its predecessor's role (the first: its successor's). */
function goldOf(a: LabelledAbstract): number[] {
  const idx = a.roles.map((r) => (r === null ? -1 : SENTENCE_ROLES.indexOf(r)));
  for (let i = 0; i < idx.length; i++) if (idx[i] === -1) idx[i] = i > 0 ? (idx[i - 1] as number) : -1;
  for (let i = idx.length - 1; i >= 0; i--) if (idx[i] === -1) idx[i] = idx[i + 1] ?? 2;
  return idx;
}

function train(abstracts: readonly LabelledAbstract[]): RoleModelFile {
  const featureLists = abstracts.map((a) => abstractFeatures(a.sentences));
  const counts = new Map<string, number>();
  for (const fl of featureLists) for (const fs of fl) for (const f of fs) counts.set(f, (counts.get(f) ?? 0) + 1);
  const names = [...counts.keys()].filter((f) => (counts.get(f) as number) >= MIN_COUNT).sort();
  const id = new Map(names.map((f, i) => [f, i]));
  const examples: Example[] = abstracts.map((a, k) => ({
    features: (featureLists[k] as string[][]).map((fs) =>
      fs.map((f) => id.get(f)).filter((x): x is number => x !== undefined),
    ),
    gold: goldOf(a),
  }));

  const F = names.length;
  // Weights w, and u = Σ c·Δ for the averaging trick (Daumé 2006): average = w − u / c.
  const w = new Float64Array(F * R);
  const u = new Float64Array(F * R);
  const tw = new Float64Array((R + 1) * R); // row R is the start row
  const tu = new Float64Array((R + 1) * R);
  let c = 1;
  const rand = mulberry32(SEED);
  const order = examples.map((_, i) => i);
  const bump = (arr: Float64Array, acc: Float64Array, at: number, delta: number) => {
    arr[at] = (arr[at] as number) + delta;
    acc[at] = (acc[at] as number) + c * delta;
  };
  for (let epoch = 0; epoch < EPOCHS; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [order[i], order[j]] = [order[j] as number, order[i] as number];
    }
    for (const k of order) {
      const ex = examples[k] as Example;
      const n = ex.gold.length;
      const emissions = new Float64Array(n * R);
      ex.features.forEach((fs, s) => {
        for (const f of fs) {
          for (let r = 0; r < R; r++) {
            emissions[s * R + r] = (emissions[s * R + r] as number) + (w[f * R + r] as number);
          }
        }
      });
      const pred = viterbi(emissions, n, tw.subarray(R * R), tw.subarray(0, R * R));
      for (let s = 0; s < n; s++) {
        const g = ex.gold[s] as number;
        const p = pred[s] as number;
        if (g !== p) {
          for (const f of ex.features[s] as number[]) {
            bump(w, u, f * R + g, 1);
            bump(w, u, f * R + p, -1);
          }
        }
        const gPrev = s === 0 ? R : (ex.gold[s - 1] as number);
        const pPrev = s === 0 ? R : (pred[s - 1] as number);
        if (gPrev !== pPrev || g !== p) {
          bump(tw, tu, gPrev * R + g, 1);
          bump(tw, tu, pPrev * R + p, -1);
        }
      }
      c++;
    }
  }
  const avg = (arr: Float64Array, acc: Float64Array, at: number) => (arr[at] as number) - (acc[at] as number) / c;

  // Stored as integers: the largest weight becomes ±1000.
  let maxAbs = 0;
  for (let at = 0; at < F * R; at++) maxAbs = Math.max(maxAbs, Math.abs(avg(w, u, at)));
  for (let at = 0; at < (R + 1) * R; at++) maxAbs = Math.max(maxAbs, Math.abs(avg(tw, tu, at)));
  const scale = maxAbs / 1000;
  const q = (v: number) => Math.round(v / scale) + 0; // "+ 0" turns -0 into 0
  const kept: string[] = [];
  const rows: number[][] = [];
  names.forEach((name, f) => {
    const v = Array.from({ length: R }, (_, r) => q(avg(w, u, f * R + r)));
    if (v.some((x) => x !== 0)) {
      kept.push(name);
      rows.push(v);
    }
  });
  return {
    version: 2,
    roles: [...SENTENCE_ROLES],
    scale: Number(scale.toPrecision(6)),
    start: Array.from({ length: R }, (_, r) => q(avg(tw, tu, R * R + r))),
    transitions: Array.from({ length: R }, (_, a) => Array.from({ length: R }, (_, b) => q(avg(tw, tu, a * R + b)))),
    names: kept.join("\n"),
    weights: packWeights(rows),
  };
}

/** Roles predicted by a trained model file (the same decoding as classifier.ts). */
function predict(model: RoleModel, sentences: readonly string[]): SentenceRole[] {
  const emissions = emissionScores(abstractFeatures(sentences), model);
  const path = viterbi(emissions, sentences.length, model.start, model.transitions);
  return path.map((r) => SENTENCE_ROLES[r] as SentenceRole);
}

const all = await loadLabelledAbstracts(ROOT);
const xmlPmids = new Set(all.map((a) => a.pmid));
const extra = process.env.PUBMEDQA === "0" ? [] : loadPubmedQaAbstracts(ROOT).filter((a) => !xmlPmids.has(a.pmid));
const trainSet = all.filter((a) => splitOf(a.pmid) === "train");
const extraTrain = extra.filter((a) => splitOf(a.pmid) === "train");
const dev = process.argv.includes("--dev");
const fit = [...(dev ? trainSet.filter((a) => (pmidHash(a.pmid) >>> 8) % 4 !== 0) : trainSet), ...extraTrain];
const started = performance.now();
const model = train(fit);
const seconds = (performance.now() - started) / 1000;
const sentences = fit.reduce((s, a) => s + a.sentences.length, 0);
console.log(
  `trained on ${fit.length} abstracts (${sentences} sentences), ${EPOCHS} epochs, ${seconds.toFixed(1)} s; ` +
    `${model.names.split("\n").length} features kept`,
);
if (dev) {
  const loaded = modelFromFile(model);
  const tune = trainSet.filter((a) => (pmidHash(a.pmid) >>> 8) % 4 === 0);
  const scores = scoreRoles(
    tune.flatMap((a) => {
      const predicted = predict(loaded, a.sentences);
      return a.roles.map((gold, i) => ({ gold, predicted: predicted[i] as SentenceRole }));
    }),
  );
  console.log(`dev: ${tune.length} abstracts, ${scores.sentences} sentences, accuracy ${scores.accuracy.toFixed(3)}`);
  for (const r of SENTENCE_ROLES) {
    console.log(`  ${r.padEnd(12)} F1 ${scores.perClass[r].f1.toFixed(3)} (n=${scores.perClass[r].support})`);
  }
} else {
  const json = JSON.stringify(model);
  writeFileSync(OUT, `${json}\n`);
  console.log(`wrote ${OUT} (${(json.length / 1024).toFixed(0)} KiB)`);
}
