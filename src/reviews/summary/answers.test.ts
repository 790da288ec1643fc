/**
 * Quotes that answer the question (issue 37 items 3 and 5), on real records of the sample (sample/pubmed, read with
 * the project's parser): boilerplate is never quoted, a sentence with numbers is cited to the one study that gives
 * them, and a recommendation comes with its abstract's own stated limitation.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { loadArticles } from "../../../scripts/evidence/data.ts";
import { citedNumbers } from "../citation-grammar.ts";
import { summarizeExtractive } from "./extractive.ts";
import type { SummaryArticle } from "./types.ts";

let records: Map<number, SummaryArticle>;
const record = (pmid: number) => records.get(pmid) as SummaryArticle;
beforeAll(async () => {
  records = await loadArticles([27587527, 19836957, 25692364, 26583469, 21198404]);
});

describe("key findings that answer the topic", () => {
  test("a citation line is never quoted (PMID 27587527: 'Cite this article: Bone Joint J 2016;98-B:1240-47.')", () => {
    const { summary } = summarizeExtractive("magnetically controlled growing rods early-onset scoliosis", [
      record(27587527),
    ]);
    expect(summary).not.toBeNull();
    expect(summary).not.toContain("Cite this article");
  });

  test("a claim of novelty is never quoted (PMID 19836957: 'To our knowledge this is the first reported series …')", () => {
    const { summary } = summarizeExtractive("hyperbaric oxygen spinal tuberculosis", [record(19836957)]);
    expect(summary).not.toContain("To our knowledge");
  });

  test("a sentence with numbers cites only the study that states them (PMIDs 25692364: r = 0.20; 26583469: r = 0.495)", () => {
    const { summary, citedPmids } = summarizeExtractive(
      "cervical sagittal alignment neck disability posterior fusion",
      [record(25692364), record(26583469)],
    );
    const text = summary ?? "";
    for (const sentence of text.split(/(?<=\]\.)\s+/u)) {
      const numbers = citedNumbers(sentence);
      if (/r = 0\.20\b/u.test(sentence)) expect(numbers.map((n) => citedPmids[n - 1])).toEqual([25692364]);
      if (/r = 0\.495\b/u.test(sentence)) expect(numbers.map((n) => citedPmids[n - 1])).toEqual([26583469]);
    }
  });

  test("a quoted recommendation carries its abstract's stated limitation (PMID 21198404, bracing for AIS)", () => {
    const { summary } = summarizeExtractive("bracing for adolescent idiopathic scoliosis", [record(21198404)]);
    expect(summary).toContain("bracing can be recommended for the treatment of AIS");
    expect(summary).toContain(
      "The same abstract states a limitation: “The results from the systematic review are difficult to interpret” [1].",
    );
  });
});
