import { describe, expect, test } from "bun:test";
import records from "../fixtures/issue-21-records.json";
import fixtureJson from "../fixtures/nasopharyngeal-carcinoma.json";
import type { SummaryArticle } from "../summary/types.ts";
import { groupDuplicateRecords, MIN_ABSTRACT_WORDS } from "./duplicates.ts";

// Real records: a review with a structured abstract (PMID 17728675) and 50 nasopharyngeal carcinoma records.
const [aisReview] = records as SummaryArticle[] as [SummaryArticle];
const npc = (fixtureJson as SummaryArticle[]).filter((a) => (a.abstract ?? "").split(" ").length >= MIN_ABSTRACT_WORDS);

/** PubMed's "Low back pain." (PMID 2930949): a three-word title, an unstructured abstract. */
const lowBackPain: SummaryArticle = {
  pmid: 2930949,
  title: "Low back pain.",
  abstract:
    "Low back pain is one of the most common and costly afflictions of our Society. The majority of adults will " +
    "have at least one episode of acute low back pain that will likely resolve regardless of treatment. Lumbar " +
    "spine radiographs are overused and there is little scientific support for many of the therapeutic " +
    "interventions advocated. Even for those patients with symptomatic herniated disc, only a small fraction will " +
    "ultimately require surgical intervention.",
  abstract_sections: [],
  publication_year: 1985,
  publication_types: ["Journal Article"],
};
const copy = (a: SummaryArticle, pmid: number, extra: Partial<SummaryArticle> = {}): SummaryArticle => ({
  ...a,
  pmid,
  ...extra,
});

describe("groupDuplicateRecords", () => {
  test("thirty records of one short-titled article are one source, the best-ranked kept", () => {
    const copies = Array.from({ length: 29 }, (_, i) => copy(lowBackPain, 90_000_001 + i));
    const input = [npc[0]!, lowBackPain, npc[1]!, ...copies.slice(0, 10), npc[2]!, ...copies.slice(10)];
    const { kept, duplicatesOf } = groupDuplicateRecords(input);
    expect(kept.map((a) => a.pmid)).toEqual([npc[0]!.pmid, 2930949, npc[1]!.pmid, npc[2]!.pmid]);
    expect(duplicatesOf.get(2930949)).toEqual(copies.map((a) => a.pmid));
    expect([...duplicatesOf.keys()]).toEqual([2930949]);
  });

  test("the same abstract under another title (a translation's record) is the same work", () => {
    const translated = copy(aisReview, 1, { title: "[Quality of life after surgery for scoliosis]." });
    const { kept, duplicatesOf } = groupDuplicateRecords([translated, aisReview]);
    expect(kept.map((a) => a.pmid)).toEqual([1]);
    expect(duplicatesOf.get(1)).toEqual([aisReview.pmid]);
  });

  test("a near-identical title and abstract (a corrected word, other punctuation) is the same work", () => {
    const text = (lowBackPain.abstract ?? "").replace("costly afflictions", "costly affliction").replace(/\. /gu, "; ");
    const republished = copy(lowBackPain, 2, { abstract: text, title: "Low back pain" });
    expect(groupDuplicateRecords([lowBackPain, republished]).kept).toHaveLength(1);
  });

  test("structured sections are read when the plain abstract is empty; case and diacritics are ignored", () => {
    const sectionsOnly = copy(aisReview, 3, { abstract: null });
    const shouted = copy(aisReview, 4, { abstract: (aisReview.abstract ?? "").toUpperCase().replace(/e/giu, "é") });
    const { kept, duplicatesOf } = groupDuplicateRecords([aisReview, sectionsOnly, shouted]);
    expect(kept).toHaveLength(1);
    expect(duplicatesOf.get(aisReview.pmid)).toEqual([3, 4]);
  });

  test("the same title over an abstract that keeps a third or more of the other's text is the same work", () => {
    const sentences = (aisReview.abstract ?? "").split(/(?<=\.)\s+/u);
    // Every other sentence kept, and one sentence of another abstract added: a shortened, edited version.
    const shortened = `${sentences.filter((_, i) => i % 2 === 0).join(" ")} ${(npc[3]!.abstract ?? "").split(". ")[0]}`;
    const version = copy(aisReview, 8, { abstract: shortened, abstract_sections: [] });
    expect(groupDuplicateRecords([aisReview, version]).kept).toHaveLength(1);
    // The same shortened text under another title is not grouped: it is no longer near-identical as a whole.
    const retitled = copy(version, 9, { title: "Health-related quality of life in scoliosis surgery" });
    expect(groupDuplicateRecords([aisReview, retitled]).kept).toHaveLength(2);
  });

  test("different works stay apart: 50 real abstracts on one topic, and one title shared by two abstracts", () => {
    expect(groupDuplicateRecords(npc).kept).toHaveLength(npc.length);
    const otherWork = copy(npc[0]!, 5, { title: lowBackPain.title });
    expect(groupDuplicateRecords([lowBackPain, otherWork]).kept).toHaveLength(2);
  });

  test("an abstract shorter than MIN_ABSTRACT_WORDS, or none, never groups records", () => {
    const note = { ...lowBackPain, abstract: "Abstract not available." };
    expect(groupDuplicateRecords([note, copy(note, 6)]).kept).toHaveLength(2);
    const none = { ...lowBackPain, abstract: null };
    expect(groupDuplicateRecords([none, copy(none, 7)]).kept).toHaveLength(2);
  });

  test("near-copies of one another are one group; a PMID listed twice counts once", () => {
    const words = (lowBackPain.abstract ?? "").split(" ");
    const edit = (i: number) => words.map((w, k) => (k === i ? `${w}x` : w)).join(" ");
    const a = copy(lowBackPain, 10, { abstract: edit(5) });
    const b = copy(lowBackPain, 11, { abstract: edit(40) });
    const { kept, duplicatesOf } = groupDuplicateRecords([a, a, lowBackPain, b]);
    expect(kept.map((x) => x.pmid)).toEqual([10]);
    expect(duplicatesOf.get(10)).toEqual([2930949, 11]);
  });
});
