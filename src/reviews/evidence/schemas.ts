/**
 * The evidence table's shapes (issue 21) as zod schemas: the one source of both the API's document (EvidenceRow,
 * StudyEvidence, StudyAppraisal, EffectEstimate components) and the TypeScript types the extractor, the summary, the
 * export and the browser use (`z.infer` below, re-exported type-only by ./types.ts). One definition, so a field added
 * to the extractor's output cannot be missing from the API, and a stored table parsed by `storedEvidenceTable` is an
 * `EvidenceRow` without a cast.
 *
 * Every text cell is a verbatim span of the article's abstract (whitespace normalised) or null, never invented;
 * numbers are parsed from such spans, and `text` keeps the span they came from.
 */
import { z } from "@hono/zod-openapi";
import { STUDY_DESIGNS } from "../../articles/evidence.ts";

/** Effect measures the extractor recognises. */
export const EFFECT_MEASURES = [
  "odds ratio",
  "risk ratio",
  "hazard ratio",
  "incidence rate ratio",
  "mean difference",
  "standardized mean difference",
  "risk difference",
  "percentage",
  "mean",
  "median",
] as const;
export type EffectMeasure = (typeof EFFECT_MEASURES)[number];

/** A schema with its OpenAPI description. */
const described = <T extends z.ZodType>(schema: T, description: string) => schema.openapi({ description });
const VERBATIM = "Verbatim span of the abstract, or null";

/**
 * One effect estimate as the abstract states it. For the values of two groups stated together (a percentage, mean or
 * median: "12% vs 18%"), `value` is the group stated first and `compared_value` the other; a p value of "p<0.001" is
 * 0.001 with the relation "<".
 */
export const EffectEstimateSchema = z
  .object({
    measure: described(z.enum(EFFECT_MEASURES), "What the estimate measures"),
    value: described(z.number(), 'The point estimate (a percentage as written: 45 for "45%")'),
    ci_low: described(z.number().nullable(), "Lower bound of the stated confidence interval; null when none"),
    ci_high: described(z.number().nullable(), "Upper bound of the stated confidence interval; null when none"),
    p_value: described(z.number().nullable(), 'The stated p value (0.001 for "p<0.001"); null when none is stated'),
    p_relation: described(z.enum(["=", "<", ">", "<=", ">="]).nullable(), "How the p value was stated, or null"),
    compared_value: described(
      z.number().nullable(),
      "For two groups' values stated together (percentage, mean, median: \"12% vs 18%\"), the second group's; " +
        "`value` is the group stated first. Null for ratios and differences",
    ),
    text: described(z.string(), "The verbatim span of the abstract the estimate was read from"),
  })
  .openapi("EffectEstimate");
export type EffectEstimate = z.infer<typeof EffectEstimateSchema>;

/**
 * How far a study can be trusted, read from its abstract (issue 37): the signalling questions of RoB 2 (randomised?
 * blinded?) and ROBINS-I (a comparison group? data collected prospectively?) that an abstract can answer, and the
 * follow-up and losses it states. Null where the abstract does not tell, or the model is not sure. `sources` holds,
 * for each item read, the abstract's sentence that states it in its words ("randomly assigned", "retrospective"); an
 * item is absent when no sentence does (a "no", or an item read from the record's publication types).
 */
export const StudyAppraisalSchema = z
  .object({
    randomised: described(z.boolean().nullable(), "Whether participants were randomly allocated; null when not told"),
    comparison_group: described(
      z.boolean().nullable(),
      "Whether outcomes were compared with another group; null when not told",
    ),
    timing: described(
      z.enum(["prospective", "retrospective"]).nullable(),
      "Whether data were collected prospectively or retrospectively; null when not told",
    ),
    blinding: described(
      z.enum(["double-blind", "single-blind", "assessor-blind", "open-label"]).nullable(),
      "Blinding as stated; null when not stated",
    ),
    follow_up: described(z.string().nullable(), "The clause stating the follow-up, verbatim; null when none"),
    loss_to_follow_up: described(
      z.string().nullable(),
      "The clause stating losses to follow-up or drop-outs, verbatim; null when none",
    ),
    sources: described(
      z.object({
        randomised: z.string().optional(),
        comparison_group: z.string().optional(),
        timing: z.string().optional(),
        blinding: z.string().optional(),
      }),
      "For each item read, the abstract's sentence that states it in its words (verbatim); absent when none does",
    ),
  })
  .openapi("StudyAppraisal");
