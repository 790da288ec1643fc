/**
 * Candidates for an abstract's number of participants, and the features the learned model scores them by
 * (participants/extract.ts). A candidate is either one count as written ("205 patients were included") or the sum
 * of the group sizes one sentence lists ("26 underwent surgery and 29 were treated conservatively" → 55). Generation
 * is deliberately broad (every whole number of the abstract but percentages); which candidate is the study's size,
 * if any, is the model's decision, learned from the hand-labelled abstracts (scripts/evidence/train.ts).
 *
 * The features are generic: the words around the number (by position and as a bag), the sentence's words and role,
 * where the sentence stands in the abstract, the number's size and rank among the abstract's counts, and whether it
 * is the sum of, or a part of, other counts. None names a pattern read off an example.
 */
import type { AbstractView, ViewSentence } from "../abstract-view.ts";
import type { Token } from "../tokens.ts";
import { extractParticipants } from "./rules.ts";

export interface ParticipantCandidate {
  /** The count: one number, or the sum of `arms`. */
  value: number;
  /** The group sizes added up, in the order stated; null for a single count. */
  arms: number[] | null;
  /** Index of the sentence it was read in (the first, when its groups are stated in two). */
  sentence: number;
  /** Index of the last sentence it was read in, when its groups are stated in two sentences. */
  lastSentence?: number;
  /** Character offsets, in the sentence, of each number read (one for a count, one per arm). */
  spans: [number, number][];
  features: string[];
}

/** Largest count read (a national registry's size); anything larger is not a count of people. */
const MAX_COUNT = 50_000_000;
/** Most tokens between two group sizes of one list ("26 underwent surgery and 29 were treated conservatively"). */
const MAX_ARM_GAP = 24;

const isYear = (t: Token) => !t.words && /^\d{4}$/u.test(t.text) && t.value >= 1900 && t.value <= 2035;

/** Whether a number token can be a count of people at all: a whole number, not a percentage, in range. */
function countable(tokens: readonly Token[], i: number): boolean {
  const t = tokens[i] as Token;
  if (t.kind !== "number" || !t.integer || t.value < 1 || t.value > MAX_COUNT) return false;
  const next = tokens[i + 1];
  if (next && (next.text === "%" || /^percent/iu.test(next.text))) return false;
  // "3.5" is one token; "5-year", "T1", "L5-S1" are names or durations, kept: the model learns them.
  return true;
}

const word = (t: Token | undefined) => (t === undefined ? "<none>" : t.norm);

/**
 * Word classes named by the labelling conventions themselves (tests/fixtures/evidence-gold.json): what a count of
 * participants counts (people) and what it never counts (procedures, body parts, samples, events, places, studies,
 * durations, doses), the verbs of the conventions' order of preference (randomised > enrolled > included or studied >
 * analysed), and the words that make a count a part of another (subgroups, controls). They let the model share what it
 * learns about one word with the others of its class; which class matters, and how much, is learned. Stems
 * (tokens.ts `stem`).
 */
