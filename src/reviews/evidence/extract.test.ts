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
  test("a randomised trial with a hazard ratio whose interval excludes 1 (PMID 17059514)", () => {
    const e = evidenceOf(17059514);
    expect([e.design, e.design_source, e.evidence_level, e.participants]).toEqual(["rct", "record", 2, 51]);
    expect(e.result).toBe(
      "The relapse rate in the half elemental diet group was significantly lower [34.6% vs. 64.0%; multivariate " +
        "hazard ratio 0.40 (95% CI: 0.16-0.98)] than that in the free diet group after a mean follow-up of 11.9 " +
        "months.",
    );
    expect(e.effects.map((x) => [x.measure, x.value, x.ci_low, x.ci_high])).toEqual([
      ["percentage", 34.6, null, null],
      ["hazard ratio", 0.4, 0.16, 0.98],
    ]);
    expect(e.significance).toBe("significant");
    expect(e.outcome).toBe("occurrence of relapse over the 2-year period");
  });

  test("a cohort whose only hazard ratio's interval includes 1 is not significant (PMID 22426260)", () => {
    const e = evidenceOf(22426260);
    expect([e.design, e.evidence_level, e.participants]).toEqual(["cohort", 3, 127]);
    expect(e.result).toBe(
      "On univariate analysis, visual response score and time to recurrence came closest to having an association " +
        "(HR = 0.83, 95% CI = 0.68-1.01, p = 0.06).",
    );
    expect(e.significance).toBe("not_significant");
    expect(e.population).toBe("patients with locally advanced rectal cancer");
    expect(e.outcome).toBe("time to recurrence and disease-specific survival");
  });

  test('a record that names no design gets one from its wording, "in a retrospective study" (PMID 8219565)', () => {
    const e = evidenceOf(8219565);
    expect([e.design, e.design_source, e.evidence_level]).toEqual(["observational", "abstract", 4]);
    expect(e.participants).toBe(166);
    // No estimate: the main result is the conclusion.
    expect(e.result?.startsWith("Marked asymmetry in opening of the modified hook titanium Greenfield")).toBe(true);
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

  test("a compared percentage is the main result when no ratio is stated (PMID 15958886)", () => {
    const e = evidenceOf(15958886);
    expect([e.design, e.participants]).toEqual(["cohort", 25]);
    expect(e.result).toBe("Correction averaged 70.2% for the screw group and 68.1% for the hook group.");
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
