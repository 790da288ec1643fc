import { NO_APPRAISAL } from "./types.ts";
import { describe, expect, test } from "bun:test";
import type { SummaryArticle } from "../summary/types.ts";
import { populationSentence } from "./population.ts";
import type { EvidenceRow } from "./types.ts";

/** The cited studies, one per MeSH list, and their rows (only the PMID is read). */
function cited(meshLists: readonly (readonly string[])[]): { rows: EvidenceRow[]; articles: SummaryArticle[] } {
  const articles = meshLists.map((mesh, i) => ({
    pmid: 2000 + i,
    title: null,
    abstract: null,
    abstract_sections: [],
    publication_year: 2020,
    publication_types: ["Journal Article"],
    mesh_terms: [...mesh],
  }));
  const rows = articles.map((a, i) => ({
    pmid: a.pmid,
    citation: i + 1,
    duplicate_pmids: [],
    same_cohort: [],
    design: null,
    design_source: null,
    evidence_level: null,
    participants: null,
    participants_arms: null,
    participants_text: null,
    appraisal: NO_APPRAISAL,
    population: null,
    intervention: null,
    comparator: null,
    outcome: null,
    result: null,
    effects: [],
    significance: null,
  }));
  return { rows, articles };
}

// Check tags as PubMed's indexers apply them (e.g. a paediatric oncology series: Humans, Child, Child, Preschool,
// Infant, Male, Female).
const CHILD = ["Humans", "Child", "Child, Preschool", "Infant", "Male", "Female", "Neoplasms"];
const ADULT = ["Humans", "Adult", "Middle Aged", "Aged", "Male", "Female", "Neoplasms"];
const TEEN_AND_ADULT = ["Humans", "Adolescent", "Young Adult", "Adult", "Male", "Female"];
const UNINDEXED = ["Neoplasms"];

describe("whom the cited studies are about", () => {
  test("children or adolescents: 9 of 10, when the topic does not name them", () => {
    const { rows, articles } = cited([...Array(9).fill(CHILD), ADULT]);
    expect(populationSentence(rows, articles, "cancer treatment")).toBe(
      "9 of the 10 cited studies are in children or adolescents.",
    );
    const naming = ["paediatric cancer treatment", "cancer in children", "infant leukemia", "adolescent sarcoma"];
    for (const topic of [...naming, "pediatric oncology"]) {
      expect(populationSentence(rows, articles, topic)).toBeNull();
    }
  });

  test("a study with adult age groups is not in children, even with Adolescent tagged", () => {
    const { rows, articles } = cited([CHILD, CHILD, TEEN_AND_ADULT, TEEN_AND_ADULT]);
    expect(populationSentence(rows, articles, "osteosarcoma")).toBeNull();
  });

  test("studies without age groups are left out of the count, and the sentence says so", () => {
    // The case (a cancer treatment topic, recent records not yet indexed): 4 of the 5 indexed are in children.
    const { rows, articles } = cited([...Array(4).fill(CHILD), ADULT, UNINDEXED, UNINDEXED, UNINDEXED, UNINDEXED]);
    expect(populationSentence(rows, articles, "cancer treatment")).toBe(
      "4 of the 5 cited studies indexed by age group are in children or adolescents.",
    );
    // Fewer than half of the cited studies indexed: nothing is said of the others.
    const few = cited([...Array(4).fill(CHILD), ...Array(5).fill(UNINDEXED)]);
    expect(populationSentence(few.rows, few.articles, "osteomyelitis")).toBeNull();
    const both = cited([["Japan", ...CHILD], ["Japan", ...CHILD], ["Japan", ...CHILD], ["Humans"]]);
    expect(populationSentence(both.rows, both.articles, "fever")).toBe(
      "All 3 cited studies indexed by age group are in children or adolescents, " +
        "and all 3 indexed by country are from Japan.",
    );
  });

  test("below 70 % nothing is said", () => {
    const { rows, articles } = cited([...Array(6).fill(CHILD), ...Array(4).fill(ADULT)]);
    expect(populationSentence(rows, articles, "asthma")).toBeNull();
  });

  test("animal studies, unless the topic names animals", () => {
    const { rows, articles } = cited([
      ["Animals", "Mice", "Male"],
      ["Animals", "Rats", "Male"],
      ["Animals", "Rats", "Male"],
      ["Humans", "Adult", "Male", "Female"],
    ]);
    expect(populationSentence(rows, articles, "ketamine depression")).toBe(
      "3 of the 4 cited studies are animal studies, and 3 are in males only.",
    );
    expect(populationSentence(rows, articles, "ketamine depression in rats")).toBe(
      "3 of the 4 cited studies are in males only.",
    );
  });

  test("one sex, unless the topic names a sex or an organ of one", () => {
    const women = ["Humans", "Female", "Adult"];
    const { rows, articles } = cited([women, women, women, women, ["Humans", "Female", "Male", "Adult"]]);
    expect(populationSentence(rows, articles, "osteoporosis treatment")).toBe(
      "4 of the 5 cited studies are in females only.",
    );
    for (const topic of ["osteoporosis in women", "ovarian cancer", "breast cancer screening", "pregnancy outcomes"]) {
      expect(populationSentence(rows, articles, topic)).toBeNull();
    }
  });

  test("one country from the geographic headings, unless the topic names it; England is the United Kingdom", () => {
    const japan = ["Humans", "Japan"];
    const { rows, articles } = cited([japan, japan, japan, ["Humans", "China"]]);
    expect(populationSentence(rows, articles, "gastric cancer screening")).toBe(
      "3 of the 4 cited studies are from Japan.",
    );
    expect(populationSentence(rows, articles, "gastric cancer screening in Japanese adults")).toBeNull();
    const uk = cited([["England"], ["United Kingdom"], ["Scotland"]]);
    expect(populationSentence(uk.rows, uk.articles, "sepsis")).toBe("All 3 cited studies are from the United Kingdom.");
    const several = cited([["Japan", "China"], ["Japan", "China"], ["Japan"]]);
    expect(populationSentence(several.rows, several.articles, "sepsis")).toBeNull();
  });

  test("two cited studies: Both; one cited study: nothing", () => {
    const { rows, articles } = cited([CHILD, CHILD]);
    expect(populationSentence(rows, articles, "fever")).toBe("Both cited studies are in children or adolescents.");
    const one = cited([CHILD]);
    expect(populationSentence(one.rows, one.articles, "fever")).toBeNull();
  });

  test("cited studies missing from the articles count as not indexed", () => {
    const { rows, articles } = cited([CHILD, CHILD, CHILD]);
    expect(populationSentence(rows, articles.slice(0, 1), "fever")).toBeNull();
  });
});
