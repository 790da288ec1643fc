/**
 * The rules of issue 21 for the number of participants, kept as one signal among the learned model's features
 * (participants/candidates.ts: the candidate these rules would pick, and how strong their reading is). On their own
 * they were right in 60–67 % of their answers on abstracts labelled after they were written
 * (docs/decisions/0028-evidence-extraction.md), so the model decides how much to trust them.
 *
 * The number of participants an abstract states (issue 21, item 2): those randomised, else enrolled or taking part,
 * else included or studied, else analysed; null when the abstract states no such number. Rules, not a model: a count
 * is read only where a verb or a phrase says what it counts ("A total of 340 patients were randomized", "The study
 * enrolled 25 patients", "Of 2,000 eligible, 1,532 participated", "a series of 27 consecutive children", "PATIENTS:
 * 351 menopausal patients"). Group sizes are not added up (that would be a number the abstract does not state), and
 * years, ages, doses and percentages are never counts: a count must be followed by a word for people (or records)
 * and must not be followed by "%" or a unit.
 */
import { COUNT, NUMBER_WORDS, parseCount } from "../numbers.ts";

// Words for those counted. "controls" is left out on purpose: in a case-control study "1459 controls were
// recruited" is one group, not the study's size.
const PEOPLE =
  String.raw`(?:patients|participants|subjects|individuals|persons|people|women|men|children|adolescents|adults|` +
  String.raw`infants|neonates|newborns|boys|girls|volunteers|cases|outpatients|inpatients|residents|students|` +
  String.raw`veterans|mothers|pregnancies|smokers|survivors|respondents|asthmatics|diabetics|workers|athletes|` +
  String.raw`recipients|donors|families|couples|twins|eyes|entries|hospitali[sz]ations|admissions|episodes|` +
  String.raw`procedures|operations|surgeries|consecutive cases)`;
// Up to four descriptive words between the count and the noun ("71 postpubertal patients", "56 schizophrenia
// outpatients"); they may not be numbers, units or verbs of their own.
const ADJECTIVES = String.raw`(?:(?!(?:were|was|had|have|with|and|or|of|in|to)\b)[\p{L}][\p{L}\d'’-]*\s+){0,4}?`;
// What may follow the noun before the verb: a short qualifier without a sentence end.
// It may not run into another count ("…, 67 were traced and 40 completed"): that count is read on its own (a year
// is no count: "treated between 1976 and 1989 were included").
const QUALIFIER =
  String.raw`(?:\s*\([^()]{0,60}\)|\s*\[[^\[\]]{0,120}\])?` +
  String.raw`(?:,?\s+(?:with|from|aged|who|in|of|at|treated|undergoing|having|` +
  String.raw`diagnosed|admitted|scheduled|presenting)\b` +
  String.raw`(?:(?![,;]\s*\d|\band\s+(?!(?:1[89]|20)\d\d\b)\d)[^.;]){0,110}?)?`;
const BE = String.raw`(?:,?\s+(?:were|was|had been|have been|who were|who had|that were|all)\s+|\s+)`;

// Verbs in order of preference: randomised (1) > enrolled, participated (2) > included, completed, studied (3) >
// identified, reviewed, underwent (4) > analysed (5);
// "were treated" (6) names a subset more often than the whole study.
const VERBS: ReadonlyArray<readonly [number, string]> = [
  [1, String.raw`(?:randomi[sz]ed|randomly (?:assigned|allocated|selected|divided)|assigned|allocated)`],
  // Taking part is as good as enrolment ("496 patients were invited; 390 patients responded").
  [
    2,
    String.raw`(?:enrolled|recruited|entered|registered|accrued|participated|took part|agreed to participate|` +
      String.raw`responded)`,
  ],
  [
    3,
    String.raw`(?:included|completed|` +
      String.raw`met (?:the |our |all |the study's )?(?:inclusion|eligibility|study) criteria|were admitted|` +
      String.raw`were eligible for inclusion|were evaluated|were studied|were followed|were surveyed|` +
      String.raw`were interviewed|were examined prospectively)`,
  ],
  // Records found before selection ("96 patients were identified, and 63 met the inclusion criteria"), and a
  // procedure that is often one arm's ("whereas 40 patients (38.5%) underwent surgical decompression").
  [4, String.raw`(?:were identified|were reviewed|were screened|underwent)`],
  [5, String.raw`(?:were eligible|were analy[sz]ed|were available|were evaluable)`],
  [6, String.raw`(?:were treated|received)`],
];

/** One reading: the count, its priority (lower is better) and where it was read. */
interface Reading {
  value: number;
  priority: number;
  index: number;
  text: string;
}

