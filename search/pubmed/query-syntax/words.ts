/**
 * Words and case, shared by both evaluations (search/pubmed/query-syntax/evaluate.ts): the word characters, the
 * locale-free case folding, the normalisation of texts into words, and the journal-title patterns. Both evaluations
 * read texts normalised here, in JavaScript: the in-memory one as it goes, the SQL one from the copies stored with each
 * article (search/pubmed/query-syntax/stored.ts). The semantics are in search/pubmed/query-syntax.ts.
 */

/**
 * The word characters as the body of a JavaScript `u` regex bracket expression (literal characters and ranges only):
 * Unicode L, M and N, with the unassigned code points between two of them merged into the ranges. Planes 4 to 13 hold
 * no characters and are left out. Built once, on first use (about 40 ms).
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

/**
 * The case classes: characters linked by single-character lower- or upper-casing, closed transitively ("Σ", "σ", "ς";
 * "K", "k" and the Kelvin sign; "S", "s" and "ſ"; "I", "i" and "ı"), each mapped to one representative, its usual
 * lower-case letter. "İ", whose lower case is two characters ("i" and a combining dot), folds to "i" as PostgreSQL's
 * lower() gives it in most locales. The folding is the whole of Unicode's case pairs at once, the same for every query,
 * so that a text is folded once (`foldCase`) whatever the query (issue 34: the folding used to be built per query, one
 * test per distinct letter of the query, and a query of 400 letters cost 400 scans of every text).
 */
interface CaseTables {
  /** Characters whose lower case is not one character, replaced before lower-casing (only "İ"). */
  before: Map<string, string>;
  beforeRe: RegExp;
  /**
   * Every character of a class but its representative; after lower-casing only a few can be left ("ς", "ı", "ſ",
   * "ϐ"…).
   */
  after: Map<string, string>;
  afterRe: RegExp;
}

let caseTables: CaseTables | null = null;
/** Built on first use (about 60 ms: every code point's case mappings). */
function caseClasses(): CaseTables {
  if (caseTables) return caseTables;
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
  const before = new Map<string, string>();
  for (let cp = 0x41; cp <= 0x1ffff; cp++) {
    if (cp === 0xd800) cp = 0xe000;
    const ch = String.fromCodePoint(cp);
    const lower = single(ch.toLowerCase());
    const upper = single(ch.toUpperCase());
    if (lower === null) before.set(ch, "");
    else link(cp, lower);
    if (upper !== null) link(cp, upper);
  }
  const representative = new Map<number, string>();
  for (const start of links.keys()) {
    if (representative.has(start)) continue;
    const members = new Set([start]);
    const stack = [start];
    while (stack.length)
      for (const next of links.get(stack.pop()!) ?? [])
        if (!members.has(next)) {
          members.add(next);
          stack.push(next);
        }
    // The usual lower-case letter: the lower case of the upper case of the smallest member ("µ" → "Μ" → "μ"), unless
    // that leaves the class ("ß" → "SS").
    const smallest = String.fromCodePoint(Math.min(...members));
    const lower = smallest.toLowerCase();
    const upper = lower.toUpperCase();
    const usual = single(upper) !== null ? upper.toLowerCase() : lower;
    const rep = single(usual) !== null && members.has(single(usual)!) ? usual : lower;
    for (const m of members) representative.set(m, rep);
  }
  // "İ" (and any other character whose lower case is several) folds as its class would, else as its own first letter.
  for (const ch of before.keys()) before.set(ch, representative.get(ch.codePointAt(0)!) ?? [...ch.toLowerCase()][0]!);
  const after = new Map<string, string>();
  for (const [cp, rep] of representative) {
    const ch = String.fromCodePoint(cp);
    if (ch !== rep) after.set(ch, rep);
  }
  const classOf = (chars: Iterable<string>) =>
    new RegExp(`[${[...chars].map((c) => c.replace(/[\\\]^[-]/g, "\\$&")).join("")}]`, "gu");
  caseTables = { before, beforeRe: classOf(before.keys()), after, afterRe: classOf(after.keys()) };
  return caseTables;
}

const NON_ASCII = /[^\x00-\x7f]/;

/**
 * A text with every letter replaced by its case class's representative (see caseClasses): one native lower-casing,
 * then a replacement of the few characters lower-casing leaves apart from their class ("ς" → "σ", "ı" → "i"). Cost:
 * linear in the text, the same for every query. JavaScript's toLowerCase() is locale-free and maps one character to
 * one except "İ" (replaced first) and "Σ", whose choice between "σ" and "ς" by position does not matter here (both
 * are one class).
 */
export function foldCase(text: string): string {
  if (!NON_ASCII.test(text)) return text.toLowerCase();
  const t = caseClasses();
  const lowered = text.replace(t.beforeRe, (c) => t.before.get(c) ?? c).toLowerCase();
  return lowered.replace(t.afterRe, (c) => t.after.get(c) ?? c);
}

/** The case-folded words of a text, as " w1 w2 … " (two spaces when it has none). */
export function normalise(text: string): string {
  return ` ${(foldCase(text).match(wordRunRegex()) ?? []).join(" ")} `;
}

/** The case-folded words of each item, as "| w1 w2 | w3 |" ("||" for no item). */
export function normaliseList(items: readonly string[]): string {
  return `|${items.map((i) => normalise(i)).join("|")}|`;
}

/** A journal title's trailing qualifier: "Lancet (London, England)". */
export const JOURNAL_QUALIFIER = "\\([^()]*\\)[ \\t\\r\\n]*$";
export const JOURNAL_QUALIFIER_RE = new RegExp(JOURNAL_QUALIFIER);
export const LEADING_THE = "^ the ";
export const LEADING_THE_RE = new RegExp(LEADING_THE);
