import { describe, expect, test } from "bun:test";
import { dashboardPageSize } from "./page-size.ts";

describe("dashboard page size (docs/product.md §9: 5, 7 or 10 by screen size)", () => {
  test.each([
    [320, 5],
    [375, 5],
    [479, 5],
    [480, 7],
    [700, 7],
    [767, 7],
    [768, 10],
    [1280, 10],
  ] as [number, number][])("%i px wide: %i per page", (width: number, size: number) => {
    expect<number>(dashboardPageSize(width)).toBe(size);
  });
});
