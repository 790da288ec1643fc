import { describe, expect, test } from "bun:test";
import {
  MAX_SCANNED_ROWS,
  bm25Idf,
  bm25TermScore,
  minimalSets,
  parseQuery,
  planCandidates,
  queryTermWeight,
  tsqueryLexeme,
  setsQuery,
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
    expect(parseQuery("non-small-cell COVID-19 IL-6 - a dash")).toEqual([
      { kind: "free", text: "non-small-cell COVID-19 IL-6 - a dash" },
    ]);
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
  const t = (lexeme: string, df: number, weight: number, titleDf = Math.round(df / 4)): WeightedTerm => ({
    lexeme,
    df,
    titleDf,
    weight,
  });
  const N = 1_000_000;

  test("when every match fits in the budget, one complete branch", () => {
    const plan = planCandidates([t("a", 10, 3), t("b", 20, 2)], { documents: 1000, budget: 100, target: 50 });
    expect(plan).toEqual({ complete: true, branches: [{ field: "document", query: "'a' | 'b'", access: "index" }] });
  });

  test("otherwise branches go from all terms in the title down to any term anywhere", () => {
    const terms = [t("smoke", 9000, 4), t("lung", 30000, 3), t("cancer", 80000, 2), t("patient", 400_000, 0.5)];
    const plan = planCandidates(terms, { documents: N, budget: 2000, target: 1000 });
    expect(plan.complete).toBe(false);
    const all = "'smoke' & 'lung' & 'cancer' & 'patient'";
    expect(plan.branches[0]).toMatchObject({ field: "title", query: all });
    expect(plan.branches[1]).toMatchObject({ field: "document", query: all });
    expect(plan.branches.at(-2)).toMatchObject({ field: "title", query: "'smoke' | 'lung' | 'cancer' | 'patient'" });
    expect(plan.branches.at(-1)).toMatchObject({ field: "document", query: "'smoke' | 'lung' | 'cancer' | 'patient'" });
    // Coordination levels in between, without the term whose posting list is too long to read repeatedly.
    const levels = plan.branches.slice(2, -2);
    expect(levels.length).toBeGreaterThan(0);
    for (const b of levels) {
      expect(b.field).toBe("document");
      expect(b.query).not.toContain("patient");
    }
  });

  test("dense disjunctions scan the newest rows; sparse ones use the index", () => {
    const dense = planCandidates([t("patient", 500_000, 1, 120_000)], { documents: N, budget: 2000, target: 1000 });
    expect(dense.branches.at(-1)).toEqual({ field: "document", query: "'patient'", access: "scan" });
    expect(dense.branches.at(-2)).toEqual({ field: "title", query: "'patient'", access: "scan" });
    // At 1% density a scan would stop at MAX_SCANNED_ROWS having found a tenth of the target.
    const sparse = planCandidates([t("sepsi", 10_000, 5, 3_000)], { documents: N, budget: 2000, target: 1000 });
    expect((1000 * N) / 10_000).toBeGreaterThan(MAX_SCANNED_ROWS);
    expect(sparse.branches.at(-1)?.access).toBe("index-first");
    // Few possible matches: all are fetched and the newest kept.
    const few = planCandidates([t("a", 500, 5, 100), t("b", 900, 4, 200)], {
      documents: N,
      budget: 1000,
      target: 1000,
    });
    expect(few.complete).toBe(false);
    expect(few.branches.every((b) => b.access === "index")).toBe(true);
  });

  test("a conjunction of frequent terms is scanned rather than intersected", () => {
    const terms = [
      t("clinic", 290_000, 1.2, 40_000),
      t("result", 470_000, 0.8, 20_000),
      t("studi", 580_000, 0.6, 220_000),
    ];
    const plan = planCandidates(terms, { documents: N, budget: 2000, target: 1000 });
    expect(plan.branches[1]).toEqual({ field: "document", query: "'clinic' & 'result' & 'studi'", access: "scan" });
  });

  test("a year range never scans the newest rows", () => {
    // The newest rows are the wrong place to look for, say, articles from before 1990.
    const dense = [t("patient", 500_000, 1, 120_000)];
    const years = planCandidates(dense, { documents: N, budget: 2000, target: 1000, yearRange: true });
    expect(years.branches.map((b) => b.access)).not.toContain("scan");
  });

  test("phrases are drawn right after the conjunctions", () => {
    const plan = planCandidates([t("heart", 50_000, 2), t("failur", 40_000, 2)], {
      documents: N,
      budget: 1000,
      target: 1000,
      phrases: [{ query: "'heart' <-> 'failur'", df: 40_000 }],
    });
    expect(plan.branches[2]).toEqual({ field: "document", query: "('heart' <-> 'failur')", access: "index-first" });
  });

  test("minimal sets reach the weight threshold and drop nothing they need", () => {
    const terms = [t("a", 1, 3), t("b", 1, 2), t("c", 1, 1)];
    const lexemes = (sets: WeightedTerm[][]) => sets.map((set) => set.map((x) => x.lexeme).join(""));
    expect(lexemes(minimalSets(terms, 6))).toEqual(["abc"]);
    expect(lexemes(minimalSets(terms, 4))).toEqual(["ab", "ac"]);
    expect(lexemes(minimalSets(terms, 3))).toEqual(["a", "bc"]);
    expect(setsQuery(minimalSets(terms, 3))).toBe("'a' | ('b' & 'c')");
    expect(minimalSets(terms, 7)).toEqual([]);
  });
});
