import type { AppDeps } from "../deps.ts";
import { findAbbreviations } from "../../search/abbreviations.ts";
import { looksLikeAbbreviation, readTopic, type Concept, type TopicReading } from "../../search/concepts.ts";
import * as repo from "./repository.ts";

/**
 * Reads a review topic as concepts (search/concepts.ts), learning the long forms of the abbreviations it contains
 * from the corpus itself: the abstracts that use an abbreviation define it ("nasopharyngeal carcinoma (NPC)"), so
 * the long forms most of them give are its expansions here (Schwartz & Hearst 2003 definitions, counted over the
 * best-matching abstracts). Works with any search adapter: it only searches and reads `articles`.
 */

/** Abstracts read to learn one abbreviation. */
const ABSTRACTS_PER_ABBREVIATION = 40;
/** Most long forms kept for one abbreviation. */
const MAX_LONG_FORMS = 2;
/** Most abbreviations learned for one topic. */
const MAX_ABBREVIATIONS = 3;

/**
 * The long forms the corpus gives `abbreviation`, most frequent first: those defined in at least two abstracts, or
 * the single definition when only one abstract defines it. Matching of the short form is exact (case included).
 */
export async function learnLongForms(deps: Pick<AppDeps, "db" | "search">, abbreviation: string): Promise<string[]> {
  const { hits } = await deps.search.search(abbreviation, { limit: ABSTRACTS_PER_ABBREVIATION });
  const articles = await repo.findArticles(
    deps.db,
    hits.map((h) => h.pmid),
  );
  const counts = new Map<string, number>();
  for (const a of articles) {
    const longForm = findAbbreviations(`${a.title ?? ""} ${a.abstract ?? ""}`).get(abbreviation);
    if (longForm) counts.set(longForm.toLowerCase(), (counts.get(longForm.toLowerCase()) ?? 0) + 1);
  }
  const ranked = [...counts.entries()].sort((x, y) => y[1] - x[1] || x[0].localeCompare(y[0]));
  const frequent = ranked.filter(([, n]) => n >= 2);
  return (frequent.length ? frequent : ranked.slice(0, 1)).slice(0, MAX_LONG_FORMS).map(([lf]) => lf);
}

/** The topic's concepts, with its abbreviations expanded from the corpus. */
export async function readTopicFromCorpus(deps: Pick<AppDeps, "db" | "search">, topic: string): Promise<TopicReading> {
  const words = topic.match(/[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)*/gu) ?? [];
  const abbreviations = [...new Set(words.filter((w) => looksLikeAbbreviation(w, topic)))].slice(0, MAX_ABBREVIATIONS);
  const longForms = new Map<string, string[]>();
  for (const a of abbreviations) longForms.set(a, await learnLongForms(deps, a));
  return readTopic(topic, (a) => longForms.get(a) ?? []);
}

/** Stored concepts (literature_reviews.topic_concepts, jsonb) as Concept[]; anything malformed is dropped. */
export function storedConcepts(value: unknown): Concept[] {
  const parsed = typeof value === "string" ? (JSON.parse(value) as unknown) : value;
  if (!Array.isArray(parsed)) return [];
  return parsed.filter(
    (c): c is Concept =>
      !!c &&
      typeof c.label === "string" &&
      Array.isArray(c.alternatives) &&
      c.alternatives.every((a: unknown) => typeof a === "string"),
  );
}
