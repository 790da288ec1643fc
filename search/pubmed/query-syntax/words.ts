/**
 * Words and case, shared by both evaluations (search/pubmed/query-syntax/evaluate.ts): the word characters as one
 * bracket expression for JavaScript and PostgreSQL, the locale-free case foldings a query needs, the normalisation of
 * texts into words under a folding, and the journal-title patterns. The semantics are in search/pubmed/query-syntax.ts.
 */
import type { PubmedQueryTerm } from "./types.ts";

/**
 * The word characters as a bracket-expression body that means the same in a JavaScript `u` regex and a PostgreSQL
 * regex (literal characters and ranges only; none of them is special in either): Unicode L, M and N, with the
 * unassigned code points between two of them merged into the ranges. Planes 4 to 13 hold no characters and are left
 * out. Built once, on first use (about 40 ms).
 */
let wordClass: string | null = null;
function wordCharacters(): string {
  if (wordClass !== null) return wordClass;
  const word = /[\p{L}\p{M}\p{N}]/u;
  const unassigned = /\p{Cn}/u;
  const ranges: [number, number][] = [];
  let start = -1;
  let last = -1;
  for (let cp = 0; cp <= 0x10ffff; cp++) {
    if (cp === 0xd800) cp = 0xe000; // surrogates are no characters
    if (cp === 0x40000) cp = 0xe0000; // planes 4-13: unassigned
    const ch = String.fromCodePoint(cp);
    if (word.test(ch)) {
      if (start < 0) start = cp;
      last = cp;
    } else if (!unassigned.test(ch) && start >= 0) {
      ranges.push([start, last]);
      start = -1;
    }
  }
  if (start >= 0) ranges.push([start, last]);
  wordClass = ranges
    .map(([a, b]) => {
      const [first, last] = [String.fromCodePoint(a), String.fromCodePoint(b)];
      return a === b ? first : b === a + 1 ? first + last : `${first}-${last}`;
    })
    .join("");
  return wordClass;
}

let wordRuns: RegExp | null = null;
/** Regex of a run of word characters (JavaScript, global). */
function wordRunRegex(): RegExp {
  return (wordRuns ??= new RegExp(`[${wordCharacters()}]+`, "gu"));
}
/** The PostgreSQL pattern of a run of non-word characters. */
export function nonWordPattern(): string {
  return `[^${wordCharacters()}]+`;
}

/**
 * Characters outside ASCII that case-fold to an ASCII letter: "ı" and "K" (Kelvin sign) by simple case mapping,
 * "ſ" (long s), and "İ", whose lower case is "i" plus a combining dot (PostgreSQL's lower() in most locales gives "i").
 */
const ASCII_FOLDS: readonly [string, string][] = [
  ["\u0130", "i"],
  ["\u0131", "i"],
  ["\u017F", "s"],
  ["\u212A", "k"],
];

/** A case folding: each listed character → its class's representative. */
export interface Fold {
  /** Characters to replace, in a stable order. */
  from: string[];
  map: Map<string, string>;
  /** Regex of the characters to replace (JavaScript, global). */
  re: RegExp;
  /** Identity of the folding, for caches. */
  key: string;
  /** The non-ASCII part (ASCII_FOLDS and case classes: member → representative), for the SQL's translate(). */
  sqlFrom: string;
  sqlTo: string;
}

let caseGraph: Map<number, number[]> | null = null;
/** Links between characters by single-character lower- and upper-casing (built on first use, about 50 ms). */
function caseLinks(): Map<number, number[]> {
  if (caseGraph) return caseGraph;
  const links = new Map<number, number[]>();
  const link = (a: number, b: number) => {
    if (a === b) return;
    (links.get(a) ?? links.set(a, []).get(a)!).push(b);
    (links.get(b) ?? links.set(b, []).get(b)!).push(a);
  };
  const single = (s: string) => {
    const cps = [...s];
    return cps.length === 1 ? cps[0]!.codePointAt(0)! : null;
  };
  for (let cp = 0x80; cp <= 0x1ffff; cp++) {
    if (cp === 0xd800) cp = 0xe000;
    const ch = String.fromCodePoint(cp);
    const lower = single(ch.toLowerCase());
    const upper = single(ch.toUpperCase());
    if (lower !== null) link(cp, lower);
    if (upper !== null) link(cp, upper);
  }
  return (caseGraph = links);
}

const BASE_FOLD = buildFold([]);

/** The folding of ASCII letters (and ASCII_FOLDS) plus the case classes of the given non-ASCII characters. */
function buildFold(extra: string[]): Fold {
  const pairs = new Map<string, string>();
  let sqlFrom = "";
  let sqlTo = "";
  for (let c = 65; c <= 90; c++) pairs.set(String.fromCharCode(c), String.fromCharCode(c + 32));
  for (const [from, to] of ASCII_FOLDS) {
    pairs.set(from, to);
    sqlFrom += from;
    sqlTo += to;
  }
  if (extra.length) {
    const links = caseLinks();
    for (const ch of extra) {
      const start = ch.codePointAt(0)!;
      const members = new Set([start]);
      const stack = [start];
      while (stack.length)
        for (const next of links.get(stack.pop()!) ?? [])
          if (!members.has(next)) {
            members.add(next);
            stack.push(next);
          }
      if (members.size < 2) continue;
      if ([...members].some((m) => m < 0x80)) continue; // an ASCII class, already folded
      const rep = String.fromCodePoint(Math.min(...members));
      if (pairs.has(rep) || pairs.get(String.fromCodePoint(Math.max(...members))) === rep) continue; // seen
      for (const m of [...members].sort((x, y) => x - y)) {
        const member = String.fromCodePoint(m);
        if (member === rep) continue;
        pairs.set(member, rep);
        sqlFrom += member;
        sqlTo += rep;
      }
    }
  }
  const from = [...pairs.keys()].sort();
  const escapeInClass = (c: string) => c.replace(/[\\\]^[-]/g, "\\$&");
  return {
    from,
    map: pairs,
    re: new RegExp(`[${from.map(escapeInClass).join("")}]`, "gu"),
    key: from.join(""),
    sqlFrom,
    sqlTo,
  };
}

/** The folding a query needs: ASCII, plus the case classes of the non-ASCII letters its terms contain. */
export function foldFor(terms: PubmedQueryTerm[]): Fold {
  const extra = new Set<string>();
  for (const t of terms)
    for (const ch of t.text) if (ch.codePointAt(0)! >= 0x80 && ch.toLowerCase() !== ch.toUpperCase()) extra.add(ch);
  return extra.size ? buildFold([...extra].sort()) : BASE_FOLD;
}

/** Words of a text under a folding, as " w1 w2 … " (two spaces when it has none). */
export function normalise(text: string, fold: Fold): string {
  const folded = text.replace(fold.re, (c) => fold.map.get(c) ?? c);
  return ` ${(folded.match(wordRunRegex()) ?? []).join(" ")} `;
}

/** Words of each item, as "| w1 w2 | w3 |" ("||" for no item). */
export function normaliseList(items: readonly string[], fold: Fold): string {
  return `|${items.map((i) => normalise(i, fold)).join("|")}|`;
}

/** A journal title's trailing qualifier: "Lancet (London, England)". The same pattern runs in PostgreSQL. */
export const JOURNAL_QUALIFIER = "\\([^()]*\\)[ \\t\\r\\n]*$";
export const JOURNAL_QUALIFIER_RE = new RegExp(JOURNAL_QUALIFIER);
export const LEADING_THE = "^ the ";
export const LEADING_THE_RE = new RegExp(LEADING_THE);
