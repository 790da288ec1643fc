import { describe, expect, test } from "bun:test";
import { TOAST_GAP, toastPlacement, type Box } from "./toast-placement.ts";

// A 1366 × 768 window with the stack's 360 px at the end side, 64 px down, 150 px tall.
const STACK = { left: 990, right: 1350, height: 150 };
const VIEW = 768;
const TOP = 64;
const box = (top: number, bottom: number, left = 1000, right = 1300): Box => ({ top, bottom, left, right });

describe("toastPlacement", () => {
  test("nothing in the way: the top-end corner", () => {
    expect(toastPlacement(STACK, [], VIEW, TOP)).toEqual({ top: TOP });
  });

  test("an element to the start side or scrolled out of view is not in the way", () => {
    const away = [box(100, 140, 20, 400), box(-300, -10), box(800, 900)];
    expect(toastPlacement(STACK, away, VIEW, TOP)).toEqual({ top: TOP });
  });

  test("the query bubble under the corner: the stack moves just below it", () => {
    expect(toastPlacement(STACK, [box(120, 170)], VIEW, TOP)).toEqual({ top: 170 + TOAST_GAP });
  });

  test("two elements one under the other: below both, even when the first step lands on the second", () => {
    expect(toastPlacement(STACK, [box(100, 140), box(200, 260)], VIEW, TOP)).toEqual({ top: 260 + TOAST_GAP });
  });

  test("a gap tall enough between two elements is used", () => {
    expect(toastPlacement(STACK, [box(60, 100), box(400, 440)], VIEW, TOP)).toEqual({ top: 100 + TOAST_GAP });
  });

  test("no room below: the product's corner", () => {
    expect(toastPlacement(STACK, [box(80, 650)], VIEW, TOP)).toEqual({ top: TOP });
  });

  test("on a 390 px phone the stack spans the width, so any element at its height is in the way", () => {
    const phone = { left: 16, right: 374, height: 120 };
    expect(toastPlacement(phone, [box(90, 130, 200, 370)], 844, 64)).toEqual({ top: 130 + TOAST_GAP });
  });
});
