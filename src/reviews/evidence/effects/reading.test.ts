/**
 * Effect-estimate rules on sentences quoted from the sample's abstracts (sample/pubmed; PMID in each test's name).
 * Where the sample has no instance of a form the extractor must read (the Unicode minus, an en dash inside square
 * brackets, "P ≤" next to an estimate), the test rewrites a quoted sentence in that form and says so.
 */
import { describe, expect, test } from "bun:test";
import type { EffectEstimate } from "../types.ts";
import { readEstimates } from "./reading.ts";

/** The estimates of `text`, each checked to be read from a verbatim span of it. */
function effectsOf(text: string): EffectEstimate[] {
  const effects = readEstimates(text);
  for (const e of effects) expect(text.includes(e.text)).toBe(true);
  return effects;
}

const brief = (e: EffectEstimate) => [e.measure, e.value, e.ci_low, e.ci_high, e.p_relation, e.p_value];

describe("confidence interval forms", () => {
  test('"95% CI, 0.13 to 0.92" and "P = .03" (PMID 22508830)', () => {
    const s =
      "In the subset of patients with high E-cadherin levels, OS was longer in the EE group compared with the EP " +
      "group (9.4 v 5.4 months; hazard ratio, 0.35; 95% CI, 0.13 to 0.92; P = .03) with a corresponding trend " +
      "toward increased PFS.";
    const [e] = effectsOf(s);
    expect(brief(e as EffectEstimate)).toEqual(["hazard ratio", 0.35, 0.13, 0.92, "=", 0.03]);
    expect(e?.text).toBe("hazard ratio, 0.35; 95% CI, 0.13 to 0.92; P = .03");
  });

  test('"(aOR 2.4, 95% CI 1.2-4.9)" (PMID 26211883)', () => {
    const s =
      "RESULT(S): We observed that women who were regularly fed soy formula as infants had more than twice the " +
      "risk of endometriosis compared with unexposed women (aOR 2.4, 95% CI 1.2-4.9).";
    expect(effectsOf(s).map(brief)).toEqual([["odds ratio", 2.4, 1.2, 4.9, null, null]]);
  });

  test('"95% confidence interval [CI], 1.00 to 1.30; P=0.046" (PMID 29768149)', () => {
    const s =
      "With respect to the mean percentage of weeks with well-controlled asthma per patient, budesonide-formoterol " +
      "was superior to terbutaline (34.4% vs. 31.1% of weeks; odds ratio, 1.14; 95% confidence interval [CI], 1.00 " +
      "to 1.30; P=0.046) but inferior to budesonide maintenance therapy (34.4% and 44.4%, respectively; odds " +
      "ratio, 0.64; 95% CI, 0.57 to 0.73).";
    const effects = effectsOf(s).map(brief);
    expect(effects).toContainEqual(["percentage", 34.4, null, null, null, null]);
    expect(effects).toContainEqual(["odds ratio", 1.14, 1, 1.3, "=", 0.046]);
    expect(effects).toContainEqual(["odds ratio", 0.64, 0.57, 0.73, null, null]);
  });

  test('"odds ratio [OR] 3.47, 95% confidence interval [CI] 1.55-7.80" (PMID 26702164)', () => {
    const s =
      "Patients with albuminuria were more likely to have hypertension (odds ratio [OR] 3.47, 95% confidence " +
      "interval [CI] 1.55-7.80).";
    expect(effectsOf(s).map(brief)).toEqual([["odds ratio", 3.47, 1.55, 7.8, null, null]]);
  });

  test('negative bounds separated by a comma, "(95% CI: -0.9, -0.4)" (PMID 9110943)', () => {
    const s =
      "Five trials using manual therapy in combination with other treatments were clinically similar, were " +
      "statistically not heterogeneous (p = 0.98), and were combined to yield an effect size of -0.6 (95% CI: " +
      "-0.9, -0.4), equivalent to a 16 point improvement on a 100 point pain scale.";
    // The heterogeneity p value before the estimate is not the estimate's.
    expect(effectsOf(s).map(brief)).toEqual([["standardized mean difference", -0.6, -0.9, -0.4, null, null]]);
  });

  test(
    "the same sentence written with the Unicode minus sign, as some journals print it (PMID 9110943, " + "rewritten)",
    () => {
      const s =
        "… and were combined to yield an effect size of −0.6 (95% CI: −0.9, −0.4), equivalent to a 16 point " +
        "improvement.";
      expect(effectsOf(s).map(brief)).toEqual([["standardized mean difference", -0.6, -0.9, -0.4, null, null]]);
    },
  );

  test('"95% CI: −4.1, 2.3": an interval across zero for a difference (PMID 18056501, its interval rewritten)', () => {
    const s = "the total Quality of Life score did not differ (difference, 1.07; 95% CI: −4.1, 2.3; p = 0.66).";
    expect(effectsOf(s).map(brief)).toEqual([["mean difference", 1.07, -4.1, 2.3, "=", 0.66]]);
  });

  test(
    'bracketed comma intervals in a list, "mean difference [95% CI] of -0.77 [-0.86, -0.69]" (PMID ' + "26702254)",
    () => {
      const s =
        "In comparison with PBO-MET, the DPPI-MET combinational therapy resulted in the percent HbA1c changes from " +
        "baseline with a mean difference [95% CI] of -0.77 [-0.86, -0.69] in 3-month (P\u00a0<\u00a00.00001), -0.67 " +
        "[-0.76, -0.59] in 6-month (P\u00a0<\u00a00.00001), -0.67 [-0.88, -0.47] in 1-year (P\u00a0<\u00a00.00001) " +
        "and -0.36 [-0.53, -0.20] in 2-year trials (P\u00a0<\u00a00.0003).";
      expect(effectsOf(s).map(brief)).toEqual([
        ["mean difference", -0.77, -0.86, -0.69, "<", 0.00001],
        ["mean difference", -0.67, -0.76, -0.59, "<", 0.00001],
        ["mean difference", -0.67, -0.88, -0.47, "<", 0.00001],
        ["mean difference", -0.36, -0.53, -0.2, "<", 0.0003],
      ]);
    },
  );

  test('units on the bounds, "mean difference 0.96°, 95% CI -0.06° to 1.98°, p = 0.06" (PMID 28156215)', () => {
    const s =
      "Regarding the outcomes at most recent follow-up, there were no significant differences in the Cobb angle of " +
      "the major curve (mean difference 0.96°, 95% CI -0.06° to 1.98°, p = 0.06, I2 = 1%), major curve correction " +
      "(mean difference -0.72%, 95% CI -2.96% to 1.52%, p = 0.53, I2 = 0%).";
    expect(effectsOf(s).map(brief)).toEqual([
      ["mean difference", 0.96, -0.06, 1.98, "=", 0.06],
      ["mean difference", -0.72, -2.96, 1.52, "=", 0.53],
    ]);
  });

  test('"[95% CI -5·7 to 8·3]" with middle-dot decimals (PMID 25998582)', () => {
    const s =
      "303 (80%) of 379 participants in the placebo group did not need further intervention by 4 weeks, compared " +
      "with 307 (81%) of 378 in the tamsulosin group (adjusted risk difference 1·3% [95% CI -5·7 to 8·3]; p=0·73) " +
      "and 304 (80%) of 379 in the nifedipine group (0·5% [-5·6 to 6·5]; p=0·88).";
    const [e] = effectsOf(s);
    expect(brief(e as EffectEstimate)).toEqual(["risk difference", 1.3, -5.7, 8.3, "=", 0.73]);
  });

  test(
    '"[95% CI 1.1–2.3]" with an en dash (PMID 26211883, its interval rewritten; the sample has no en-dash ' +
      "interval)",
    () => {
      const s =
        "had more than twice the risk of endometriosis compared with unexposed women [aOR 2.4, 95% CI 1.1–4.9].";
      expect(effectsOf(s).map(brief)).toEqual([["odds ratio", 2.4, 1.1, 4.9, null, null]]);
    },
  );

  test('"multivariate hazard ratio 0.40 (95% CI: 0.16-0.98)" inside a percentage comparison (PMID 17059514)', () => {
    const s =
      "The relapse rate in the half elemental diet group was significantly lower [34.6% vs. 64.0%; multivariate " +
      "hazard ratio 0.40 (95% CI: 0.16-0.98)] than that in the free diet group after a mean follow-up of 11.9 " +
      "months.";
    const effects = effectsOf(s);
    expect(effects.map(brief)).toEqual([
      ["percentage", 34.6, null, null, null, null],
      ["hazard ratio", 0.4, 0.16, 0.98, null, null],
    ]);
    expect(effects[0]?.compared_value).toBe(64);
  });

  test(
    "an interval that does not contain its estimate is dropped, not repaired (PMID 26211883, value " + "rewritten)",
    () => {
      const s = "compared with unexposed women (aOR 6.4, 95% CI 1.2-4.9).";
      expect(effectsOf(s).map(brief)).toEqual([["odds ratio", 6.4, null, null, null, null]]);
    },
  );
});

