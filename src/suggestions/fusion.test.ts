import { describe, expect, test } from "bun:test";
import { fuseRankings, RRF_K } from "./fusion.ts";
import { buildProfile, interestsOf } from "./profile.ts";

describe("reciprocal rank fusion", () => {
  test("an article ranked well by several sources beats one ranked first by one", () => {
    const fused = fuseRankings([
      { source: "a", weight: 1, pmids: [1, 2, 3] },
      { source: "b", weight: 1, pmids: [2, 4, 3] },
    ]);
    expect(fused.map((c) => c.pmid)).toEqual([2, 3, 1, 4]);
    expect(fused[0]!.score).toBeCloseTo(1 / (RRF_K + 2) + 1 / (RRF_K + 1));
  });
  test("weights scale a source; the why-line names the source that contributed most", () => {
    const fused = fuseRankings([
      { source: "old like", weight: 0.25, pmids: [7, 8] },
      { source: "interest", weight: 1, pmids: [8, 7] },
    ]);
    expect(fused.map((c) => [c.pmid, c.best])).toEqual([
      [8, "interest"],
      [7, "interest"],
    ]);
  });
  test("excluded PMIDs never come back", () => {
    expect(fuseRankings([{ source: "a", weight: 1, pmids: [1, 2, 3] }], new Set([2])).map((c) => c.pmid)).toEqual([
      1, 3,
    ]);
  });
});

describe("profile", () => {
  test("interests are the description's comma-separated entries, unique, at most 5", () => {
    expect(interestsOf(" sepsis ,  acute  kidney injury,,Sepsis, a, b, c, d")).toEqual([
      "sepsis",
      "acute kidney injury",
      "a",
      "b",
      "c",
    ]);
    expect(interestsOf(null)).toEqual([]);
  });
  test("recent likes weigh more; old likes keep a floor; liked PMIDs are all excluded", () => {
    const now = new Date("2026-11-24T00:00:00Z");
    const like = (pmid: number, daysAgo: number) => ({
      pmid,
      title: `T${pmid}`,
      mesh_terms: ["Sepsis"],
      keywords: [],
      liked_at: new Date(now.getTime() - daysAgo * 86_400_000),
    });
    const p = buildProfile(
      "sepsis",
      [like(1, 400), like(2, 0), like(3, 90), like(4, 1), like(5, 2), like(6, 3), like(7, 4)],
      now,
    );
    expect(p.sources.map((s) => [s.kind, s.label])).toEqual([
      ["interest", "sepsis"],
      ["like", "T2"],
      ["like", "T4"],
      ["like", "T5"],
      ["like", "T6"],
      ["like", "T7"],
      ["likes", "T2"], // the whole reading list, named after the latest like
    ]);
    expect(p.sources.at(-1)!.text).toContain("T1"); // older likes stay in play through it
    expect(p.sources[1]!.weight).toBe(1);
    expect(buildProfile(null, [like(3, 90)], now).sources[0]!.weight).toBeCloseTo(0.5);
    expect(buildProfile(null, [like(1, 400)], now).sources[0]!.weight).toBe(0.25);
    expect(p.likedPmids.sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });
});
