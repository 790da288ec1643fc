import { NO_APPRAISAL } from "./types.ts";
import { describe, expect, test } from "bun:test";
import { parseSummary } from "../../../islands/review-workspace/summary-parse.ts";
import { parseComparison } from "./comparison.ts";
import { directionSentence, evidenceParagraph, synthesisSentence } from "./synthesis.ts";
import type { EvidenceRow } from "./types.ts";

/** A row with nothing extracted but what the test sets. */
function row(citation: number, fields: Partial<EvidenceRow> = {}): EvidenceRow {
  return {
    pmid: 1000 + citation,
    citation,
    duplicate_pmids: [],
    same_cohort: [],
    design: null,
    design_source: null,
    evidence_level: null,
    participants: null,
    participants_arms: null,
    participants_text: null,
    appraisal: NO_APPRAISAL,
    population: null,
    intervention: null,
    comparator: null,
    outcome: null,
    result: null,
    effects: [],
    significance: null,
    ...fields,
  };
}

describe("the count of the cited evidence", () => {
  test("designs strongest first; n summed over the studies that state it, the others said to be not stated", () => {
    const rows = [
      row(1, { design: "cohort", participants: 1000 }),
      row(2, { design: "rct", participants: 120 }),
      row(3, { design: "case-report", participants: 1 }),
      row(4, { design: "rct", participants: 220 }),
      row(5, { design: "cohort", participants: 250 }),
      row(6, { design: "cohort", participants: null }),
      row(7, { design: "case-report" }),
    ];
    expect(synthesisSentence(rows, "risk factors for stroke")).toStartWith(
      "The summary cites 2 randomized trials (n = 340), 3 cohort studies (n = 1,250 in 2 studies; n not stated for " +
        "1 study) and 2 case reports (n = 1 in 1 study; n not stated for 1 study).",
    );
  });

  test("a cohort reported twice (a translation: same n, same numbers) is counted once", () => {
    const rows = [
      row(1, { design: "cohort", participants: 82, same_cohort: [2] }),
      row(2, { design: "cohort", participants: 82, same_cohort: [1] }),
      row(3, { design: "cohort", participants: 40 }),
    ];
    expect(synthesisSentence(rows, "asthma")).toStartWith(
      "The summary cites 3 cohort studies (n = 122; a cohort reported twice counted once).",
    );
  });

  test("observational studies are 'other' only beside a cohort, case-control or cross-sectional study", () => {
    const two = [row(1, { design: "observational" }), row(2, { design: "observational" })];
    expect(synthesisSentence(two, "asthma")).toStartWith("The summary cites 2 observational studies (n not stated).");
    expect(
      synthesisSentence([row(1, { design: "observational" }), row(2, { design: "case-control" })], "asthma"),
    ).toStartWith(
      "The summary cites 1 case-control study (n not stated) and 1 other observational study (n not stated).",
    );
  });

  test("nothing is said when no cited study has a design or stated participants", () => {
    expect(synthesisSentence([row(1), row(2)], "asthma treatment")).toBeNull();
    expect(synthesisSentence([], "asthma")).toBeNull();
  });
});

describe("certainty of the evidence", () => {
  test("observational studies only: low, and no randomized trial was found; small samples too: very low", () => {
    const large = [row(1, { design: "cohort", participants: 400 }), row(2, { design: "cohort", participants: 600 })];
    expect(synthesisSentence(large, "bracing for scoliosis")).toBe(
      "The summary cites 2 cohort studies (n = 1,000). Certainty of the evidence (GRADE, as far as the abstracts " +
        "tell): low: observational studies only. No randomized trial was found among the cited studies.",
    );
    const small = [row(1, { design: "cohort", participants: 40 }), row(2, { design: "cohort", participants: 60 })];
    expect(synthesisSentence(small, "bracing for scoliosis")).toContain(
      "very low: observational studies only, small samples.",
    );
  });

  test("uncontrolled case series only: very low", () => {
    const rows = [
      row(1, { design: "case-series", participants: 20 }),
      row(2, { design: "case-series", participants: 30 }),
    ];
    expect(synthesisSentence(rows, "vertebroplasty")).toContain(
      "very low: uncontrolled case series or reports only, small samples.",
    );
  });

  test("blinded randomized trials of 400 or more that agree: high", () => {
    const blinded = { ...NO_APPRAISAL, blinding: "double-blind" as const };
    const rows = [
      row(1, { design: "rct", participants: 300, appraisal: blinded, significance: "significant" }),
      row(2, { design: "rct", participants: 200, appraisal: blinded, significance: "significant" }),
    ];
    expect(synthesisSentence(rows, "statins")).toContain(
      "Certainty of the evidence (GRADE, as far as the abstracts tell): high.",
    );
    expect(synthesisSentence(rows, "statins")).not.toContain("No randomized trial");
  });

  test("one study is not a body of evidence: no certainty sentence", () => {
    expect(synthesisSentence([row(1, { design: "rct", participants: 50 })], "x")).not.toContain("Certainty");
  });
});

