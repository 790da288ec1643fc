import { describe, expect, test } from "bun:test";
import { conceptList, looksLikeAbbreviation, readTopic } from "./concepts.ts";

describe("reading a topic as concepts", () => {
  test("every content word is a concept; generic words are set apart", () => {
    const r = readTopic("risk factors for nasopharyngeal carcinoma");
    expect(r.concepts.map((c) => c.label)).toEqual(["nasopharyngeal", "carcinoma"]);
    expect(r.generic).toEqual(["risk", "factors"]);
  });

  test("stop words and question words are never concepts", () => {
    expect(readTopic("What is the effect of smoking on the lungs?").concepts.map((c) => c.label)).toEqual([
      "smoking",
      "lungs",
    ]);
  });

  test("a quoted phrase is one concept", () => {
    const r = readTopic('covid-19 "long covid"');
    expect(r.concepts.map((c) => c.label)).toEqual(["covid-19", "long covid"]);
    expect(r.concepts[1]!.alternatives).toEqual(["long covid"]);
  });

  test("curated MeSH entry terms are alternatives, multi-word ones included", () => {
    const cancer = readTopic("nasopharyngeal cancer").concepts[1]!;
    expect(cancer.alternatives).toContain("carcinoma");
    expect(cancer.alternatives).toContain("neoplasm");
    const mi = readTopic("heart attack in young adults").concepts[0]!;
    expect(mi.label).toBe("heart attack");
    expect(mi.alternatives).toContain("myocardial infarction");
    // Plurals meet their set too.
    expect(readTopic("tumours").concepts[0]!.alternatives).toContain("cancer");
  });

  test("abbreviations get the long forms supplied for them", () => {
    const r = readTopic("NPC radiotherapy", (a) => (a === "NPC" ? ["nasopharyngeal carcinoma"] : []));
    expect(r.concepts[0]).toEqual({ label: "NPC", alternatives: ["NPC", "nasopharyngeal carcinoma"] });
  });

  test("a topic of generic words only still needs something covered", () => {
    const r = readTopic("treatment outcomes");
    expect(r.concepts.map((c) => c.label)).toEqual(["treatment", "outcomes"]);
  });

  test("exclusions are the search's business, not concepts", () => {
    expect(readTopic("osteomyelitis -children").concepts.map((c) => c.label)).toEqual(["osteomyelitis"]);
  });

  test("nonsense words are concepts like any other, so nothing covers them", () => {
    expect(readTopic("xyzzy frobnicate quantum unicorn").concepts).toHaveLength(4);
  });

  test("abbreviation detection", () => {
    expect(looksLikeAbbreviation("NPC", "NPC radiotherapy")).toBe(true);
    expect(looksLikeAbbreviation("HbA1c", "HbA1c targets")).toBe(true);
    expect(looksLikeAbbreviation("IL-6", "IL-6 in sepsis")).toBe(true);
    expect(looksLikeAbbreviation("Sepsis", "Sepsis")).toBe(false);
    expect(looksLikeAbbreviation("SEPSIS", "SEPSIS AND SEPTIC SHOCK IN ADULTS")).toBe(false);
  });

  test("the concept list of a sentence", () => {
    expect(conceptList(readTopic("spinal fusion").concepts)).toBe("spinal, fusion");
  });
});
