import { describe, expect, test } from "bun:test";
import { chooseSections, inLastWeek, matchReason, newSince, type CandidateArticle } from "./sections.ts";
import { normaliseTerm, weeklySearchKey, weeklyTerms, weekWindow } from "./pubmed-new.ts";
import { buildProfile } from "./profile.ts";
import { orderSectionByCitations } from "./service.ts";
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
  test("new this week reads the Entrez date, and the publication date only for a record without one", () => {
    const at = (pmid: number, publication_date: string | null, entrez_date: string | null): CandidateArticle => ({
      pmid,
      title: `A${pmid}`,
      publication_date,
      entrez_date,
      publication_year: Number((publication_date ?? "2026").slice(0, 4)),
      mesh_terms: [],
    });
    const articles = new Map(
      [
        at(1, "2026-11-20", "2026-10-01"), // issue dated this week, entered PubMed in October: not new
        at(2, "2027-01-01", "2026-11-22"), // entered this week, next year's issue: new
        at(3, "2026-11-19", null), // no Entrez date: its publication date decides
        at(4, "2026-03-01", "2026-11-25"), // an Entrez date after the reference day: not yet
      ].map((a) => [a.pmid, a]),
    );
    expect(newSince(articles.get(3)!)).toBe("2026-11-19");
    const source = { kind: "interest" as const, label: "x", text: "x", weight: 1 };
    const recent = [1, 2, 3, 4].map((pmid, i) => ({ pmid, score: 1 / (i + 1), best: source }));
    const sections = chooseSections(
      { anyDate: [], recent },
      articles,
      { stats: new Map(), earliestYear: null, cdIndexes: new Map() },
      now,
    );
    expect(sections.new_weekly_articles.map((e) => e.pmid)).toEqual([2, 3]);
    expect(sections.new_yearly_articles.map((e) => e.pmid)).toEqual([1, 4]);
  });
  test("PubMed's weekly question: the window of new this week as esearch dates; one key per interest and week", () => {
    expect(weekWindow(now)).toEqual({ mindate: "2026/11/18", maxdate: "2026/11/24" });
    expect(weekWindow(new Date("2027-01-02T23:59:00Z"))).toEqual({ mindate: "2026/12/27", maxdate: "2027/01/02" });
    expect(normaliseTerm("  Asthma   in Children ")).toBe("asthma in children");
    // PubMed's syntax keeps its case: "AND" is an operator, "and" a word.
    expect(normaliseTerm("asthma AND  children[mh]")).toBe("asthma AND children[mh]");
    expect(weeklySearchKey("2026-W48", "Asthma in children")).toBe(weeklySearchKey("2026-W48", "asthma  in children"));
    expect(weeklySearchKey("2026-W48", "asthma")).not.toBe(weeklySearchKey("2026-W49", "asthma"));
    // Interests only, as written; likes are not sent.
    const like = { pmid: 1, title: "A liked title", mesh_terms: ["Asthma"], keywords: [], liked_at: now };
    expect(weeklyTerms(buildProfile("Sepsis in  adults, sepsis in adults, asthma", [like], now))).toEqual([
      "Sepsis in adults",
      "asthma",
    ]);
  });
  test("why-lines name the interest or the liked title, cut when long", () => {
    expect(matchReason({ kind: "interest", label: "sepsis", text: "sepsis", weight: 1 })).toBe(
      'Matches your interest "sepsis"',
    );
    const long = "A".repeat(120);
    expect(matchReason({ kind: "like", label: long, text: long, weight: 1 })).toBe(
      `Similar to "${"A".repeat(89)}…", which you liked`,
    );
    expect(matchReason({ kind: "likes", label: "x", text: "x", weight: 1 })).toBe("Similar to the articles you liked");
  });
  test("a section's summary starts at [1]: its articles are listed cited first, in order of first use", () => {
    // The summarizer cited 30 first, then 10 and 20; the section ranked 10, 20, 30, 40.
    const entries = [{ pmid: 10 }, { pmid: 20 }, { pmid: 30 }, { pmid: 40 }];
    const ordered = orderSectionByCitations("A [1]. B [2, 3].", [30, 10, 20], entries);
    expect(ordered.summary).toBe("A [1]. B [2, 3].");
    expect(ordered.entries.map((e) => e.pmid)).toEqual([30, 10, 20, 40]);
    // The same article cited after another one it was numbered before: renumbered by first use.
    const late = orderSectionByCitations("A [2]. B [1, 2].", [10, 20], entries);
    expect(late.summary).toBe("A [1]. B [1, 2].");
    expect(late.entries.map((e) => e.pmid)).toEqual([20, 10, 30, 40]);
  });
  test("MeSH novelty: the youngest qualifying heading, young enough, not left-censored, carried by 3+ articles", () => {
    const stats = new Map([
      ["Old", { firstYear: 2001, df: 50 }],
      ["New", { firstYear: 2019, df: 4 }],
      ["Rare", { firstYear: 2020, df: 1 }],
    ]);
    expect(noveltyOf({ publication_year: 2020, mesh_terms: ["Old", "New", "Rare"] }, stats, 2000)).toEqual({
      heading: "New",
      firstYear: 2019,
      ageYears: 1,
    });
    expect(noveltyOf({ publication_year: 2023, mesh_terms: ["New"] }, stats, 2000)).toBeNull(); // 4 years old by then
    expect(noveltyOf({ publication_year: 2002, mesh_terms: ["Old"] }, stats, 2000)).toBeNull(); // left-censored
    expect(noveltyOf({ publication_year: null, mesh_terms: ["New"] }, stats, 2000)).toBeNull();
  });
});
