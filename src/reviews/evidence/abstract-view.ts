/**
 * An abstract as the evidence extractors read it: its sentences in order, each with its role (the structured
 * abstract's section, else the sentence-role classifier's prediction, src/reviews/roles/), its tokens and its place
 * in the abstract. Built once per article and shared by every extractor. Pure apart from the classifier's one-off
 * weight loading.
 */
import { classifySentenceRoles } from "../roles/classifier.ts";
import { type SectionKind, splitSentences } from "../sentences.ts";
import { articleSections } from "../summary/candidates.ts";
import type { SummaryArticle } from "../summary/types.ts";
import { type Token, tokenize } from "./tokens.ts";

export interface ViewSentence {
  /** The sentence, whitespace normalised (a substring of the abstract's normalised text). */
  text: string;
  /** Its role; UNLABELLED only when neither a label nor the classifier gave one. */
  role: SectionKind;
  /** Whether the role came from the abstract's own label (true) or the classifier (false). */
  labelled: boolean;
  /** 0-based position in the abstract, and how many sentences it has. */
  index: number;
  count: number;
  tokens: Token[];
}

export interface AbstractView {
  pmid: number;
  sentences: ViewSentence[];
}

/** The view of an article's abstract; no sentences when it has no abstract. */
export function abstractView(article: SummaryArticle): AbstractView {
  const raw: Omit<ViewSentence, "index" | "count" | "tokens">[] = [];
  for (const section of articleSections(article)) {
    const sentences = splitSentences(section.text);
    const roles: SectionKind[] =
      section.kind === "UNLABELLED" ? classifySentenceRoles(sentences) : sentences.map(() => section.kind);
    sentences.forEach((text, i) => {
      raw.push({ text, role: roles[i] ?? "UNLABELLED", labelled: section.kind !== "UNLABELLED" });
    });
  }
  return {
    pmid: article.pmid,
    sentences: raw.map((s, index) => ({ ...s, index, count: raw.length, tokens: tokenize(s.text) })),
  };
}
