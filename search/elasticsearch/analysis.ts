/**
 * The text analysis of the Elasticsearch index, aligned with PostgreSQL's `english` text search configuration so that
 * both adapters find and rank the same articles (docs/decisions/0015-elasticsearch-index.md):
 * - the same stop words: PostgreSQL's `english.stop` (the Snowball project's English list, 127 words), given to
 *   Elasticsearch explicitly instead of Lucene's shorter `_english_` list (33 words);
 * - the same stemmer: Snowball English ("Porter2", PostgreSQL's `english_stem`), Elasticsearch's `stemmer` filter
 *   with language `porter2`, instead of the built-in `english` analyzer's original Porter stemmer.
 * The tokenizers still differ in edge cases (PostgreSQL's parser keeps "covid-19" as one hyphenated word and its
 * parts; Elasticsearch's standard tokenizer splits it); the contract tests hold on both.
 */

import type { estypes } from "@elastic/elasticsearch";

/** PostgreSQL 15's share/tsearch_data/english.stop, in its order. */
export const POSTGRES_ENGLISH_STOP_WORDS: readonly string[] = [
  // Pronouns.
  "i",
  "me",
  "my",
  "myself",
  "we",
  "our",
  "ours",
  "ourselves",
  "you",
  "your",
  "yours",
  "yourself",
  "yourselves",
  "he",
  "him",
  "his",
  "himself",
  "she",
  "her",
  "hers",
  "herself",
  "it",
  "its",
  "itself",
  "they",
  "them",
  "their",
  "theirs",
  "themselves",
  "what",
  "which",
  "who",
  "whom",
  "this",
  "that",
  "these",
  "those",
  // Auxiliaries.
  "am",
  "is",
  "are",
  "was",
  "were",
  "be",
  "been",
  "being",
  "have",
  "has",
  "had",
  "having",
  "do",
  "does",
  "did",
  "doing",
  // Articles, conjunctions, prepositions, adverbs.
  "a",
  "an",
  "the",
  "and",
  "but",
  "if",
  "or",
  "because",
  "as",
  "until",
  "while",
  "of",
  "at",
  "by",
  "for",
  "with",
  "about",
  "against",
  "between",
  "into",
  "through",
  "during",
  "before",
  "after",
  "above",
  "below",
  "to",
  "from",
  "up",
  "down",
  "in",
  "out",
  "on",
  "off",
  "over",
  "under",
  "again",
  "further",
  "then",
  "once",
  "here",
  "there",
  "when",
  "where",
  "why",
  "how",
  "all",
  "any",
  "both",
  "each",
  "few",
  "more",
  "most",
  "other",
  "some",
  "such",
  "no",
  "nor",
  "not",
  "only",
  "own",
  "same",
  "so",
  "than",
  "too",
  "very",
  "s",
  "t",
  "can",
  "will",
  "just",
  "don",
  "should",
  "now",
];

const STOP = new Set(POSTGRES_ENGLISH_STOP_WORDS);

/** The analyzer's name in the index settings. */
export const ANALYZER = "litreview_english";

/** The `analysis` part of the index settings. */
export function analysisSettings(): estypes.IndicesIndexSettingsAnalysis {
  return {
    filter: {
      litreview_stop: { type: "stop", stopwords: [...POSTGRES_ENGLISH_STOP_WORDS] },
      litreview_stemmer: { type: "stemmer", language: "porter2" },
      litreview_possessive: { type: "stemmer", language: "possessive_english" },
    },
    analyzer: {
      [ANALYZER]: {
        type: "custom",
        tokenizer: "standard",
        filter: ["litreview_possessive", "lowercase", "litreview_stop", "litreview_stemmer"],
      },
    },
  };
}

/**
 * Whether a phrase keeps at least one token after the index's analysis: a phrase of stop words only ("the", "of
 * the") analyses to nothing, and `match_phrase` on it matches no document (its `zero_terms_query` is `none`), so a
 * coverage filter must leave it out rather than exclude every article. Tokens are split as the standard tokenizer
 * splits plain words (letters and digits), lower-cased, the English possessive removed.
 */
export function hasIndexableWord(phrase: string): boolean {
  return phrase
    .normalize("NFKC")
    .toLowerCase()
    .split(/[^\p{L}\p{N}']+/u)
    .map((t) => t.replace(/'s?$/u, "").replace(/'/gu, ""))
    .some((t) => t !== "" && !STOP.has(t));
}