/**
 * A rule reads a count at a candidate position: `after` is tested on the text from the count on (anchored at the
 * count, which is its first group), `before` (when given) on the text just before it (anchored at its end). Anchoring
 * every rule at the few counts of an abstract, instead of scanning the abstract once per rule, keeps extraction
 * fast.
 */
interface Rule {
  priority: number;
  before: RegExp | null;
  after: RegExp;
}

const PEOPLE_AFTER = new RegExp(String.raw`^(${COUNT})\s+${ADJECTIVES}${PEOPLE}\b`, "iu");
const rules: Rule[] = [];
for (const [priority, verb] of VERBS) {
  // "340 patients were randomized", "62 patients enrolled", "129 subjects who were enrolled".
  rules.push({
    priority,
    before: null,
    after: new RegExp(String.raw`^(${COUNT})\s+${ADJECTIVES}${PEOPLE}${QUALIFIER}${BE}(?:\w+ly\s+)?${verb}\b`, "iu"),
  });
}
// Verbs before the count, in the same order of preference: "The study enrolled 25 patients", "We identified 54
// patients", "enrolling 1,250 adults".
const ACTIVE_VERBS: ReadonlyArray<readonly [number, string]> = [
  [1, String.raw`(?:randomi[sz]ed|randomly (?:assigned|allocated))`],
  [2, String.raw`(?:enrolled|recruited|enrolling|recruiting|accrued)`],
  [3, String.raw`(?:included|including|studied|evaluated|followed|surveyed|interviewed)`],
  [4, String.raw`(?:identified|reviewed|screened)`],
  [5, String.raw`(?:analy[sz]ed)`],
];
// After a randomising or enrolling verb the counted noun may be any plural ("We randomized 123 African Americans").
const ANY_PLURAL_AFTER = new RegExp(String.raw`^(${COUNT})\s+(?:[\p{L}-]+\s+){0,3}?[\p{L}-]+s\b`, "iu");
const STRONG_VERB_BEFORE =
  /\b(?:randomi[sz]ed|randomly (?:assigned|allocated)|enrolled|recruited)\s+(?:a total of\s+)?$/iu;
rules.push({
  priority: 1,
  before: /\b(?:randomi[sz]ed|randomly (?:assigned|allocated))\s+(?:a total of\s+)?$/iu,
  after: ANY_PLURAL_AFTER,
});
rules.push({ priority: 2, before: /\b(?:enrolled|recruited)\s+(?:a total of\s+)?$/iu, after: ANY_PLURAL_AFTER });
for (const [priority, verb] of ACTIVE_VERBS) {
  rules.push({
    priority,
    before: new RegExp(String.raw`\b${verb}\s+(?:a total of\s+|data (?:on|from)\s+|from\s+)?$`, "iu"),
    after: PEOPLE_AFTER,
  });
}
// "A total of 11,265 entries", "a series of 27 consecutive children", "a cohort of 82 patients": weaker than an
// inclusion verb ("A total of 96 patients were identified, and 63 met the inclusion criteria").
rules.push({
  priority: 4,
  before: /\b(?:a total of|series of|cohort of|sample of|population of|consisting of|comprising|comprised)\s+$/iu,
  after: PEOPLE_AFTER,
});
// "Ninety consecutive patients", "25 consecutive cases".
rules.push({
  priority: 3,
  before: null,
  after: new RegExp(String.raw`^(${COUNT})\s+consecutive\s+${ADJECTIVES}${PEOPLE}`, "iu"),
});
// A structured abstract's participants section: "PATIENTS: 351 menopausal patients".
rules.push({
  priority: 3,
  before: /\b(?:PATIENTS|PARTICIPANTS|SUBJECTS|POPULATION|SAMPLE|STUDY POPULATION)\s*:\s*$/u,
  after: PEOPLE_AFTER,
});
// "Data were analysed from 85 patients".
rules.push({ priority: 5, before: /\banaly[sz]ed (?:from|in|for)\s+$/iu, after: PEOPLE_AFTER });
// "50 children with newly diagnosed nasopharyngeal carcinoma": the population described, weaker than any verb.
rules.push({
  priority: 5,
  before: null,
  after: new RegExp(
    String.raw`^(${COUNT})\s+${ADJECTIVES}${PEOPLE}\s+with\s+` +
      String.raw`(?:newly|a |an |confirmed|histologically|biopsy|suspected|` +
      String.raw`\p{L}+ (?:disease|cancer|carcinoma|syndrome))`,
    "iu",
  ),
});
// "fusion in 30 Duchenne patients", "In 184 patients (97 m, 87 f)", "Among 23 lymphoma cases": a count of people
// without a verb, the weakest reading, taken only when nothing else is stated.
rules.push({ priority: 7, before: /\b(?:in|from|of|on|among)\s+$/iu, after: PEOPLE_AFTER });

