import { describe, expect, test } from "bun:test";
import { designTier, isRetracted, studyDesign, subjectsOf } from "./evidence.ts";

describe("study design from a PubMed record", () => {
  test("publication types in order of evidence: the strongest named wins", () => {
    expect(studyDesign(["Journal Article", "Meta-Analysis", "Systematic Review"])).toBe("meta-analysis");
    expect(studyDesign(["Randomized Controlled Trial", "Clinical Trial, Phase III", "Multicenter Study"])).toBe("rct");
    expect(studyDesign(["Clinical Trial, Phase II", "Journal Article"])).toBe("clinical-trial");
    expect(studyDesign(["Practice Guideline"])).toBe("guideline");
    expect(studyDesign(["Editorial"])).toBe("opinion");
    expect(studyDesign(["Journal Article"])).toBeNull();
    expect(studyDesign([])).toBeNull();
  });

  test("a case report with a review of the literature is a case report", () => {
    expect(studyDesign(["Case Reports", "Journal Article", "Review"])).toBe("case-report");
    expect(studyDesign(["Journal Article", "Review"])).toBe("review");
  });

  test("study-design MeSH headings make an observational or unnamed design precise, never override a trial", () => {
    expect(studyDesign(["Journal Article"], ["Humans", "Cohort Studies"])).toBe("cohort");
    expect(studyDesign(["Comparative Study"], ["Case-Control Studies"])).toBe("case-control");
    expect(studyDesign(["Journal Article"], ["Retrospective Studies"])).toBe("observational");
    expect(studyDesign(["Observational Study"], ["Cross-Sectional Studies"])).toBe("cross-sectional");
    expect(studyDesign(["Randomized Controlled Trial"], ["Prospective Studies"])).toBe("rct");
  });

  test("tiers follow the hierarchy of evidence; an unnamed design sits between observational work and case reports", () => {
    expect(designTier("meta-analysis")).toBeLessThan(designTier("rct"));
    expect(designTier("rct")).toBeLessThan(designTier("cohort"));
    expect(designTier("observational")).toBeLessThan(designTier(null));
    expect(designTier(null)).toBeLessThan(designTier("case-report"));
    expect(designTier("case-report")).toBeLessThan(designTier("opinion"));
  });

  test("subjects from the check tags, retraction from the type or the notice", () => {
    expect(subjectsOf(["Humans", "Male"])).toBe("humans");
    expect(subjectsOf(["Animals", "Mice"])).toBe("animals");
    expect(subjectsOf(["Humans", "Animals"])).toBe("humans_and_animals");
    expect(subjectsOf(["Neoplasms"])).toBeNull();
    expect(isRetracted(["Journal Article", "Retracted Publication"], null)).toBe(true);
    expect(isRetracted(["Journal Article"], 9867474)).toBe(true);
    expect(isRetracted(["Retraction of Publication"], null)).toBe(false); // the notice itself is not retracted
  });
});
