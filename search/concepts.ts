/**
 * Reading a review topic as concepts, the way PubMed's automatic term mapping reads a query before ANDing its parts
 * (docs/decisions/0014-topic-coverage.md). Pure: the long forms of abbreviations are passed in (src/reviews/topic.ts
 * learns them from the corpus).
 *
 * A concept is a word or phrase of the topic with the alternatives that also express it: the words' inflections
 * (left to the index's stemmer), an abbreviation's long forms, and a small curated set of MeSH entry terms. An
 * article covers a concept when it contains any alternative (title, abstract, MeSH headings or keywords), and covers
 * the topic when it covers every topic-carrying concept. Generic words ("treatment", "outcomes", "risk",
 * "patients", "study"…) are left out of coverage, because nearly every abstract has them; they still count for
 * ranking.
 */
import { parseQuery } from "./query.ts";
import { lightStem } from "./words.ts";

/** One concept of a topic. */
export interface Concept {
  /** How the concept is shown to the user: the words of the topic ("nasopharyngeal carcinoma", "NPC"). */
  label: string;
  /**
   * Words or phrases any one of which expresses the concept; each is matched as a phrase with the index's own text
   * analysis (stemming, stop words). The first is the topic's own wording.
   */
  alternatives: string[];
}

/** A topic as the engine reads it. */
export interface TopicReading {
  /** The topic-carrying concepts: an article must cover every one to be cited. */
  concepts: Concept[];
  /** Generic words of the topic, left out of coverage. */
  generic: string[];
}

/** English function words (PostgreSQL's 'english' stop list and question words): never concepts. */
const STOP_WORDS = new Set(
  (
    "a about above after again against all am an and any are as at be because been before being below between both but by can " +
    "could did do does doing down during each few for from further had has have having he her here hers herself him himself his " +
    "how i if in into is it its itself just me more most my myself no nor not now of off on once only or other our ours ourselves " +
    "out over own same she should so some such than that the their theirs them themselves then there these they this those through " +
    "to too under until up very was we were what when where which while who whom why will with would you your yours yourself " +
    "yourselves among within without whether via per vs versus there's what's is there may might also"
  ).split(" "),
);

/**
 * Words that nearly every clinical abstract contains, whatever it is about: requiring them would add nothing to
 * coverage, and a topic made only of them ("treatment outcomes") would match everything. Compared after light
 * stemming.
 */
const GENERIC = new Set(
  (
    "treatment treat treated therapeutic outcome result risk factor patient people person individual subject participant case " +
    "study trial review literature evidence analysis analyses effect effective effectiveness efficacy impact role association associated " +
    "relationship relation correlation comparison compared evaluation evaluate assessment assess management manage approach method " +
    "use using used new novel recent current update clinical feature characteristic predictor determinant prevalence incidence " +
    "overview aspect type level change year group report"
  )
    .split(" ")
    .map(lightStem),
);

/**
 * Curated synonym sets from MeSH entry terms (U.S. National Library of Medicine, Medical Subject Headings): each
 * set lists a heading's common entry terms and the adjective forms articles use for it. Deliberately small and
 * conservative: only equivalences a clinician would accept for coverage. "carcinoma" joins "cancer" as the
 * commonest way abstracts name a cancer.
 */
export const SYNONYM_SETS: readonly (readonly string[])[] = [
  ["cancer", "carcinoma", "neoplasm", "tumor", "tumour", "malignancy"],
  ["myocardial infarction", "heart attack"],
  ["stroke", "cerebrovascular accident", "brain infarction"],
  ["hypertension", "high blood pressure"],
  ["kidney", "renal"],
  ["liver", "hepatic"],
  ["lung", "pulmonary"],
  ["heart", "cardiac"],
  ["child", "children", "pediatric", "paediatric", "childhood"],
  ["elderly", "aged", "older adults", "older people"],
  ["obesity", "obese"],
  ["infection", "infectious", "infected"],
  ["surgery", "surgical", "operative"],
  ["vaccine", "vaccination", "immunization", "immunisation"],
  ["antibiotic", "antibacterial", "antimicrobial"],
  ["mortality", "death", "survival"],
  ["covid-19", "sars-cov-2", "coronavirus disease 2019"],
  ["spine", "spinal", "vertebral"],
  ["bone", "osseous"],
  ["skin", "cutaneous", "dermal"],
  ["pregnancy", "pregnant", "gestation"],
  ["smoking", "tobacco", "cigarette"],
  ["depression", "depressive"],
  ["diabetes", "diabetic"],
  // Issue 37: one treatment under its -therapy and -tion names ("concurrent chemoradiation" for "chemoradiotherapy").
  ["chemoradiotherapy", "chemoradiation", "radiochemotherapy", "chemo-radiotherapy", "chemo-radiation"],
  ["radiotherapy", "radiation therapy", "irradiation"],
  ["chemotherapy", "chemotherapeutic"],
  ["concurrent", "concomitant", "simultaneous"],
];

