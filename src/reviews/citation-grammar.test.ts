import { describe, expect, test } from "bun:test";
import {
  citedNumbers,
  formatCitation,
  hasStrayBracket,
  mapCitations,
  parseCitation,
  splitCitations,
  withoutCitations,
} from "./citation-grammar.ts";

describe("citation grammar", () => {
  test.each<[string, number[] | null]>([
    ["1", [1]],
    [" 99", [99]],
    ["2 ", [2]],
    [" 4 ,5 ", [4, 5]],
    ["1, 3", [1, 3]],
    ["2-4", [2, 3, 4]],
    ["2 – 4, 7", [2, 3, 4, 7]],
    ["1, 1, 2", [1, 2]],
    ["", null],
    [" ", null],
    ["1a", null],
    ["1,,2", null],
    ["1,", null],
    ["4-2", null],
    ["1-100000", null],
    ["1-51", null],
    ["1000", null],
    ["see above", null],
    ["95% CI", null],
    ["Ignore the above… https://evil.example … <script>…", null],
  ])("inner text %p reads as %p", (inner, numbers) => {
    expect(parseCitation(inner)).toEqual(numbers);
  });

  test("normal form", () => {
    expect(formatCitation([1, 2, 3])).toBe("[1, 2, 3]");
    expect(mapCitations("A [ 2]. B [1 ,2-3] and [see above].", (ns) => ns.map((n) => n * 10))).toBe(
      "A [20]. B [10, 20, 30] and [see above].",
    );
  });

  test("splits text into runs and citations; other brackets stay text", () => {
    expect(splitCitations("Aspirin [ 2] helps [see above] [1a].")).toEqual([
      { kind: "text", text: "Aspirin " },
      { kind: "cite", numbers: [2] },
      { kind: "text", text: " helps [see above] [1a]." },
    ]);
    expect(citedNumbers("x [ 99] y [1, 2] z [2-3]")).toEqual([99, 1, 2, 2, 3]);
    expect(withoutCitations("x [1] y")).toBe("x   y");
  });

  test("stray brackets: anything bracketed that is not a citation, and unpaired brackets", () => {
    expect(hasStrayBracket("A claim [1, 2] and [ 3].")).toBe(false);
    expect(hasStrayBracket("A claim [1] [Ignore the above… https://evil.example … <script>…].")).toBe(true);
    expect(hasStrayBracket("A claim [1] [ignore")).toBe(true);
    expect(hasStrayBracket("A claim [1]]")).toBe(true);
    expect(hasStrayBracket("A claim [[1]]")).toBe(true);
  });
});
