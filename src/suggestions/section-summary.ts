/**
 * Editing a suggestion section's summary sentence by sentence (issue 35): leaving out what it quotes from articles the
 * section no longer lists (liked since the batch was written), and laying out Pertinent For You as one paragraph per
 * part of the profile. The summary is the summarizer's text (src/reviews/summary/compose.ts): paragraphs separated by a
 * blank line, an optional bold label ("**Overview.**"), "- " bullet lines under a bold heading line ("**Key
 * findings**"), a case-report line ("**Case reports.** A case report describes: title [5]; title [6].") and citations
 * in the one citation grammar (src/reviews/citation-grammar.ts). A language model's summary has the same shape, or
 * plain sentences that each end in a citation. Pure, but for `summarizeByPart`, which calls the summarizer it is given.
 */
import {
  citedNumbers,
  formatCitation,
  mapCitations,
  splitCitations,
  type CitationPiece,
} from "../reviews/citation-grammar.ts";
import {
  EXTRACTIVE_DEFAULTS,
  type Summarizer,
  type SummaryArticle,
  type SummaryResult,
} from "../reviews/summary/types.ts";
import type { Profile } from "./profile.ts";
import { matchReason, type SectionEntry } from "./sections.ts";

/** One sentence of a line: its text and citations, ending with a citation and its punctuation. */
type Sentence = CitationPiece[];

/** One line: its bullet or bold label, the case-report opener if any, and its sentences (items, for case reports). */
interface Line {
  label: string;
  opener: string | null;
  sentences: Sentence[];
  /** A line with no citation at all (a heading such as "**Key findings**", or prose): kept as written. */
  plain: string | null;
}

const LABEL = /^(?:- |\*\*[^*\n]+\*\*[ \t]*)/u;
const CASE_OPENER = /^(?:A case report describes|Case reports describe):[ \t]*/u;

/** Cuts a line's text after its label into sentences: each ends after a citation followed by . ! ? ; or the end. */
function sentencesOf(text: string): Sentence[] {
  const pieces = splitCitations(text);
  const sentences: Sentence[] = [];
  let current: Sentence = [];
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i]!;
    current.push(piece);
    if (piece.kind !== "cite") continue;
    const next = pieces[i + 1];
    if (next === undefined) {
      sentences.push(current);
      current = [];
    } else if (next.kind === "text") {
      const end = /^[.!?;]/u.exec(next.text);
      if (end) {
        current.push({ kind: "text", text: end[0] });
        sentences.push(current);
        current = [];
        pieces[i + 1] = { kind: "text", text: next.text.slice(end[0].length) };
      }
    }
  }
  // Text after the last citation belongs to the last sentence (or is a sentence of its own when there is none).
  if (current.length > 0) {
    if (sentences.length > 0) sentences[sentences.length - 1]!.push(...current);
    else sentences.push(current);
  }
  return sentences;
}

function parseLine(raw: string): Line {
  if (!splitCitations(raw).some((p) => p.kind === "cite"))
    return { label: "", opener: null, sentences: [], plain: raw };
  const label = LABEL.exec(raw)?.[0] ?? "";
  let rest = raw.slice(label.length);
  const opener = CASE_OPENER.exec(rest)?.[0] ?? null;
  if (opener) rest = rest.slice(opener.length);
  return { label, opener, sentences: sentencesOf(rest), plain: null };
}

/** The numbers a sentence cites. */
function citedBy(sentence: Sentence): number[] {
  return sentence.flatMap((p) => (p.kind === "cite" ? p.numbers : []));
}

function sentenceText(sentence: Sentence): string {
  return sentence.map((p) => (p.kind === "cite" ? formatCitation(p.numbers) : p.text)).join("");
}

/** The text of a line's sentences, the last ending with "." when it ended with a list's ";". */
function joinSentences(sentences: readonly Sentence[]): string {
  return sentences.map(sentenceText).join("").trim().replace(/;$/u, ".");
}

function openerFor(items: number): string {
  return items === 1 ? "A case report describes: " : "Case reports describe: ";
}

/**
 * `summary` without the sentences that quote only articles `renumber` drops, every other citation renumbered.
 * @param renumber old citation number → new number, or null for an article no longer listed. A sentence citing
 *   several articles keeps the numbers of those still listed; one citing none of them is left out, and so is a
 *   heading line left with nothing under it. A case-report line keeps the reports still listed, with its opener in
 *   the right number.
 * @returns the edited text, or null when nothing cited is left.
 */
export function withoutCitations(summary: string, renumber: (n: number) => number | null): string | null {
  const blocks: string[] = [];
  for (const block of summary.split(/\n{2,}/u)) {
    const lines = block.split("\n").map(parseLine);
    const kept: string[] = [];
    let pendingPlain: string[] = [];
    for (const line of lines) {
      if (line.plain !== null) {
        pendingPlain.push(line.plain);
        continue;
      }
      const sentences: Sentence[] = [];
      for (const sentence of line.sentences) {
        const numbers = citedBy(sentence);
        const mapped = numbers.map(renumber);
        if (numbers.length > 0 && mapped.every((n) => n === null)) continue;
        const rewritten: Sentence = [];
        for (const piece of sentence) {
          if (piece.kind === "text") {
            rewritten.push(piece);
            continue;
          }
          const left = piece.numbers.map(renumber).filter((n): n is number => n !== null);
          if (left.length > 0) rewritten.push({ kind: "cite", numbers: [...new Set(left)].sort((a, b) => a - b) });
          else {
            // A citation of dropped articles inside a kept sentence: gone, with the space before it.
            const before = rewritten[rewritten.length - 1];
            if (before?.kind === "text")
              rewritten[rewritten.length - 1] = { kind: "text", text: before.text.trimEnd() };
          }
        }
        sentences.push(rewritten);
      }
      if (sentences.length === 0) continue;
      const opener = line.opener === null ? "" : openerFor(sentences.length);
      kept.push(...pendingPlain, `${line.label}${opener}${joinSentences(sentences)}`);
      pendingPlain = [];
    }
    // Plain lines with nothing cited after them: kept only in a block that keeps no cited line at all and had none.
    if (kept.length > 0) blocks.push(kept.join("\n"));
    else if (lines.every((l) => l.plain !== null)) blocks.push(block);
  }
  const text = blocks.join("\n\n").trim();
  return splitCitations(text).some((p) => p.kind === "cite") ? text : null;
}

