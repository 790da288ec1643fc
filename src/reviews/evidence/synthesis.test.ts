import { NO_APPRAISAL } from "./types.ts";
import { describe, expect, test } from "bun:test";
import { parseSummary } from "../../../islands/review-workspace/summary-parse.ts";
import { directionSentence, evidenceParagraph, isComparativeTopic, synthesisSentence } from "./synthesis.ts";
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
  test("designs strongest first, n summed over the studies that state it, nothing of n when none does", () => {
    const rows = [
      row(1, { design: "cohort", participants: 1000 }),
      row(2, { design: "rct", participants: 120 }),
      row(3, { design: "case-report" }),
      row(4, { design: "rct", participants: 220 }),
      row(5, { design: "cohort", participants: 250 }),
      row(6, { design: "cohort", participants: null }),
      row(7, { design: "case-report" }),
    ];
    expect(synthesisSentence(rows, "risk factors for stroke")).toBe(
      "The summary cites 2 randomized trials (n = 340), 3 cohort studies (n ≥ 1,250) and 2 case reports.",
    );
  });

  test("observational studies are 'other' only beside a cohort, case-control or cross-sectional study", () => {
    const two = [row(1, { design: "observational" }), row(2, { design: "observational" })];
    expect(synthesisSentence(two, "asthma")).toBe("The summary cites 2 observational studies.");
    expect(synthesisSentence([row(1, { design: "observational" }), row(2, { design: "case-control" })], "asthma")).toBe(
      "The summary cites 1 case-control study and 1 other observational study.",
    );
  });

  test("one design is named in the singular; studies without a design are counted last", () => {
    expect(synthesisSentence([row(1, { design: "meta-analysis", participants: 5400 }), row(2)], "asthma")).toBe(
      "The summary cites 1 meta-analysis (n = 5,400) and 1 study of unstated design.",
    );
  });

  test("nothing is said when no cited study has a design or stated participants", () => {
    expect(synthesisSentence([row(1), row(2)], "asthma treatment")).toBeNull();
    expect(synthesisSentence([], "asthma")).toBeNull();
  });
});

describe("which way the studies point", () => {
  const mixed = [
    row(1, { design: "rct", significance: "significant" }),
    row(2, { design: "rct", significance: "significant" }),
    row(3, { design: "cohort", significance: "not_significant" }),
    row(4, { design: "cohort", significance: "significant" }),
    row(5, { design: "cohort", significance: "significant" }),
    row(6, { design: "cohort", significance: "not_significant" }),
    row(7, { design: "case-report" }),
  ];

  const FOUR_OF_SIX =
    "4 of the 6 studies that compared groups found a statistically significant difference [1, 2, 4, 5]; " +
    "2 found none [3, 6].";

  test("a comparative topic where two thirds agree: counts each way with their citations", () => {
    expect(directionSentence(mixed, "surgery versus radiotherapy for prostate cancer")).toBe(FOUR_OF_SIX);
    expect(synthesisSentence(mixed, "surgery vs radiotherapy")).toBe(
      `The summary cites 2 randomized trials, 4 cohort studies and 1 case report. ${FOUR_OF_SIX}`,
    );
  });

  test("no difference dominating is said as such; all agreeing says all", () => {
    const flip = { significant: "not_significant", not_significant: "significant" } as const;
    const none = mixed.map((r) => ({ ...r, significance: r.significance === null ? null : flip[r.significance] }));
    expect(directionSentence(none, "treatment of asthma")).toBe(
      "4 of the 6 studies that compared groups found no statistically significant difference [1, 2, 4, 5]; " +
        "2 found one [3, 6].",
    );
    const all = [1, 2, 3].map((n) => row(n, { significance: "significant" }));
    expect(directionSentence(all, "efficacy of statins")).toBe(
      "All 3 studies that compared groups found a statistically significant difference [1, 2, 3].",
    );
  });

  test("silent for mixed evidence, too few comparisons, or a topic that is not comparative", () => {
    const ways = ["significant", "not_significant", "significant", "not_significant"] as const;
    const even = ways.map((significance, i) => row(i + 1, { significance }));
    expect(directionSentence(even, "drug A versus drug B")).toBeNull();
    expect(directionSentence(mixed.slice(0, 2), "drug A versus drug B")).toBeNull();
    expect(directionSentence(mixed, "prevalence of hepatitis B in Africa")).toBeNull();
    expect(synthesisSentence(mixed, "prevalence of hepatitis B in Africa")).toBe(
      "The summary cites 2 randomized trials, 4 cohort studies and 1 case report.",
    );
  });

  test("comparative topics: explicit comparisons and treatment questions", () => {
    const comparative = ["metformin vs insulin", "A versus B", "laparoscopic compared with open surgery"];
    for (const topic of [...comparative, "treatment of gout", "efficacy of zinc", "antibiotic therapy"]) {
      expect(isComparativeTopic(topic)).toBe(true);
    }
    const descriptive = ["risk factors for nasopharyngeal carcinoma", "vertebral osteomyelitis diagnosis"];
    for (const topic of [...descriptive, "genetics of autism"]) {
      expect(isComparativeTopic(topic)).toBe(false);
    }
  });
});

describe("the opening paragraph", () => {
  test("is a bold-labelled paragraph the page reads as text and citations", () => {
    const rows = [
      row(1, { design: "rct", participants: 340, significance: "significant" }),
      row(2, { significance: "significant" }),
      row(3, { significance: "not_significant" }),
    ];
    const population = "All 3 cited studies are in children or adolescents.";
    const text = evidenceParagraph(synthesisSentence(rows, "A versus B"), population);
    expect(text).toBe(
      "**The evidence.** The summary cites 1 randomized trial (n = 340) and 2 studies of unstated design. " +
        "2 of the 3 studies that compared groups found a statistically significant difference [1, 2]; " +
        "1 found none [3]. " +
        "All 3 cited studies are in children or adolescents.",
    );
    const [block] = parseSummary(`${text}\n\n**Overview.** Quoted [1].`);
    expect(block?.kind).toBe("paragraph");
    const inlines = block?.kind === "paragraph" ? block.inlines : [];
    expect(inlines[0]).toEqual({ kind: "text", text: "The evidence.", bold: true });
    // "(n = 340)" stays text; only bracketed lists of numbers are citations.
    const cites = inlines.flatMap((i) => (i.kind === "cite" ? [i.numbers] : []));
    expect(cites).toEqual([[1, 2], [3]]);
  });

  test("is absent when there is nothing to say", () => {
    expect(evidenceParagraph(null, null)).toBeNull();
    expect(evidenceParagraph(null, "Both cited studies are animal studies.")).toBe(
      "**The evidence.** Both cited studies are animal studies.",
    );
  });
});
