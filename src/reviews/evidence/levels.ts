/**
 * Evidence levels from study designs, after OCEBM Levels of Evidence Working Group, "The Oxford 2011 Levels of
 * Evidence", Oxford Centre for Evidence-Based Medicine (https://www.cebm.ox.ac.uk/resources/levels-of-evidence/
 * ocebm-levels-of-evidence), for the question "Does this intervention help? (treatment benefits)":
 *
 * - Level 1: systematic review of randomized trials or n-of-1 trials.
 * - Level 2: randomized trial or observational study with dramatic effect.
 * - Level 3: non-randomized controlled cohort/follow-up study.
 * - Level 4: case-series, case-control studies, or historically controlled studies.
 * - Level 5: mechanism-based reasoning.
 *
 * The table grades by design only here; OCEBM also lets a level go down for poor quality, imprecision or
 * indirectness and up for a large effect, which an abstract's design label cannot tell. A systematic review or
 * meta-analysis is taken as level 1 whatever it pooled (the record rarely says whether its studies were randomised).
 */
import type { StudyDesign } from "../../articles/evidence.ts";
import type { EvidenceLevel } from "./types.ts";

const LEVEL_OF: Record<StudyDesign, EvidenceLevel | null> = {
  "meta-analysis": 1,
  "systematic-review": 1,
  rct: 2,
  // A non-randomised trial is a controlled follow-up study in OCEBM's terms.
  "clinical-trial": 3,
  cohort: 3,
  "case-control": 4,
  // Cross-sectional and otherwise unspecified observational designs (case series, retrospective reviews) are graded
  // with case series: they have no concurrent control followed over time.
  "cross-sectional": 4,
  observational: 4,
  "case-series": 4,
  // A case report is a case series of one.
  "case-report": 4,
  // Narrative reviews and opinion rest on reasoning, not on a study of patients.
  review: 5,
  opinion: 5,
  // A guideline's level is that of the evidence behind each recommendation, which its design label cannot give.
  guideline: null,
};

/**
 * The OCEBM 2011 level (1 strongest .. 5) of a design for treatment-benefit questions; null for an unknown design
 * and for guidelines (whose level depends on the evidence behind each recommendation).
 */
export function evidenceLevel(design: StudyDesign | null): EvidenceLevel | null {
  return design === null ? null : LEVEL_OF[design];
}