test('an unlabelled interval after a semicolon, "(RR: 3.8; 0.5-76)", "(OR: 2.6; 1.0-6.7)" (PMID 15931724)', () => {
  const s =
    "Four of the five thyroid carcinomas were found in the radium-exposed group (RR: 3.8; 0.5-76). There was an " +
    "increased risk for skin basal cell carcinoma (BCC) of the head and neck (odds ratio (OR): 2.6; 1.0-6.7), " +
    "but the risk of BCC of other body parts was lower (OR: 0.3; 0.1-1.3).";
  expect(effectsOf(s).map(brief)).toEqual([
    ["risk ratio", 3.8, 0.5, 76, null, null],
    ["odds ratio", 2.6, 1, 6.7, null, null],
    ["odds ratio", 0.3, 0.1, 1.3, null, null],
  ]);
});

test('a list after "[HRs (95% CIs): 1.03 (1.01, 1.04), 1.02 (1.01, 1.03), …]" (PMID 31449466)', () => {
  const s =
    "Interquartile range increments of [Formula: see text], [Formula: see text], [Formula: see text], and " +
    "[Formula: see text] were associated with increases in the incidence of AF [HRs (95% CIs): 1.03 (1.01, " +
    "1.04), 1.02 (1.01, 1.03), 1.01 (1.00, 1.02), and 1.01 (1.01, 1.02), respectively]";
  expect(effectsOf(s).map(brief)).toEqual([
    ["hazard ratio", 1.03, 1.01, 1.04, null, null],
    ["hazard ratio", 1.02, 1.01, 1.03, null, null],
    ["hazard ratio", 1.01, 1, 1.02, null, null],
    ["hazard ratio", 1.01, 1.01, 1.02, null, null],
  ]);
});

