import { describe, expect, test } from "bun:test";
import { MAX_BOXES, TIER_MAX_LEVEL, TIER_MIN_LEVEL, tierBoxes, tierLevel, tierToken } from "./tiers.ts";

/** The lowest level a box allows each lexeme (undefined: the lexeme is not required). */
function lowest(box: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const m of box.matchAll(/'([a-z]+) (\d+)'/g)) out.set(m[1]!, Math.min(out.get(m[1]!) ?? Infinity, Number(m[2])));
  return out;
}

describe("impact tier boxes", () => {
  const cancer = { lexeme: "cancer", weight: 1.3, floor: 2.01, share: 0.2 };
  const treatment = { lexeme: "treatment", weight: 1.2, floor: 1.97, share: 0.35 };

  test("the first box holds both words just under their lists' floors, and later boxes reach lower", () => {
    const boxes = tierBoxes([cancer, treatment]);
    expect(boxes.length).toBeGreaterThan(2);
    expect(boxes.length).toBeLessThanOrEqual(MAX_BOXES);
    expect(lowest(boxes[0]!)).toEqual(
      new Map([
        ["cancer", tierLevel(2.01)],
        ["treatment", tierLevel(1.97)],
      ]),
    );
    // Every box is a conjunction of each word's levels from its lowest up to the top.
    expect(boxes[0]).toContain(`'${tierToken("cancer", TIER_MAX_LEVEL)}'`);
    for (let i = 1; i < boxes.length; i++) {
      const prev = lowest(boxes[i - 1]!);
      const cur = lowest(boxes[i]!);
      expect(cur.get("cancer")!).toBeLessThanOrEqual(prev.get("cancer")!);
      expect(cur.get("treatment")!).toBeLessThan(prev.get("treatment")! + 1);
    }
    expect(Math.min(...boxes.map((b) => lowest(b).get("cancer")!))).toBeGreaterThanOrEqual(TIER_MIN_LEVEL);
  });

  test("with three words, a box may leave out one word, after the boxes that hold all three well", () => {
    const boxes = tierBoxes([cancer, treatment, { lexeme: "patient", weight: 0.8, floor: 2.02, share: 0.56 }]);
    expect(lowest(boxes[0]!).size).toBe(3);
    const partial = boxes.findIndex((b) => lowest(b).size === 2);
    expect(partial).toBeGreaterThan(0);
    expect(new Set(boxes).size).toBe(boxes.length);
  });

  test("one word, or more than four, has no boxes", () => {
    expect(tierBoxes([cancer])).toEqual([]);
    expect(tierBoxes(["a", "b", "c", "d", "e"].map((lexeme) => ({ lexeme, weight: 1, floor: 2, share: 0.1 })))).toEqual(
      [],
    );
  });
});
