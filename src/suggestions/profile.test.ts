import { describe, expect, test } from "bun:test";
import { buildProfile, likeText } from "./profile.ts";

describe("suggestion profile", () => {
  test("a liked article is asked about as its title, headings and keywords, with no stray punctuation", () => {
    const text = likeText({
      title: "Cough syncope induced by paraspinal abscess.",
      mesh_terms: ["Abscess", "Cough"],
      keywords: ["syncope"],
    });
    expect(text).toBe("Cough syncope induced by paraspinal abscess. Abscess. Cough. syncope");
    expect(text).not.toContain("..");
  });

  test("interests weigh 1, recent likes more than old ones, and the reading list is pooled", () => {
    const now = new Date("2026-11-25T00:00:00Z");
    const like = (pmid: number, daysAgo: number) => ({
      pmid,
      title: `Title ${pmid}.`,
      mesh_terms: ["Humans"],
      keywords: [],
      liked_at: new Date(now.getTime() - daysAgo * 86_400_000),
    });
    const profile = buildProfile("asthma, copd", [like(1, 200), like(2, 1)], now);
    expect(profile.sources.map((s) => s.kind)).toEqual(["interest", "interest", "like", "like", "likes"]);
    const [recent, old] = profile.sources.filter((s) => s.kind === "like");
    expect(recent!.pmid).toBe(2);
    expect(recent!.weight).toBeGreaterThan(old!.weight);
    expect(profile.sources.find((s) => s.kind === "likes")!.text).not.toContain("..");
  });
});
