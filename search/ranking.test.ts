import { describe, expect, test } from "bun:test";
import {
  DEFAULT_WEIGHTS,
  PENALTY,
  evidenceLevel,
  normalizeDoi,
  recencyScore,
  rerank,
  titleMatch,
  type RankableArticle,
} from "./ranking.ts";
import { contentTerms } from "./words.ts";

function art(pmid: number, fields: Partial<Omit<RankableArticle, "pmid">> = {}): RankableArticle {
  return {
    pmid,
    title: `Unrelated title number ${pmid}`,
    doi: null,
    publication_year: 2020,
    publication_types: ["Journal Article"],
    ...fields,
  };
}

const YEAR = 2026;
const order = (ranked: { pmid: number }[]) => ranked.map((r) => r.pmid);

describe("rerank", () => {
  test("with equal text scores, a meta-analysis outranks a randomised trial, which outranks a case report", () => {
    const articles = [
      art(1, { publication_types: ["Journal Article", "Case Reports"] }),
      art(2, { publication_types: ["Journal Article", "Randomized Controlled Trial"] }),
      art(3, { publication_types: ["Meta-Analysis", "Journal Article"] }),
      art(4, { publication_types: ["Journal Article", "Observational Study"] }),
    ];
    const hits = articles.map((a) => ({ pmid: a.pmid, score: 5 }));
    expect(order(rerank("statins", hits, articles, { currentYear: YEAR }))).toEqual([3, 2, 4, 1]);
  });

  test("a much better text match still beats a better study design", () => {
    const articles = [
      art(1, { publication_types: ["Meta-Analysis"] }),
      art(2, { publication_types: ["Case Reports"] }),
    ];
    const ranked = rerank(
      "statins",
      [
        { pmid: 1, score: 2 },
        { pmid: 2, score: 10 },
      ],
      articles,
      { currentYear: YEAR },
    );
    expect(order(ranked)).toEqual([2, 1]);
  });

  test("retracted articles and errata fall below ordinary ones", () => {
    const articles = [
      art(1, { publication_types: ["Randomized Controlled Trial", "Retracted Publication"] }),
      art(2, { publication_types: ["Journal Article"] }),
      art(3, { publication_types: ["Published Erratum"] }),
    ];
    const ranked = rerank(
      "x",
      [
        { pmid: 1, score: 10 },
        { pmid: 2, score: 4 },
        { pmid: 3, score: 10 },
      ],
      articles,
      { currentYear: YEAR },
    );
    expect(ranked[0]?.pmid).toBe(2);
    expect(ranked.find((r) => r.pmid === 1)?.penalty).toBe(PENALTY);
  });

  test("the query's words in the title lift an article", () => {
    const articles = [
      art(1, { title: "Outcomes of a cohort followed for ten years" }),
      art(2, { title: "Vitamin D supplementation and fractures in older women" }),
    ];
    const hits = [
      { pmid: 1, score: 8 },
      { pmid: 2, score: 8 },
    ];
    const ranked = rerank("Does vitamin D supplementation reduce fractures?", hits, articles, { currentYear: YEAR });
    expect(order(ranked)).toEqual([2, 1]);
    expect(ranked[0]!.titleMatch).toBeCloseTo(4 / 5);
  });

  test("recency is a gentle boost: newer wins a tie, but not against a clearly better match", () => {
    const articles = [art(1, { publication_year: 1995 }), art(2, { publication_year: 2024 })];
    expect(
      order(
        rerank(
          "x",
          [
            { pmid: 1, score: 5 },
            { pmid: 2, score: 5 },
          ],
          articles,
          { currentYear: YEAR },
        ),
      ),
    ).toEqual([2, 1]);
    expect(
      order(
        rerank(
          "x",
          [
            { pmid: 1, score: 5 },
            { pmid: 2, score: 4 },
          ],
          articles,
          { currentYear: YEAR },
        ),
      ),
    ).toEqual([1, 2]);
  });

  test("duplicates by DOI or near-identical title are removed, keeping the better-ranked record", () => {
    const articles = [
      art(1, { title: "Aspirin for the primary prevention of cardiovascular events", doi: "10.1000/ABC.1" }),
      art(2, { title: "A different study of aspirin dosing", doi: "https://doi.org/10.1000/abc.1" }),
      art(3, { title: "Aspirin for the Primary Prevention of Cardiovascular Events." }),
      art(4, { title: "Aspirin for the primary prevention of cardiovascular events in adults" }),
      art(5, { title: "Aspirin and bleeding risk in older adults" }),
      art(6, { title: "Erratum" }),
      art(7, { title: "Erratum" }),
    ];
    const hits = articles.map((a) => ({ pmid: a.pmid, score: 10 - a.pmid }));
    const ranked = rerank("aspirin prevention", hits, articles, { currentYear: YEAR });
    // 2 shares 1's DOI; 3 is 1's title with other case and punctuation; 4 adds two words to a 8-word title
    // (Jaccard 8/10 < 0.9), so it stays; one-word titles never count as duplicates.
    expect(order(ranked).sort((a, b) => a - b)).toEqual([1, 4, 5, 6, 7]);
  });

  test("a near-identical long title (one word dropped) is a duplicate", () => {
    const articles = [
      art(1, {
        title: "Effect of early mobilisation on length of hospital stay after elective colorectal surgery in adults",
      }),
      art(2, { title: "Effect of early mobilisation on length of hospital stay after colorectal surgery in adults" }),
    ];
    expect(
      rerank(
        "mobilisation",
        [
          { pmid: 1, score: 3 },
          { pmid: 2, score: 3 },
        ],
        articles,
        { currentYear: YEAR },
      ),
    ).toHaveLength(1);
  });

  test("hits without an article row are dropped and repeated hits count once", () => {
    const ranked = rerank(
      "x",
      [
        { pmid: 1, score: 1 },
        { pmid: 1, score: 3 },
        { pmid: 9, score: 5 },
      ],
      [art(1)],
      { currentYear: YEAR },
    );
    expect(ranked).toHaveLength(1);
    expect(ranked[0]!.text).toBe(1);
  });

  test("scores are the documented weighted sum, in [0, 1]", () => {
    const a = art(1, {
      title: "Statins in adults",
      publication_year: YEAR - 10,
      publication_types: ["Randomized Controlled Trial"],
    });
    const [r] = rerank("statins", [{ pmid: 1, score: 7 }], [a], { currentYear: YEAR });
    const expected =
      DEFAULT_WEIGHTS.text * 1 +
      DEFAULT_WEIGHTS.title * 1 +
      DEFAULT_WEIGHTS.evidence * 0.8 +
      DEFAULT_WEIGHTS.recency * 0.5;
    expect(r!.score).toBeCloseTo(expected);
    expect(r!.score).toBeLessThanOrEqual(1);
  });

  test("custom weights can turn a signal off", () => {
    const articles = [
      art(1, { publication_types: ["Meta-Analysis"] }),
      art(2, { publication_types: ["Case Reports"] }),
    ];
    const hits = [
      { pmid: 1, score: 5 },
      { pmid: 2, score: 5.5 },
    ];
    expect(order(rerank("x", hits, articles, { currentYear: YEAR, weights: { evidence: 0 } }))).toEqual([2, 1]);
  });

  test("an empty hit list gives an empty ranking", () => {
    expect(rerank("anything", [], [])).toEqual([]);
  });
});

