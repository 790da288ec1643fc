/**
 * Marks passages of an abstract (issue 33 item 6, issue 35 item 6): the sentences a number was read from, or the
 * sentence a summary quoted, found in the abstract's text whitespace-insensitively. Pure, so it is tested without a
 * browser and the dialog and the evidence table share it.
 */

/** A run of the text, marked or not. */
export interface Run {
  text: string;
  marked: boolean;
}

/** Regex source matching `needle` with any run of whitespace where it has one. */
function loosePattern(needle: string): string {
  return needle
    .trim()
    .split(/\s+/u)
    .map((w) => w.replace(/[.*+?^${}()|[\]\\]/gu, "\\$&"))
    .join("\\s+");
}

/**
 * `text` cut into runs, the passages found marked. Passages not found (or empty) mark nothing; overlapping ones
 * merge.
 */
export function markPassages(text: string, passages: readonly (string | null | undefined)[]): Run[] {
  const ranges: [number, number][] = [];
  for (const p of passages) {
    if (!p || p.trim() === "") continue;
    // A passage of a few characters (a number) is marked where it stands alone, every time; a longer one once.
    const short = p.trim().length < 3 || /^[\d.,·−-]+$/u.test(p.trim());
    const pattern = short ? `(?<![\\p{L}\\p{N}.])${loosePattern(p)}(?![\\p{N}]|[.,·]\\p{N})` : loosePattern(p);
    const re = new RegExp(pattern, short ? "gu" : "u");
    for (const m of short ? text.matchAll(re) : [re.exec(text)]) {
      if (m) ranges.push([m.index ?? 0, (m.index ?? 0) + m[0].length]);
    }
  }
  ranges.sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const r of ranges) {
    const last = merged[merged.length - 1];
    if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else merged.push([r[0], r[1]]);
  }
  const runs: Run[] = [];
  let at = 0;
  for (const [from, to] of merged) {
    if (from > at) runs.push({ text: text.slice(at, from), marked: false });
    runs.push({ text: text.slice(from, to), marked: true });
    at = to;
  }
  if (at < text.length) runs.push({ text: text.slice(at), marked: false });
  return runs;
}
