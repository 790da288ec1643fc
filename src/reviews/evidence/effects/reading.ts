/**
 * How effect estimates are written, read by rules: the candidates of the learned effect extractor (effects/extract.ts
 * decides which of them are between-group results). Read here: ratio measures (odds, risk, hazard and
 * incidence-rate ratios), mean and standardized mean differences, risk differences, and percentages stated with the
 * other group's percentage ("28.4% vs. 21.7%", "70.2% for the screw group and 68.1% for the hook group"), each with
 * the confidence interval and p value written next to it.
 *
 * Confidence intervals are read in the forms reporting guidelines and journals use (CONSORT 2010 item 17a asks for
 * the estimate and its precision): "95% CI, 0.81 to 1.12", "(95% CI 1.2-2.9)", "95% confidence interval [CI],
 * 0.5-0.9", "95% CI: −4.1, 2.3", "[95% CI 1.1–2.3]", a bare "(1.2-2.9)" right after a ratio; p values as "P = .02",
 * "p<0.001", "P ≤ 0.05". Nothing is computed or converted: "a 29% increase in the odds" is not turned into an odds
 * ratio, and an interval that does not contain its estimate is dropped rather than repaired.
 */
import { parseDecimal, SIGNED } from "../numbers.ts";
import type { EffectEstimate, EffectMeasure } from "../types.ts";

export type PRelation = NonNullable<EffectEstimate["p_relation"]>;

// Names of each measure: full names (any case) and abbreviations (as written: "OR" in capitals, "or" is a word).
const MEASURE_NAMES: ReadonlyArray<{ measure: EffectMeasure; full: string; abbr: string | null }> = [
  // Meta-analyses report standardized mean differences as "effect size", Cohen's d or Hedges' g.
  {
    measure: "standardized mean difference",
    full: String.raw`standardi[sz]ed mean differences?|(?:pooled )?effect sizes?|Cohen['’]?s d|Hedges['’]? g`,
    abbr: String.raw`SMDs?`,
  },
  { measure: "mean difference", full: String.raw`(?:weighted )?mean differences?`, abbr: String.raw`W?MDs?` },
  {
    measure: "risk difference",
    full: String.raw`(?:absolute )?risk differences?|absolute risk reductions?`,
    abbr: String.raw`RDs?|ARRs?`,
  },
  {
    measure: "incidence rate ratio",
    full: String.raw`incidence[ -]rate ratios?|(?<!risk )rate ratios?`,
    abbr: String.raw`IRRs?`,
  },
  { measure: "hazard ratio", full: String.raw`hazard ratios?`, abbr: String.raw`a?HRs?|AHRs?` },
  { measure: "odds ratio", full: String.raw`odds ratios?`, abbr: String.raw`a?ORs?|AORs?` },
  { measure: "risk ratio", full: String.raw`relative risks?|risk ratios?`, abbr: String.raw`a?RRs?` },
];

const FULL_NAME = MEASURE_NAMES.map((n) => n.full).join("|");
const ABBR_NAME = String.raw`\b(?:${MEASURE_NAMES.flatMap((n) => (n.abbr ? [n.abbr] : [])).join("|")})\b`;
const FULL_TESTS = MEASURE_NAMES.map((n) => [n.measure, new RegExp(`^(?:${n.full})$`, "iu")] as const);
const ABBR_TESTS = MEASURE_NAMES.flatMap((n) =>
  n.abbr ? [[n.measure, new RegExp(`^(?:${n.abbr})$`, "u")] as const] : [],
);

// Optional qualifiers before a name ("adjusted odds ratio", "multivariate hazard ratio").
const QUALIFIER =
  String.raw`(?:(?:[Mm]ultivariate|[Mm]ultivariable|[Aa]djusted|[Cc]rude|[Pp]ooled|[Ss]ummary|[Oo]verall|` +
  String.raw`[Ee]stimated|[Ee]nhanced)\s+)?`;