describe("p value forms", () => {
  test('"p <0.001" after a percentage comparison (PMID 25440500)', () => {
    const s =
      "Patients treated at academic hospitals were more frequently nonwhite (19% vs 8%, p <0.001) and had a " +
      "greater co-morbidity burden (Charlson score ≥4 in 36% vs 30%, p = 0.001) than patients treated at " +
      "nonacademic hospitals.";
    const effects = effectsOf(s);
    expect(effects.map(brief)).toEqual([
      ["percentage", 19, null, null, "<", 0.001],
      ["percentage", 36, null, null, "=", 0.001],
    ]);
    expect(effects.map((e) => e.compared_value)).toEqual([8, 30]);
  });

  test('"P < 0.0001" (PMID 21301391)', () => {
    const s =
      "Complications were more frequent among staged- versus same-day surgery patients (28.4% vs. 21.7%, P < " +
      "0.0001).";
    expect(effectsOf(s).map(brief)).toEqual([["percentage", 28.4, null, null, "<", 0.0001]]);
  });

  test(
    '"P ≤ 0.05" next to an estimate (PMID 2351484, its p value rewritten; the sample has "P ≤" only without ' + "one)",
    () => {
      const s =
        "Occupational exposure to products of combustion (RR = 2.4, P ≤ 0.05) was independently related to " +
        "risk of NPC.";
      expect(effectsOf(s).map(brief)).toEqual([["risk ratio", 2.4, null, null, "<=", 0.05]]);
    },
  );

  test('"P\u200a=\u200a0.0001" with hair spaces, "IRR 2.43" (PMID 27105460)', () => {
    const s =
      "Independent predictors identified on multivariate logistic regression modeling included hypertension (IRR " +
      "2.43 P\u200a=\u200a0.0001), smoking (IRR 2.49 P\u200a=\u200a0.0001), and number of years with spine " +
      "problems (IRR 1.23 P\u200a=\u200a0.03).";
    expect(effectsOf(s).map(brief)).toEqual([
      ["incidence rate ratio", 2.43, null, null, "=", 0.0001],
      ["incidence rate ratio", 2.49, null, null, "=", 0.0001],
      ["incidence rate ratio", 1.23, null, null, "=", 0.03],
    ]);
  });

  test("a p value that belongs to a later estimate is not taken (PMID 28601656)", () => {
    const s =
      "High pSrc expression was significantly associated with decreased 5-year disease-free survival (39% versus " +
      "63% for patients with high versus low pSrc expression; hazard ratio, 0.56; P=.005) and overall survival " +
      "(58% versus 74%; hazard ratio, 0.55; P=.02).";
    expect(effectsOf(s).map(brief)).toEqual([
      ["percentage", 39, null, null, null, null],
      ["hazard ratio", 0.56, null, null, "=", 0.005],
      ["percentage", 58, null, null, null, null],
      ["hazard ratio", 0.55, null, null, "=", 0.02],
    ]);
  });
});

