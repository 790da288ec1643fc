import { describe, expect, test } from "bun:test";
import { markPassages } from "./highlight.ts";

describe("passages marked in an abstract", () => {
  test("found across line breaks and double spaces; the rest unmarked", () => {
    const text = "METHODS: We enrolled 61\npatients.  RESULTS: Pain fell from 7 to 2.";
    expect(markPassages(text, ["We enrolled 61 patients."])).toEqual([
      { text: "METHODS: ", marked: false },
      { text: "We enrolled 61\npatients.", marked: true },
      { text: "  RESULTS: Pain fell from 7 to 2.", marked: false },
    ]);
  });

  test("overlapping passages merge; a passage not in the text marks nothing", () => {
    const runs = markPassages("A b c d e.", ["A b c", "c d", "not there", null]);
    expect(runs).toEqual([
      { text: "A b c d", marked: true },
      { text: " e.", marked: false },
    ]);
  });

  test("regular-expression characters in a passage are text", () => {
    expect(markPassages("OR 2.1 (95% CI 1.2-2.9) [n=3]", ["(95% CI 1.2-2.9) [n=3]"])[1]).toEqual({
      text: "(95% CI 1.2-2.9) [n=3]",
      marked: true,
    });
  });
});

test("a number is marked wherever it stands alone, not inside another number", () => {
  const runs = markPassages("26 surgery and 29 conservative; 126 others; 26.5 mm", ["26", "29"]);
  expect(runs.filter((r) => r.marked).map((r) => r.text)).toEqual(["26", "29"]);
});
