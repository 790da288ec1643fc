import { describe, expect, test } from "bun:test";
import type { estypes } from "@elastic/elasticsearch";
import { classicIdf, selectProfileTerms } from "./profile-terms.ts";

/** One shard's term vector of the profile: its documents with the field, and term → [tf in the profile, df]. */
const shard = (docCount: number, terms: Record<string, [number, number]>): estypes.TermvectorsTermVector => ({
  field_statistics: { doc_count: docCount, sum_doc_freq: 0, sum_ttf: 0 },
  terms: Object.fromEntries(
    Object.entries(terms).map(([t, [tf, df]]) => [t, { term_freq: tf, doc_freq: df, ttf: df }]),
  ),
});
const ALL = { maxTerms: 20, minTermFreq: 1, minDocFreq: 1 };

describe("profile terms over every shard", () => {
  test("idf is Lucene's ClassicSimilarity: 1 + ln((docCount + 1) / (docFreq + 1))", () => {
    expect(classicIdf(1, 10)).toBeCloseTo(1 + Math.log(11 / 2), 12);
    expect(classicIdf(10, 10)).toBe(1);
    expect(classicIdf(0, 0)).toBe(1);
  });

  test("a term held only by other shards than the first is kept, scored with the summed statistics", () => {
    // Shard 0 alone would score "radiotherapy" with df 0 and drop it.
    const shards = [
      shard(100, { carcinoma: [1, 40], radiotherapy: [1, 0] }),
      shard(100, { carcinoma: [1, 10], radiotherapy: [1, 5] }),
      shard(100, { carcinoma: [1, 10], radiotherapy: [1, 5] }),
    ];
    // radiotherapy: 1 × idf(10, 300) = 4.31; carcinoma: 1 × idf(60, 300) = 2.60.
    expect(selectProfileTerms(shards, ALL)).toEqual(["radiotherapy", "carcinoma"]);
    // Shard 0's statistics alone give the opposite verdict on "radiotherapy".
    expect(selectProfileTerms(shards.slice(0, 1), ALL)).toEqual(["carcinoma"]);
  });

  test("the profile's term frequency weighs in; terms no document holds are dropped; ties go to the first in order", () => {
    const shards = [shard(10, { tumour: [3, 5], alpha: [1, 1], beta: [1, 1], unicorn: [2, 0] })];
    // tumour 3 × idf(5, 10) = 4.82; alpha and beta 1 × idf(1, 10) = 2.70 each.
    expect(selectProfileTerms(shards, ALL)).toEqual(["tumour", "alpha", "beta"]);
    expect(selectProfileTerms(shards, { ...ALL, maxTerms: 2 })).toEqual(["tumour", "alpha"]);
    expect(selectProfileTerms(shards, { ...ALL, minTermFreq: 2 })).toEqual(["tumour"]);
    expect(selectProfileTerms(shards, { ...ALL, minDocFreq: 2 })).toEqual(["tumour"]);
  });

  test("a shard without the field (no vector) adds nothing; no shards, no terms", () => {
    expect(selectProfileTerms([undefined, shard(4, { spine: [1, 2] })], ALL)).toEqual(["spine"]);
    expect(selectProfileTerms([], ALL)).toEqual([]);
  });
});