// What may stand between a name and its value: "(OR)", "=", ":", ",", "of", "was", or a short phrase that ends in
// one of those ("in relapse risk of", "between arms was").
const LINK_WORD = String.raw`(?:[:=,]|\bof\b|\bwas\b|\bwere\b|\bis\b)`;
const LINK =
  String.raw`(?:\s*[(\[](?:[a-zA-Z]{1,5}s?|95% CIs?|CIs?)[)\]])?` + // "(OR)", "[OR]", "(ORs)", "[95% CI]", "(95% CIs)"
  String.raw`(?:\s+(?:in|for|between|among|of)\s+[^\d;:.()=]{1,50}?\s*${LINK_WORD}|\s*${LINK_WORD}?)` +
  String.raw`\s*(?:approximately\s+|about\s+)?`;
// A value ends where no further digit follows; "%" may close a difference of percentages ("difference, -1%").
const VALUE = String.raw`(${SIGNED})(?![\d.·]|\s*-fold)(\s?[%°])?`;
const NAMED_FULL = new RegExp(`(${QUALIFIER}(?:${FULL_NAME}))${LINK}${VALUE}`, "giu");
const NAMED_ABBR = new RegExp(`(${QUALIFIER}${ABBR_NAME})${LINK}${VALUE}`, "gu");
// A between-group difference without a named measure: "difference, 1.07;", "estimated difference of 0.033".
const NAMED_DIFFERENCE = new RegExp(
  String.raw`\b((?:[Ee]stimated |[Aa]djusted |[Bb]etween-group )?[Dd]ifference)` +
    String.raw`(?:\s*[:=,]\s*|\s+(?:of|was)\s+)${VALUE}`,
  "gu",
);
const ANY_FULL_NAME = new RegExp(FULL_NAME, "iu");
const ANY_ABBR_NAME = new RegExp(ABBR_NAME, "u");

// Confidence-interval forms; the bounds may carry "%" (percentages, differences of percentages).
const BOUND = String.raw`(${SIGNED})\s*[%°]?`;
const CI_LABEL =
  String.raw`(?:(?:9[059]|80)\s?%\s*|(?:9[059]|80)\s?percent\s+)?` +
  String.raw`(?:CIs?|CrI|confidence intervals?|credible intervals?|` +
  String.raw`confidence limits?)(?:\s*[\[(]CI[\])])?`;
const CI_LABELLED = new RegExp(
  String.raw`^[\s,;(\[]*${CI_LABEL}\s*(?:[:=,]|\bof\b|\bwas\b|\bfrom\b)?\s*[\[(]?\s*` +
    String.raw`${BOUND}\s*(?:to|-|–|—|,|;|and)\s*${BOUND}`,
  "iu",
);
// A bracket right after the value: "(1.2-2.9)", or "[-0.86, -0.69]" after a name that said "[95% CI]".
const CI_BARE = new RegExp(String.raw`^\s*[(\[]\s*${BOUND}\s*(?:to|-|–|—|,)\s*${BOUND}\s*[)\]]`, "u");
// An unlabelled interval after a semicolon that closes the bracket: "(RR: 3.8; 0.5-76)", "(OR: 2.6; 1.0-6.7)".
const CI_AFTER_SEMICOLON = new RegExp(String.raw`^\s*;\s*${BOUND}\s*(?:to|-|–|—)\s*${BOUND}(?=\s*[)\]])`, "u");

// A p value: "P = .02", "p<0.001", "P ≤ 0.05", "P-value of 0.03", "p=0·004", "p less than 0.0005"; "P < 10-4" is
// not read (rare).
export const P_VALUE = new RegExp(
  String.raw`(?<![\p{L}\d])[Pp](?:[- ]?values?)?\s*(=|<|>|≤|≥|<=|>=|=<|of|less than)\s*` +
    String.raw`(0?[.·]\d+|[01](?:[.·]\d+)?)(?![\d%])`,
  "u",
);
// Where the text after an estimate stops belonging to it: the next estimate's name or a sentence end.
const STOP_PLAIN = /\.\s+(?=\p{Lu})|\s(?:whereas|while)\s|\d\s?%(?!\s*(?:CI|confidence|credible))/u;

