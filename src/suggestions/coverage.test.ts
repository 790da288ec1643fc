import { describe, expect, test } from "bun:test";
import { fuseRankings } from "./fusion.ts";
import { pickCovering, quotaRounds, sourceGroups, sourceHeads } from "./coverage.ts";
import type { ProfileSource } from "./profile.ts";

const interest = (text: string): ProfileSource => ({ kind: "interest", label: text, text, weight: 1 });
const like = (text: string): ProfileSource => ({ kind: "like", label: text, text, weight: 1 });

describe("every interest gets a quota", () => {
  const spine = interest("spine");
  const infection = interest("infection");
  const leukemia = interest("leukemia");
  const likes = [like("l1"), like("l2"), like("l3")];
  // Leukemia articles (1..20) are ranked by the third interest and every like; spine (101..) and infection (201..)
  // by their interest only: fused, leukemia takes every place.
  const leuk = Array.from({ length: 20 }, (_, i) => i + 1);
  const fused = fuseRankings([
    { source: spine, weight: 1, pmids: [101, 102, 103] },
    { source: infection, weight: 1, pmids: [201, 202] },
    { source: leukemia, weight: 1, pmids: leuk },
    ...likes.map((s) => ({ source: s, weight: 1, pmids: leuk })),
  ]);
  const sources = [spine, infection, leukemia, ...likes];

  test("groups: each interest, then the likes together; one round for four groups in ten, two for two", () => {
    const keys = sourceGroups(sources).map((g) => g.key);
    expect(keys).toEqual(["interest:spine", "interest:infection", "interest:leukemia", "likes"]);
    expect(quotaRounds(4, 10)).toBe(1);
    expect(quotaRounds(2, 10)).toBe(2);
    expect(quotaRounds(1, 10)).toBe(0);
  });
  test("interleaved quota first, each naming its group, then by fused score", () => {
    expect(fused.slice(0, 10).every((c) => c.pmid <= 20)).toBe(true); // what fusion alone served
    const picks = pickCovering(fused, sources, 10, () => true);
    expect(picks.map((p) => p.candidate.pmid)).toEqual([101, 201, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(picks.slice(0, 4).map((p) => p.source.text)).toEqual(["spine", "infection", "leukemia", "l1"]);
    expect(picks[4]!.source).toBe(fused.find((c) => c.pmid === 3)!.best);
  });
  test("a group whose candidates the section refuses is skipped, never filled with a poor match", () => {
    const picks = pickCovering(fused, sources, 10, (c) => c.pmid !== 101 && c.pmid !== 102 && c.pmid !== 103);
    expect(picks.map((p) => p.candidate.pmid)).toEqual([201, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });
  test("one group: the fused order as it was", () => {
    const only = fuseRankings([{ source: leukemia, weight: 1, pmids: [3, 1, 2] }]);
    expect(pickCovering(only, [leukemia], 2, () => true).map((p) => p.candidate.pmid)).toEqual([3, 1]);
  });
  test("source heads: what the quota may reach beyond the fused head", () => {
    expect(sourceHeads(fused, 1).sort((a, b) => a - b)).toEqual([1, 101, 201]);
  });
});