const WORD_CLASSES: Readonly<Record<string, readonly string[]>> = {
  PEOPLE: [
    "patient",
    "participant",
    "subject",
    "individual",
    "person",
    "people",
    "women",
    "men",
    "woman",
    "man",
    "children",
    "child",
    "adolescent",
    "adult",
    "infant",
    "neonate",
    "newborn",
    "boy",
    "girl",
    "volunteer",
    "case",
    "outpatient",
    "inpatient",
    "resident",
    "student",
    "veteran",
    "mother",
    "smoker",
    "survivor",
    "respondent",
    "recipient",
    "donor",
    "familie",
    "family",
    "couple",
    "twin",
    "pregnancie",
    "pregnant",
    "athlete",
    "worker",
    "nurse",
    "physician",
    "surgeon",
    "user",
    "member",
    "elderly",
    "candidate",
    "consecutive",
    "pair",
  ],
  CONTROLS: ["control", "healthy", "matched", "reference", "non"],
  NOT_PEOPLE: [
    "procedure",
    "operation",
    "surgerie",
    "eye",
    "knee",
    "hip",
    "level",
    "segment",
    "vertebra",
    "vertebrae",
    "teeth",
    "tooth",
    "lesion",
    "sample",
    "specimen",
    "isolate",
    "strain",
    "event",
    "episode",
    "admission",
    "prescription",
    "centre",
    "center",
    "hospital",
    "site",
    "countrie",
    "studie",
    "study",
    "trial",
    "article",
    "paper",
    "report",
    "record",
    "year",
    "month",
    "week",
    "day",
    "hour",
    "minute",
    "mg",
    "ml",
    "kg",
    "cm",
    "mm",
    "gy",
    "time",
    "cycle",
    "dose",
    "visit",
    "fracture",
    "implant",
    "screw",
    "image",
    "scan",
    "tumor",
    "tumour",
    "gene",
    "cell",
    "mouse",
    "mice",
    "rat",
    "dog",
    "animal",
    "item",
    "question",
    "variable",
    "factor",
    "point",
    "group",
    "arm",
    "session",
    "treatment",
    "course",
    "injection",
    "biopsie",
    "test",
    "measurement",
    "cohort",
    "database",
    "hospitalization",
  ],
  RANDOMIZE: ["randomized", "randomly", "randomization", "randomize", "allocated", "assigned", "allocation"],
  ENROL: [
    "enrolled",
    "recruited",
    "participated",
    "accrued",
    "entered",
    "registered",
    "took",
    "consented",
    "enrolling",
    "recruiting",
    "enrollment",
    "enrolment",
    "recruitment",
    "invited",
  ],
  INCLUDE: [
    "included",
    "including",
    "studied",
    "evaluated",
    "reviewed",
    "identified",
    "examined",
    "investigated",
    "assessed",
    "comprised",
    "consisted",
    "comprising",
    "involved",
    "underwent",
    "treated",
    "operated",
    "selected",
    "eligible",
    "screened",
    "surveyed",
    "interviewed",
    "collected",
    "retrospectively",
    "prospectively",
    "total",
    "series",
  ],
  ANALYSE: ["analyzed", "analysed", "evaluable", "available", "completed", "followed", "analysis", "remained", "lost"],
  PART: [
    "whom",
    "remaining",
    "subgroup",
    "these",
    "those",
    "them",
    "subset",
    "among",
    "respectively",
    "while",
    "whereas",
  ],
};
const CLASS_OF = new Map<string, string>();
for (const [cls, words] of Object.entries(WORD_CLASSES)) for (const w of words) CLASS_OF.set(w, cls);
const classOf = (t: Token | undefined) => (t?.kind === "word" ? (CLASS_OF.get(t.norm) ?? null) : null);

/** Class features of token i: the class of the first classed word after it (the counted noun) and of the words near. */
function classFeatures(s: ViewSentence, i: number, prefix: string): string[] {
  const t = s.tokens;
  const f: string[] = [];
  for (let k = i + 1; k <= Math.min(t.length - 1, i + 5); k++) {
    const c = classOf(t[k]);
    if (c === "PEOPLE" || c === "NOT_PEOPLE" || c === "CONTROLS") {
      f.push(`${prefix}noun:${c}`);
      break;
    }
    if (t[k]?.kind === "number" || t[k]?.text === "," || t[k]?.text === ";") break;
  }
  for (let k = i + 1; k <= Math.min(t.length - 1, i + 14); k++) {
    const c = classOf(t[k]);
    if (c && c !== "PEOPLE" && c !== "NOT_PEOPLE") f.push(`${prefix}Rc:${c}`);
  }
  for (let k = Math.max(0, i - 6); k < i; k++) {
    const c = classOf(t[k]);
    if (c) f.push(`${prefix}Lc:${c}`);
  }
  const b1 = classOf(t[i - 1]);
  if (b1) f.push(`${prefix}b1c:${b1}`);
  const a1 = classOf(t[i + 1]);
  if (a1) f.push(`${prefix}a1c:${a1}`);
  for (const x of t) {
    const c = classOf(x);
    if (c === "RANDOMIZE" || c === "ENROL" || c === "INCLUDE" || c === "ANALYSE") f.push(`${prefix}Sc:${c}`);
  }
  return f;
}

/** Words of a sentence for its bag features: stemmed words of three letters or more, once each. */
function sentenceWords(s: ViewSentence): string[] {
  return [...new Set(s.tokens.filter((t) => t.kind === "word" && t.norm.length >= 3).map((t) => t.norm))];
}