/** Where the text after an estimate stops belonging to it (another measure's name, a sentence end); -1: nowhere. */
function stopIndex(window: string): number {
  let at = -1;
  for (const re of [STOP_PLAIN, ANY_FULL_NAME, ANY_ABBR_NAME]) {
    const m = re.exec(window);
    if (m && (at < 0 || m.index < at)) at = m.index;
  }
  return at;
}
const P_WINDOW = 110;

/** Reads the confidence interval at the start of `tail`; null when none is written there. */
export function readInterval(tail: string, allowBare: boolean): { low: number; high: number; length: number } | null {
  const m = CI_LABELLED.exec(tail) ?? (allowBare ? (CI_BARE.exec(tail) ?? CI_AFTER_SEMICOLON.exec(tail)) : null);
  if (!m) return null;
  const low = parseDecimal(m[1] ?? "");
  const high = parseDecimal(m[2] ?? "");
  if (Number.isNaN(low) || Number.isNaN(high) || low > high) return null;
  return { low, high, length: m[0].length };
}

/** The first p value in `tail` before anything that belongs to another estimate; null when none. */
export function readP(tail: string): { value: number; relation: PRelation; end: number } | null {
  const window = tail.slice(0, P_WINDOW);
  const stop = stopIndex(window);
  const scope = stop >= 0 ? window.slice(0, stop) : window;
  const m = P_VALUE.exec(scope);
  if (!m) return null;
  const value = parseDecimal(m[2] ?? "");
  if (Number.isNaN(value) || value > 1) return null;
  const rel = m[1] ?? "=";
  const relation: PRelation =
    rel === "≤" || rel === "<=" || rel === "=<"
      ? "<="
      : rel === "≥" || rel === ">="
        ? ">="
        : rel === "of"
          ? "="
          : rel === "less than"
            ? "<"
            : (rel as PRelation);
  return { value, relation, end: m.index + m[0].length };
}

/** The measure a matched name (with its qualifier) stands for. */
function measureOf(name: string): EffectMeasure | null {
  const bare = name.replace(new RegExp(`^${QUALIFIER}`, "u"), "");
  for (const [measure, test] of ABBR_TESTS) if (test.test(bare)) return measure;
  for (const [measure, test] of FULL_TESTS) if (test.test(bare)) return measure;
  return null;
}

const RATIOS = new Set<EffectMeasure>(["odds ratio", "risk ratio", "hazard ratio", "incidence rate ratio"]);

/** True for a null-centred measure read as a ratio (its interval must be positive). */
function isRatio(measure: EffectMeasure): boolean {
  return RATIOS.has(measure);
}

/** Extends a span over the closing brackets of brackets it opened ("OR 2.1 (95% CI 1.2-2.9)"). */
export function closeBrackets(text: string, start: number, end: number): number {
  const span = text.slice(start, end);
  let open = (span.match(/[([]/gu) ?? []).length - (span.match(/[)\]]/gu) ?? []).length;
  let e = end;
  while (open > 0) {
    const closing = /^\s*[)\]]/u.exec(text.slice(e));
    if (!closing) break;
    e += closing[0].length;
    open--;
  }
  return e;
}

interface Found extends EffectEstimate {
  start: number;
  end: number;
}