describe("comparative topics and the direction of the evidence", () => {
  const sentences: Record<number, string[]> = {
    1001: ["We compared decompression alone with decompression and fusion in 120 patients."],
    1002: ["Patients were randomized to fusion or decompression."],
    1003: ["Outcomes of decompression in elderly patients were good."],
  };
  const sentencesOf = (pmid: number) => sentences[pmid] ?? [];

  test("says first whether any cited study compares A with B, citing those that do", () => {
    const rows = [row(1, { design: "rct" }), row(2, { design: "rct" }), row(3, { design: "case-series" })];
    expect(synthesisSentence(rows, "decompression versus fusion for lumbar stenosis", sentencesOf)).toStartWith(
      "2 of the cited studies compare decompression with fusion [1, 2].",
    );
  });

  test("when none does, says so in those words", () => {
    const rows = [row(3, { design: "case-series" })];
    expect(synthesisSentence(rows, "decompression vs fusion", sentencesOf)).toStartWith(
      "None of the cited studies compares decompression with fusion.",
    );
  });

  test("counts a direction only over studies comparing the same sides on a shared outcome", () => {
    const c = parseComparison("surgery versus radiotherapy") as NonNullable<ReturnType<typeof parseComparison>>;
    const same = [
      row(1, { significance: "significant", result: "Five-year survival was higher after surgery (p = 0.01)." }),
      row(2, { significance: "not_significant", result: "Survival did not differ between the arms." }),
    ];
    expect(directionSentence(same, c)).toBe(
      "Of the 2 studies comparing surgery with radiotherapy on survival, 1 found a statistically significant " +
        "difference [1]; 1 found none [2].",
    );
    // Different outcomes (pain in one, survival in the other): no count.
    const different = [
      same[0] as EvidenceRow,
      row(2, { significance: "not_significant", result: "Pain scores were similar." }),
    ];
    expect(directionSentence(different, c)).toBeNull();
  });

  test("a treatment topic without two sides gets no vote count over unrelated comparisons", () => {
    const rows = [1, 2, 3, 4].map((n) =>
      row(n, { design: "cohort", significance: n < 4 ? "not_significant" : "significant" }),
    );
    expect(synthesisSentence(rows, "treatment of vertebral osteomyelitis")).not.toContain("statistically significant");
  });

  test("the comparison of a topic: versus, vs, compared with; not a topic without two sides", () => {
    expect(parseComparison("metformin vs insulin")).toEqual({ a: "metformin", b: "insulin" });
    expect(parseComparison("laparoscopic compared with open surgery for hernia")).toEqual({
      a: "laparoscopic",
      b: "open surgery",
    });
    expect(parseComparison("risk factors for nasopharyngeal carcinoma")).toBeNull();
  });
});

describe("the opening paragraph", () => {
  test("is a bold-labelled paragraph the page reads as text and citations", () => {
    const rows = [row(1, { design: "rct", participants: 340 }), row(2), row(3)];
    const population = "All 3 cited studies are in children or adolescents.";
    const text = evidenceParagraph(
      synthesisSentence(rows, "surgery versus radiotherapy", () => ["Surgery was compared with radiotherapy."]),
      population,
    );
    expect(text).toBe(
      "**The evidence.** 3 of the cited studies compare surgery with radiotherapy [1, 2, 3]. The summary cites 1 randomized trial " +
        "(n = 340) and 2 studies of unstated design (n not stated). All 3 cited studies are in children or adolescents.",
    );
    const [block] = parseSummary(`${text}\n\n**Overview.** Quoted [1].`);
    expect(block?.kind).toBe("paragraph");
    const inlines = block?.kind === "paragraph" ? block.inlines : [];
    expect(inlines[0]).toEqual({ kind: "text", text: "The evidence.", bold: true });
    // "(n = 340)" stays text; only bracketed lists of numbers are citations.
    const cites = inlines.flatMap((i) => (i.kind === "cite" ? [i.numbers] : []));
    expect(cites).toEqual([[1, 2, 3]]);
  });

  test("is absent when there is nothing to say", () => {
    expect(evidenceParagraph(null, null)).toBeNull();
    expect(evidenceParagraph(null, "Both cited studies are animal studies.")).toBe(
      "**The evidence.** Both cited studies are animal studies.",
    );
  });
});
