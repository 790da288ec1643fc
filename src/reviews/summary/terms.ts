/**
 * Terms of a text for the extractive summarizer: tokenising, stop words and light stemming. Pure; results of the
 * per-token work are cached (bounded) because the same words recur in every abstract.
 */
// Function words only: domain words such as "patients" or "study" stay, and
// their low idf keeps them from dominating.
const STOP_WORDS = new Set(
  (
    "a about above after again against all almost also although am among an and any are as at be because been before " +
    "being below between both but by can could did do does doing done down during each either else etc ever every few " +
    "for from further had has have having he her here hers herself him himself his how however i if in into is it its " +
    "itself just may me might more most much must my myself neither no nor not of off often on once only or other " +
    "otherwise our ours ourselves out over own per quite rather same shall she should since so some such than that the " +
    "their theirs them themselves then there thereby therefore these they this those though through thus to too under " +
    "until up upon us very via was we were what whatever when where whereas whether which while who whom whose why " +
    "will with within without would yet you your versus vs"
  ).split(" "),
);

/** Suffix rules applied once, longest first, after plural removal: [suffix, replacement]. */
const SUFFIX_RULES: ReadonlyArray<readonly [string, string]> = [
  ["ational", "ate"],
  ["ization", "ize"],
  ["ation", "ate"],
  ["ment", ""],
  ["ness", ""],
  ["ance", "ant"],
  ["ence", "ent"],
  ["ing", ""],
  ["ity", ""],
  ["ary", ""],
  ["ly", ""],
  ["ed", ""],
  ["al", ""],
];

/**
 * A light, conflating stemmer for English content words: plural removal after
 * Harman's S-stemmer (Harman 1991, "How effective is suffixing?", JASIS 42:7),
 * then one Porter-style (Porter 1980) suffix rule, British -is- spellings
 * folded to -iz-, a final "e" dropped and a doubled final consonant undone
 * after -ed/-ing. It only has to map a query word and the words of an abstract
 * to the same key ("smoking"/"smoke", "dietary"/"diet", "associated"/
 * "association"), not produce linguistic roots.
 *
 * @param word A lowercase token.
 * @returns The stem; tokens of 3 characters or fewer are returned unchanged.
 */
export function lightStem(word: string): string {
  // Plain string tests rather than regular expressions: this runs once per
  // distinct word of every abstract.
  let w = word;
  if (w.length <= 3) return w;
  if (w.endsWith("ies")) {
    if (!w.endsWith("eies") && !w.endsWith("aies")) w = `${w.slice(0, -3)}y`;
  } else if (w.endsWith("es")) {
    if (!w.endsWith("aes") && !w.endsWith("ees") && !w.endsWith("oes")) w = w.slice(0, -1);
  } else if (w.endsWith("s") && !w.endsWith("us") && !w.endsWith("ss") && !w.endsWith("is")) {
    w = w.slice(0, -1);
  }
  for (const ending of BRITISH_IS) {
    if (w.length >= ending.length + 3 && w.endsWith(ending)) {
      w = `${w.slice(0, -ending.length)}iz${ending.slice(2)}`;
      break;
    }
  }
  for (const [suffix, replacement] of SUFFIX_RULES) {
    if (!w.endsWith(suffix)) continue;
    const stem = w.slice(0, -suffix.length);
    const minStem = suffix === "al" ? 5 : 3;
    if (stem.length < minStem || !hasVowel(stem)) continue;
    w = stem + replacement;
    if (suffix === "ing" || suffix === "ed") {
      const last = w.charCodeAt(w.length - 1);
      if (last === w.charCodeAt(w.length - 2) && isConsonant(last)) w = w.slice(0, -1);
    }
    break;
  }
  if (w.endsWith("e") && w.length > 4) w = w.slice(0, -1);
  return w;
}

/** British -is- endings folded to -iz- ("randomised" → "randomized"); the stem before them must keep 3+ letters. */
const BRITISH_IS = ["isation", "ising", "ised", "ise"];

function hasVowel(s: string): boolean {
  for (let i = 0; i < s.length; i++) if ("aeiouy".includes(s.charAt(i))) return true;
  return false;
}

/** True for a lowercase ASCII consonant other than "s" ("assessed" keeps its "ss"). */
function isConsonant(code: number): boolean {
  return code >= 97 && code <= 122 && !"aeiouys".includes(String.fromCharCode(code));
}

/**
 * Raw word tokens of a text, in order: runs of letters and digits, with
 * internal hyphens kept ("case-control", "IL-6", "TGF-β1"). Case is kept so
 * that acronyms can be recognised.
 */
export function rawTokens(text: string): string[] {
  return text.match(/[\p{L}\p{N}]+(?:[-‐][\p{L}\p{N}]+)*/gu) ?? [];
}

/**
 * Index terms of one raw token: the stemmed token, and for a hyphenated token
 * also its joined form and its non-numeric parts, so "case-control" matches a
 * query "case control" and "IL-6" a query "IL6". Pure numbers and stop words
 * give no terms: they carry no topic. Memoised per raw token.
 */
export function termsOfToken(raw: string, out: string[]): void {
  let terms = termCache.get(raw);
  if (terms === undefined) {
    terms = computeTermsOfToken(raw);
    // Bounded so a long-running server does not grow it without limit; the
    // vocabulary of a few reviews fits many times over.
    if (termCache.size >= TERM_CACHE_LIMIT) termCache.clear();
    termCache.set(raw, terms);
  }
  for (const t of terms) out.push(t);
}

const termCache = new Map<string, readonly string[]>();
const TERM_CACHE_LIMIT = 100_000;

function computeTermsOfToken(raw: string): string[] {
  const out: string[] = [];
  // Diacritics folded so "Köln" matches "Koln"; skipped for plain ASCII, the common case.
  const folded = isAscii(raw) ? raw : raw.normalize("NFKD").replace(/\p{M}/gu, "");
  const lower = folded.toLowerCase();
  const addWord = (w: string) => {
    if (w.length < 2 || isAllDigits(w) || STOP_WORDS.has(w)) return;
    out.push(lightStem(w));
  };
  if (!lower.includes("-") && !lower.includes("‐")) {
    addWord(lower);
    return out;
  }
  const parts = lower.split(/[-‐]/u).filter((p) => p !== "");
  addWord(parts.join(""));
  for (const p of parts) if (!isAllDigits(p)) addWord(p);
  return out;
}

function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 127) return false;
  return true;
}

/** True when every character is a digit (any script), so the token names no topic. */
function isAllDigits(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 48 && c <= 57) continue;
    if (c < 128 || !/\p{N}/u.test(s.charAt(i))) return false;
  }
  return true;
}

/** Stemmed content terms of a text, in order, with repeats. */
export function textTerms(text: string): string[] {
  const out: string[] = [];
  for (const raw of rawTokens(text)) termsOfToken(raw, out);
  return out;
}
