/**
 * Two groups' values of one outcome stated together in a sentence ("82% vs 40%", "survival was 82% and 40%,
 * respectively", "a mean blood loss of 350 ml with A compared with 520 ml with B (P = .01)", "median 14.2 v 9.8
 * months"): candidates of the effect extractor, which learns which of them compare groups (effects/extract.ts).
 *
 * Reading only: every value of the sentence that could be a group's value (not a p value, an interval bound, a
 * standard deviation, a range, a fraction's parts or a year) is paired with the next value of the same kind (both
 * percentages, or both plain numbers); the first value's own interval and the p value stated after the pair (before
 * the next value) come with it. Whether the pair is a between-group result, a before/after change or two unrelated
 * numbers is not decided here.
 */
import { type Token, tokenize } from "../tokens.ts";
import type { EffectEstimate } from "../types.ts";
import { closeBrackets, readInterval, readP } from "./reading.ts";

/** One value that may be a group's. */
export interface GroupValue {
  value: number;
  percent: boolean;
  /** Index of its token in the sentence's tokens. */
  token: number;
  start: number;
  end: number;
}

/** A pair of values and what was read around it. */
export interface ValuePair extends EffectEstimate {
  first: GroupValue;
  second: GroupValue;
  start: number;
  end: number;
  /** How many values of the same kind the sentence holds (lists of three or more rarely compare two groups). */
  sameKind: number;
}

const isPercentSign = (t: Token | undefined) => t !== undefined && (t.text === "%" || /^percent/iu.test(t.text));
const YEAR = (t: Token) => !t.words && /^\d{4}$/u.test(t.text) && t.value >= 1900 && t.value <= 2035;

/** The values of a sentence's tokens that may be groups' values. */
export function groupValues(tokens: readonly Token[]): GroupValue[] {
  const out: GroupValue[] = [];
  // One flag per open bracket: whether it holds bounds or spreads (a bracket inside another keeps its own).
  const brackets: boolean[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] as Token;
    if (t.text === "(" || t.text === "[") {
      // A bracket that opens with "95% CI", "CI", "SD", "range" or "IQR" holds bounds or spreads, not groups' values.
      // Its head: the words before its first number or inner bracket ("(95% CI", "(sd", "[range").
      const head: string[] = [];
      for (let k = i + 1; k < Math.min(tokens.length, i + 5); k++) {
        const x = tokens[k] as Token;
        if (x.text === "(" || x.text === "[" || (x.kind === "number" && !isPercentSign(tokens[k + 1]))) break;
        head.push(x.norm);
      }
      brackets.push(/\b(?:ci|confidence|credible|range|iqr|interquartile|sd|se|sem|standard)\b/u.test(head.join(" ")));
      continue;
    }
    if (t.text === ")" || t.text === "]") {
      brackets.pop();
      continue;
    }
    const bracketHasCi = brackets[brackets.length - 1] === true;
    if (t.kind !== "number" || t.words || YEAR(t)) continue;
    if (bracketHasCi) continue;
    const prev = tokens[i - 1];
    const prev2 = tokens[i - 2];
    const next = tokens[i + 1];
    // Digits glued to a word are part of a name: "FiO2", "T1", "L5", "Group A0.125".
    if (prev?.kind === "word" && prev.end === t.start) continue;
    // p values, SDs ("± 4.8", "+/- 2"), fractions' parts ("12/40"), ranges' second bound ("10-20", "10 to 20").
    if (prev && /^[pP]$/u.test(prev2?.text ?? "") && /^[=<>≤≥]$/u.test(prev.text)) continue;
    if (prev && /^[=<>≤≥]$/u.test(prev.text) && prev2 && /^(?:p|value)$/iu.test(prev2.text)) continue;
    if (prev && (prev.text === "±" || (prev.text === "-" && prev2?.text === "/") || prev.text === "/")) continue;
    if (next && next.text === "/") continue;
    if (prev && (prev.text === "-" || prev.text === "–" || prev.norm === "to") && prev2?.kind === "number") continue;
    if (/^(?:ci|sd|se|sem|iqr)$/iu.test(prev?.text ?? "")) continue;
    // The upper bound's partner: "18-65" reads 18 as a range's start.
    if (next && (next.text === "-" || next.text === "–") && tokens[i + 2]?.kind === "number") {
      const after = tokens[i + 3];
      if (!isPercentSign(next) && !(after && isPercentSign(after) && isPercentSign(tokens[i + 1]))) continue;
    }
    // A negative value written with a leading minus: "−4.3".
    const negative =
      prev !== undefined && /^[-−]$/u.test(prev.text) && (prev2 === undefined || prev2.kind !== "number");
    const value = negative ? -t.value : t.value;
    const start = negative && prev ? prev.start : t.start;
    const percent = isPercentSign(next);
    out.push({ value, percent, token: i, start, end: percent && next ? next.end : t.end });
  }
  return out;
}

