import { describe, expect, test } from "bun:test";
import fixture from "./fixtures/nasopharyngeal-carcinoma.json";
import { classifySection, normalizeWhitespace, splitInlineSections, splitSentences } from "./sentences.ts";

describe("splitSentences", () => {
  test("keeps a sentence whole across 'et al.' followed by a year, a verb or a name", () => {
    const text =
      "Compared with the cohort of Smith et al. (2019), our patients were older. " +
      "Chan et al. reported a similar gradient in Hong Kong. " +
      "As described by Jones et al. In addition, the dose-response trend persisted.";
    expect(splitSentences(text)).toEqual([
      "Compared with the cohort of Smith et al. (2019), our patients were older.",
      "Chan et al. reported a similar gradient in Hong Kong.",
      // Here "et al." really ends the sentence: the next one opens with a connective.
      "As described by Jones et al.",
      "In addition, the dose-response trend persisted.",
    ]);
  });

  test("never splits inside p-values, decimals or confidence intervals", () => {
    const text =
      "The odds ratio was 2.45 (95% CI: 2.03-2.94; p < 0.05) in the highest stratum. " +
      "Fresh fruit was protective (P = .001), with a mean intake of 3.5 servings per week. " +
      "The relative risk was 7.5 (95% confidence limits, 3.9, 14.8).";
    expect(splitSentences(text)).toEqual([
      "The odds ratio was 2.45 (95% CI: 2.03-2.94; p < 0.05) in the highest stratum.",
      "Fresh fruit was protective (P = .001), with a mean intake of 3.5 servings per week.",
      "The relative risk was 7.5 (95% confidence limits, 3.9, 14.8).",
    ]);
  });

  test("keeps abbreviated species names together", () => {
    const text =
      "Urinary isolates of E. coli and S. aureus were resistant to ampicillin. " +
      "H. pylori eradication reduced the recurrence of gastric ulcer.";
    expect(splitSentences(text)).toEqual([
      "Urinary isolates of E. coli and S. aureus were resistant to ampicillin.",
      "H. pylori eradication reduced the recurrence of gastric ulcer.",
    ]);
  });

  test("does not split after e.g., i.e., vs., Fig., approx., no. and U.S. inside a sentence", () => {
    const cases = [
      "Cisplatin vs. Placebo was compared in 120 patients.",
      "Bacteria (e.g. Pseudomonas) grew on the catheters.",
      "In vitro studies (i.e. In cultured cells) agree with this.",
      "As shown in Fig. 2A, the rate rose steadily.",
      "Approx. 30% of patients responded to treatment.",
      "Case no. 5 was excluded from the analysis.",
      "Patients in the U.S. Army were included in the cohort.",
      "The trial was led by Dr. J. R. Smith at two centres.",
      "Mean (SD) was 5.1 (1.2) vs. 4.2 (0.9); P < .001.",
    ];
    for (const sentence of cases) expect(splitSentences(sentence)).toEqual([sentence]);
  });

  test("still splits after acronyms and capital letters that end a sentence", () => {
    expect(splitSentences("Relapses were rare in patients with MS. Disability scores did not change.")).toEqual([
      "Relapses were rare in patients with MS.",
      "Disability scores did not change.",
    ]);
    expect(splitSentences("Most participants lacked vitamin D. Supplementation restored normal levels.")).toEqual([
      "Most participants lacked vitamin D.",
      "Supplementation restored normal levels.",
    ]);
    expect(splitSentences("The study was done in the U.S. The rate was high.")).toEqual([
      "The study was done in the U.S.",
      "The rate was high.",
    ]);
  });

  test("drops bare enumeration markers of old numbered abstracts", () => {
    const text = "1. Catalase activity fell in the liver. 2. Glutathione levels were unchanged.";
    expect(splitSentences(text)).toEqual([
      "Catalase activity fell in the liver.",
      "Glutathione levels were unchanged.",
    ]);
  });

  test("blank input gives no sentences", () => {
    expect(splitSentences("")).toEqual([]);
    expect(splitSentences("   \n\t ")).toEqual([]);
  });

  test("splits every fixture abstract into verbatim pieces that cover the text", () => {
    for (const article of fixture) {
      if (!article.abstract) continue;
      const normalized = normalizeWhitespace(article.abstract);
      const sentences = splitSentences(article.abstract);
      expect(sentences.length).toBeGreaterThan(0);
      for (const s of sentences) expect(normalized).toContain(s);
      // Nothing but spacing (and bare list markers, which these abstracts do not have) is lost.
      expect(sentences.join(" ")).toBe(normalized);
    }
  });

  test("splits a real RESULTS section into its four sentences", () => {
    const article = fixture.find((a) => a.pmid === 10454065);
    const results = article?.abstract_sections.find((s) => s.label === "RESULTS");
    const sentences = splitSentences(results?.text ?? "");
    expect(sentences).toHaveLength(4);
    expect(sentences[0]).toStartWith("After multivariate adjustment, the odds ratio (OR)");
    expect(sentences[0]).toContain("(1.1-2.9 with p = 0.03 for increasing dose-response)");
    expect(sentences[3]).toEndWith("(95% CI = 0.7-1.7).");
  });
});

