/** The summarizer's contract, shared by the extractive summarizer, the language-model one and their callers. */
import type { AbstractSection } from "../../db/types.ts";

/** What the summarizer needs of an article (a subset of the `articles` row). */
export interface SummaryArticle {
  pmid: number;
  title: string | null;
  abstract: string | null;
  /** Structured-abstract sections; may be empty when `abstract` holds plain text. */
  abstract_sections: AbstractSection[];
  publication_year: number | null;
  /** PubMed publication types, e.g. "Randomized Controlled Trial", "Review". */
  publication_types: string[];
  /** MeSH headings; study-design headings refine the design (src/articles/evidence.ts). Absent: none known. */
  mesh_terms?: string[];
  /** PMID of the retraction notice, when PubMed links one. A retracted article is never cited. */
  retraction_notice_pmid?: number | null;
}

/** A summary and the PMIDs its citation numbers point to. */
export interface SummaryResult {
  /**
   * Text with `**bold**` markers, "- " bullet lines, paragraphs separated by a
   * blank line and citations such as "[1]" or "[1, 3]"; null when no article
   * had usable text.
   */
  summary: string | null;
  /** `citedPmids[n - 1]` is the PMID that citation number n refers to; no gaps, no duplicates. */
  citedPmids: number[];
  /** Which engine wrote it, when not the summarizer's own name (a fallback says so). */
  engine?: string;
}

/** A way to summarise a review; the extractive one below is the default. */
export interface Summarizer {
  readonly name: string;
  /**
   * @param query The user's review topic.
   * @param articles Ranked articles, best first.
   */
  summarize(query: string, articles: readonly SummaryArticle[]): Promise<SummaryResult>;
}

/** Tuning knobs; the defaults are what the product uses. */
export interface ExtractiveOptions {
  /** Most sentences in the summary (default 10). */
  maxSentences?: number;
  /** Most sentences taken from one article (default 2). */
  maxPerArticle?: number;
  /** MMR trade-off between relevance (1) and novelty (0); default 0.7 after Carbonell & Goldstein 1998. */
  lambda?: number;
  /** tf-idf cosine at or above which two sentences count as the same statement (default 0.8). */
  duplicateThreshold?: number;
}

/** The defaults of ExtractiveOptions. */
export const EXTRACTIVE_DEFAULTS: Required<ExtractiveOptions> = {
  maxSentences: 10,
  maxPerArticle: 2,
  lambda: 0.7,
  duplicateThreshold: 0.8,
};
