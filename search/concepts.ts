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