/** A word as the comparisons here see it: lower-cased, lightly stemmed. */
const norm = (word: string) => lightStem(word.toLowerCase());

/** The synonym sets, each member as a list of normalised words, longest members first. */
const SYNONYM_INDEX: { words: string[]; set: readonly string[] }[] = SYNONYM_SETS.flatMap((set) =>
  set.map((member) => ({ words: member.split(/\s+/).map(norm), set })),
).sort((a, b) => b.words.length - a.words.length);

/** Words of free text: letters and digits, keeping inner hyphens and apostrophes ("covid-19", "crohn's"). */
function tokens(text: string): string[] {
  return text.match(/[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu) ?? [];
}

/**
 * Whether a word of the topic, as typed, looks like an abbreviation: two or more capitals, or capitals with digits
 * ("NPC", "COPD", "HbA1c", "IL-6", "MRSA"), not a plain word in capitals inside a capitalised topic.
 */
export function looksLikeAbbreviation(word: string, topic: string): boolean {
  if (word.length < 2 || word.length > 10) return false;
  const capitals = (word.match(/\p{Lu}/gu) ?? []).length;
  if (capitals < 2 && !(capitals >= 1 && /\d/.test(word))) return false;
  // A topic typed in capitals throughout says nothing about its words.
  const letters = topic.replace(/[^\p{L}]/gu, "");
  return !(letters.length > 12 && letters === letters.toUpperCase());
}

/**
 * Reads a topic as concepts (see the module comment).
 * @param topic what the user typed: free words, "quoted phrases", -exclusions (ignored here: the search applies them).
 * @param longForms the known long forms of an abbreviation as typed (e.g. "NPC" → ["nasopharyngeal carcinoma"]).
 * @returns the concepts in topic order, without duplicates; when every word is generic, the generic words become
 *   the concepts (a topic must cover something).
 */
export function readTopic(
  topic: string,
  longForms: (abbreviation: string) => readonly string[] = () => [],
): TopicReading {
  const concepts: Concept[] = [];
  const generic: string[] = [];
  const seen = new Set<string>();
  const add = (label: string, alternatives: string[]) => {
    const key = alternatives
      .map((a) => a.toLowerCase())
      .sort()
      .join("|");
    if (seen.has(key)) return;
    seen.add(key);
    concepts.push({ label, alternatives: [...new Set(alternatives)] });
  };

  for (const segment of parseQuery(topic)) {
    if (segment.kind === "exclude") continue;
    if (segment.kind === "phrase") {
      const words = tokens(segment.text);
      if (words.some((w) => !STOP_WORDS.has(w.toLowerCase()))) add(segment.text, [segment.text]);
      continue;
    }
    const words = tokens(segment.text);
    for (let i = 0; i < words.length; ) {
      const word = words[i]!;
      const lower = word.toLowerCase();
      if (STOP_WORDS.has(lower)) {
        i++;
        continue;
      }
      // The longest curated synonym starting here ("heart attack" before "heart").
      const normalised = words.slice(i, i + 3).map(norm);
      const synonym = SYNONYM_INDEX.find((s) => s.words.every((w, k) => normalised[k] === w));
      if (synonym) {
        const span = words.slice(i, i + synonym.words.length).join(" ");
        add(span, [span, ...synonym.set]);
        i += synonym.words.length;
        continue;
      }
      if (looksLikeAbbreviation(word, topic)) {
        add(word, [word, ...longForms(word)]);
      } else if (GENERIC.has(norm(word))) {
        generic.push(lower);
      } else {
        add(word, [word]);
      }
      i++;
    }
  }
  if (concepts.length === 0) for (const g of [...new Set(generic)]) add(g, [g]);
  return { concepts, generic: [...new Set(generic)] };
}

/** The concepts' labels as a list in a sentence: "nasopharyngeal, carcinoma, smoking". */
export function conceptList(concepts: readonly Concept[]): string {
  return concepts.map((c) => c.label).join(", ");
}

/**
 * Whether a concept occurs in `text` only as the species epithet of an organism's binomial name (issue 37:
 * "pneumonia" must not be covered by "Klebsiella pneumoniae" or "Chlamydia pneumoniae", which the index's stemmer
 * reduces to the disease's word). An occurrence is an epithet when a capitalised genus (or its initial, "K.") comes
 * right before it and it carries a Latin ending beyond the concept's word ("pneumoniae", "influenzae"). False when
 * the concept occurs otherwise too, and when this reading finds no occurrence at all (the index matched a form it does
 * not know: the index is trusted then). Pure.
 */
export function onlyAsOrganism(concept: Concept, text: string): boolean {
  let epithets = 0;
  for (const alt of concept.alternatives) {
    const words = tokens(alt);
    if (words.length !== 1) continue;
    const word = (words[0] as string).toLowerCase();
    const escaped = word.replace(/[.*+?^${}()|[\]\\]/gu, "\\$&");
    const re = new RegExp(`(?<![\\p{L}\\p{N}])(${escaped}[\\p{L}]{0,4})(?![\\p{L}\\p{N}])`, "giu");
    for (const m of text.matchAll(re)) {
      const found = (m[1] ?? "").toLowerCase();
      const before = text.slice(Math.max(0, (m.index ?? 0) - 30), m.index);
      const genus = /(?:\b\p{Lu}\p{Ll}+|\b\p{Lu}\.)\s*$/u.test(before);
      const latin = found !== word && /(?:ae|i|is|us|um)$/u.test(found);
      if (!(genus && latin)) return false;
      epithets++;
    }
  }
  // Multi-word alternatives are never epithets: one that occurs names the concept.
  if (concept.alternatives.some((a) => tokens(a).length > 1 && new RegExp(tokens(a).join("\\s+"), "iu").test(text))) {
    return false;
  }
  return epithets > 0;
}

/** Top-level pieces of `text` joined by `joiner` (" AND ", " OR "), parentheses and quotes respected. */
function topLevel(text: string, joiner: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') quoted = !quoted;
    if (quoted) continue;
    if (ch === "(") depth++;
    else if (ch === ")") depth--;
    else if (depth === 0 && text.startsWith(joiner, i)) {
      parts.push(text.slice(start, i));
      start = i + joiner.length;
    }
  }
  parts.push(text.slice(start));
  return parts.map((p) => p.trim());
}

