/**
 * What kind of evidence an article is, read from its PubMed record: the study design from its publication types
 * (NLM's Publication Type vocabulary) and study-design MeSH headings, the subjects from the MeSH check tags Humans
 * and Animals, and whether it was retracted (publication type "Retracted Publication", or a CommentsCorrections
 * RetractionIn link to the notice).
 *
 * The tiers follow the usual hierarchy of evidence for questions of treatment and harm (Oxford Centre for
 * Evidence-Based Medicine, Levels of Evidence 2011; Murad et al., "New evidence pyramid", BMJ EBM 2016): systematic
 * reviews and meta-analyses, then randomised trials, then other trials and observational studies, then case series
 * and case reports, with expert opinion (editorials, letters, comments) last. A record that names no design
 * (plain "Journal Article") gets none rather than a guess.
 */

/** Study designs the product distinguishes, strongest evidence first. */
export const STUDY_DESIGNS = [
  "meta-analysis",
  "systematic-review",
  "rct",
  "clinical-trial",
  "guideline",
  "cohort",
  "case-control",
  "cross-sectional",
  "observational",
  "case-series",
  "review",
  "case-report",
  "opinion",
] as const;
export type StudyDesign = (typeof STUDY_DESIGNS)[number];

/**
 * The designs a PubMed record itself can name (publication types, MeSH): all but the case series, which only the
 * abstract's methods tell (src/reviews/evidence/study/). Review filters select by these.
 */
export const RECORD_DESIGNS = STUDY_DESIGNS.filter((d) => d !== "case-series") as Exclude<StudyDesign, "case-series">[];
export type RecordDesign = Exclude<StudyDesign, "case-series">;

interface DesignInfo {
  /** What a card shows in full. */
  label: string;
  /** What a citation badge shows ("[3, RCT]"). */
  abbreviation: string;
  /** 1 (strongest) .. 6 (weakest); see the module comment. */
  tier: number;
}

export const DESIGN_INFO: Record<StudyDesign, DesignInfo> = {
  "meta-analysis": { label: "Meta-analysis", abbreviation: "Meta-analysis", tier: 1 },
  "systematic-review": { label: "Systematic review", abbreviation: "Syst. review", tier: 1 },
  rct: { label: "Randomized controlled trial", abbreviation: "RCT", tier: 2 },
  "clinical-trial": { label: "Clinical trial", abbreviation: "Trial", tier: 3 },
  guideline: { label: "Practice guideline", abbreviation: "Guideline", tier: 3 },
  cohort: { label: "Cohort study", abbreviation: "Cohort", tier: 3 },
  "case-control": { label: "Case-control study", abbreviation: "Case-control", tier: 4 },
  "cross-sectional": { label: "Cross-sectional study", abbreviation: "Cross-sectional", tier: 4 },
  observational: { label: "Observational study", abbreviation: "Observational", tier: 4 },
  // Read from the abstract only (no publication type names it): one group described without a comparison.
  "case-series": { label: "Case series", abbreviation: "Case series", tier: 4 },
  review: { label: "Review", abbreviation: "Review", tier: 4 },
  "case-report": { label: "Case report", abbreviation: "Case report", tier: 5 },
  opinion: { label: "Editorial or letter", abbreviation: "Opinion", tier: 6 },
};

/** Tier of an article that names no design: between observational work and case reports. */
export const UNKNOWN_DESIGN_TIER = 4.5;

// Checked in this order; the first that matches a publication type wins, so a meta-analysis of trials is a
// meta-analysis and a randomised trial is not also "a clinical trial".
const BY_PUBLICATION_TYPE: ReadonlyArray<readonly [RecordDesign, RegExp]> = [
  ["meta-analysis", /^meta-analysis$/i],
  ["systematic-review", /^systematic review$/i],
  ["rct", /^randomized controlled trial/i],
  [
    "clinical-trial",
    /^(?:clinical trial|controlled clinical trial|pragmatic clinical trial|equivalence trial|adaptive clinical trial)/i,
  ],
  ["guideline", /^(?:practice guideline|guideline|consensus development conference)/i],
  [
    "observational",
    /^(?:observational study|multicenter study|comparative study|twin study|validation study|evaluation study)/i,
  ],
  // Before "review": a case report with a review of the literature is still a report of one case.
  ["case-report", /^case reports?$/i],
  ["review", /^(?:review|scoping review)$/i],
  ["opinion", /^(?:editorial|letter|comment|news|newspaper article|biography|interview|personal narrative)$/i],
];

// Study-design MeSH headings (the "Epidemiologic Studies" branch) make an observational design precise.
const BY_MESH: ReadonlyArray<readonly [RecordDesign, RegExp]> = [
  ["cohort", /^(?:cohort studies|prospective studies|longitudinal studies|follow-up studies)$/i],
  ["case-control", /^case-control studies$/i],
  // "Retrospective Studies" covers retrospective cohorts and case series alike: observational, nothing more precise.
  ["observational", /^retrospective studies$/i],
  ["cross-sectional", /^cross-sectional studies$/i],
];

/**
 * The study design of a record, or null when its record names none.
 * @param publicationTypes PubMed PublicationType texts ("Randomized Controlled Trial", "Review", …).
 * @param meshTerms MeSH DescriptorName texts; study-design headings refine an observational or unnamed design.
 */
export function studyDesign(
  publicationTypes: readonly string[],
  meshTerms: readonly string[] = [],
): RecordDesign | null {
  let byType: RecordDesign | null = null;
  for (const [design, pattern] of BY_PUBLICATION_TYPE) {
    if (publicationTypes.some((t) => pattern.test(t.trim()))) {
      byType = design;
      break;
    }
  }
  if (byType === null || byType === "observational") {
    for (const [design, pattern] of BY_MESH) if (meshTerms.some((m) => pattern.test(m.trim()))) return design;
  }
  return byType;
}

/** Tier (1 strongest .. 6 weakest) of a design, UNKNOWN_DESIGN_TIER for null. */
export function designTier(design: StudyDesign | null): number {
  return design === null ? UNKNOWN_DESIGN_TIER : DESIGN_INFO[design].tier;
}

/** Whom the study is about, from the MeSH check tags; null when the record carries neither tag. */
export type Subjects = "humans" | "animals" | "humans_and_animals";

/** The subjects of a record from its MeSH check tags "Humans" and "Animals". */
export function subjectsOf(meshTerms: readonly string[]): Subjects | null {
  const humans = meshTerms.includes("Humans");
  const animals = meshTerms.includes("Animals");
  return humans && animals ? "humans_and_animals" : humans ? "humans" : animals ? "animals" : null;
}

/**
 * Whether the record is retracted: PubMed marks a retracted article with the publication type "Retracted
 * Publication" and links it to the notice with CommentsCorrections RefType="RetractionIn".
 */
export function isRetracted(
  publicationTypes: readonly string[],
  retractionNoticePmid: number | null | undefined,
): boolean {
  return retractionNoticePmid != null || publicationTypes.some((t) => /^retracted publication$/i.test(t.trim()));
}
