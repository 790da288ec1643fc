/**
 * The study design an abstract states in words, for records whose publication types and MeSH name none (about half
 * of the sample's records are plain "Journal Article"). Read from the authors' own description of their study
 * ("In a double-blind randomized trial", "a retrospective cohort study", "a large-scale case-control study",
 * "We have retrospectively evaluated a series of 27 consecutive children"), never from mentions of other work:
 * sentences that call for future studies or cite earlier ones are skipped.
 *
 * The product's designs (src/articles/evidence.ts) have no "case series": a case series, like any retrospective
 * review of patients without a comparison group, is "observational", which ranks with case series in the evidence
 * hierarchy (tier 4; OCEBM 2011 level 4, see levels.ts).
 */
import type { StudyDesign } from "../../articles/evidence.ts";

/** A case-insensitive pattern matching any of the given alternatives (regex sources). */
const anyOf = (...alternatives: string[]) => new RegExp(alternatives.join("|"), "iu");

// Sentences about other studies or future work say nothing about this one's design.
const OTHER_WORK = anyOf(
  String.raw`\b(?:are|is|were) (?:needed|warranted|required)`,
  String.raw`\bfuture\b`,
  String.raw`\bfurther (?:studies|trials|research)`,
  String.raw`\bprevious(?:ly)?\b`,
  String.raw`\b(?:prior|earlier) (?:studies|trials)`,
  String.raw`\bshould be (?:tested|confirmed|conducted|evaluated)`,
  String.raw`\bpaves? the way`,
  String.raw`\blarger\b.*\btrials?\b`,
);

const RCT_QUALIFIER =
  String.raw`(?:controlled|clinical|double-blind(?:ed)?|single-blind(?:ed)?|placebo-controlled|prospective|` +
  String.raw`multicent(?:er|re)|open-label|crossover|cross-over|pilot|pragmatic|phase (?:I{1,3}V?|[1-4])|` +
  String.raw`parallel-group|,)`;

// Checked in order: a meta-analysis of randomised trials is a meta-analysis, a randomised trial's secondary cohort
// analysis is still a trial.
const BY_WORDING: ReadonlyArray<readonly [StudyDesign, RegExp]> = [
  [
    "meta-analysis",
    anyOf(
      String.raw`\bmeta-?analys[ie]s\b(?! of individual)`,
      String.raw`\bpooled analysis of (?:\w+ ){0,3}(?:trials|studies)`,
    ),
  ],
  // "a systematic review of history, examination, and investigations" (PMID 31418851) is a clinical work-up.
  [
    "systematic-review",
    anyOf(
      String.raw`\bsystematic (?:literature )?review` +
        String.raw`(?! of (?:the )?(?:history|patients?|medical|charts?|records?|clinical))\b`,
      String.raw`\bsystematically searched\b`,
      String.raw`\bPRISMA\b`,
    ),
  ],
  [
    "rct",
    anyOf(
      String.raw`(?<!non-?|not |quasi-)\b(?:randomi[sz]ed|randomised)(?: ${RCT_QUALIFIER})* (?:trial|study)`,
      String.raw`\b(?:were|was) (?:randomly (?:assigned|allocated)|randomi[sz]ed)\b`,
      String.raw`\brandomly (?:assigned|allocated)\b`,
    ),
  ],
  ["case-control", anyOf(String.raw`\bcase[- ]control\b`)],
  ["cross-sectional", anyOf(String.raw`\bcross-sectional\b`)],
  [
    "cohort",
    anyOf(
      String.raw`\b(?:prospective|retrospective|population-based|historical|longitudinal|birth|observational)? ?` +
        String.raw`cohort (?:study|analysis|design)\b`,
      String.raw`\b(?:prospective|retrospective|longitudinal|population-based) (?:\w+ )?cohort\b`,
      String.raw`\bprospective(?:ly)? (?:followed|study|observational study|follow-up)\b`,
    ),
  ],
  [
    "clinical-trial",
    anyOf(
      String.raw`\bphase (?:I{1,3}|[1-3]|I\/II|1\/2|II\/III)\b(?: (?:\w+ ){0,2})?(?:trial|study)`,
      String.raw`\b(?:single-arm|open-label|non-?randomi[sz]ed|uncontrolled|pilot) (?:\w+ ){0,2}(?:trial|study)\b`,
      String.raw`\bclinical trial\b`,
    ),
  ],
  [
    "case-report",
    anyOf(
      String.raw`\bwe (?:report|present|describe) (?:a|an|the|two|three) (?:rare |unusual |unique )?cases?\b`,
      String.raw`\b(?:a|an) \d{1,3}-year-old (?:man|woman|boy|girl|male|female|patient|child)\b`,
      String.raw`\bcase report\b`,
    ),
  ],
  [
    "observational",
    anyOf(
      String.raw`\bcase series\b`,
      String.raw`\bretrospective(?:ly)? (?:\w+ ){0,2}(?:review|analysis|study|evaluat|chart|audit|data)`,
      String.raw`\b(?:we )?retrospectively (?:reviewed|analy[sz]ed|evaluated|studied|examined|identified|collected)`,
      String.raw`\bseries of \d+ (?:consecutive )?(?:patients|cases|children|adults)`,
      String.raw`\bconsecutive (?:patients|cases)\b`,
      String.raw`\bobservational (?:study|analysis)\b`,
      String.raw`\bregistry\b`,
      String.raw`\bdatabase (?:study|analysis|review)\b`,
      String.raw`\bNationwide Inpatient Sample\b`,
    ),
  ],
  [
    "review",
    anyOf(
      String.raw`\b(?:this|in this|the present|a|our) (?:narrative |literature )?review\b`,
      String.raw`\bwe review(?:ed)? (?:the )?(?:literature|current|recent)`,
    ),
  ],
];

/**
 * The design an abstract's wording states, or null when it states none.
 *
 * @param text Abstract text (labels inline or not).
 * @returns A StudyDesign of src/articles/evidence.ts: "meta-analysis", "systematic-review", "rct", "case-control",
 *   "cross-sectional", "cohort", "clinical-trial", "case-report", "observational" (case series, retrospective
 *   reviews, registry and database analyses) or "review"; the first in that order that some sentence about this
 *   study states. Never throws.
 */
export function designFromAbstract(text: string): StudyDesign | null {
  if (!text) return null;
  for (const [design, pattern] of BY_WORDING) {
    const global = GLOBAL.get(pattern) as RegExp;
    global.lastIndex = 0;
    for (let m = global.exec(text); m !== null; m = global.exec(text)) {
      if (!OTHER_WORK.test(sentenceAt(text, m.index))) return design;
      if (m[0] === "") global.lastIndex++;
    }
  }
  return null;
}

// Each pattern once more with the global flag, to visit every mention (the first may be about other work).
const GLOBAL = new Map(BY_WORDING.map(([, p]) => [p, new RegExp(p.source, `${p.flags}g`)] as const));

/** The sentence around index i: from after the previous ". " to the next one (cheap; no full sentence split). */
function sentenceAt(text: string, i: number): string {
  const start = Math.max(text.lastIndexOf(". ", i), text.lastIndexOf("? ", i)) + 1;
  const next = text.indexOf(". ", i);
  return text.slice(start, next < 0 ? text.length : next + 1);
}