describe("signals", () => {
  test("evidence level takes the strongest known publication type, case-insensitively", () => {
    expect(evidenceLevel(["Journal Article", "systematic review"])).toBe(1);
    expect(evidenceLevel(["Journal Article"])).toBeGreaterThan(evidenceLevel(["Case Reports"]));
    expect(evidenceLevel(["Randomized Controlled Trial"])).toBeGreaterThan(evidenceLevel(["Clinical Trial"]));
    expect(evidenceLevel(["Clinical Trial"])).toBeGreaterThan(evidenceLevel(["Observational Study"]));
    expect(evidenceLevel([])).toBe(evidenceLevel(["Some Unknown Type"]));
  });

  test("recency halves every ten years and ignores unknown or future years", () => {
    expect(recencyScore(YEAR, YEAR)).toBe(1);
    expect(recencyScore(YEAR - 10, YEAR)).toBeCloseTo(0.5);
    expect(recencyScore(YEAR - 20, YEAR)).toBeCloseTo(0.25);
    expect(recencyScore(YEAR + 1, YEAR)).toBe(1);
    expect(recencyScore(null, YEAR)).toBe(0);
  });

  test("title match compares content words with light stemming", () => {
    const terms = contentTerms("Are infections treated with antibiotics?");
    expect(terms).toEqual(["infection", "treat", "antibiotic"]);
    expect(titleMatch(terms, "Antibiotic treatment of infection")).toBeCloseTo(2 / 3);
    expect(titleMatch(terms, null)).toBe(0);
    expect(titleMatch([], "Anything")).toBe(0);
  });

  test("DOIs compare without case or resolver prefix", () => {
    expect(normalizeDoi("https://doi.org/10.1/ABC")).toBe("10.1/abc");
    expect(normalizeDoi("doi: 10.1/abc")).toBe("10.1/abc");
    expect(normalizeDoi("  ")).toBeNull();
    expect(normalizeDoi(null)).toBeNull();
  });
});
