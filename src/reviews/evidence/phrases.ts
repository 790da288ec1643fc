/**
 * How an evidence-table cell says an effect estimate, shared by the review page and the CSV export: "OR 0.62 (95% CI
 * 0.45 to 0.85), p = 0.003"; a compared percentage "12% vs 18%". Written from the numbers read from the estimate's
 * verbatim span (EffectEstimate.text). Pure, and free of server code, so the page's island can import it.
 */
import type { EffectEstimate, EffectMeasure, StudyAppraisal, StudyEvidence } from "./types.ts";

/** How an effect's measure is abbreviated, as journals write them. */
export const MEASURE_LABELS: Record<EffectMeasure, string> = {
  "odds ratio": "OR",
  "risk ratio": "RR",
  "hazard ratio": "HR",
  "incidence rate ratio": "IRR",
  "mean difference": "MD",
  "standardized mean difference": "SMD",
  "risk difference": "RD",
  percentage: "%",
  mean: "mean",
  median: "median",
};

/**
 * One effect as a short phrase: measure and value, the stated CI, the stated p value. Two groups' values read "12%
 * vs 18%", "mean 350 vs 520", "median 14.2 vs 9.8", the first stated group first.
 */
export function effectPhrase(e: EffectEstimate): string {
  const compared = e.compared_value ?? null;
  const value =
    e.measure === "percentage"
      ? `${e.value}%${compared !== null ? ` vs ${compared}%` : ""}`
      : e.measure === "mean" || e.measure === "median"
        ? `${e.measure} ${e.value}${compared !== null ? ` vs ${compared}` : ""}`
        : `${MEASURE_LABELS[e.measure]} ${e.value}`;
  const ci = e.ci_low !== null && e.ci_high !== null ? ` (95% CI ${e.ci_low} to ${e.ci_high})` : "";
  const p = e.p_value !== null ? `, p ${e.p_relation ?? "="} ${e.p_value}` : "";
  return `${value}${ci}${p}`;
}

/** The participants as a cell shows them: "1,250", or the groups' sum with its parts "55 (26 + 29)"; null if none. */
export function participantsPhrase(e: Pick<StudyEvidence, "participants" | "participants_arms">): string | null {
  if (e.participants === null) return null;
  const n = e.participants.toLocaleString("en-US");
  const arms = e.participants_arms;
  return arms && arms.length > 1 ? `${n} (${arms.map((a) => a.toLocaleString("en-US")).join(" + ")})` : n;
}

/** One appraisal item the abstract states, as a short label, with the item it answers. */
export interface AppraisalItem {
  item: "randomised" | "comparison_group" | "timing" | "blinding";
  label: string;
}

/**
 * The appraisal items an abstract states, as short labels in a fixed order (randomisation, comparison group, timing,
 * blinding): "Randomized", "No comparison group", "Retrospective", "Double-blind". Items not told are left out.
 */
export function appraisalItems(a: StudyAppraisal): AppraisalItem[] {
  const out: AppraisalItem[] = [];
  if (a.randomised !== null) out.push({ item: "randomised", label: a.randomised ? "Randomized" : "Not randomized" });
  if (a.comparison_group !== null) {
    out.push({ item: "comparison_group", label: a.comparison_group ? "Comparison group" : "No comparison group" });
  }
  if (a.timing !== null)
    out.push({ item: "timing", label: a.timing === "prospective" ? "Prospective" : "Retrospective" });
  if (a.blinding !== null) {
    const labels = {
      "double-blind": "Double-blind",
      "single-blind": "Single-blind",
      "assessor-blind": "Assessor-blinded",
      "open-label": "Open-label",
    } as const;
    out.push({ item: "blinding", label: labels[a.blinding] });
  }
  return out;
}

/** The labels of appraisalItems. */
export function appraisalPhrases(a: StudyAppraisal): string[] {
  return appraisalItems(a).map((x) => x.label);
}