// Where counts may start: digits not inside another number or a name ("T1", "L5", "3.5"), or a number word.
// The lookahead on first letters lets the engine skip most positions before trying the number-word alternation.
const COUNT_AT = new RegExp(String.raw`(?<![\p{L}\d.,·-])(?=[\dOoTtFfSsEeNnZzHh])${COUNT}(?![\p{L}\d])`, "giu");
const BEFORE_WINDOW = 60;
const AFTER_WINDOW = 320;

// "Of 2,000 eligible, 1,532 participated"; "Of the 152 eligible patients with STF, 67 were traced and contacted and
// 40 completed outcome questionnaires": the last count in the clause with a participation verb.
const OF_CLAUSE = new RegExp(String.raw`\bOf (?:the |a total of |all )?(${COUNT})\b([^.;]{0,200})`, "gu");
const CLAUSE_COUNT = new RegExp(
  String.raw`(?:^|,\s*|\band\s+|;\s*)(${COUNT})(?:\s*\([^()]{0,20}\))?\s+(?:${ADJECTIVES}${PEOPLE}\s+)?` +
    String.raw`(?:were\s+|had\s+)?(participated|completed|agreed|responded|(?:were )?randomi[sz]ed|` +
    String.raw`(?:were )?enrolled|(?:were )?included|took part|(?:were )?analy[sz]ed)\b`,
  "giu",
);

// A count without a noun after another clause: "A total of 96 ASD patients were identified, and 63 met the study's
// inclusion criteria". Only inclusion verbs: "…, 55 were randomized to A and 52 to B" names one arm.
const NOUNLESS_INCLUDED = new RegExp(
  String.raw`(?:,\s*(?:and\s+)?|\band\s+)(${COUNT})\s+(?:\([^()]{0,20}\)\s+)?` +
    String.raw`(?:met (?:the |our |all |the study's )?(?:inclusion|eligibility|study) criteria|were included)\b`,
  "giu",
);

const NOT_A_COUNT_AFTER = /^\s*(?:%|percent|years?|yrs?|months?|weeks?|days?|hours?|mg|g\b|kg|ml|mL|Gy|cGy|mm|cm)/u;

function clauseReadings(text: string): Reading[] {
  const out: Reading[] = [];
  OF_CLAUSE.lastIndex = 0;
  for (let m = OF_CLAUSE.exec(text); m !== null; m = OF_CLAUSE.exec(text)) {
    const rest = m[2] ?? "";
    const restStart = m.index + m[0].length - rest.length;
    CLAUSE_COUNT.lastIndex = 0;
    let last: Reading | null = null;
    for (let c = CLAUSE_COUNT.exec(rest); c !== null; c = CLAUSE_COUNT.exec(rest)) {
      const raw = c[1] ?? "";
      const value = parseCount(raw);
      const verb = (c[2] ?? "").toLowerCase();
      const at = restStart + c.index + c[0].indexOf(raw);
      if (Number.isNaN(value) || looksLikeYear(raw, value, text.slice(Math.max(0, at - 12), at))) continue;
      const priority = /random/u.test(verb) ? 1 : /enrol/u.test(verb) ? 2 : /analy/u.test(verb) ? 5 : 3;
      const end = restStart + c.index + c[0].length;
      last = { value, priority, index: restStart + c.index, text: text.slice(m.index, end) };
    }
    if (last) out.push(last);
  }
  return out;
}

// A count that is one item of a list of groups ("3,440 NRI-exposed and 3,088 nonexposed subjects", "514 Kurdish
// women, 227 …, and 83 Arabic women", "40 NSCLC cases and 40 healthy controls") is a group size, not the study's.
const NOT_LIST_WORD = String.raw`(?!(?:were|was|had|have|enrolled|randomi[sz]ed|included|recruited|completed|participated|met)\b)`;
const LIST_BEFORE = new RegExp(
  String.raw`(?:\d|\b${NUMBER_WORDS})\s+(?:[\p{L}()-]+,?\s+){0,6}(?:and|,|, and)\s*$`,
  "iu",
);
const LIST_AFTER = new RegExp(
  String.raw`^\s+(?:${NOT_LIST_WORD}[\p{L}()-]+\s+){0,6}?${NOT_LIST_WORD}[\p{L}()-]+` +
    String.raw`(?:\s+and\s+|\s*,\s*(?:and\s+)?)\d[\d,]*\s+${NOT_LIST_WORD}(?!years?\b|months?\b)\p{L}`,
  "u",
);