export type StudyAppraisal = z.infer<typeof StudyAppraisalSchema>;

/**
 * Levels of the Oxford Centre for Evidence-Based Medicine 2011 table (question: "Does this intervention help?"):
 * 1 systematic review of randomised trials, 2 randomised trial, 3 non-randomised controlled cohort or follow-up
 * study, 4 case series, case-control or historically controlled study, 5 mechanism-based reasoning (narrative
 * reviews, opinion). Literals, not an int from 1 to 5: the document then lists the levels and the types name them.
 */
const EvidenceLevelSchema = z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4), z.literal(5)]);
export type EvidenceLevel = z.infer<typeof EvidenceLevelSchema>;

/**
 * A row of a review's evidence table: one cited study, in citation order. `participants` counts those randomised,
 * else enrolled, else included or studied, else analysed; `same_cohort` names the other cited studies reporting the
 * same participants (cohorts.ts), so that they are counted once in the opening.
 */
export const EvidenceRowSchema = z
  .object({
    citation: described(z.number().int(), "The study's citation number [n] in the summary"),
    pmid: z.number().int(),
    duplicate_pmids: described(
      z.array(z.number().int()),
      "Other PMIDs of the same work (duplicate publications, translations), cited as one source",
    ),
    same_cohort: described(
      z.array(z.number().int()),
      "Citation numbers of other cited studies reporting the same cohort (same participants, mostly the same " +
        "numbers, e.g. a translation); its participants are counted once",
    ),
    design: described(
      z.enum(STUDY_DESIGNS).nullable(),
      "The study design; null when neither the record nor the abstract names one",
    ),
    design_source: described(
      z.enum(["record", "abstract"]).nullable(),
      "Where the design was read: the PubMed record or the abstract's wording",
    ),
    evidence_level: described(
      EvidenceLevelSchema.nullable(),
      "Oxford CEBM 2011 level (1 strongest .. 5) for treatment benefit, from the design; null when unknown",
    ),
    participants: described(
      z.number().int().nullable(),
      "Those randomised, else enrolled, else included, else analysed, as the abstract states them; the sum of the " +
        "groups when only the groups' sizes are stated; null when not stated or not read with confidence",
    ),
    participants_arms: described(
      z.array(z.number().int()).nullable(),
      'The group sizes `participants` adds up ("55 (26 + 29)"); null when stated as one number',
    ),
    participants_text: described(
      z.string().nullable(),
      "The sentence `participants` was read from, verbatim; null with it",
    ),
    appraisal: StudyAppraisalSchema,
    population: described(z.string().nullable(), VERBATIM),
    intervention: described(z.string().nullable(), VERBATIM),
    comparator: described(z.string().nullable(), VERBATIM),
    outcome: described(z.string().nullable(), VERBATIM),
    result: described(z.string().nullable(), "The main result sentence, verbatim; null when none"),
    effects: described(z.array(EffectEstimateSchema), "Every effect estimate the abstract states, in order"),
    significance: described(
      z.enum(["significant", "not_significant"]).nullable(),
      "Whether the main comparison was statistically significant; null when it cannot be told",
    ),
  })
  .openapi("EvidenceRow");
export type EvidenceRow = z.infer<typeof EvidenceRowSchema>;

/**
 * What the extractor reads from one article's abstract (src/reviews/evidence/extract.ts): its evidence-table row
 * without the review's citation numbering.
 */
export const StudyEvidenceSchema = EvidenceRowSchema.omit({
  citation: true,
  duplicate_pmids: true,
  same_cohort: true,
}).openapi("StudyEvidence");
export type StudyEvidence = z.infer<typeof StudyEvidenceSchema>;
