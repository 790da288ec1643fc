/**
 * Duplicate records of one work (issue 21, item 7): PubMed lists the same article under several PMIDs (duplicate
 * publications, translations, republished articles, records merged from two sources). A summary must cite such a work
 * once, with the group's other PMIDs listed beside it, instead of "[1, 2, 3, … 30]".
 *
 * Two records are the same work when
 *  - their abstracts are the same once normalised (case, diacritics, punctuation and whitespace ignored), or
 *  - their titles and abstracts together are near-identical: the resemblance (Jaccard coefficient) of their sets of
 *    word 3-shingles is at least NEAR_DUPLICATE_RESEMBLANCE (Broder 1997, "On the resemblance and containment of
 *    documents", Compression and Complexity of Sequences, pp. 21-29), or
 *  - their titles are the same once normalised and at least a third of the word 3-shingles of the shorter abstract
 *    occur in the other (Broder's containment, SAME_TITLE_CONTAINMENT): a record republished with a shortened or
 *    partly rewritten abstract, or a conference abstract and the article, under one title.
 * Titles alone never group records: short titles ("Low back pain.") are shared by different works, whose abstracts
 * share next to no word triples. (The search's re-ranking already drops records with the same DOI or a near-identical
 * title of four words or more; this is the check that also covers short titles.)
 * The relation is closed transitively (union-find), so a chain of near-copies is one group.
 */
import type { SummaryArticle } from "../summary/types.ts";

/**
 * Resemblance of the shingle sets at or above which two records are one work. One changed word changes w shingles,
 * so with w = 3 a 70-word abstract with one corrected word keeps a resemblance of 67/73 = 0.92, with two 0.85; 0.8
 * tolerates a corrected typo or two in a short abstract and a few in a long one, while two different abstracts, even
 * of the same authors on the same topic, share far fewer word triples (the 50 real nasopharyngeal carcinoma abstracts
 * of the tests: at most 0.21).
 */
export const NEAR_DUPLICATE_RESEMBLANCE = 0.8;
/**
 * Containment of the smaller abstract's shingle set in the other's at or above which two records with the same title
 * are one work. Two different abstracts under the same short title share almost no word triples (the 50 real
 * nasopharyngeal carcinoma abstracts of the tests: at most 0.21 resemblance even across titles); an abstract that
 * keeps a third of another's text under the same title is a version of it. On the benchmarks' built-in 100,000-record
 * corpus, where each real record reappears under ~48 PMIDs with about 60% of its sentences and one to four foreign
 * ones, 0.35 joins 36 of the 39 records titled "Low back pain." into one group (2 share no sentence with the rest, 1
 * has 19 words).
 */
export const SAME_TITLE_CONTAINMENT = 0.35;
/** Words per shingle (w in Broder's w-shingling). */
export const SHINGLE_WORDS = 3;
/**
 * An abstract shorter than this (in words) does not make two records one work: "Abstract not available." or a
 * one-line note is shared by unrelated records.
 */
export const MIN_ABSTRACT_WORDS = 20;

/** The result of grouping: one representative per work, and the other PMIDs of each work that has several. */
export interface DuplicateGroups<T> {
  /** The best-ranked member of each group (the first in input order), in input order. */
  kept: T[];
  /** Kept PMID → the group's other PMIDs, in input order; only groups of two or more records appear. */
  duplicatesOf: Map<number, number[]>;
}

