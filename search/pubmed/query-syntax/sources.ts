/**
 * The texts a query's terms are looked for in (its "sources"), each a record's field normalised into words
 * (words.ts), and the distinct words of all of them: what the in-memory evaluation computes as it goes and what the
 * SQL evaluation reads from the copies stored with each article (stored.ts). The semantics are in
 * search/pubmed/query-syntax.ts.
 */
import type { PubmedField, PubmedQueryRecord } from "./types.ts";
import { JOURNAL_QUALIFIER_RE, LEADING_THE_RE, normalise, normaliseList } from "./words.ts";

/**
 * Normalised sources, each a string in which terms are looked for as substrings:
 *  ti, ab, jo: " words "; au, mh, mj, kw, pt: "| item words | … |"; la: "| code |";
 *  ta: "| journal words | journal words without its qualifier |", each without a leading "the".
 */
export type Source = "ti" | "ab" | "au" | "jo" | "ta" | "mh" | "mj" | "kw" | "pt" | "la";

/** Every source, in the order of the stored array `articles.syntax_sources` (index + 1 in SQL). */
export const SOURCES: readonly Source[] = ["ti", "ab", "au", "jo", "ta", "mh", "mj", "kw", "pt", "la"];

/** The sources each field searches. */
export const FIELD_SOURCES: Readonly<Record<Exclude<PubmedField, "dp">, readonly Source[]>> = {
  all: ["ti", "ab", "au", "jo", "mh", "kw"],
  tiab: ["ti", "ab"],
  ti: ["ti"],
  ab: ["ab"],
  tw: ["ti", "ab", "mh", "kw"],
  ot: ["kw"],
  mh: ["mh"],
  majr: ["mj"],
  au: ["au"],
  ta: ["ta"],
  pt: ["pt"],
  la: ["la"],
};

/** The normalised text of one source of a record (see Source). */
export function sourceText(record: PubmedQueryRecord, source: Source): string {
  switch (source) {
    case "ti":
      return normalise(record.title ?? "");
    case "ab":
      return normalise(record.abstract ?? "");
    case "jo":
      return normalise(record.journal ?? "");
    case "au":
      return normaliseList(record.authors ? record.authors.split(", ") : []);
    case "mh":
      return normaliseList(record.mesh_terms ?? []);
    case "mj":
      return normaliseList(record.mesh_major_terms ?? []);
    case "kw":
      return normaliseList(record.keywords ?? []);
    case "pt":
      return normaliseList(record.publication_types ?? []);
    case "la":
      return `|${normalise(record.language ?? "")}|`;
    case "ta": {
      const journal = record.journal ?? "";
      const bare = (s: string) => normalise(s).replace(LEADING_THE_RE, " ");
      return `|${bare(journal)}|${bare(journal.replace(JOURNAL_QUALIFIER_RE, ""))}|`;
    }
  }
}

/**
 * Longest word the word index keeps whole, in characters: a longer word is indexed by its first INDEXED_WORD_CHARS
 * characters, and a query's longer word is looked up as a prefix of that length. PostgreSQL refuses a lexeme of 2 KB
 * or more (https://www.postgresql.org/docs/current/textsearch-limitations.html); 64 characters (at most 256 bytes)
 * keeps every entry small.
 */
export const INDEXED_WORD_CHARS = 64;

/**
 * Most bytes of words one record's index entry holds. PostgreSQL refuses a tsvector of 1 MB or more (same page); a
 * record with more words than this (say tens of thousands of distinct author names) is indexed as "holds every word"
 * (OVERFLOW_WORD) instead, so that no query misses it: its sources are still read exactly.
 */
export const MAX_INDEXED_BYTES = 256 * 1024;

/** The entry of a record whose words exceed MAX_INDEXED_BYTES: never a word (no word holds "|"). */
export const OVERFLOW_WORD = "|";

/** A word as the index keeps it (see INDEXED_WORD_CHARS). */
export function indexedWord(word: string): string {
  if (word.length <= INDEXED_WORD_CHARS) return word;
  return [...word].slice(0, INDEXED_WORD_CHARS).join("");
}

/**
 * Whether the plain reading of the sources' words (every distinct run between spaces and "|", as stored.ts's SQL
 * derives it) is not the index entry: a word longer than INDEXED_WORD_CHARS, or more bytes than MAX_INDEXED_BYTES
 * could be (UTF-16 code units × 3 bounds the UTF-8 bytes). Rare; then `indexedWords` gives the entry.
 */
export function needsIndexedWords(sources: readonly string[]): boolean {
  let units = 0;
  for (const text of sources) {
    units += text.length;
    if (LONG_WORD.test(text)) return true;
  }
  // Each word is at least one unit: at most `units` words of 6 bytes of overhead each.
  return units * 9 > MAX_INDEXED_BYTES;
}

const LONG_WORD = new RegExp(`[^ |]{${INDEXED_WORD_CHARS + 1},}`);

/**
 * The distinct words of normalised sources, as the index keeps them (INDEXED_WORD_CHARS), or [OVERFLOW_WORD] when they
 * exceed MAX_INDEXED_BYTES. Every word a term can match in any source is in it.
 */
export function indexedWords(sources: readonly string[]): string[] {
  // Words are separated by spaces, list items by "|" (see Source).
  const words = new Set(sources.join(" ").split(/[ |]+/));
  words.delete("");
  // UTF-16 code units × 3 bounds a word's UTF-8 bytes (a surrogate pair, 2 units, is 4 bytes); 6 for its entry.
  let bytes = 0;
  const kept: string[] = [];
  for (const word of words) {
    const w = word.length > INDEXED_WORD_CHARS ? indexedWord(word) : word;
    bytes += w.length * 3 + 6;
    if (bytes > MAX_INDEXED_BYTES) return [OVERFLOW_WORD];
    kept.push(w);
  }
  return kept;
}
