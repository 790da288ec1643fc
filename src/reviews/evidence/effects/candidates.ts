/**
 * Candidates for an abstract's between-group results, with the features the learned model scores them by
 * (effects/extract.ts): every estimate the reading rules find (reading.ts: named ratios and differences, percentages
 * stated with another group's) and every pair of two values of one kind (pairs.ts: percentages, means, medians).
 * Whether a candidate is a between-group result as the labelling conventions define it (not a before/after change,
 * not two unrelated numbers, not a list of three groups) is learned from the hand-labelled abstracts.
 *
 * Features: the measure, the words between the two values and around the candidate, the sentence's role and its
 * words of a few classes named by the conventions (comparison, time, significance, description), whether a p value
 * or an interval was read with it, and how many values of its kind the sentence holds.
 */
import type { AbstractView, ViewSentence } from "../abstract-view.ts";
import type { Token } from "../tokens.ts";
import type { EffectEstimate } from "../types.ts";
import { intervalValues, type ValuePair, valuePairs } from "./pairs.ts";
import { readEstimates } from "./reading.ts";

export interface EffectCandidate {
  estimate: EffectEstimate;
  /** Index of the sentence it was read in. */
  sentence: number;
  /** Where its span starts in the sentence. */
  start: number;
  features: string[];
}

/**
 * Word classes named by the labelling conventions (tests/fixtures/evidence-gold.json): words that set two groups
 * against each other, words of time that make two values a before/after change of one group, words of statistical
 * comparison, and words of description (an age, a range). Which matter and how much is learned. Stems (tokens.ts).
 */
const WORD_CLASSES: Readonly<Record<string, readonly string[]>> = {
  COMPARE: [
    "vs",
    "versu",
    "compared",
    "comparison",
    "than",
    "wherea",
    "while",
    "respectively",
    "group",
    "arm",
    "control",
    "placebo",
    "both",
    "between",
    "either",
    "other",
    "alone",
    "plu",
    "combined",
    "treated",
    "receiving",
    "received",
  ],
  TIME: [
    "preoperative",
    "postoperative",
    "preoperatively",
    "postoperatively",
    "baseline",
    "before",
    "after",
    "follow",
    "final",
    "initial",
    "month",
    "year",
    "week",
    "day",
    "from",
    "pre",
    "post",
    "improved",
    "decreased",
    "increased",
    "changed",
    "reduced",
  ],
  SIGNIF: [
    "significant",
    "significantly",
    "difference",
    "differ",
    "differed",
    "higher",
    "lower",
    "greater",
    "fewer",
    "more",
    "less",
    "better",
    "worse",
    "similar",
    "comparable",
    "superior",
    "inferior",
    "statistically",
  ],
  DESCRIBE: [
    "mean",
    "median",
    "average",
    "range",
    "age",
    "aged",
    "old",
    "sd",
    "iqr",
    "rate",
    "incidence",
    "prevalence",
  ],
  RATE: [
    "survival",
    "mortality",
    "rate",
    "recurrence",
    "complication",
    "response",
    "cure",
    "fusion",
    "success",
    "failure",
  ],
};
const CLASS_OF = new Map<string, string>();
for (const [cls, words] of Object.entries(WORD_CLASSES)) for (const w of words) CLASS_OF.set(w, cls);

const word = (t: Token | undefined) => (t === undefined ? "<none>" : t.norm);
const bucket = (n: number, top: number) => String(Math.min(n, top));

/** The index of the first token starting at or after character offset `at`. */
function tokenAt(tokens: readonly Token[], at: number): number {
  const i = tokens.findIndex((t) => t.start >= at);
  return i < 0 ? tokens.length : i;
}

function sentenceFeatures(s: ViewSentence): string[] {
  const f = [`role:${s.role}`, `labelled:${s.labelled}`, `relpos:${Math.min(4, Math.floor((5 * s.index) / s.count))}`];
  for (const t of s.tokens) {
    const c = t.kind === "word" ? CLASS_OF.get(t.norm) : undefined;
    if (c) f.push(`sc:${c}`, `sw:${t.norm}`);
  }
  if (s.tokens.some((t) => t.norm === "respectively")) f.push("respectively");
  return f;
}

function aroundFeatures(tokens: readonly Token[], from: number, to: number, prefix: string): string[] {
  const f: string[] = [];
  for (let k = 1; k <= 3; k++) f.push(`${prefix}b${k}:${word(tokens[from - k])}`);
  for (let k = 1; k <= 3; k++) f.push(`${prefix}a${k}:${word(tokens[to + k])}`);
  f.push(`${prefix}b2b1:${word(tokens[from - 2])}|${word(tokens[from - 1])}`);
  for (let k = Math.max(0, from - 10); k < from; k++) {
    const c = tokens[k]?.kind === "word" ? CLASS_OF.get(tokens[k]?.norm ?? "") : undefined;
    if (c) f.push(`${prefix}Lc:${c}`);
  }
  return f;
}