/** Features of the position of token i of sentence s. */
function contextFeatures(s: ViewSentence, i: number, prefix: string): string[] {
  const t = s.tokens;
  const f: string[] = [];
  for (let k = 1; k <= 3; k++) f.push(`${prefix}b${k}:${word(t[i - k])}`);
  for (let k = 1; k <= 4; k++) f.push(`${prefix}a${k}:${word(t[i + k])}`);
  f.push(`${prefix}b1a1:${word(t[i - 1])}|${word(t[i + 1])}`);
  f.push(`${prefix}a1a2:${word(t[i + 1])}|${word(t[i + 2])}`);
  f.push(`${prefix}b2b1:${word(t[i - 2])}|${word(t[i - 1])}`);
  for (let k = Math.max(0, i - 8); k < i; k++) if (t[k]?.kind === "word") f.push(`${prefix}L:${t[k]?.norm}`);
  for (let k = i + 1; k <= Math.min(t.length - 1, i + 8); k++) {
    if (t[k]?.kind === "word") f.push(`${prefix}R:${t[k]?.norm}`);
  }
  return f;
}

const bucket = (n: number, top: number) => String(Math.min(n, top));

/** A whole number of the abstract that can be a count of people: its sentence, its token index and the token. */
interface Single {
  s: ViewSentence;
  i: number;
  t: Token;
}

/**
 * What every candidate's features are read against: the abstract's countable numbers, its counts (those of them that
 * are not years) by value and by sentence, and the sums of counts stated together. Built once per abstract.
 */
interface AbstractCounts {
  /** Every countable number, years included, in reading order. */
  singles: Single[];
  /** The singles that are not years. */
  counts: Single[];
  /** Distinct count values, largest first. */
  ranked: number[];
  /** How often each count value occurs. */
  occurrences: Map<number, number>;
  /** The counts of each sentence, by sentence index. */
  bySentence: Map<number, Single[]>;
  /** Every count value. */
  valueSet: Set<number>;
  /** Sums of two or three counts of one sentence. */
  sums: Set<number>;
  /** Features of the sentence a candidate is read in (its role, position and words). */
  common: (s: ViewSentence) => string[];
}

/** The abstract's countable numbers and what is derived from them once (AbstractCounts). */
function abstractCounts(view: AbstractView): AbstractCounts {
  const singles: Single[] = [];
  for (const s of view.sentences) {
    s.tokens.forEach((t, i) => {
      if (countable(s.tokens, i)) singles.push({ s, i, t });
    });
  }
  const counts = singles.filter((c) => !isYear(c.t));
  const values = counts.map((c) => c.t.value);
  const ranked = [...new Set(values)].sort((a, b) => b - a);
  const occurrences = new Map<number, number>();
  for (const v of values) occurrences.set(v, (occurrences.get(v) ?? 0) + 1);
  const bySentence = new Map<number, Single[]>();
  for (const c of counts) bySentence.set(c.s.index, [...(bySentence.get(c.s.index) ?? []), c]);
  const sentenceBags = new Map<number, string[]>();
  const bagOf = (s: ViewSentence) => {
    let bag = sentenceBags.get(s.index);
    if (!bag) {
      bag = sentenceWords(s).map((w) => `s:${w}`);
      sentenceBags.set(s.index, bag);
    }
    return bag;
  };
  const common = (s: ViewSentence) => [
    `role:${s.role}`,
    `labelled:${s.labelled}`,
    `sent:${bucket(s.index, 4)}`,
    `relpos:${Math.min(4, Math.floor((5 * s.index) / Math.max(1, s.count)))}`,
    `last_sent:${s.index === s.count - 1}`,
    ...bagOf(s),
  ];
  return {
    singles,
    counts,
    ranked,
    occurrences,
    bySentence,
    valueSet: new Set(values),
    sums: sumsOfStatedCounts(bySentence),
    common,
  };
}

/**
 * Sums of two or three counts of one sentence: does a count equal the sum of others (a total stated with its parts),
 * or is it a part of a total stated elsewhere?
 */
function sumsOfStatedCounts(bySentence: ReadonlyMap<number, Single[]>): Set<number> {
  const sums = new Set<number>();
  for (const group of bySentence.values()) {
    for (let a = 0; a < group.length; a++) {
      for (let b = a + 1; b < group.length; b++) {
        const va = (group[a] as Single).t.value;
        const vb = (group[b] as Single).t.value;
        sums.add(va + vb);
        for (let c = b + 1; c < group.length; c++) sums.add(va + vb + (group[c] as Single).t.value);
      }
    }
  }
  return sums;
}

/** Whether the first classed word after count `o` is a word for people. */
const countsPeople = (o: Single) => classFeatures(o.s, o.i, "").includes("noun:PEOPLE");

