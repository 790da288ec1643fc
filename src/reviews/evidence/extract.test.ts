/**
 * extractEvidence on whole records of the sample (sample/pubmed), read with the project's PubMed parser: design and
 * its source, OCEBM level, participants, PICO spans, the main result, effects and significance.
 */
import { NO_APPRAISAL } from "./types.ts";
import { beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { parsePubmedFile } from "../../../search/pubmed/parser.ts";
import { normalizeWhitespace } from "../sentences.ts";
import type { SummaryArticle } from "../summary/types.ts";
import { extractEvidence } from "./extract.ts";

const SAMPLE = join(import.meta.dir, "..", "..", "..", "sample", "pubmed");
const WANTED = new Set([17059514, 22426260, 9505772, 8219565, 15958886]);
const records = new Map<number, SummaryArticle>();

beforeAll(async () => {
  for (const file of ["medlinecitationset_nlm_medsamp2014.xml.gz", "merged-pubmedarticleset.xml.gz"]) {
    for await (const event of parsePubmedFile(join(SAMPLE, file))) {
      if (event.type !== "article" || !WANTED.has(event.article.pmid)) continue;
      const a = event.article;
      records.set(a.pmid, { ...a, mesh_terms: a.mesh_terms, retraction_notice_pmid: a.retraction_notice_pmid });
    }
  }
});

/** The record, with its evidence checked to quote only verbatim spans of the abstract. */
function evidenceOf(pmid: number) {
  const article = records.get(pmid);
  if (!article) throw new Error(`PMID ${pmid} is not in the sample`);
  const evidence = extractEvidence(article);
  const labelled = article.abstract_sections.map((s) => `${s.label ? `${s.label}: ` : ""}${s.text}`);
  const text = normalizeWhitespace(labelled.join(" "));
  const { population, intervention, comparator, outcome, result } = evidence;
  for (const span of [population, intervention, comparator, outcome, result]) {
    if (span !== null) expect(text.includes(span)).toBe(true);
  }
  for (const e of evidence.effects) expect(text.includes(e.text)).toBe(true);
  return evidence;
}

describe("structured abstracts", () => {
  test("a randomised trial: design, participants, its hazard ratio and the groups' rates, significant (PMID 17059514)", () => {
    const e = evidenceOf(17059514);
    expect([e.design, e.evidence_level, e.participants]).toEqual(["rct", 2, 51]);
    expect(e.appraisal.randomised).toBe(true);
    // The appraisal's source: the sentence of the abstract that weighs most for "randomised".
    expect(e.appraisal.sources.randomised).toMatch(/random/iu);
    expect(e.appraisal.follow_up).toBe("after a mean follow-up of 11.9 months");
    expect(e.result).toBe(
      "The relapse rate in the half elemental diet group was significantly lower [34.6% vs. 64.0%; multivariate " +
        "hazard ratio 0.40 (95% CI: 0.16-0.98)] than that in the free diet group after a mean follow-up of 11.9 " +
        "months.",
    );
    // The first group's rate first, as stated; the ratio with its interval.
    expect(e.effects.map((x) => [x.measure, x.value, x.compared_value, x.ci_low, x.ci_high])).toEqual([
      ["percentage", 34.6, 64, null, null],
      ["hazard ratio", 0.4, null, 0.16, 0.98],
    ]);
    expect(e.significance).toBe("significant");
  });

  test("a cohort whose only hazard ratio's interval includes 1 is not significant (PMID 22426260)", () => {
    const e = evidenceOf(22426260);
    expect([e.design, e.participants]).toEqual(["cohort", 127]);
    expect(e.effects.map((x) => [x.measure, x.value, x.ci_low, x.ci_high])).toEqual([
      ["hazard ratio", 0.83, 0.68, 1.01],
    ]);
    expect(e.significance).toBe("not_significant");
    expect(e.appraisal.follow_up).toBe("Median follow-up among survivors was 77 months (range, 1-115 months)");
  });

  test('a record that names no design: "a retrospective study" of one group is a case series, level 4 (PMID 8219565)', () => {
    const e = evidenceOf(8219565);
    expect([e.design, e.design_source, e.evidence_level]).toEqual(["case-series", "abstract", 4]);
    expect([e.appraisal.timing, e.appraisal.comparison_group]).toEqual(["retrospective", false]);
    expect(e.participants).toBe(166);
    expect(e.effects).toEqual([]);
  });
});

describe("unstructured abstracts (roles from the sentence-role classifier)", () => {
  test('significance from the wording, "there were no significant differences between groups" (PMID 9505772)', () => {
    const e = evidenceOf(9505772);
    expect([e.design, e.participants, e.effects.length]).toEqual(["rct", 85, 0]);
    expect(e.significance).toBe("not_significant");
    expect(e.result).not.toBeNull();
  });

  test("a retrospective comparison of two constructs: a cohort, its participants and its arms (PMID 15958886)", () => {
    const e = evidenceOf(15958886);
    expect([e.design, e.participants, e.evidence_level]).toEqual(["cohort", 25, 3]);
    expect(e.appraisal.timing).toBe("retrospective");
    expect([e.intervention, e.comparator]).toEqual(["thoracic pedicle screws", "laminar and pedicle hooks"]);
  });
});

test("an article without an abstract gives nulls and no effects", () => {
  const e = extractEvidence({
    pmid: 1,
    title: "A title only",
    abstract: null,
    abstract_sections: [],
    publication_year: 2001,
    publication_types: ["Letter"],
  });
  expect(e).toEqual({
    pmid: 1,
    design: "opinion",
    design_source: "record",
    evidence_level: 5,
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
  });
});
