/**
 * Reading a review summary (docs/product.md §2 /literature_management): `**bold**`, lines starting with "- " as
 * bullets, blank lines between paragraphs, and bracketed citation lists such as [1, 2] or [3], where number n points to
 * the article articles_refs[n-1]. Also cuts the parsed summary into the segments of the progressive reveal.
 * Pure and free of React so it can be tested and reused on the server.
 */
import { splitCitations } from "../../src/reviews/citation-grammar.ts";

/** A run of text, or one bracketed citation group, or a line break inside a paragraph. */
export type Inline =
  | { kind: "text"; text: string; bold: boolean }
  | { kind: "cite"; numbers: number[]; bold: boolean }
  | { kind: "break" };

/** A paragraph, or a bullet list whose items are lines of inlines. */
export type Block = { kind: "paragraph"; inlines: Inline[] } | { kind: "list"; items: Inline[][] };

const BULLET = /^\s*- (.*)$/;
const BOLD = /\*\*(.+?)\*\*/g;
// Citations are read with the grammar the server's verifier checks them with (src/reviews/citation-grammar.ts), so
// the page never shows as a citation what was not checked; "[see above]" or "[1a]" stay text.

/** Splits one line into text and citation groups, honouring `**bold**` spans (unpaired markers stay literal). */
export function parseInline(line: string): Inline[] {
  const out: Inline[] = [];
  let last = 0;
  for (const m of line.matchAll(BOLD)) {
    pushCitations(out, line.slice(last, m.index), false);
    pushCitations(out, m[1] ?? "", true);
    last = m.index + m[0].length;
  }
  pushCitations(out, line.slice(last), false);
  return out;
}

function pushCitations(out: Inline[], text: string, bold: boolean): void {
  for (const piece of splitCitations(text)) {
    if (piece.kind === "cite") out.push({ kind: "cite", numbers: piece.numbers, bold });
    else pushText(out, piece.text, bold);
  }
}

function pushText(out: Inline[], text: string, bold: boolean): void {
  if (!text) return;
  const prev = out[out.length - 1];
  if (prev?.kind === "text" && prev.bold === bold) prev.text += text;
  else out.push({ kind: "text", text, bold });
}

/**
 * Parses a whole summary into blocks. Consecutive "- " lines form one list; other consecutive lines form one
 * paragraph, keeping their line breaks; a blank line ends a paragraph or list.
 */
export function parseSummary(summary: string | null | undefined): Block[] {
  const blocks: Block[] = [];
  let paragraph: Inline[] | null = null;
  let list: Inline[][] | null = null;
  for (const raw of (summary ?? "").replace(/\r\n?/g, "\n").split("\n")) {
    const line = raw.trimEnd();
    if (line.trim() === "") {
      paragraph = null;
      list = null;
      continue;
    }
    const bullet = BULLET.exec(line);
    if (bullet) {
      paragraph = null;
      if (!list) {
        list = [];
        blocks.push({ kind: "list", items: list });
      }
      list.push(parseInline((bullet[1] ?? "").trim()));
      continue;
    }
    list = null;
    if (!paragraph) {
      paragraph = [];
      blocks.push({ kind: "paragraph", inlines: paragraph });
    } else {
      paragraph.push({ kind: "break" });
    }
    paragraph.push(...parseInline(line.trim()));
  }
  return blocks;
}

// One reveal segment is a word with the spaces after it, a run of spaces, or a whole citation group.
const WORDS = /\S+\s*|\s+/g;

function inlineSegments(inline: Inline): number {
  if (inline.kind === "break") return 0;
  if (inline.kind === "cite") return 1;
  return inline.text.match(WORDS)?.length ?? 0;
}

/** The number of segments the progressive reveal steps through for these blocks. */
export function countSegments(blocks: Block[]): number {
  let n = 0;
  for (const b of blocks) {
    const lines = b.kind === "paragraph" ? [b.inlines] : b.items;
    for (const line of lines) for (const inline of line) n += inlineSegments(inline);
  }
  return n;
}

/**
 * The first `count` segments of the summary, with the same block structure, for the progressive reveal.
 * Blocks and list items with nothing shown yet are left out, and a paragraph never ends in a line break.
 */
export function takeSegments(blocks: Block[], count: number): Block[] {
  let budget = Math.max(0, Math.floor(count));
  const takeLine = (line: Inline[]): Inline[] => {
    const out: Inline[] = [];
    for (const inline of line) {
      if (budget <= 0) break;
      if (inline.kind === "break") {
        out.push(inline);
        continue;
      }
      const size = inlineSegments(inline);
      if (size <= budget) {
        out.push(inline);
        budget -= size;
      } else if (inline.kind === "text") {
        const words = inline.text.match(WORDS) ?? [];
        out.push({ ...inline, text: words.slice(0, budget).join("") });
        budget = 0;
      }
    }
    while (out[out.length - 1]?.kind === "break") out.pop();
    return out;
  };
  const result: Block[] = [];
  for (const b of blocks) {
    if (budget <= 0) break;
    if (b.kind === "paragraph") {
      const inlines = takeLine(b.inlines);
      if (inlines.length) result.push({ kind: "paragraph", inlines });
    } else {
      const items: Inline[][] = [];
      for (const item of b.items) {
        if (budget <= 0) break;
        const line = takeLine(item);
        if (line.length) items.push(line);
      }
      if (items.length) result.push({ kind: "list", items });
    }
  }
  return result;
}

/**
 * The article a citation number points to: articles_refs[n-1], or undefined when the number is out of range
 * or the entry is unusable (the summary then shows the number in red as invalid).
 */
export function citedArticle<T>(refs: readonly (T | null | undefined)[] | null | undefined, n: number): T | undefined {
  if (!refs || !Number.isInteger(n) || n < 1 || n > refs.length) return undefined;
  return refs[n - 1] ?? undefined;
}