/** Words of a text, lower-cased, diacritics folded, letters and digits only. */
function normalisedWords(text: string): string[] {
  return (
    text
      .normalize("NFKD")
      .replace(/\p{M}/gu, "")
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

/** The abstract's text: the plain abstract, else its sections joined. */
function abstractText(article: SummaryArticle): string {
  if (article.abstract && article.abstract.trim() !== "") return article.abstract;
  const sections = Array.isArray(article.abstract_sections) ? article.abstract_sections : [];
  return sections.map((s) => (typeof s?.text === "string" ? s.text : "")).join(" ");
}

/** 32-bit FNV-1a hash of a string (Fowler, Noll, Vo), for compact shingle sets. */
function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * The set of hashed word w-shingles of a word list (a list shorter than w gives one shingle of all its words). A
 * shingle's hash combines its words' FNV-1a hashes (polynomial, 32 bits): no string is built per shingle.
 */
function shingles(words: readonly string[]): Set<number> {
  const out = new Set<number>();
  const hashes = words.map(fnv1a);
  const w = Math.min(SHINGLE_WORDS, hashes.length);
  for (let i = 0; i + w <= hashes.length; i++) {
    let h = 0;
    for (let k = 0; k < w; k++) h = (Math.imul(h, 0x01000193) + (hashes[i + k] as number)) >>> 0;
    out.add(h);
    if (w < SHINGLE_WORDS) break;
  }
  return out;
}

/** |A ∩ B| of two sets. */
function common(a: Set<number>, b: Set<number>): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let n = 0;
  for (const x of small) if (large.has(x)) n++;
  return n;
}

/** Jaccard coefficient |A ∩ B| / |A ∪ B| of two sets (Broder's resemblance). */
function resemblance(a: Set<number>, b: Set<number>): number {
  const n = common(a, b);
  return n / (a.size + b.size - n);
}

/** |A ∩ B| / min(|A|, |B|): how much of the smaller set the larger contains (Broder's containment, symmetrised). */
function containment(a: Set<number>, b: Set<number>): number {
  return common(a, b) / Math.max(1, Math.min(a.size, b.size));
}

/**
 * Groups the records of the same work.
 *
 * @param articles Ranked articles, best first (a PMID given twice counts once; its later copies are dropped).
 * @returns `kept`: the first (best-ranked) record of each group, in input order; `duplicatesOf`: kept PMID → the
 *   other PMIDs of its group in input order, for groups of two or more only. Records without an abstract of at least
 *   MIN_ABSTRACT_WORDS words are never grouped. Pure and deterministic; O(n²) comparisons of shingle sets, about
 *   10 ms for the 100 articles of a review (2 vCPU, measured on the 100,000-record benchmark corpus).
 */
export function groupDuplicateRecords<T extends SummaryArticle>(articles: readonly T[]): DuplicateGroups<T> {
  const seen = new Set<number>();
  const unique: T[] = [];
  for (const a of articles) {
    if (seen.has(a.pmid)) continue;
    seen.add(a.pmid);
    unique.push(a);
  }
  const parent = unique.map((_, i) => i);
  const find = (i: number): number => {
    let r = i;
    while (parent[r] !== r) r = parent[r] as number;
    // Path compression: every record on the way points to the root.
    for (let k = i; parent[k] !== r; ) {
      const next = parent[k] as number;
      parent[k] = r;
      k = next;
    }
    return r;
  };
  // The representative of a group is its smallest index, i.e. its best-ranked member.
  const union = (i: number, j: number) => {
    const a = find(i);
    const b = find(j);
    if (a !== b) parent[Math.max(a, b)] = Math.min(a, b);
  };

  const byAbstract = new Map<string, number>();
  const texts = unique.map((article, i) => {
    const words = normalisedWords(abstractText(article));
    if (words.length < MIN_ABSTRACT_WORDS) return null;
    const key = words.join(" ");
    const first = byAbstract.get(key);
    if (first === undefined) byAbstract.set(key, i);
    else union(first, i);
    const title = normalisedWords(article.title ?? "");
    return { title: title.join(" "), whole: shingles([...title, ...words]), abstract: shingles(words) };
  });
  for (let i = 0; i < unique.length; i++) {
    const a = texts[i];
    if (!a) continue;
    for (let j = i + 1; j < unique.length; j++) {
      const b = texts[j];
      if (!b || find(i) === find(j)) continue;
      if (a.title !== "" && a.title === b.title && containment(a.abstract, b.abstract) >= SAME_TITLE_CONTAINMENT) {
        union(i, j);
        continue;
      }
      // |A ∩ B| ≤ min(|A|, |B|), so the resemblance cannot reach the threshold when the sizes differ too much.
      const [x, y] = [a.whole, b.whole];
      if (Math.min(x.size, y.size) < NEAR_DUPLICATE_RESEMBLANCE * Math.max(x.size, y.size)) continue;
      if (resemblance(x, y) >= NEAR_DUPLICATE_RESEMBLANCE) union(i, j);
    }
  }

  const kept: T[] = [];
  const duplicatesOf = new Map<number, number[]>();
  unique.forEach((article, i) => {
    const root = find(i);
    if (root === i) {
      kept.push(article);
      return;
    }
    const keptPmid = (unique[root] as T).pmid;
    const others = duplicatesOf.get(keptPmid);
    if (others) others.push(article.pmid);
    else duplicatesOf.set(keptPmid, [article.pmid]);
  });
  return { kept, duplicatesOf };
}
