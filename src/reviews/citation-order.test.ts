import { describe, expect, test } from "bun:test";
import { inFirstUseOrder, renumberByFirstUse } from "./citation-order.ts";

describe("citation numbers in order of first use", () => {
  test("an opening that cites [3, 4, 7] before [1] is renumbered: [1] is the first article cited", () => {
    const text =
      "**The evidence.** 3 of the 4 studies found one [3, 4, 7].\n\n**Overview.** A [1]. B [2]. C [3]. D [5, 6].";
    const pmids = [101, 102, 103, 104, 105, 106, 107];
    const r = renumberByFirstUse(text, pmids);
    expect(r.text).toBe(
      "**The evidence.** 3 of the 4 studies found one [1, 2, 3].\n\n**Overview.** A [4]. B [5]. C [1]. D [6, 7].",
    );
    expect(r.pmids).toEqual([103, 104, 107, 101, 102, 105, 106]);
    expect(inFirstUseOrder(r.text)).toBe(true);
    expect(inFirstUseOrder(text)).toBe(false);
  });

  test("a text already in order is unchanged; an uncited PMID keeps its place after the cited", () => {
    expect(renumberByFirstUse("A [1]. B [1, 2].", [5, 6, 7])).toEqual({
      text: "A [1]. B [1, 2].",
      pmids: [5, 6, 7],
      mapping: new Map([
        [1, 1],
        [2, 2],
        [3, 3],
      ]),
    });
  });

  test("a number with no PMID is a bug, not a citation to keep", () => {
    expect(() => renumberByFirstUse("A [4].", [1, 2])).toThrow("summary cites [4]");
  });
});
