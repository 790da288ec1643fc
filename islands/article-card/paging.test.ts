import { describe, expect, test } from "bun:test";
import { clampPage, pageCount, pageSlice, skipFor } from "./paging.ts";

describe("paging", () => {
  test("counts pages of six, with one page for an empty list", () => {
    expect(pageCount(0, 6)).toBe(1);
    expect(pageCount(6, 6)).toBe(1);
    expect(pageCount(7, 6)).toBe(2);
    expect(pageCount(13, 6)).toBe(3);
  });

  test("shows the right six articles on each page, and fewer on the last", () => {
    const items = Array.from({ length: 13 }, (_, i) => i + 1);
    expect(pageSlice(items, 0, 6)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(pageSlice(items, 1, 6)).toEqual([7, 8, 9, 10, 11, 12]);
    expect(pageSlice(items, 2, 6)).toEqual([13]);
  });

  test("a page past the end shows the last page instead of nothing", () => {
    expect(pageSlice([1, 2, 3], 5, 2)).toEqual([3]);
    expect(clampPage(9, 3)).toBe(2);
    expect(clampPage(-1, 3)).toBe(0);
    expect(clampPage(Number.NaN, 3)).toBe(0);
  });

  test("asks the server to skip whole pages", () => {
    expect(skipFor(0, 6)).toBe(0);
    expect(skipFor(2, 6)).toBe(12);
  });
});
