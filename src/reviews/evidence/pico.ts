/**
 * PICO spans (population, intervention, comparator, outcome) read from an abstract by rules: each is a verbatim span
 * of the text or null. The cues are the phrasings trial and cohort abstracts use (CONSORT for Abstracts, Hopewell et
 * al., PLoS Med 2008, asks for participants, interventions and the primary outcome): "in patients with …",
 * "randomized to X or Y", "X versus Y", "compared with …", "The primary outcome was …", and the labels of structured
 * abstracts (PATIENTS:, INTERVENTIONS:, MAIN OUTCOME MEASURES:). Precision over recall: a span is only given when a
 * cue names it; nothing is paraphrased.
 */

export interface PicoSpans {
  population: string | null;
  intervention: string | null;
  comparator: string | null;
  outcome: string | null;
}

// People words that open a population span.
const PEOPLE =
  String.raw`(?:patients|participants|subjects|individuals|persons|people|women|men|children|adolescents|adults|` +
  String.raw`infants|neonates|newborns|boys|girls|volunteers|outpatients|inpatients|survivors|smokers|asthmatics|` +
  String.raw`recipients|residents|veterans|athletes|pregnant women)`;
// Where a span stops: punctuation that closes a clause, or a word that starts a new one.
const SPAN = String.raw`[^,;:.()\[\]]{2,120}?`;
const END =
  String.raw`(?=\s*(?:[,;:.()\[\]]|$)|\s+(?:who|were|was|is|are|had|has|have|showed|did|may|can|could|` +
  String.raw`and (?:to|the|then)|for \d|during|over|at|after|from \d|between|underwent|received|by|using|` +
  String.raw`with a (?:minimum|median|mean))\b|\s+\d)`;
// A bracket after an arm ("(n = 26)") and where an arm's span ends.
const BRACKET = String.raw`(?:\s*\([^)]*\))?`;
const ARM_END = String.raw`(?=\s*(?:[,;.]|$)|\s+(?:for|during|over|at|in|with|on)\s|\s+and (?:were|was|then|received)\b)`;

// "in 340 adults with type 2 diabetes", "of patients with locally advanced rectal cancer", "PATIENTS: 351
// menopausal patients (…) with inactive SLE": the people, up to two words before them, and what they have.
const POPULATION = new RegExp(
  String.raw`(?:^|\b(?:in|among|of|for|enrolled|included|recruited|randomi[sz]ed)\s+|[.:]\s+)` +
    String.raw`((?:\d[\d,]*\s+)?(?:[\p{L}-]+\s+){0,2}?${PEOPLE}\s+` +
    String.raw`(?:with|who had|who have|undergoing|aged|diagnosed with|treated for|receiving)\s+${SPAN})${END}`,
  "u",
);
// "randomized to receive X or Y", "randomly assigned to X (n = 26) or Y (n = 25)", "assigned to either X or to Y".
const RANDOMIZED_TO = new RegExp(
  String.raw`\b(?:randomi[sz]ed|randomly (?:assigned|allocated)|assigned|allocated)\s+(?:\([^)]*\)\s+)?` +
    String.raw`(?:\w+\s+){0,3}?to\s+(?:receive\s+|either\s+|treatment with\s+|one of (?:two|three) \w+:\s*)*` +
    String.raw`([^;:.]{2,160}?)${BRACKET},?\s+or\s+(?:to\s+)?(?:receive\s+)?([^;:.]{2,120}?)${BRACKET}${ARM_END}`,
  "iu",
);
// "To compare the efficacy and safety of X and Y in treatment of …", "comparing X with Y".
const COMPARE = new RegExp(
  String.raw`\bcompar(?:e|ed|ing)\s+(?:the\s+(?:[\p{L}-]+\s+){0,5}?(?:of|between)\s+)?(${SPAN})\s+` +
    String.raw`(?:with|to|versus|vs\.?|and)\s+(${SPAN})(?=\s*(?:[,;.]|$)|\s+(?:in|among|for|during|on|at)\s)`,
  "iu",
);
// "X versus Y" in an objective or design sentence.
const VERSUS = new RegExp(
  String.raw`\b(?:of|with|between)\s+(${SPAN})\s+(?:versus|vs\.?)\s+(${SPAN})(?=\s*(?:[,;.]|$)|\s+(?:in|among|for)\s)`,
  "iu",
);
// "with or without X" (an add-on with its control implied, as in "erlotinib with and without entinostat").
const WITH_WITHOUT = new RegExp(
  String.raw`\b(?:of|receiving|received|to|on)\s+([\p{L}\d-]+(?:\s+[\p{L}\d-]+){0,2}?)\s+` +
    String.raw`with (?:and|or) without\s+(?:the\s+)?(${SPAN})${END}`,
  "iu",
);
// "The primary outcome (measure) was …", "primary end point was …", "MAIN OUTCOME MEASURES: …".
const OUTCOME = new RegExp(
  String.raw`\b(?:primary|main|principal)\s+(?:efficacy\s+)?(?:outcomes?|end\s?-?points?)(?:\s+measures?)?` +
    String.raw`(?:\s+(?:of|for) this (?:study|trial))?\s+(?:was|were|is|included)\s+(?:the\s+)?([^;.,]{3,160}?)` +
    String.raw`(?=\s*(?:[;.,]|$)|\s+(?:with|and) (?:additional|secondary)\b)`,
  "iu",
);
const OUTCOME_LABEL = new RegExp(
  String.raw`\b(?:MAIN OUTCOME MEASURES?|PRIMARY OUTCOMES?(?: MEASURES?)?|OUTCOME MEASURES?|MEASUREMENTS)\s*:\s*` +
    String.raw`([^.;]{3,160})`,
  "u",
);
const PARTICIPANTS_LABEL = /\b(?:PATIENTS|PARTICIPANTS|SUBJECTS|POPULATION)\s*:\s*([^.;]{3,160})/u;
const INTERVENTION_LABEL = /\bINTERVENTIONS?\s*:\s*([^.;]{3,160})/u;

