import { describe, expect, test } from "bun:test";
import {
  bm25Idf,
  bm25TermScore,
  minimalSetsQuery,
  parseQuery,
  planCandidates,
  queryTermWeight,
  tsqueryLexeme,
  tsqueryOf,
  type WeightedTerm,
} from "./query.ts";

describe("parseQuery", () => {
  test("free text, phrases and exclusions, in order", () => {
    expect(parseQuery('statins "heart failure" elderly -aspirin -"case report"')).toEqual([
      { kind: "free", text: "statins" },
      { kind: "phrase", text: "heart failure" },
      { kind: "free", text: "elderly" },
      { kind: "exclude", text: "aspirin" },
      { kind: "exclude", text: "case report" },
    ]);
  });

  test("hyphens inside words, dashes and numbers are plain text", () => {
    expect(parseQuery("non-small-cell COVID-19 IL-6 - a dash")).toEqual([{ kind: "free", text: "non-small-cell COVID-19 IL-6 - a dash" }]);
  });

  test("curly quotes count; an unclosed quote runs to the end; empty quotes vanish", () => {
    expect(parseQuery("\u201Cheart failure\u201D")).toEqual([{ kind: "phrase", text: "heart failure" }]);
    expect(parseQuery('renal "acute kidney')).toEqual([
      { kind: "free", text: "renal" },
      { kind: "phrase", text: "acute kidney" },
    ]);
    expect(parseQuery('"" ""')).toEqual([]);
    expect(parseQuery("   ")).toEqual([]);
  });

  test("input is cut at the length limit", () => {
    expect(parseQuery("a".repeat(50), 10)).toEqual([{ kind: "free", text: "a".repeat(10) }]);
  });
});

describe("tsquery text", () => {
  test("lexemes are quoted so that operators and quotes inside them are literal", () => {
    expect(tsqueryLexeme("it's")).toBe("'it''s'");
    expect(tsqueryLexeme("a\\b")).toBe("'a\\\\b'");
    expect(tsqueryOf(["a", "b&c"], "|")).toBe("'a' | 'b&c'");
    expect(() => tsqueryOf([], "&")).toThrow();
  });
});

describe("BM25", () => {
  test("idf falls with document frequency and never goes negative", () => {
    expect(bm25Idf(1000, 1)).toBeGreaterThan(bm25Idf(1000, 10));
    expect(bm25Idf(1000, 10)).toBeGreaterThan(bm25Idf(1000, 900));
    expect(bm25Idf(1000, 1000)).toBeGreaterThan(0);
  });

  test("term frequency saturates and long documents are normalised", () => {
    const s = (tf: number, dl = 100) => bm25TermScore(2, 1, tf, dl, 100);
    expect(s(0)).toBe(0);
    expect(s(2) - s(1)).toBeGreaterThan(s(10) - s(9));
    expect(s(50)).toBeLessThan(2 * 2.2);
    expect(s(1, 50)).toBeGreaterThan(s(1, 200));
  });

  test("query-term weight is 1 for a single occurrence and grows sublinearly", () => {
    expect(queryTermWeight(1)).toBe(1);
    expect(queryTermWeight(4)).toBeGreaterThan(queryTermWeight(2));
    expect(queryTermWeight(4)).toBeLessThan(4);
  });
});

describe("candidate plan", () => {
  const t = (lexeme: string, df: number, weight: number): WeightedTerm => ({ lexeme, df, weight });

  test("when every match fits in the budget, one complete branch", () => {
    const plan = planCandidates([t("a", 10, 3), t("b", 20, 2)], { documents: 1000, budget: 100 });
    expect(plan).toEqual({ complete: true, branches: [{ field: "document", query: "'a' | 'b'" }] });
  });

  test("otherwise bounded branches, from all terms in the title down to any term anywhere", () => {
    const terms = [t("smoke", 900, 4), t("lung", 3000, 3), t("cancer", 8000, 2), t("patient", 400_000, 0.5)];
    const plan = planCandidates(terms, { documents: 1_000_000, budget: 2000 });
    expect(plan.complete).toBe(false);
    expect(plan.branches[0]).toEqual({ field: "title", query: "'smoke' & 'lung' & 'cancer' & 'patient'" });
    expect(plan.branches.at(-1)).toEqual({ field: "document", query: "'smoke' | 'lung' | 'cancer' | 'patient'" });
    // The very common term is drawn only through the title vector.
    const documentBranches = plan.branches.filter((b) => b.field === "document").slice(0, -1);
    expect(documentBranches.length).toBeGreaterThan(1);
    for (const b of documentBranches) expect(b.query).not.toContain("patient");
    expect(plan.branches).toContainEqual({ field: "title", query: "'patient'" });
  });

  test("phrases are drawn right after the title branch", () => {
    const plan = planCandidates([t("heart", 5000, 2), t("failur", 4000, 2)], {
      documents: 100_000,
      budget: 1000,
      phrases: ["'heart' <-> 'failur'"],
    });
    expect(plan.branches[1]).toEqual({ field: "document", query: "('heart' <-> 'failur')" });
  });

  test("minimal sets reach the weight threshold and drop nothing they need", () => {
    const terms = [t("a", 1, 3), t("b", 1, 2), t("c", 1, 1)];
    expect(minimalSetsQuery(terms, 6)).toBe("('a' & 'b' & 'c')");
    expect(minimalSetsQuery(terms, 4)).toBe("('a' & 'b') | ('a' & 'c')");
    expect(minimalSetsQuery(terms, 3)).toBe("'a' | ('b' & 'c')");
  });
});
