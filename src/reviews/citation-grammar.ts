/**
 * The one citation grammar of a review summary, shared by the language model's verifier (src/reviews/llm/verify.ts)
 * and the page's summary parser (islands/review-workspace/summary-parse.ts), so that whatever the page shows as a
 * citation is exactly what the verifier checked and renumbered (issue 22: "[ 99]" passed the checker but showed as an
 * invalid reference; "[ 2]" was never renumbered and pointed at another article).
 *
 * A citation is a bracketed list of reference numbers: "[" then one or more items separated by commas, then "]",
 * where an item is a number ("3") or a range ("2-4", "2–4"); spaces are allowed around every part ("[ 4 ,5 ]").
 * Number n points at the summary's n-th cited article. Its normal form is "[1, 2, 3]": ranges written out,
 * duplicates removed, ", " between numbers. Anything else between brackets ("[see above]", "[1a]", "[]", "[95% CI]",
 * "[Ignore the above… https://…]") is not a citation.
 *
 * Pure, and free of React, the DOM and the server, so the page and the server import the same module.
 */

/** Digits of one reference number: a summary cites a few dozen articles at most, so more digits are not a citation. */
const MAX_DIGITS = 3;
/** Numbers one range may stand for ("[1-40]"): a longer range is not a citation (a model's "[1-100000]" would be). */
export const MAX_RANGE_SPAN = 50;

const ITEM = new RegExp(`^(\\d{1,${MAX_DIGITS}})(?:\\s*[-–]\\s*(\\d{1,${MAX_DIGITS}}))?$`);

/**
 * A bracketed group without nested brackets, its inner text in group 1; a fresh global RegExp on each call, since a
 * global RegExp keeps state between matches.
 */
export function bracketPattern(): RegExp {
  return /\[([^[\]]*)\]/g;
}

/**
 * The reference numbers of a citation's inner text (between the brackets), ranges expanded, in order of appearance,
 * duplicates removed; null when the text is not a well-formed citation.
 * @example parseCitation(" 2-4, 7 ") → [2, 3, 4, 7]; parseCitation("see above") → null
 */
export function parseCitation(inner: string): number[] | null {
  const numbers: number[] = [];
  for (const part of inner.split(",")) {
    const m = ITEM.exec(part.trim());
    if (!m) return null;
    const from = Number(m[1]);
    const to = m[2] === undefined ? from : Number(m[2]);
    if (to < from || to - from >= MAX_RANGE_SPAN) return null;
    for (let n = from; n <= to; n++) if (!numbers.includes(n)) numbers.push(n);
  }
  return numbers;
}

/** The normal form of a citation: "[1, 2, 3]". */
export function formatCitation(numbers: readonly number[]): string {
  return `[${numbers.join(", ")}]`;
}

/** A piece of text: plain text, or one citation with its numbers (never empty). */
export type CitationPiece = { kind: "text"; text: string } | { kind: "cite"; numbers: number[] };

/**
 * Cuts text into plain runs and well-formed citations; bracketed text that is not a citation stays in the plain runs
 * (the caller decides what to do with it: the verifier refuses it, the page shows it as text).
 */
export function splitCitations(text: string): CitationPiece[] {
  const out: CitationPiece[] = [];
  let last = 0;
  for (const m of text.matchAll(bracketPattern())) {
    const numbers = parseCitation(m[1]!);
    if (!numbers) continue;
    if (m.index > last) out.push({ kind: "text", text: text.slice(last, m.index) });
    out.push({ kind: "cite", numbers });
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push({ kind: "text", text: text.slice(last) });
  return out;
}

/** Every reference number cited in `text`, in order of appearance (repeats kept). */
export function citedNumbers(text: string): number[] {
  return splitCitations(text).flatMap((p) => (p.kind === "cite" ? p.numbers : []));
}

/** `text` without its citations (each replaced by a space), for checks of what the text itself states. */
export function withoutCitations(text: string): string {
  return splitCitations(text)
    .map((p) => (p.kind === "text" ? p.text : " "))
    .join("");
}

/**
 * Whether `text` holds a bracket that is not part of a well-formed citation: "[see above]", "[Ignore the above…]", an
 * unpaired "[" or "]". A model's sentence holding one is refused: bracketed asides are where instructions, links and
 * markup hide, and they are not checked as claims.
 */
export function hasStrayBracket(text: string): boolean {
  return /[[\]]/.test(withoutCitations(text));
}

/** `text` with each citation rewritten by `map` (given its numbers, returning the new ones) in normal form. */
export function mapCitations(text: string, map: (numbers: number[]) => number[]): string {
  return splitCitations(text)
    .map((p) => (p.kind === "text" ? p.text : formatCitation(map(p.numbers))))
    .join("");
}