/**
 * The pairs of group values of one sentence, each with the first value's interval and the pair's p value.
 * @param sentence One sentence (a substring of the abstract).
 * @returns pairs in reading order; `text` is the verbatim span from the first value to the pair's p value (or the
 *   second value, its own bracket included).
 */
export function valuePairs(sentence: string, tokens: readonly Token[] = tokenize(sentence)): ValuePair[] {
  const values = groupValues(tokens);
  const out: ValuePair[] = [];
  for (let a = 0; a < values.length; a++) {
    const first = values[a] as GroupValue;
    const b = values.findIndex((v, k) => k > a && v.percent === first.percent);
    if (b < 0) continue;
    const second = values[b] as GroupValue;
    if (second.token - first.token > 40) continue;
    const sameKind = values.filter((v) => v.percent === first.percent).length;
    // Bounded by the value after the pair of the same kind: the p value must come before it.
    const next = values.find((v, k) => k > b && v.percent === first.percent);
    const limit = next ? next.start : sentence.length;
    // The first value's own interval, after its unit if any ("350 ml (95% CI 300-400)").
    const ci = readInterval(sentence.slice(first.end).replace(/^\s*(?:[\p{L}µ/]{1,8}\s*)?[([]/u, ""), true);
    const ciOk = ci && ci.low <= first.value && first.value <= ci.high;
    let end = second.end;
    // The second value's own bracket ("vs 44% [23-64]", "(13%)") is part of the span unless it holds the p value.
    const own = /^\s*[([][^()[\]]{0,40}[)\]]/u.exec(sentence.slice(end));
    if (own && !/\b[Pp]\s*[=<>≤≥]/u.test(own[0])) end += own[0].length;
    const p = readP(sentence.slice(end, limit));
    if (p) end += p.end;
    // The span opens where the clause does (the sentence's start or its last ";" before the pair), so that it names
    // what is compared: "Fusion rates were 12/40 (30%) versus 5/38 (13%), p = 0.04".
    const clause = Math.max(0, sentence.lastIndexOf("; ", first.start) + 2);
    const start = clause >= 2 ? clause : 0;
    end = closeBrackets(sentence, start, end);
    // Medians when the sentence names a median before the pair ("Median progression-free survival … was 3.9 months").
    const median = /\bmedian\b/iu.test(sentence.slice(0, second.start));
    out.push({
      measure: first.percent ? "percentage" : median ? "median" : "mean",
      value: first.value,
      compared_value: second.value,
      ci_low: ciOk && ci ? ci.low : null,
      ci_high: ciOk && ci ? ci.high : null,
      p_value: p?.value ?? null,
      p_relation: p?.relation ?? null,
      text: sentence.slice(start, end).trim(),
      first,
      second,
      start,
      end,
      sameKind,
    });
  }
  return out;
}

/** A value stated with its own confidence interval, and where it was read. */
export interface IntervalValue extends EffectEstimate {
  token: number;
  start: number;
}

/**
 * Values stated with a confidence interval right after them that no measure names ("mean=1.4, 95% CI=0.7, 2.1
 * servings/day", "averaging 1,500.3 (95% CI=77.6, 2,922.9) greater steps/day"): by the labelling conventions an
 * unnamed between-group difference with its interval is a mean difference. Candidates only: the effect model decides
 * (a single group's mean with its interval is no effect).
 */
export function intervalValues(sentence: string, tokens: readonly Token[] = tokenize(sentence)): IntervalValue[] {
  const out: IntervalValue[] = [];
  for (const v of groupValues(tokens)) {
    const tail = sentence.slice(v.end).replace(/^\s*(?:[\p{L}µ/]{1,12}\s*)?[,;]?\s*[([]?/u, "");
    const ci = readInterval(tail, false);
    if (!ci || ci.low > v.value || v.value > ci.high) continue;
    const clause = Math.max(0, sentence.lastIndexOf("; ", v.start) + 2);
    const start = clause >= 2 ? clause : 0;
    let end = v.end + (sentence.length - v.end - tail.length) + ci.length;
    const p = readP(sentence.slice(end));
    if (p) end += p.end;
    end = closeBrackets(sentence, start, end);
    out.push({
      measure: "mean difference",
      value: v.value,
      compared_value: null,
      ci_low: ci.low,
      ci_high: ci.high,
      p_value: p?.value ?? null,
      p_relation: p?.relation ?? null,
      text: sentence.slice(start, end).trim(),
      token: v.token,
      start,
    });
  }
  return out;
}