/**
 * The sentences of `summary` as one paragraph, at most `maxSentences` of them, in the summary's order (its overview
 * first, then its findings led by the strongest evidence): labels, headings and bullets are dropped, and a case-report
 * line counts as one sentence. Citations keep their numbers (a number whose sentence is cut is no longer cited).
 */
export function asParagraph(summary: string, maxSentences: number): string {
  const sentences: string[] = [];
  for (const line of summary.split("\n").map(parseLine)) {
    if (line.plain !== null) continue;
    if (line.opener !== null) sentences.push(`${openerFor(line.sentences.length)}${joinSentences(line.sentences)}`);
    else for (const s of line.sentences) sentences.push(sentenceText(s).trim());
  }
  return sentences.slice(0, Math.max(0, maxSentences)).join(" ");
}

/**
 * A paragraph's bold label as the summary renderer reads it: no "**", and brackets that could read as a citation
 * ("[12]") written as parentheses.
 */
export function paragraphLabel(text: string): string {
  return `**${text.replace(/\*\*/gu, "").replace(/\[/gu, "(").replace(/\]/gu, ")").trim()}.**`;
}

/**
 * A section without the articles `drop` names: its list, and its summary with their sentences left out and the other
 * citations renumbered ([n] stays the list's n-th article). Pure.
 * @param summary The section's summary, whose [n] is `entries[n - 1]`; null stays null.
 */
export function withoutArticles<E extends { pmid: number }>(
  summary: string | null,
  entries: readonly E[],
  drop: ReadonlySet<number>,
): { summary: string | null; entries: E[] } {
  if (!entries.some((e) => drop.has(e.pmid))) return { summary, entries: [...entries] };
  const kept: E[] = [];
  const renumbered = new Map<number, number>();
  entries.forEach((e, i) => {
    if (drop.has(e.pmid)) return;
    kept.push(e);
    renumbered.set(i + 1, kept.length);
  });
  return {
    summary: summary === null ? null : withoutCitations(summary, (n) => renumbered.get(n) ?? null),
    entries: kept,
  };
}

/**
 * Pertinent For You's summary as one paragraph per part of the profile (an interest, a liked article, the liked
 * articles together; issue 35: one paragraph mixing unrelated interests read as nonsense): each part's articles (the
 * entries its why-line names, sections.ts `matchReason`) are summarised on their own, with that part's text as the
 * query, cut to its share of the sentences (`partSentences`) and laid out as one paragraph under a bold label that
 * names it, in the order the parts first appear in the section. Citations are numbered across the paragraphs
 * (`citedPmids[n - 1]` is [n]); the caller renumbers them by first use. A part whose summary is null is left out;
 * null when every part's is.
 * @param entries The section's entries, best first; `articles` the summarizer's input for them (any order).
 */
export async function summarizeByPart(
  summarizer: Summarizer,
  profile: Pick<Profile, "sources" | "topic">,
  entries: readonly SectionEntry[],
  articles: readonly SummaryArticle[],
): Promise<SummaryResult> {
  const byPmid = new Map(articles.map((a) => [a.pmid, a]));
  const parts = new Map<string, SummaryArticle[]>();
  for (const e of entries) {
    const article = byPmid.get(e.pmid);
    if (article) parts.set(e.reason, [...(parts.get(e.reason) ?? []), article]);
  }
  const sourceOf = new Map(profile.sources.map((source) => [matchReason(source), source]));
  const share = partSentences(parts.size);
  const paragraphs: string[] = [];
  const citedPmids: number[] = [];
  for (const [reason, partArticles] of parts) {
    const result = await summarizer.summarize(sourceOf.get(reason)?.text ?? profile.topic, partArticles);
    if (result.summary === null) continue;
    const offset = citedPmids.length;
    const paragraph = mapCitations(asParagraph(result.summary, share), (numbers) => numbers.map((n) => n + offset));
    if (citedNumbers(paragraph).length === 0) continue;
    paragraphs.push(`${paragraphLabel(reason)} ${paragraph}`);
    citedPmids.push(...result.citedPmids);
  }
  return paragraphs.length === 0 ? { summary: null, citedPmids: [] } : { summary: paragraphs.join("\n\n"), citedPmids };
}

/**
 * Sentences one part of the profile gets in Pertinent For You's summary: a review summary's length
 * (EXTRACTIVE_DEFAULTS.maxSentences) shared among the parts, at least 2 each (a finding and what backs or qualifies
 * it).
 */
export function partSentences(parts: number): number {
  return Math.max(2, Math.floor(EXTRACTIVE_DEFAULTS.maxSentences / Math.max(1, parts)));
}