/** Builds one estimate from a value at text[start..valueEnd) and what follows it. */
function withPrecision(
  text: string,
  measure: EffectMeasure,
  value: number,
  start: number,
  valueEnd: number,
  allowBare: boolean,
): Found {
  let end = valueEnd;
  let ciLow: number | null = null;
  let ciHigh: number | null = null;
  const ci = readInterval(text.slice(end), allowBare);
  // An interval must contain its estimate (rounding aside) and a ratio's must be positive.
  if (ci && ci.low <= value + 1e-9 && value <= ci.high + 1e-9 && (!isRatio(measure) || ci.low >= 0)) {
    ciLow = ci.low;
    ciHigh = ci.high;
    end += ci.length;
  }
  let pValue: number | null = null;
  let pRelation: PRelation | null = null;
  const p = readP(text.slice(end));
  if (p) {
    pValue = p.value;
    pRelation = p.relation;
    end += p.end;
  }
  end = closeBrackets(text, start, end);
  return {
    measure,
    value,
    ci_low: ciLow,
    ci_high: ciHigh,
    p_value: pValue,
    p_relation: pRelation,
    compared_value: null,
    text: text.slice(start, end).trim(),
    start,
    end,
  };
}

// A further value of the same measure in a list: "2.45 (95% CI: 2.03-2.94), 3.17(95% CI: 2.68-3.77) and 2.09 (…)".
const LIST_NEXT = new RegExp(String.raw`^\s*(?:,\s*(?:and\s+)?|\s+and\s+|;\s*)(${SIGNED})(?![\d.·%])`, "u");

/** Estimates introduced by the name of their measure ("OR 2.1", "hazard ratio, 0.35", "relative risk, 1.34"). */
function namedEstimates(text: string): Found[] {
  const out: Found[] = [];
  for (const re of [NAMED_FULL, NAMED_ABBR, NAMED_DIFFERENCE]) {
    re.lastIndex = 0;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      const name = m[1] ?? "";
      // "difference, 1.07; 95% CI, -3.67 to 5.82" names no measure: read as a mean difference.
      const bareDifference = re === NAMED_DIFFERENCE;
      const measure = bareDifference ? "mean difference" : measureOf(name);
      if (measure === null) continue;
      const value = parseDecimal(m[2] ?? "");
      if (Number.isNaN(value)) continue;
      if (isRatio(measure) && (value <= 0 || value > 1000 || m[3] !== undefined)) continue;
      // A bare bracket after the value is an interval for ratios, or for any measure whose name said "[95% CI]".
      const bare = isRatio(measure) || /CIs?[)\]]/u.test(m[0]);
      const found = withPrecision(text, measure, value, m.index, m.index + m[0].length, bare);
      // A bare "difference of 2" is too often not an estimate; it needs its interval or p value beside it.
      if (bareDifference && found.ci_low === null && found.p_value === null) continue;
      out.push(found);
      // A list continues only while each further value brings its own interval.
      let cursor = found.end;
      for (;;) {
        const next = LIST_NEXT.exec(text.slice(cursor));
        if (!next) break;
        const v = parseDecimal(next[1] ?? "");
        const valueEnd = cursor + next[0].length;
        const more = withPrecision(text, measure, v, cursor + next[0].indexOf(next[1] ?? ""), valueEnd, bare);
        if (more.ci_low === null || Number.isNaN(v)) break;
        out.push(more);
        cursor = more.end;
      }
      re.lastIndex = Math.max(re.lastIndex, cursor);
    }
  }
  return out;
}

// A percentage as written, with an optional "± SD%" and an optional bracket after it ("(37/45)", "[95% CI 50-83]").
// A mean of percentages may carry its SD before the sign ("86.6+/-24.0%") and a minus when it is a change
// ("-1.2+/-4.8%"); a minus is read only after a space or a bracket, never inside a range ("10-20%").
const SD = String.raw`(?:\s*(?:±|\+/-)\s*\d+(?:[.·]\d+)?)`;
const PCT =
  String.raw`((?:(?<=[\s(\[])[-−])?\d+(?:[.·]\d+)?)${SD}?\s?(?:%|percent\b)(?!\s*(?:CI|confidence|credible))` +
  String.raw`(?:${SD}\s?%?)?`;
