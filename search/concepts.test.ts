import { describe, expect, test } from "bun:test";
import { conceptList, looksLikeAbbreviation, onlyAsOrganism, readTopic, withPubmedTranslation } from "./concepts.ts";

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

describe("synonyms, organisms and PubMed's own reading (issue 37)", () => {
  test("a treatment under its -therapy and -tion names: chemoradiotherapy is chemoradiation; concurrent is concomitant", () => {
    const [concurrent, treatment] = readTopic("concurrent chemoradiotherapy").concepts;
    expect(concurrent?.alternatives).toContain("concomitant");
    expect(treatment?.alternatives).toContain("chemoradiation");
    // PMID 17786785 (sample) says "concurrent chemoradiation": it names both concepts.
    const text = "… treated with concurrent chemoradiation; the 3-year disease-free survival was 82% …";
    expect(readTopic("concurrent chemoradiotherapy").concepts.some((c) => onlyAsOrganism(c, text))).toBe(false);
  });

  test("an organism's name is not the disease: Klebsiella pneumoniae does not name pneumonia", () => {
    const [pneumonia] = readTopic("pneumonia").concepts;
    const concept = pneumonia as NonNullable<typeof pneumonia>;
    // PMIDs 16156161 and 10368722 (sample): abscess and osteomyelitis from Klebsiella pneumoniae.
    expect(onlyAsOrganism(concept, "Case report: spinal epidural abscess from Klebsiella pneumoniae.")).toBe(true);
    expect(onlyAsOrganism(concept, "Gas formation by K. pneumoniae and Chlamydia pneumoniae.")).toBe(true);
    expect(onlyAsOrganism(concept, "Community-acquired pneumonia caused by Streptococcus pneumoniae.")).toBe(false);
    expect(onlyAsOrganism(concept, "Pneumonias in children")).toBe(false);
    expect(onlyAsOrganism(concept, "Pneumonia, Bacterial")).toBe(false);
    // A form this reading does not know (the index matched it): trusted, not taken for an organism.
    expect(onlyAsOrganism(concept, "Pneumonitis after radiotherapy")).toBe(false);
  });

  test("PubMed's query translation lends a concept the synonyms its term mapping used", () => {
    const reading = withPubmedTranslation(
      readTopic("chemoradiotherapy nasopharyngeal"),
      '("chemoradiotherapy"[MeSH Terms] OR "chemoradiotherapy"[All Fields] OR "chemoradiation"[All Fields] OR ' +
        '"chemoradiation therapy"[All Fields]) AND ("nasopharyngeal"[All Fields] OR "nasopharynx"[MeSH Terms])',
    );
    expect(reading.concepts.map((c) => c.alternatives)).toEqual([
      [
        "chemoradiotherapy",
        "chemoradiation",
        "radiochemotherapy",
        "chemo-radiotherapy",
        "chemo-radiation",
        "chemoradiation therapy",
      ],
      ["nasopharyngeal", "nasopharynx"],
    ]);
    // Parts of a nested group are no synonyms: "pump" is not "proton".
    const ppi = readTopic("proton pump");
    const mapped = '("proton pump inhibitors"[MeSH Terms] OR ("proton"[All Fields] AND "pump"[All Fields]))';
    expect(withPubmedTranslation(ppi, mapped)).toBe(ppi);
    // Nothing is taken from a translation that names none of a concept's words; no translation changes nothing.
    const before = readTopic("scoliosis bracing");
    expect(withPubmedTranslation(before, '"asthma"[MeSH Terms]')).toBe(before);
    expect(withPubmedTranslation(before, null)).toBe(before);
  });
});