describe("measures", () => {
  test("a list of odds ratios after one name (PMID 20727127)", () => {
    const s =
      "RESULTS: Observations made include the following: 1) consumption of canton-style salted fish, preserved " +
      "vegetables and preserved/cured meat were significantly associated with increased risk of NPC, with enhanced " +
      "odds ratios (OR) of 2.45 (95% CI: 2.03-2.94), 3.17(95% CI: 2.68-3.77) and 2.09 (95% CI: 1.22-3.60) " +
      "respectively in the highest intake frequency stratum during childhood; 2) consumption of fresh fruit was " +
      "associated with reduced risk with a dose-dependent relationship (p = 0.001)";
    expect(effectsOf(s).map(brief)).toEqual([
      ["odds ratio", 2.45, 2.03, 2.94, null, null],
      ["odds ratio", 3.17, 2.68, 3.77, null, null],
      ["odds ratio", 2.09, 1.22, 3.6, null, null],
    ]);
  });

  test(
    '"relative risk, 1.34; P = 0.01" and an unnamed "estimated difference of 0.033 (P = 0.23)" (PMID ' + "15968009)",
    () => {
      const s1 =
        "Severe flare was rare in both treatment groups: The 12-month severe flare rate was 0.081 for the HRT group " +
        "and 0.049 for the placebo group, yielding an estimated difference of 0.033 (P = 0.23).";
      const s2 =
        "Mild to moderate flares were significantly increased in the HRT group: 1.14 flares/person-year for HRT and " +
        "0.86 flare/person-year for placebo (relative risk, 1.34; P = 0.01).";
      expect(effectsOf(s1).map(brief)).toEqual([["mean difference", 0.033, null, null, "=", 0.23]]);
      expect(effectsOf(s2).map(brief)).toEqual([["risk ratio", 1.34, null, null, "=", 0.01]]);
    },
  );

  test('"p less than 0.0005" in words (PMID 2351484)', () => {
    const s =
      "A history of chronic ear or nose condition (rhinitis, sinusitis, nasal polyp, otitis media) was another " +
      "risk factor for NPC (RR = 2.2, p less than 0.0005), and 18 cases compared to 3 controls had a first-degree " +
      "relative with NPC (RR = 6.0, p = 0.001).";
    expect(effectsOf(s).map(brief)).toEqual([
      ["risk ratio", 2.2, null, null, "<", 0.0005],
      ["risk ratio", 6, null, null, "=", 0.001],
    ]);
  });

  test('"RR = 2.4, p = 0.001" (PMID 2351484)', () => {
    const s =
      "Occupational exposure to products of combustion (RR = 2.4, p = 0.001) and cotton dust (RR = 0.3, P = " +
      "0.01) was independently related to risk of NPC.";
    expect(effectsOf(s).map(brief)).toEqual([
      ["risk ratio", 2.4, null, null, "=", 0.001],
      ["risk ratio", 0.3, null, null, "=", 0.01],
    ]);
  });

  test('"adjusted incidence rate ratio = 0.99, 95% confidence interval 0.95 to 1.04" (PMID 25440500)', () => {
    const s =
      "Composite persistence to all EBMs prescribed at discharge was low and not significantly different between " +
      "academic and nonacademic hospitals at 90 days (46% vs 45%, adjusted incidence rate ratio = 0.99, 95% " +
      "confidence interval 0.95 to 1.04) and at 1 year (39% vs 39%, adjusted incidence rate ratio = 1.02, 95% " +
      "confidence interval 0.98 to 1.07).";
    expect(effectsOf(s).map(brief)).toEqual([
      ["percentage", 46, null, null, null, null],
      ["incidence rate ratio", 0.99, 0.95, 1.04, null, null],
      ["percentage", 39, null, null, null, null],
      ["incidence rate ratio", 1.02, 0.98, 1.07, null, null],
    ]);
  });

  test(
    'unnamed differences of percentages, "difference, -1%; 95% confidence interval, -7% to 5%" (PMID ' + "18056501)",
    () => {
      const s =
        "The percentage of Cobb angle correction was not significantly different for thoracic curves (55.1% +/- " +
        "18.3% for the Moss Miami system group, compared with 54.1% +/- 18.7% for the Universal Spine System group) " +
        "(difference, -1%; 95% confidence interval, -7% to 5%; p = 0.77).";
      const effects = effectsOf(s);
      expect(effects.map(brief)).toEqual([
        ["percentage", 55.1, null, null, null, null],
        ["mean difference", -1, -7, 5, "=", 0.77],
      ]);
      expect(effects[0]?.compared_value).toBe(54.1);
    },
  );

  test('"OR" only in capitals: "randomized to 5 or 10 mg" is no odds ratio (PMID 26702168, doses rewritten)', () => {
    expect(effectsOf("72 patients were randomly assigned to either Modafinil 100 or 200 mg or placebo.")).toEqual([]);
  });

  test('"a 29% increase in the odds" is not turned into an odds ratio (PMID 21301391)', () => {
    const s =
      "In the regression model, staged circumferential spine fusions were associated with a 29% increase in the " +
      "odds morbidity and mortality compared with same-day procedures.";
    expect(effectsOf(s)).toEqual([]);
  });
});