describe("classifySection", () => {
  test("uses NLM's category when it is informative", () => {
    expect(classifySection("STUDY DESIGN", "METHODS")).toBe("METHODS");
    expect(classifySection("CONCLUSION", "CONCLUSIONS")).toBe("CONCLUSIONS");
    expect(classifySection("BACKGROUND AND PURPOSE", "OBJECTIVE")).toBe("OBJECTIVE");
  });

  test("falls back on the label's words when the category is missing or unassigned", () => {
    expect(classifySection("MATERIALS AND METHODS", null)).toBe("METHODS");
    expect(classifySection("Conclusion", "UNASSIGNED")).toBe("CONCLUSIONS");
    expect(classifySection("Results", "UNASSIGNED")).toBe("RESULTS");
    expect(classifySection("Main outcome measures", null)).toBe("METHODS");
    expect(classifySection("INTRODUCTION", null)).toBe("BACKGROUND");
    expect(classifySection("", null)).toBe("UNLABELLED");
    expect(classifySection("UNLABELLED", null)).toBe("UNLABELLED");
  });
});

describe("splitInlineSections", () => {
  test("separates headings written inside an unstructured abstract", () => {
    const parts = splitInlineSections(
      "BACKGROUND: Smoking is common. METHODS: We did the following: a survey. RESULTS: Risk rose. Conclusions: Smoking matters.",
    );
    expect(parts).toEqual([
      { kind: "BACKGROUND", text: "Smoking is common." },
      // "following:" is not a heading: only the usual vocabulary counts.
      { kind: "METHODS", text: "We did the following: a survey." },
      { kind: "RESULTS", text: "Risk rose." },
      { kind: "CONCLUSIONS", text: "Smoking matters." },
    ]);
  });

  test("recognises capitalised headings written without a colon", () => {
    const parts = splitInlineSections(
      "OBJECTIVE The outcomes of screw constructs are controversial. MATERIAL AND METHODS We searched three databases. " +
        "RESULTS Twelve studies were analysed. CONCLUSIONS Both constructs are safe. Results were robust in every subgroup.",
    );
    expect(parts.map((p) => p.kind)).toEqual(["OBJECTIVE", "METHODS", "RESULTS", "CONCLUSIONS"]);
    expect(parts[0]?.text).toBe("The outcomes of screw constructs are controversial.");
    // "Results were robust" is a sentence, not a heading: it stays in the conclusions part.
    expect(parts[3]?.text).toBe("Both constructs are safe. Results were robust in every subgroup.");
  });

  test("leaves text without headings as one unlabelled part", () => {
    expect(splitInlineSections("Salted fish was associated with risk. Results were robust.")).toEqual([
      { kind: "UNLABELLED", text: "Salted fish was associated with risk. Results were robust." },
    ]);
    expect(splitInlineSections("  ")).toEqual([]);
  });
});