// "X versus Y" names arms only in a sentence that describes the study, not in one that reports subgroups.
const DESCRIBES_STUDY =
  /\b(?:compar|aim|purpose|objective|trial|study|effect|efficacy|outcomes? of|treated|randomi[sz])/iu;

/** The first "X versus Y" of a sentence that describes the study; null when none. */
function versusArms(head: string): RegExpExecArray | null {
  for (const sentence of head.split(/(?<=[.!?])\s+(?=\p{Lu})/u)) {
    if (!DESCRIBES_STUDY.test(sentence)) continue;
    const m = VERSUS.exec(sentence);
    if (m) return m;
  }
  return null;
}

/** Trims a span of surrounding spaces and trailing punctuation; null for a pronoun or a fragment. */
function clean(span: string | undefined): string | null {
  if (span === undefined) return null;
  const t = span.trim().replace(/[\s,;:]+$/u, "");
  if (t.length < 2 || /^(?:this|these|those|it|them|that|which|each other)$/iu.test(t)) return null;
  return t;
}

// Words that name when or where, not what: an arm made only of them, or opening with one of time, is no arm ("before"
// / "after surgery" compare one group over time; "across" / "within treatment groups" are prepositions).
const NOT_ARM_WORDS = new Set(
  (
    "before after during across within between among pre post prior following preoperative postoperative baseline " +
    "group groups arm arms patients subjects participants the a an of in on at to and or with without both either " +
    "each other all"
  ).split(" "),
);
const TIME_OPENER = /^(?:before|after|during|pre|post|prior|following|across|within|between|among)\b/iu;
const BEFORE_AFTER = /\b(?:before|after|pre-?operative(?:ly)?|post-?operative(?:ly)?|baseline)\b/iu;
// A clause cut mid-way ("life associated", "pain related") ends in a participle that needs its object.
const DANGLING_END = /\b(?:associated|related|based|compared|operating|undergoing|receiving|treated|used)$/iu;

/**
 * Whether two spans read as a comparison of two treatments or exposures (issue 33: "before" / "after surgery",
 * "life associated" / "operating", "across" / "within treatment groups" were shown as arms): each names something
 * (a word of four letters or more that is not a word of time, place or grouping), neither opens with a word of time or
 * place, and neither is a clause cut after a participle.
 */
export function plausibleArms(intervention: string, comparator: string): boolean {
  for (const arm of [intervention, comparator]) {
    const words = arm.toLowerCase().match(/[\p{L}][\p{L}-]*/gu) ?? [];
    if (!words.some((w) => w.length >= 4 && !NOT_ARM_WORDS.has(w))) return false;
    if (TIME_OPENER.test(arm.trim()) || DANGLING_END.test(arm.trim())) return false;
  }
  // The same thing at two times ("pain before" / "pain after surgery") is a before-after comparison, not two arms.
  const times = [intervention, comparator].filter((arm) => BEFORE_AFTER.test(arm)).length;
  return times === 0;
}

/**
 * Population, intervention, comparator and outcome spans of an abstract.
 *
 * @param text Abstract text, whitespace normalised (labels inline are used when present).
 * @returns Each field a substring of `text` or null; the comparator is only given with its intervention. Never throws.
 */
export function extractPico(text: string): PicoSpans {
  const out: PicoSpans = { population: null, intervention: null, comparator: null, outcome: null };
  if (!text) return out;

  const populationLabel = PARTICIPANTS_LABEL.exec(text);
  const population = POPULATION.exec(text);
  out.population = clean(population?.[1]) ?? clean(populationLabel?.[1]);

  // Arms are named where the study is described, before its results ("39% versus 63% for patients with high versus
  // low pSrc expression" compares subgroups, not treatments): the text before a RESULTS label, else its first half.
  const results = /\bRESULTS?\s*:/u.exec(text);
  const half = text.indexOf(". ", Math.ceil(text.length / 2));
  const head = text.slice(0, results ? results.index : half < 0 ? text.length : half + 1);
  const arms = RANDOMIZED_TO.exec(head) ?? COMPARE.exec(head) ?? versusArms(head);
  if (arms) {
    const intervention = clean(arms[1]);
    const comparator = intervention === null ? null : clean(arms[2]);
    // Fragments are no arms: nothing rather than a wrong pair.
    if (intervention !== null && comparator !== null && plausibleArms(intervention, comparator)) {
      out.intervention = intervention;
      out.comparator = comparator;
    }
  } else {
    const addOn = WITH_WITHOUT.exec(head);
    if (addOn) {
      // "erlotinib with and without entinostat": the intervention is the add-on, the comparator the base alone.
      out.intervention = clean(addOn[2]);
      out.comparator = out.intervention === null ? null : clean(addOn[1]);
    } else {
      out.intervention = clean(INTERVENTION_LABEL.exec(text)?.[1]);
    }
  }
  out.outcome = clean(OUTCOME.exec(text)?.[1]) ?? clean(OUTCOME_LABEL.exec(text)?.[1]);
  return out;
}