describe("percentages with their comparison", () => {
  test('"70.2% for the screw group and 68.1% for the hook group" (PMID 15958886)', () => {
    const [e] = effectsOf("Correction averaged 70.2% for the screw group and 68.1% for the hook group.");
    expect([e?.value, e?.compared_value]).toEqual([70.2, 68.1]);
  });

  test('"18% v EP, 20%; P = .7" (PMID 22508830)', () => {
    const [e] = effectsOf("The 4-month PFS rate was comparable for both groups (EE, 18% v EP, 20%; P = .7).");
    expect([e?.value, e?.compared_value, e?.p_value]).toEqual([18, 20, 0.7]);
  });

  test('"… by 30% and 29% at trial entry and 9% and 25% at one year, respectively" (PMID 18719013)', () => {
    const s =
      "Hot flushes were experienced in the combined HRT and placebo groups by 30% and 29% at trial entry and 9% " +
      "and 25% at one year, respectively.";
    expect(effectsOf(s).map((e) => [e.value, e.compared_value])).toEqual([
      [30, 29],
      [9, 25],
    ]);
  });

  test('rates of one group, "40% and 55% at four years, respectively", are no comparison (PMID 7087893)', () => {
    expect(
      effectsOf(
        "The actuarial relapse-free survival and overall survival are 40% and 55% at four years, " + "respectively.",
      ),
    ).toEqual([]);
  });

  test('a group\'s own interval: "70% [95% CI 50-83] vs 44% [23-64]" (PMID 21933749)', () => {
    const s =
      "1-year overall survival 70% [95% CI 50-83] vs 44% [23-64], and 2-year overall survival 55% [33-72] vs " +
      "12% [2-30]";
    expect(effectsOf(s).map((e) => [e.value, e.ci_low, e.ci_high, e.compared_value])).toEqual([
      [70, 50, 83, 44],
      [55, 33, 72, 12],
    ]);
  });

  test('groups named by labels, "(LCO: 33.3 %; UTO: 18 %, p = 0.28)" (PMID 25394862)', () => {
    const [e] = effectsOf("Reoperation rates were similar between the groups (LCO: 33.3 %; UTO: 18 %, p = 0.28).");
    expect([e?.value, e?.compared_value, e?.p_value]).toEqual([33.3, 18, 0.28]);
  });

  test(
    'means of percentages with their SD, "(86.6+/-24.0% vs. 72.8+/-19.4%, p=0.018)", and changes below zero ' +
      "(PMID 19251407)",
    () => {
      const s =
        "The baseline of vital capacity percent predicted (VC% pred) in CPFE patients was greater than that in " +
        "IPF-alone patients (86.6+/-24.0% vs. 72.8+/-19.4%, p=0.018). The annual decrease in VC% pred was " +
        "significantly less in CPFE patients than in IPF-alone patients (-1.2+/-4.8% vs. -8.0+/-7.4%, p<0.001).";
      expect(effectsOf(s).map((e) => [e.value, e.compared_value, e.p_relation, e.p_value])).toEqual([
        [86.6, 72.8, "=", 0.018],
        [-1.2, -8, "<", 0.001],
      ]);
    },
  );

  test('"(61.5% and 64.4%, respectively)" in brackets after what it compares (PMID 26253819)', () => {
    const s =
      "Among twins, the crude rates of preterm birth were similar after blastocyst and cleavage-stage ETs (61.5% " +
      "and 64.4%, respectively).";
    expect(effectsOf(s).map((e) => [e.value, e.compared_value])).toEqual([[61.5, 64.4]]);
  });

  test(
    'a trend over years is no comparison of groups: "from 23% in 2007 to between 44 and 45%" (PMID ' + "26095044)",
    () => {
      expect(effectsOf("ACT prescription increased from 23% in 2007 to between 44 and 45% in 2008-2009.")).toEqual([]);
    },
  );

  test("the last two items of a list of rates are no comparison (PMID 25110239)", () => {
    const s =
      "Eighty-three % of epithelioid hemangioendotheliomas, 100% of angiosarcomas, 89% of epithelioid sarcomas, " +
      "89% of malignant melanomas, 63% of signet ring carcinomas, 71% of lobular carcinomas of breast, 100% of " +
      "epithelioid mesotheliomas, 50% of rhabdoid tumors and 100% of hemangiomas were stained.";
    expect(effectsOf(s)).toEqual([]);
  });

  test("single rates are not effects (PMID 24813488)", () => {
    const s = "The most common signs and symptoms were pain (98.1%), fever (46.3%) and neurological deficits (25.9%).";
    expect(effectsOf(s)).toEqual([]);
  });
});

test("empty text gives no effects", () => {
  expect(readEstimates("")).toEqual([]);
});