// A bracket after the first percentage, one level of nesting allowed ("(95% confidence interval (CI): 11.4-39.8%)").
const AFTER = String.raw`(\s*[(\[](?:[^()\[\]]|\([^()]*\)){0,80}[)\]])?`;
// A short group label before the second percentage: "v EP, 20%".
const LABEL = String.raw`(?:[\p{L}][\p{L}\d+-]*,?\s+){0,3}?`;
const VERSUS = String.raw`,?\s*(?:vs\.?|versus|v\.?|compared (?:with|to)|against)\s+`;
const PCT_VERSUS = new RegExp(`${PCT}${AFTER}${VERSUS}${LABEL}${PCT}`, "gu");
// "45% in the X group and 30% in the Y group", "72% for 201Tl and 92% for dobutamine".
// The group's name is never a year ("23% in 2007 to between 44 and 45%" is a trend, not two groups).
const GROUP_INTRO = String.raw`\s+(?:for|in|among|with|of)\s+(?!(?:1[89]|20)\d\d\b)(?:the\s+|those\s+|patients\s+)?[^,;.%()]{1,60}?`;
const GROUP_JOIN = String.raw`,?\s+(?:and|but|whereas|while|compared (?:with|to)|versus|vs\.?)\s+(?:to\s+|only\s+)?`;
// A short bracket may follow the first group ("(11 of 43)"), but not one that holds a p value of its own.
const GROUP_BRACKET = String.raw`(?:\s*\((?![^()]*\b[Pp]\s*[<=>≤])[^()]{0,30}\))?`;
const PCT_GROUPS = new RegExp(
  `${PCT}${AFTER}(${GROUP_INTRO}${GROUP_BRACKET})${GROUP_JOIN}${PCT}` +
    String.raw`(?=(?:\s*\((?:[^()]|\([^()]*\))*\))?\s+(?:for|in|among|with|of)\s)`,
  "gu",
);
const LIST_OF_RATES_BEFORE = /\d\s?%\s+(?:of|in|for)\s[^.;%()]{1,60},\s*$/u;
// "(LCO: 33.3 %; UTO: 18 %, p = 0.28)", "(Group 1: 10.0% ± 0.4%; Group 2: 9.9% ± 0.3%; P = .7576)".
const GROUP_LABEL = String.raw`(?:[\p{Lu}][\p{L}\d+-]*(?: \d{1,2})?)`;
const PCT_LABELLED = new RegExp(`${GROUP_LABEL}:\\s*${PCT}\\s*[;,]\\s*${GROUP_LABEL}:\\s*${PCT}`, "gu");
// "… in the combined HRT and placebo groups by 30% and 29% …, respectively".
const PCT_PAIR = new RegExp(`${PCT}${AFTER}\\s+and\\s+${PCT}`, "gu");
const GROUP_WORD = /\b(?:groups?|arms?|cohorts?)\b/u;

/** The sentence of text around index i (up to a ". " followed by a capital). */
function sentenceAround(text: string, i: number): string {
  const before = text.slice(0, i);
  const startMatch = /.*[.!?]\s+(?=\p{Lu})/su.exec(before);
  const start = startMatch ? startMatch[0].length : 0;
  const after = /[.!?](?:\s+(?=\p{Lu})|$)/u.exec(text.slice(i));
  return text.slice(start, after ? i + after.index + 1 : text.length);
}