/** The ratio of the smallest to the largest group size, in three bands. */
function ratioFeature(arms: readonly number[]): string {
  // Groups of one sample are of like size; a count and its subset ("96 identified, and 63 met …") are not.
  const ratio = Math.min(...arms) / Math.max(...arms);
  return `arms_ratio:${ratio >= 0.5 ? "similar" : ratio >= 0.2 ? "unequal" : "far"}`;
}

/**
 * The candidate of one count as written ("205 patients were included").
 * @param first Whether it is the abstract's first count that is not a year.
 */
function singleCandidate(ac: AbstractCounts, c: Single, first: boolean): ParticipantCandidate {
  const { s, i, t } = c;
  const classes = classFeatures(s, i, "");
  const f = [...contextFeatures(s, i, ""), ...classes, ...ac.common(s)];
  // Pairs of what is counted with what is done to it, and where: "patients … randomized" is not "patients …
  // analysed", and a count of people in the methods is not one in the results.
  const noun = classes.find((x) => x.startsWith("noun:")) ?? "noun:none";
  for (const x of classes)
    if (x.startsWith("Rc:") || x.startsWith("Lc:") || x.startsWith("b1c:")) f.push(`${noun}&${x}`);
  f.push(`${noun}&role:${s.role}`);
  f.push(`mag:${Math.floor(Math.log2(t.value))}`);
  if (t.words) f.push("in_words");
  if (i === 0) f.push("sentence_start");
  if (isYear(t)) f.push("year_like");
  else f.push(...countRelationFeatures(ac, c, first));
  return { value: t.value, arms: null, sentence: s.index, spans: [[t.start, t.end]], features: f };
}

/** Features of a count (not a year) against the abstract's other counts: rank, repeats, sums and lists. */
function countRelationFeatures(ac: AbstractCounts, c: Single, first: boolean): string[] {
  const { s, i, t } = c;
  const f: string[] = [];
  f.push(`rank:${bucket(ac.ranked.indexOf(t.value) + 1, 4)}`);
  f.push(`repeat:${bucket(ac.occurrences.get(t.value) ?? 1, 3)}`);
  if (first) f.push("first_count");
  if (ac.sums.has(t.value)) f.push("sum_of_others");
  const inSentence = ac.bySentence.get(s.index) ?? [];
  const partner = inSentence.some(
    (o) => o !== c && ac.valueSet.has(o.t.value + t.value) && o.t.value + t.value !== t.value,
  );
  if (partner) f.push("part_of_stated_total");
  // A member of a list of counts in one sentence ("26 … and 29 …"): a group's size, unless the list is a total
  // with its parts.
  const partners = inSentence.filter((o) => o !== c && Math.abs(o.i - i) <= MAX_ARM_GAP);
  if (partners.length > 0) {
    f.push("list_member");
    // Whether the other counts of the list count people too (groups of one sample) or something else.
    f.push(partners.some(countsPeople) ? "list_of_people" : "list_of_other");
    if (partners.every((o) => o.t.value < t.value)) f.push("list_largest");
  }
  const rankInSentence = inSentence.filter((o) => o.t.value > t.value).length;
  f.push(`rank_s:${bucket(rankInSentence + 1, 3)}`);
  f.push(`counts_s:${bucket(inSentence.length, 4)}`);
  return f;
}

/** Single counts in reading order; "first_count" marks the first that is not a year. */
function singleCandidates(ac: AbstractCounts): ParticipantCandidate[] {
  const out: ParticipantCandidate[] = [];
  let first = true;
  for (const c of ac.singles) {
    out.push(singleCandidate(ac, c, first));
    if (!isYear(c.t)) first = false;
  }
  return out;
}

/** Group sizes listed in one sentence: runs of 2–4 counts close to each other, by sentence and start. */
function listedGroupCandidates(ac: AbstractCounts): ParticipantCandidate[] {
  const out: ParticipantCandidate[] = [];
  for (const group of ac.bySentence.values()) {
    for (let a = 0; a < group.length; a++) {
      for (let k = 2; k <= 4 && a + k <= group.length; k++) {
        const run = group.slice(a, a + k);
        let ok = true;
        for (let j = 1; j < run.length; j++) {
          if ((run[j] as Single).i - (run[j - 1] as Single).i > MAX_ARM_GAP) ok = false;
        }
        if (!ok) break;
        const arms = run.map((r) => r.t.value);
        const value = arms.reduce((x, y) => x + y, 0);
        if (value > MAX_COUNT) continue;
        out.push({
          value,
          arms,
          sentence: (run[0] as Single).s.index,
          spans: run.map((r) => [r.t.start, r.t.end] as [number, number]),
          features: listedGroupFeatures(ac, run, group.length),
        });
      }
    }
  }
  return out;
}