/** `text` without parentheses that wrap all of it ("(a OR b)" → "a OR b"; "(a) OR (b)" stays). */
function unwrap(text: string): string {
  let t = text.trim();
  for (;;) {
    if (!t.startsWith("(") || !t.endsWith(")")) return t;
    let depth = 0;
    let quoted = false;
    for (let i = 0; i < t.length; i++) {
      if (t[i] === '"') quoted = !quoted;
      if (quoted) continue;
      if (t[i] === "(") depth++;
      else if (t[i] === ")" && --depth === 0 && i < t.length - 1) return t;
    }
    t = t.slice(1, -1).trim();
  }
}

/**
 * A topic's concepts with the synonyms PubMed's automatic term mapping gave them (issue 37 item 7: esearch's
 * `querytranslation`, e.g. `("chemoradiotherapy"[MeSH Terms] OR "chemoradiotherapy"[All Fields] OR
 * "chemoradiation"[All Fields])`). A top-level AND part of the translation whose top-level OR terms include one of a
 * concept's alternatives, exactly (word forms aside), lends that concept its other top-level OR terms: the terms
 * PubMed took as the same thing. Nested groups ("proton"[All Fields] AND "pump"[All Fields]), terms naming another
 * concept's word, terms of three letters or fewer, generic words and NOT parts are not taken. Pure; the reading is
 * returned unchanged when the translation is null or lends nothing.
 */
export function withPubmedTranslation(reading: TopicReading, translation: string | null): TopicReading {
  if (!translation) return reading;
  const key = (t: string) => tokens(t).map(norm).join(" ");
  const groups = topLevel(unwrap(translation.split(" NOT ")[0] ?? ""), " AND ").map((part) =>
    topLevel(unwrap(part), " OR ").flatMap((piece) => {
      const m = /^"([^"]+)"\[[^\]]+\]$/u.exec(piece.trim());
      return m ? [(m[1] ?? "").trim()] : [];
    }),
  );
  const conceptWords = reading.concepts.map((c) => new Set(c.alternatives.flatMap((a) => tokens(a).map(norm))));
  let changed = false;
  const concepts = reading.concepts.map((c, i) => {
    const own = new Set(c.alternatives.map(key));
    const others = new Set(conceptWords.flatMap((words, k) => (k === i ? [] : [...words])));
    const extra: string[] = [];
    for (const terms of groups) {
      if (!terms.some((t) => own.has(key(t)))) continue;
      for (const t of terms) {
        const k = key(t);
        const words = tokens(t);
        if (own.has(k) || t.length <= 3) continue;
        if (words.some((w) => others.has(norm(w)))) continue;
        if (words.every((w) => GENERIC.has(norm(w)) || STOP_WORDS.has(w.toLowerCase()))) continue;
        own.add(k);
        extra.push(t);
      }
    }
    if (extra.length === 0) return c;
    changed = true;
    return { ...c, alternatives: [...c.alternatives, ...extra] };
  });
  return changed ? { ...reading, concepts } : reading;
}