/** Percentages stated with the other group's percentage. */
function percentageEstimates(text: string): Found[] {
  const out: Found[] = [];
  const add = (m: RegExpExecArray, firstIdx: number, bracketIdx: number, secondIdx: number) => {
    const value = parseDecimal(m[firstIdx] ?? "");
    const other = parseDecimal(m[secondIdx] ?? "");
    if (Number.isNaN(value) || Number.isNaN(other) || value > 100 || other > 100) return;
    const bracket = m[bracketIdx];
    let ciLow: number | null = null;
    let ciHigh: number | null = null;
    if (bracket) {
      const ci = readInterval(bracket.replace(/^\s*[([]/u, ""), true) ?? readInterval(bracket, true);
      if (ci && ci.low <= value && value <= ci.high) {
        ciLow = ci.low;
        ciHigh = ci.high;
      }
    }
    // The other group's own bracket ("vs 44% [23-64]") stays part of the span.
    let end = m.index + m[0].length;
    const tailBracket = /^\s*[([][^()[\]]{0,40}[)\]]/u.exec(text.slice(end));
    if (tailBracket && !P_VALUE.test(tailBracket[0])) end += tailBracket[0].length;
    const p = readP(text.slice(end));
    let pValue: number | null = null;
    let pRelation: PRelation | null = null;
    if (p) {
      pValue = p.value;
      pRelation = p.relation;
      end += p.end;
    }
    end = closeBrackets(text, m.index, end);
    out.push({
      measure: "percentage",
      value,
      compared_value: other,
      ci_low: ciLow,
      ci_high: ciHigh,
      p_value: pValue,
      p_relation: pRelation,
      text: text.slice(m.index, end).trim(),
      start: m.index,
      end,
    });
  };
  for (const re of [PCT_VERSUS, PCT_GROUPS]) {
    re.lastIndex = 0;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      if (re === PCT_VERSUS) add(m, 1, 2, 3);
      // The last two items of a list of rates ("…, 100% of epithelioid mesotheliomas, 50% of rhabdoid tumors and
      // 100% of hemangiomas were stained") are not a comparison of two groups.
      else if (!LIST_OF_RATES_BEFORE.test(text.slice(Math.max(0, m.index - 80), m.index))) add(m, 1, 2, 4);
    }
  }
  PCT_LABELLED.lastIndex = 0;
  for (let m = PCT_LABELLED.exec(text); m !== null; m = PCT_LABELLED.exec(text)) add(m, 1, -1, 2);
  PCT_PAIR.lastIndex = 0;
  for (let m = PCT_PAIR.exec(text); m !== null; m = PCT_PAIR.exec(text)) {
    const sentence = sentenceAround(text, m.index);
    // Two percentages joined by "and" compare groups only when the sentence assigns them to groups in order, or when
    // they stand alone in brackets after what they compare ("… after blastocyst and cleavage-stage ETs (61.5% and
    // 64.4%, respectively)").
    const bracketed =
      /^,\s*respectively\s*[);]/u.test(text.slice(m.index + m[0].length)) && /[([]\s*$/u.test(text.slice(0, m.index));
    if ((/\brespectively\b/u.test(sentence) && GROUP_WORD.test(sentence)) || bracketed) add(m, 1, 2, 3);
    PCT_PAIR.lastIndex = m.index + 1;
  }
  return out;
}

/**
 * Every effect estimate stated in `text`, in order of appearance.
 *
 * @param text Abstract text (one section or the whole abstract), whitespace normalised or not.
 * @returns Estimates whose `text` is the verbatim substring of `text` they were read from (value, its interval and
 *   p value); percentages carry the other group's value in `compared_value`. Overlapping readings are resolved in
 *   favour of the earlier, then the longer, span. Never throws; [] when nothing is stated.
 */
export function readEstimates(text: string): EffectEstimate[] {
  if (!text) return [];
  // Most sentences state no estimate: skip the scans that cannot match (no digit; no "%" for percentages).
  if (!/\d/u.test(text)) return [];
  const found = [...namedEstimates(text), ...(/%|percent/u.test(text) ? percentageEstimates(text) : [])];
  found.sort((a, b) => a.start - b.start || b.end - a.end);
  const kept: Found[] = [];
  for (const f of found) {
    // Named estimates may sit inside a percentage span ("[34.6% vs. 64.0%; hazard ratio 0.40 …]"): both are kept
    // unless they read the same numbers.
    const clash = kept.some(
      (k) => f.start < k.end && k.start < f.end && (k.measure === f.measure || f.start === k.start),
    );
    if (!clash) kept.push(f);
  }
  return kept.map(({ start: _s, end: _e, ...e }) => e);
}
