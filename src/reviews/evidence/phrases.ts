/**
 * How an evidence-table cell says an effect estimate, shared by the review page and the CSV export: "OR 0.62 (95% CI
 * 0.45 to 0.85), p = 0.003"; a compared percentage "12% vs 18%". Written from the numbers read from the estimate's
 * verbatim span (EffectEstimate.text). Pure, and free of server code, so the page's island can import it.
 */
import type { EffectEstimate, EffectMeasure } from "./types.ts";

/** How an effect's measure is abbreviated, as journals write them. */
export const MEASURE_LABELS: Record<EffectMeasure, string> = {
  odds_ratio: "OR",
  risk_ratio: "RR",
  hazard_ratio: "HR",
  incidence_rate_ratio: "IRR",
  mean_difference: "MD",
  standardized_mean_difference: "SMD",
  risk_difference: "RD",
  percentage: "%",
};

/** One effect as a short phrase: measure and value, the stated CI, the stated p value. */
export function effectPhrase(e: EffectEstimate): string {
  const compared = e.compared_value !== null ? ` vs ${e.compared_value}%` : "";
  const value = e.measure === "percentage" ? `${e.value}%${compared}` : `${MEASURE_LABELS[e.measure]} ${e.value}`;
  const ci = e.ci_low !== null && e.ci_high !== null ? ` (95% CI ${e.ci_low} to ${e.ci_high})` : "";
  const p = e.p_value !== null ? `, p ${e.p_relation ?? "="} ${e.p_value}` : "";
  return `${value}${ci}${p}`;
}
