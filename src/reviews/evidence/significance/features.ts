/**
 * Features of a result sentence for the significance classifier (significance/classify.ts): its words and word pairs
 * with negation marked (a word within four words after "no", "not", "neither", "nor", "without", "failed to" is
 * prefixed "NOT_", after Das & Chen's sentiment features, "Yahoo! for Amazon", APFA 2001, as NegEx does for clinical
 * findings), and what its p values say once read (below or at least 0.05). Pure.
 */
import { tokenize } from "../tokens.ts";
import { P_VALUE } from "../effects/reading.ts";
import { parseDecimal } from "../numbers.ts";

const NEGATORS = new Set([
  "no",
  "not",
  "neither",
  "nor",
  "without",
  "failed",
  "fail",
  "none",
  "non",
  "nonsignificant",
  "insignificant",
]);
const NEGATION_SCOPE = 4;

/** The sentence's features. */
export function significanceFeatures(sentence: string): string[] {
  const f = new Set<string>();
  const tokens = tokenize(sentence);
  let negated = 0;
  let prev = "<s>";
  for (const t of tokens) {
    if (t.kind === "punct") {
      if (/[.;,:)]/u.test(t.text)) negated = 0;
      continue;
    }
    const w = t.kind === "number" ? "<num>" : t.norm;
    if (NEGATORS.has(w)) {
      negated = NEGATION_SCOPE;
      f.add(`w:${w}`);
      prev = w;
      continue;
    }
    const word = negated > 0 ? `NOT_${w}` : w;
    if (negated > 0) negated--;
    f.add(`w:${word}`);
    f.add(`b:${prev}_${word}`);
    prev = word;
  }
  const pRe = new RegExp(P_VALUE.source, "gu");
  let ps = 0;
  for (const m of sentence.matchAll(pRe)) {
    const value = parseDecimal(m[2] ?? "");
    const rel = m[1] ?? "=";
    if (Number.isNaN(value)) continue;
    ps++;
    const below = /</u.test(rel) || rel === "less than" ? value <= 0.05 : value < 0.05;
    f.add(below ? "p:below_0.05" : "p:not_below_0.05");
  }
  if (ps === 0) f.add("p:none");
  if (/\bn\.?s\.?\b|\bNS\b/u.test(sentence)) f.add("ns");
  return [...f];
}
