/** OCEBM 2011 levels of the product's study designs ("Does this intervention help?"). */
import { expect, test } from "bun:test";
import { STUDY_DESIGNS } from "../../articles/evidence.ts";
import { evidenceLevel } from "./levels.ts";

test("levels follow the OCEBM 2011 table for treatment benefits", () => {
  expect(evidenceLevel("systematic-review")).toBe(1);
  expect(evidenceLevel("meta-analysis")).toBe(1);
  expect(evidenceLevel("rct")).toBe(2);
  expect(evidenceLevel("clinical-trial")).toBe(3);
  expect(evidenceLevel("cohort")).toBe(3);
  expect(evidenceLevel("case-control")).toBe(4);
  expect(evidenceLevel("observational")).toBe(4);
  expect(evidenceLevel("cross-sectional")).toBe(4);
  expect(evidenceLevel("case-report")).toBe(4);
  expect(evidenceLevel("review")).toBe(5);
  expect(evidenceLevel("opinion")).toBe(5);
});

test("unknown designs and guidelines get no level", () => {
  expect(evidenceLevel(null)).toBeNull();
  expect(evidenceLevel("guideline")).toBeNull();
});

test("every design of the product has an entry (a level or a deliberate null)", () => {
  for (const d of STUDY_DESIGNS) {
    expect(evidenceLevel(d) === null ? d : "graded").toBe(d === "guideline" ? "guideline" : "graded");
  }
});
