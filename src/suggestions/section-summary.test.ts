import { describe, expect, test } from "bun:test";
import { asParagraph, paragraphLabel, withoutArticles, withoutCitations } from "./section-summary.ts";

const SUMMARY = [
  "**Overview.** Early antibiotics lowered mortality [1]. Lactate clearance predicted survival [2, 3].",
  "**Key findings**\n- Procalcitonin shortened antibiotic courses [3]. The same abstract states a limitation: “small sample” [3].\n- Vasopressors within an hour helped [4].",
  "**Case reports.** Case reports describe: Sepsis after a tattoo [5]; Sepsis in a marathon runner [6].",
].join("\n\n");

describe("a section's summary without some of its articles", () => {
  test("a sentence quoting only a removed article goes; one citing others keeps them, renumbered", () => {
    const entries = [1, 2, 3, 4, 5, 6].map((pmid) => ({ pmid: pmid * 10 }));
    const { summary, entries: kept } = withoutArticles(SUMMARY, entries, new Set([20, 30]));
    expect(kept.map((e) => e.pmid)).toEqual([10, 40, 50, 60]);
    expect(summary).toBe(
      [
        "**Overview.** Early antibiotics lowered mortality [1].",
        "**Key findings**\n- Vasopressors within an hour helped [2].",
        "**Case reports.** Case reports describe: Sepsis after a tattoo [3]; Sepsis in a marathon runner [4].",
      ].join("\n\n"),
    );
  });
  test("a heading with nothing left under it goes; a case-report line keeps its other reports, in the singular", () => {
    const renumber = (n: number) => (n === 4 || n === 6 ? null : n);
    expect(withoutCitations(SUMMARY, (n) => (n === 3 ? null : renumber(n)))).toBe(
      [
        "**Overview.** Early antibiotics lowered mortality [1]. Lactate clearance predicted survival [2].",
        "**Case reports.** A case report describes: Sepsis after a tattoo [5].",
      ].join("\n\n"),
    );
  });
  test("nothing cited left: null; nothing removed: the summary as it was", () => {
    expect(withoutCitations("**Overview.** Only one finding [1].", () => null)).toBeNull();
    const entries = [{ pmid: 1 }];
    expect(withoutArticles("A finding [1].", entries, new Set([2]))).toEqual({
      summary: "A finding [1].",
      entries,
    });
    expect(withoutArticles(null, entries, new Set([1]))).toEqual({ summary: null, entries: [] });
  });
  test("a citation of a removed article inside a kept sentence goes with the space before it", () => {
    expect(withoutCitations("Mortality fell [1] and stays lower at a year [2].", (n) => (n === 1 ? null : 1))).toBe(
      "Mortality fell and stays lower at a year [1].",
    );
  });
});

describe("a summary as one paragraph", () => {
  test("labels, headings and bullets dropped, the sentences in the summary's order, at most as many as asked", () => {
    expect(asParagraph(SUMMARY, 10)).toBe(
      "Early antibiotics lowered mortality [1]. Lactate clearance predicted survival [2, 3]. Procalcitonin shortened antibiotic courses [3]. The same abstract states a limitation: “small sample” [3]. Vasopressors within an hour helped [4]. Case reports describe: Sepsis after a tattoo [5]; Sepsis in a marathon runner [6].",
    );
    expect(asParagraph(SUMMARY, 2)).toBe(
      "Early antibiotics lowered mortality [1]. Lactate clearance predicted survival [2, 3].",
    );
  });
  test("a label is bold and cannot read as a citation", () => {
    expect(paragraphLabel('Similar to "Outcomes [12] of **sepsis**", which you liked')).toBe(
      '**Similar to "Outcomes (12) of sepsis", which you liked.**',
    );
  });
});
