/**
 * MeSH headings that name no topic (check tags, study designs, generic headings), shared by the benchmarks that
 * build topics from the sample's MeSH headings (bench-coverage.ts, bench-evidence.ts).
 */
export const NON_TOPICAL_HEADINGS: ReadonlySet<string> = new Set(
  (
    "Humans|Male|Female|Adult|Middle Aged|Aged|Adolescent|Child|Animals|Young Adult|Child, Preschool|Infant|Aged, 80 and over|" +
    "Retrospective Studies|Prospective Studies|Treatment Outcome|Risk Factors|Follow-Up Studies|Time Factors|Cohort Studies|" +
    "Case-Control Studies|Questionnaires|Incidence|Prevalence|Mice|Rats|Cross-Sectional Studies|Infant, Newborn|" +
    "Reproducibility of Results|Prognosis|Sensitivity and Specificity|Survival Rate|Postoperative Complications|China|Pregnancy|" +
    "Surveys and Questionnaires|Severity of Illness Index|Kinetics|Molecular Sequence Data|Amino Acid Sequence|Base Sequence|" +
    "Time|Quality of Life|Disease Progression|Combined Modality Therapy|Radiography"
  ).split("|"),
);

/** More headings the evidence benchmark leaves out: cell and animal strains, countries, species, broad genetics. */
export const NON_TOPICAL_EXTRA: readonly string[] = (
  "Mice, Inbred C57BL|Cells, Cultured|Rats, Sprague-Dawley|Rats, Wistar|Dose-Response Relationship, Drug|Age Factors|Sex Factors|" +
  "United States|Japan|Cattle|Dogs|Mutation"
).split("|");
