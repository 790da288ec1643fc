/**
 * When an extracted effect is the labelled one (the gold set's matching convention): the same measure and value (to
 * 1e-6), the same other group's value when the label has one, both interval bounds when the label has an interval,
 * and (strict) the same p value as labelled: a p value of another comparison, or one where the label has none, is
 * wrong.
 */
import type { EffectEstimate } from "../../src/reviews/evidence/types.ts";
import { type GoldEffect, measureName } from "./gold.ts";

const same = (a: number | null | undefined, b: number | null | undefined) =>
  a === null || a === undefined || b === null || b === undefined ? (a ?? null) === (b ?? null) : Math.abs(a - b) < 1e-6;

/** Lenient: measure, value, the other group's value and the interval. */
export function effectMatches(
  g: GoldEffect,
  e: Pick<EffectEstimate, "measure" | "value" | "compared_value" | "ci_low" | "ci_high">,
): boolean {
  if (measureName(g.measure) !== e.measure || !same(g.value, e.value)) return false;
  if (g.compared_value !== null && g.compared_value !== undefined && !same(g.compared_value, e.compared_value)) {
    return false;
  }
  if (g.ci_low !== null && !same(g.ci_low, e.ci_low)) return false;
  if (g.ci_high !== null && !same(g.ci_high, e.ci_high)) return false;
  return true;
}

/** Strict: lenient, and the p value as labelled (both none, or equal). */
export function effectMatchesStrictly(g: GoldEffect, e: EffectEstimate): boolean {
  return effectMatches(g, e) && same(g.p_value, e.p_value);
}