/**
 * Features of a run of group sizes of one sentence: the words between and around them, what each counts, and how
 * their sizes compare.
 * @param sentenceCounts How many counts the sentence states in all.
 */
function listedGroupFeatures(ac: AbstractCounts, run: readonly Single[], sentenceCounts: number): string[] {
  const s = (run[0] as Single).s;
  const arms = run.map((r) => r.t.value);
  const value = arms.reduce((x, y) => x + y, 0);
  const f = ["arms", `arms:${run.length}`, ...ac.common(s).map((x) => `A${x}`)];
  const firstI = (run[0] as Single).i;
  const lastI = (run[run.length - 1] as Single).i;
  for (let j = firstI + 1; j < lastI; j++) {
    const tok = s.tokens[j] as Token;
    if (tok.kind !== "number") f.push(`between:${tok.norm}`);
  }
  run.forEach((r, j) => {
    f.push(`arm_a1:${word(s.tokens[r.i + 1])}`);
    f.push(`arm_a2:${word(s.tokens[r.i + 2])}`);
    f.push(`arm_b1:${word(s.tokens[r.i - 1])}`);
    if (j > 0) f.push(`arm_join:${word(s.tokens[r.i - 1])}|${word(s.tokens[r.i - 2])}`);
  });
  for (const x of contextFeatures(s, firstI, "A")) f.push(x);
  for (const x of classFeatures(s, lastI, "A")) f.push(x);
  let people = 0;
  run.forEach((r) => {
    for (const x of classFeatures(s, r.i, "arm_")) if (x.startsWith("arm_noun:")) f.push(x);
    if (countsPeople(r)) people++;
  });
  f.push(`arms_people:${people === run.length ? "all" : people > 0 ? "some" : "none"}`);
  f.push(`arms_mag:${Math.floor(Math.log2(value))}`);
  f.push(ratioFeature(arms));
  if (arms.every((x, j) => j === 0 || x <= (arms[j - 1] as number))) f.push("arms_descending");
  if (ac.valueSet.has(value)) f.push("arms_total_stated");
  if (run.every((r) => r.t.value === arms[0])) f.push("arms_equal");
  if (lastI + 1 < s.tokens.length && s.tokens[lastI + 1]?.text === ")") f.push("arms_end_paren");
  if (run.length === sentenceCounts) f.push("arms_all_counts_of_sentence");
  return f;
}

/**
 * Groups of one sample stated in two sentences ("Thirty consecutive patients with AF underwent PVI … Twenty
 * patients without AF served as controls."): the people counts of adjacent sentences, summed.
 */
function crossSentenceGroupCandidates(ac: AbstractCounts, peopleCounts: readonly Single[]): ParticipantCandidate[] {
  const out: ParticipantCandidate[] = [];
  for (let a = 0; a + 1 < peopleCounts.length; a++) {
    const x = peopleCounts[a] as Single;
    const y = peopleCounts[a + 1] as Single;
    if (y.s.index !== x.s.index + 1) continue;
    const value = x.t.value + y.t.value;
    if (value > MAX_COUNT) continue;
    const f = ["arms", "arms:2", "arms_cross_sentence", "arms_people:all", ...ac.common(x.s).map((z) => `A${z}`)];
    for (const z of contextFeatures(x.s, x.i, "A")) f.push(z);
    for (const z of contextFeatures(y.s, y.i, "B")) f.push(z);
    for (const z of classFeatures(y.s, y.i, "B")) f.push(z);
    f.push(ratioFeature([x.t.value, y.t.value]));
    if (ac.valueSet.has(value)) f.push("arms_total_stated");
    out.push({
      value,
      arms: [x.t.value, y.t.value],
      sentence: x.s.index,
      lastSentence: y.s.index,
      spans: [[x.t.start, x.t.end]],
      features: f,
    });
  }
  return out;
}

/** Marks the candidates the issue-21 rules would pick (rules.ts), with the strength of their verb, as a signal. */
function markRulePick(view: AbstractView, candidates: readonly ParticipantCandidate[]): void {
  const rule = extractParticipants(view.sentences.map((x) => x.text).join(" "));
  if (!rule) return;
  for (const c of candidates) {
    const sentence = view.sentences[c.sentence]?.text ?? "";
    if (c.value === rule.value && c.arms === null && (sentence.includes(rule.text) || rule.text.includes(sentence))) {
      c.features.push("rule_pick", `rule_priority:${rule.priority}`);
    }
  }
}

