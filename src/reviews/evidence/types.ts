/**
 * What the clinical summary reads from each cited study (issue 21): its design and evidence level, the number of
 * participants, the PICO spans, the main result and every effect estimate its abstract states.
 *
 * The shapes are defined once, as the zod schemas of ./schemas.ts (they are also the API's document); this module
 * re-exports their types type-only and holds the plain values, so that the extractor and the browser's islands can
 * import it without loading zod: a type-only export is erased when compiled.
 */
import type { StudyAppraisal } from "./schemas.ts";

export type {
  EffectEstimate,
  EffectMeasure,
  EvidenceLevel,
  EvidenceRow,
  StudyAppraisal,
  StudyEvidence,
} from "./schemas.ts";

/** The appraisal of a study whose abstract tells none of it. */
export const NO_APPRAISAL: StudyAppraisal = {
  randomised: null,
  comparison_group: null,
  timing: null,
  blinding: null,
  follow_up: null,
  loss_to_follow_up: null,
  sources: {},
};
