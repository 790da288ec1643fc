/** PICO span rules on text quoted from the sample's abstracts (PMID in each test's name). */
import { describe, expect, test } from "bun:test";
import { extractPico, plausibleArms } from "./pico.ts";

/** The spans of `text`, each checked to be verbatim. */
function picoOf(text: string) {
  const pico = extractPico(text);
  for (const span of Object.values(pico)) if (span !== null) expect(text.includes(span)).toBe(true);
  return pico;
}

test('"randomised to X (n=1862) or placebo (n=1859)" and a participants label (PMID 18719013)', () => {
  const s =
    "PARTICIPANTS: Postmenopausal women aged 50-69 at randomisation; 3721 women with a uterus were randomised to " +
    "combined " +
    "oestrogen and progestogen (n=1862) or placebo (n=1859). MAIN OUTCOME MEASURES: Health related quality of life " +
    "and " +
    "psychological wellbeing as measured by the women's health questionnaire.";
  expect(picoOf(s)).toEqual({
    population: "Postmenopausal women aged 50-69",
    intervention: "combined oestrogen and progestogen",
    comparator: "placebo",
    outcome:
      "Health related quality of life and psychological wellbeing as measured by the women's health " + "questionnaire",
  });
});

test(
  '"randomly allocated to treatment with either X or Y" and "The primary outcome measure … was …" (PMID ' + "18056501)",
  () => {
    const s =
      "All adolescent patients with idiopathic scoliosis who were scheduled for posterior instrumentation and " +
      "arthrodesis were screened for eligibility. Patients were randomly allocated to treatment with either the Moss " +
      "Miami system or the Universal Spine System. The primary outcome measure for this trial was Quality of Life " +
      "Profile for Spinal Disorders.";
    const pico = picoOf(s);
    expect([pico.intervention, pico.comparator]).toEqual(["the Moss Miami system", "the Universal Spine System"]);
    expect(pico.outcome).toBe("Quality of Life Profile for Spinal Disorders");
    expect(pico.population).toBe("All adolescent patients with idiopathic scoliosis");
  },
);

test(
  '"randomly assigned to either Modafinil or placebo and were followed" stops before the next clause (PMID ' +
    "26702168)",
  () => {
    const s =
      "MATERIALS AND METHODS: 72 patients who were on atypical antipsychotic drugs were randomly assigned to either " +
      "Modafinil or placebo and were followed for a period of 12 weeks.";
    expect(picoOf(s)).toMatchObject({ intervention: "Modafinil", comparator: "placebo" });
  },
);

test('"erlotinib with and without … entinostat": the add-on is the intervention (PMID 22508830)', () => {
  const s =
    "PURPOSE: This randomized phase II study evaluated the outcome of erlotinib with and without the isoform " +
    "selective HDACi, entinostat. PATIENTS AND METHODS: Previously treated patients with stage IIIB/IV " +
    "non-small-cell lung cancer, no prior EGFR-TKIs, and performance status ≤ 2 were randomly administered " +
    "erlotinib 150 mg. The primary end point was 4-month progression-free survival (PFS) rate with additional end " +
    "points including 6-month PFS rate.";
  expect(picoOf(s)).toEqual({
    population: "Previously treated patients with stage IIIB/IV non-small-cell lung cancer",
    intervention: "isoform selective HDACi",
    comparator: "erlotinib",
    outcome: "4-month progression-free survival (PFS) rate",
  });
});

test(
  'subgroups compared in the results are not arms: "for patients with high versus low pSrc expression" (PMID ' +
    "28601656)",
  () => {
    // The whole abstract: the comparison of subgroups sits in its second half, after the study is described.
    const s =
      "Src belongs to a family of cytoplasmic tyrosine kinases that play a key role in tumor initiation and " +
      "progression. Src activation has been associated with a more aggressive neoplastic phenotype and " +
      "induces resistance to platinum agents in preclinical models. The aim of our study was to assess the " +
      "prognostic and/or predictive value of Src activation in patients with stage II-III colon cancer. " +
      "pSrc expression was assessed in paraffin-embedded tumor samples by immunohistochemistry " +
      "(phospho-Y418, ab4816; Abcam). Cases were classified by staining intensity in 4 categories: no " +
      "staining (0), weak (1+), moderate (2+), and intense (3+) staining. A total of 487 patients were " +
      "evaluated (240 stage II, 247 stage III), of whom 298 (61%) had received adjuvant chemotherapy. " +
      "Staining was absent in 78 (16%), weak in 262 (54%), moderate in 103 (21%), and intense in 44 (9%). " +
      "High pSrc expression was significantly associated with decreased 5-year disease-free survival (39% " +
      "versus 63% for patients with high versus low pSrc expression; hazard ratio, 0.56; P=.005) and " +
      "overall survival (58% versus 74%; hazard ratio, 0.55; P=.02). Multivariate analysis confirmed pSrc " +
      "expression as a significant prognostic factor both for disease-free survival and overall survival, " +
      "independent of age, sex, tumor stage, bowel obstruction/perforation, or adjuvant chemotherapy. These " +
      "findings illustrate the relevance of Src activation in colon cancer biology, conferring a poor " +
      "prognosis to patients with early stage colon cancer regardless of adjuvant chemotherapy. Our " +
      "findings may help improve prognostic stratification of patients for clinical decisions and open new " +
      "avenues for potential pharmacologic manipulation that may eventually improve patients' outcomes.";
    expect(picoOf(s)).toEqual({
      population: "patients with stage II-III colon cancer",
      intervention: null,
      comparator: null,
      outcome: null,
    });
  },
);

test("text without cues gives nulls (PMID 12942121)", () => {
  expect(picoOf("Patients with tumours bearing high LDH-5 expression had a poor prognosis.").intervention).toBeNull();
  expect(extractPico("")).toEqual({ population: null, intervention: null, comparator: null, outcome: null });
});

describe("arms that are fragments are no arms (issue 33)", () => {
  test("before / after, across / within, a clause cut after a participle: rejected", () => {
    expect(plausibleArms("before", "after surgery")).toBe(false);
    expect(plausibleArms("across", "within treatment groups")).toBe(false);
    expect(plausibleArms("life associated", "operating")).toBe(false);
  });

  test("two treatments: kept", () => {
    expect(plausibleArms("thoracic pedicle screws", "laminar and pedicle hooks")).toBe(true);
    expect(plausibleArms("surgery", "conservative treatment")).toBe(true);
  });

  test("a sentence comparing before and after gives no intervention nor comparator", () => {
    const pico = extractPico(
      "We aimed to compare pain before with pain after surgery in 40 patients. RESULTS: Pain fell.",
    );
    expect([pico.intervention, pico.comparator]).toEqual([null, null]);
  });
});