/**
 * The candidates of an abstract with their features.
 * @param view The abstract (abstract-view.ts).
 * @returns Single counts in reading order, then the sums of listed group sizes; [] when the abstract states no whole
 *   number.
 */
export function participantCandidates(view: AbstractView): ParticipantCandidate[] {
  const ac = abstractCounts(view);
  const peopleCounts = ac.counts.filter(countsPeople);
  const out = [
    ...singleCandidates(ac),
    ...listedGroupCandidates(ac),
    ...crossSentenceGroupCandidates(ac, peopleCounts),
  ];
  // How many counts of people the abstract states elsewhere: one alone is likelier the study's than one of several.
  const peopleTotal = peopleCounts.length;
  for (const c of out) if (c.arms === null) c.features.push(`people_counts:${bucket(peopleTotal, 5)}`);
  // One person described individually ("We report the case of a 45-year-old woman …", "A 20-year-old man
  // presented …"): a case report's one participant, which no number states. Once per abstract, at its first mention.
  const one = singlePerson(view);
  if (one) out.push(one);
  markRulePick(view, out);
  return out;
}

/**
 * Features of the "none" alternative: what an abstract that states no number of participants is like (the choice
 * model weighs them against its candidates): how many counts it has of people and of other things, whether a verb of
 * enrolment occurs at all, whether it is structured, and its publication types and MeSH check tags.
 */
export function noneFeatures(
  view: AbstractView,
  article: { publication_types?: readonly string[]; mesh_terms?: readonly string[] },
  candidates: readonly ParticipantCandidate[],
): string[] {
  const f = ["none"];
  const people = candidates.filter((c) => c.arms === null && c.features.includes("noun:PEOPLE")).length;
  const other = candidates.filter((c) => c.arms === null && c.features.includes("noun:NOT_PEOPLE")).length;
  f.push(`none:people_counts:${bucket(people, 4)}`, `none:other_counts:${bucket(other, 4)}`);
  f.push(`none:counts:${bucket(candidates.filter((c) => c.arms === null).length, 8)}`);
  for (const cls of ["RANDOMIZE", "ENROL", "INCLUDE", "ANALYSE"]) {
    if (view.sentences.some((s) => s.tokens.some((t) => classOf(t) === cls))) f.push(`none:verb:${cls}`);
  }
  f.push(`none:structured:${view.sentences.some((s) => s.labelled)}`);
  for (const t of article.publication_types ?? []) f.push(`none:pt:${t.toLowerCase()}`);
  for (const m of article.mesh_terms ?? [])
    if (/^(?:humans|animals)$/iu.test(m)) f.push(`none:mesh:${m.toLowerCase()}`);
  return f;
}

/** Words for one person, after "a"/"an" and an age ("a 45-year-old woman", "an elderly man", "a patient"). */
const ONE_PERSON =
  /\b(?:a|an|one)\s+(?:(?:\d{1,3}|[a-z]+)[- ](?:year|month|week|day)s?[- ]old\s+|[\p{L}-]+\s+){0,3}?(man|woman|boy|girl|male|female|patient|child|infant|neonate|newborn|gentleman|lady)\b/iu;

/**
 * The candidate "1" of an abstract that describes one person (the first sentence that does), with features of that
 * sentence; null when no sentence does.
 */
function singlePerson(view: AbstractView): ParticipantCandidate | null {
  for (const s of view.sentences) {
    const m = ONE_PERSON.exec(s.text);
    if (!m) continue;
    const f = [
      "single_person",
      `sp_role:${s.role}`,
      `sp_sent:${bucket(s.index, 4)}`,
      `sp_noun:${(m[1] ?? "").toLowerCase()}`,
    ];
    for (const t of s.tokens) if (t.kind === "word" && t.norm.length >= 3) f.push(`sp_s:${t.norm}`);
    if (/\b(?:year|month|week|day)s?[- ]old\b/iu.test(m[0])) f.push("sp_age");
    if (/\b(?:case|report|present|describe)/iu.test(s.text)) f.push("sp_reports");
    return { value: 1, arms: null, sentence: s.index, spans: [[m.index, m.index + m[0].length]], features: f };
  }
  return null;
}
