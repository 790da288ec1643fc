import { describe, expect, test } from "bun:test";
import { inLastWeek, matchReason } from "./sections.ts";
import { renumberCitations } from "./service.ts";
import { noveltyOf } from "./disruption.ts";

describe("section rules", () => {
  const now = new Date("2026-11-24T10:00:00Z");
  test("new this week: the 7 days up to today, inclusive of today", () => {
    expect(inLastWeek("2026-11-24", now)).toBe(true);
    expect(inLastWeek("2026-11-18", now)).toBe(true);
    expect(inLastWeek("2026-11-17", now)).toBe(false);
    expect(inLastWeek("2026-11-25", now)).toBe(false); // a future date (a journal's issue date) is not "new"
    expect(inLastWeek(null, now)).toBe(false);
  });
  test("why-lines name the interest or the liked title, cut when long", () => {
    expect(matchReason({ kind: "interest", label: "sepsis", text: "sepsis", weight: 1 })).toBe('Matches your interest "sepsis"');
    const long = "A".repeat(120);
    expect(matchReason({ kind: "like", label: long, text: long, weight: 1 })).toBe(`Similar to "${"A".repeat(89)}…", which you liked`);
    expect(matchReason({ kind: "likes", label: "x", text: "x", weight: 1 })).toBe("Similar to the articles you liked");
  });
  test("citations are renumbered to the section's order; unknown numbers are left as they are", () => {
    expect(renumberCitations("A [1]. B [2, 3]. C [9].", [30, 10, 20], [10, 20, 30])).toBe("A [3]. B [1, 2]. C [9].");
  });
  test("MeSH novelty: the youngest qualifying heading, young enough, not left-censored, carried by 3+ articles", () => {
    const stats = new Map([
      ["Old", { firstYear: 2001, df: 50 }],
      ["New", { firstYear: 2019, df: 4 }],
      ["Rare", { firstYear: 2020, df: 1 }],
    ]);
    expect(noveltyOf({ publication_year: 2020, mesh_terms: ["Old", "New", "Rare"] }, stats, 2000)).toEqual({ heading: "New", firstYear: 2019, ageYears: 1 });
    expect(noveltyOf({ publication_year: 2023, mesh_terms: ["New"] }, stats, 2000)).toBeNull(); // 4 years old by then
    expect(noveltyOf({ publication_year: 2002, mesh_terms: ["Old"] }, stats, 2000)).toBeNull(); // left-censored
    expect(noveltyOf({ publication_year: null, mesh_terms: ["New"] }, stats, 2000)).toBeNull();
  });
});
