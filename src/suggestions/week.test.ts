import { describe, expect, test } from "bun:test";
import { isIsoWeek, isoWeek } from "./week.ts";

describe("ISO 8601 weeks", () => {
  test.each([
    ["2026-11-24T10:00:00Z", "2026-W48"],
    ["2026-01-01T00:00:00Z", "2026-W01"], // a Thursday
    ["2027-01-01T00:00:00Z", "2026-W53"], // a Friday: still the last week of 2026
    ["2024-12-30T00:00:00Z", "2025-W01"], // a Monday that starts 2025's first week
    ["2021-01-03T23:59:59Z", "2020-W53"], // a Sunday
  ])("%s is %s", (iso, week) => {
    expect(isoWeek(new Date(iso))).toBe(week);
    expect(isIsoWeek(week)).toBe(true);
  });
  test("malformed weeks are refused", () => {
    for (const w of ["2026-W00", "2026-W54", "2026-48", "26-W01"]) expect(isIsoWeek(w)).toBe(false);
  });
});