function pairFeatures(s: ViewSentence, p: ValuePair): string[] {
  const t = s.tokens;
  const a = p.first.token;
  const b = p.second.token;
  const f = [
    `kind:pair`,
    `m:${p.measure}`,
    `same_kind:${bucket(p.sameKind, 4)}`,
    `gap:${bucket(Math.floor((b - a) / 3), 6)}`,
  ];
  for (let k = a + 1; k < b; k++) {
    const x = t[k] as Token;
    if (x.kind === "word") {
      f.push(`btw:${x.norm}`);
      const c = CLASS_OF.get(x.norm);
      if (c) f.push(`btwc:${c}`);
    } else if (x.kind === "punct" && /[;,()/±:]/u.test(x.text)) f.push(`btwp:${x.text}`);
    else if (x.kind === "number") f.push("btw_number");
  }
  f.push(`join:${word(t[b - 1])}`, `join2:${word(t[b - 2])}|${word(t[b - 1])}`);
  f.push(...aroundFeatures(t, a, p.second.percent ? b + 1 : b, ""));
  if (!p.first.percent) {
    const unit = t[a + 1]?.kind === "word" ? (t[a + 1] as Token).norm : "<none>";
    const unit2 = t[b + 1]?.kind === "word" ? (t[b + 1] as Token).norm : "<none>";
    f.push(`unit:${unit}`);
    if (unit === unit2) f.push("same_unit");
  }
  if (p.value === p.compared_value) f.push("equal_values");
  if (p.p_value !== null) f.push("has_p", `p_rel:${p.p_relation}`);
  if (p.ci_low !== null) f.push("has_ci");
  if (t[a - 1]?.text === "(") f.push("first_in_paren");
  if (t[b - 1]?.text === "(") f.push("second_in_paren");
  if (p.first.percent && (p.value > 100 || (p.compared_value ?? 0) > 100)) f.push("over_100");
  if (t.slice(Math.max(0, a - 3), a).some((x) => x.norm === "from") && t.slice(a, b).some((x) => x.norm === "to")) {
    f.push("from_to");
  }
  return f;
}

function namedFeatures(s: ViewSentence, e: EffectEstimate, start: number): string[] {
  const t = s.tokens;
  const from = tokenAt(t, start);
  const to = tokenAt(t, start + e.text.length) - 1;
  const f = [`kind:named`, `m:${e.measure}`, ...aroundFeatures(t, from, to, "")];
  if (e.p_value !== null) f.push("has_p", `p_rel:${e.p_relation}`);
  if (e.ci_low !== null) f.push("has_ci");
  if (e.measure === "percentage") f.push("rule_percentage");
  for (let k = from; k <= Math.min(to, from + 4); k++) if (t[k]?.kind === "word") f.push(`name:${t[k]?.norm}`);
  return f;
}

const key = (e: EffectEstimate) => `${e.measure}|${e.value}|${e.compared_value}`;

/**
 * The effect candidates of an abstract, each with its features; a reading found both by the rules and as a pair is
 * one candidate (the pair's, marked `rule_agrees`).
 */
export function effectCandidates(view: AbstractView): EffectCandidate[] {
  const out: EffectCandidate[] = [];
  for (const s of view.sentences) {
    if (!/\d/u.test(s.text)) continue;
    const common = sentenceFeatures(s);
    const seen = new Map<string, EffectCandidate>();
    for (const p of valuePairs(s.text, s.tokens)) {
      const { first: _f, second: _s, start, end: _e, sameKind: _k, ...estimate } = p;
      const c: EffectCandidate = { estimate, sentence: s.index, start, features: [...pairFeatures(s, p), ...common] };
      seen.set(key(estimate), c);
      out.push(c);
    }
    const named = readEstimates(s.text);
    for (const v of intervalValues(s.text, s.tokens)) {
      const { token, start, ...estimate } = v;
      // A named estimate of the same value (an odds ratio with its interval) is that estimate, not a difference.
      if (named.some((e) => e.value === v.value && e.ci_low === v.ci_low) || seen.has(key(estimate))) continue;
      const t = s.tokens;
      const f = ["kind:interval", `m:${estimate.measure}`, ...aroundFeatures(t, token, token, "")];
      if (estimate.p_value !== null) f.push("has_p");
      for (let k = Math.max(0, token - 6); k < token; k++) if (t[k]?.kind === "word") f.push(`before:${t[k]?.norm}`);
      seen.set(key(estimate), { estimate, sentence: s.index, start, features: [] });
      out.push({ estimate, sentence: s.index, start, features: [...f, ...common] });
    }
    let cursor = 0;
    for (const e of named) {
      const start = Math.max(0, s.text.indexOf(e.text, cursor));
      cursor = start;
      const twin = seen.get(key(e));
      if (twin) {
        twin.features.push("rule_agrees");
        continue;
      }
      out.push({ estimate: e, sentence: s.index, start, features: [...namedFeatures(s, e, start), ...common] });
    }
  }
  return out;
}
