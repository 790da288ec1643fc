import { describe, expect, test } from "bun:test";
import { placePreview } from "./preview-position.ts";

const viewport = { width: 1280, height: 800 };

describe("placePreview", () => {
  test("opens under the reference number when there is room", () => {
    expect(placePreview({ left: 100, top: 200, bottom: 220 }, viewport)).toEqual({ left: 100, top: 226 });
  });

  test("opens above a number near the bottom of the window", () => {
    expect(placePreview({ left: 100, top: 760, bottom: 780 }, viewport)).toEqual({ left: 100, bottom: 46 });
  });

  test("stays inside the window next to its right edge", () => {
    expect(placePreview({ left: 1250, top: 200, bottom: 220 }, viewport).left).toBe(1280 - 340 - 8);
  });

  test("fits a narrow phone screen", () => {
    expect(placePreview({ left: 300, top: 100, bottom: 120 }, { width: 320, height: 640 }).left).toBe(8);
  });
});