function isGroupOfList(text: string, start: number, end: number): boolean {
  const before = text.slice(Math.max(0, start - 80), start);
  const sentenceBefore = before.slice(Math.max(before.lastIndexOf(". "), before.lastIndexOf("; ")) + 1);
  return LIST_BEFORE.test(sentenceBefore) || LIST_AFTER.test(text.slice(end, end + 100));
}

const N_EQUALS = /\([^()]*?\b[nN]\s*=\s*(\d{1,3}(?:,\d{3})+|\d+)\)|\b[nN]\s*=\s*(\d{1,3}(?:,\d{3})+|\d+)/gu;

/**
 * True when the count is a year: four digits from 1900 to 2035 after "in", "from", "between … and", "to", "until"
 * ("treated between 1976 and 1989 were included" counts no 1989 people).
 */
function looksLikeYear(raw: string, value: number, before: string): boolean {
  const yearWord = /\b(?:in|from|since|during|between|to|and|until)\s*$/iu;
  return /^\d{4}$/u.test(raw) && value >= 1900 && value <= 2035 && yearWord.test(before);
}

/**
 * The number of those randomised or enrolled (else included, else analysed) that `text` states.
 *
 * @param text An abstract (structured labels inline are fine: "PATIENTS: 351 …").
 * @returns The count as an integer with the verbatim span it was read from (a substring of `text`), or null when no
 *   such count is stated. Between readings the best verb wins (randomised, enrolled, included or studied, analysed,
 *   treated), then the earliest. Never throws.
 */
export function extractParticipants(text: string): { value: number; text: string; priority: number } | null {
  if (!text) return null;
  const readings: Reading[] = [...clauseReadings(text)];
  NOUNLESS_INCLUDED.lastIndex = 0;
  for (let m = NOUNLESS_INCLUDED.exec(text); m !== null; m = NOUNLESS_INCLUDED.exec(text)) {
    const raw = m[1] ?? "";
    const value = parseCount(raw);
    const at = m.index + m[0].indexOf(raw);
    const year = looksLikeYear(raw, value, text.slice(Math.max(0, at - 12), at));
    if (!Number.isInteger(value) || value < 1 || year) continue;
    readings.push({ value, priority: 3, index: m.index, text: m[0] });
  }
  COUNT_AT.lastIndex = 0;
  for (let c = COUNT_AT.exec(text); c !== null; c = COUNT_AT.exec(text)) {
    const raw = c[0];
    const at = c.index;
    const value = parseCount(raw);
    if (!Number.isInteger(value) || value < 1 || value > 50_000_000) continue;
    const after = text.slice(at, at + AFTER_WINDOW);
    if (NOT_A_COUNT_AFTER.test(after.slice(raw.length))) continue;
    const before = text.slice(Math.max(0, at - BEFORE_WINDOW), at);
    // Every rule needs people (or, after "randomized"/"enrolled", some plural) counted right after the number; most
    // numbers (doses, ages, results) fail here.
    if (!PEOPLE_AFTER.test(after) && !(STRONG_VERB_BEFORE.test(before) && ANY_PLURAL_AFTER.test(after))) continue;
    if (looksLikeYear(raw, value, before.slice(-12))) continue;
    let grouped: boolean | null = null;
    for (const rule of rules) {
      const b = rule.before === null ? null : rule.before.exec(before);
      if (rule.before !== null && b === null) continue;
      const m = rule.after.exec(after);
      if (m === null || m[1] !== raw) continue;
      grouped ??= isGroupOfList(text, at, at + raw.length);
      if (grouped) break;
      const start = b === null ? at : at - (before.length - b.index);
      readings.push({ value, priority: rule.priority, index: start, text: text.slice(start, at + m[0].length) });
    }
  }
  // "n = 1,250" when the abstract gives exactly one n (several are group sizes).
  const ns = [...text.matchAll(N_EQUALS)];
  if (ns.length === 1 && ns[0] !== undefined) {
    const m = ns[0];
    const before = text.slice(Math.max(0, (m.index ?? 0) - 40), m.index);
    if (!/\b(?:groups?|arms?)\b[^.]*$/iu.test(before + m[0])) {
      readings.push({ value: parseCount(m[1] ?? m[2] ?? ""), priority: 6, index: m.index ?? 0, text: m[0] });
    }
  }
  if (readings.length === 0) return null;
  readings.sort((a, b) => a.priority - b.priority || a.index - b.index);
  const best = readings[0] as Reading;
  return { value: best.value, text: best.text.trim(), priority: best.priority };
}
