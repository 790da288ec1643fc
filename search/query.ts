/**
 * Free-text query handling and BM25 arithmetic for the PostgreSQL full-text adapter.
 * Everything here is pure (no database): parsing what the user typed, escaping lexemes into tsquery text,
 * the BM25 formulas, and the plan of the bounded candidate set. `postgres-index.ts` does the SQL.
 *
 * Reference for the scoring: S. Robertson & H. Zaragoza, "The Probabilistic Relevance Framework: BM25 and
 * Beyond", Foundations and Trends in Information Retrieval 3(4), 2009 (BM25, BM25F, k1, b, k3).
 */

/** One piece of a parsed query. */
export interface QuerySegment {
  /** "free": words scored with OR semantics; "phrase": a quoted phrase whose words are scored and whose
   * exact occurrence ranks a document higher; "exclude": a word or quoted phrase after a leading minus,
   * which hits must not contain. */
  kind: "free" | "phrase" | "exclude";
  text: string;
}

/** Longest query text looked at, in characters; longer input is cut (a query is a topic or a question). */
export const MAX_QUERY_CHARS = 2_000;

/**
 * Splits what a user typed into free text, quoted phrases and exclusions, the way web search engines read
 * it: `"heart failure"` is a phrase, `-aspirin` or `-"case report"` excludes, everything else is free text.
 * A minus counts only at the start of a word, so "non-small-cell" and "COVID-19" stay free text. Curly and
 * guillemet quotes count as straight quotes; an unclosed quote runs to the end. Stop words and punctuation
 * are left in: PostgreSQL's 'english' configuration drops them when the text is turned into lexemes.
 * @param text any string (cut to MAX_QUERY_CHARS).
 * @returns segments in input order; empty ones are dropped.
 */
export function parseQuery(text: string, maxChars = MAX_QUERY_CHARS): QuerySegment[] {
  const s = text.slice(0, maxChars).replace(/[\u201C\u201D\u201E\u201F\u00AB\u00BB\u2033]/g, '"');
  const out: QuerySegment[] = [];
  let free = "";
  const flushFree = () => {
    if (free.trim()) out.push({ kind: "free", text: free.trim() });
    free = "";
  };
  let i = 0;
  while (i < s.length) {
    const c = s[i]!;
    const atWordStart = i === 0 || /\s/.test(s[i - 1]!);
    if (c === '"' || (c === "-" && atWordStart && s[i + 1] === '"')) {
      const exclude = c === "-";
      const open = exclude ? i + 1 : i;
      const close = s.indexOf('"', open + 1);
      const end = close === -1 ? s.length : close;
      const inner = s.slice(open + 1, end).trim();
      flushFree();
      if (inner) out.push({ kind: exclude ? "exclude" : "phrase", text: inner });
      i = end + 1;
      continue;
    }
    if (c === "-" && atWordStart && i + 1 < s.length && /[\p{L}\p{N}]/u.test(s[i + 1]!)) {
      let end = i + 1;
      while (end < s.length && !/\s/.test(s[end]!) && s[end] !== '"') end++;
      flushFree();
      out.push({ kind: "exclude", text: s.slice(i + 1, end) });
      i = end;
      continue;
    }
    free += c;
    i++;
  }
  flushFree();
  return out;
}

/**
 * tsquery input text for one lexeme, quoted so that no character in it is read as an operator
 * (single quotes doubled, backslashes escaped, as tsquery's input syntax requires).
 */
export function tsqueryLexeme(lexeme: string): string {
  return `'${lexeme.replace(/\\/g, "\\\\").replace(/'/g, "''")}'`;
}

/** `a & b & …` (all) or `a | b | …` (any) over lexemes, as tsquery text. @throws Error on an empty list. */
export function tsqueryOf(lexemes: readonly string[], op: "&" | "|"): string {
  if (lexemes.length === 0) throw new Error("tsqueryOf needs at least one lexeme");
  return lexemes.map(tsqueryLexeme).join(` ${op} `);
}

/** BM25 parameters (Robertson & Zaragoza 2009, §3.5: k1 in [1.2, 2.0] and b = 0.75 are the usual choices). */
export const BM25 = {
  /** Term-frequency saturation: how quickly repeated occurrences stop adding. */
  k1: 1.2,
  /** Length normalisation: 0 = none, 1 = full. */
  b: 0.75,
  /** Query-term-frequency saturation for long queries (profiles); Robertson et al., TREC-3 (k3 = 7..1000). */
  k3: 8,
} as const;

/**
 * Field weights of the weighted document (BM25F, Robertson, Zaragoza & Taylor 2004: a term's frequency
 * is the weighted sum of its occurrences over fields, and the length is the weighted length). An occurrence
 * in the title counts 3, in MeSH terms or keywords 1.5, in the abstract 1: titles state the topic most
 * densely, MeSH headings are curated but broad ("Humans", "Female"), abstracts are long and discursive.
 * They map onto tsvector weights A, B, C; `RANK_WEIGHTS` is the `{D, C, B, A}` array handed to
 * `ts_rank_cd`, which must lie in [0.1, 1], so it carries the ratios and `RANK_SCALE` restores the units.
 */
export const FIELD_WEIGHTS = { title: 3, tags: 1.5, abstract: 1 } as const;
export const RANK_SCALE = FIELD_WEIGHTS.title;
export const RANK_WEIGHTS = `{0.1,${FIELD_WEIGHTS.abstract / RANK_SCALE},${FIELD_WEIGHTS.tags / RANK_SCALE},1}`;

/**
 * Robertson–Spärck Jones idf in the non-negative form used by Lucene:
 * ln(1 + (N − df + 0.5) / (df + 0.5)). Very common terms get an idf near 0, never below.
 * @param documents N, the number of indexed documents (≥ 0).
 * @param df documents containing the term (0 ≤ df ≤ N).
 */
export function bm25Idf(documents: number, df: number): number {
  return Math.log(1 + (documents - df + 0.5) / (df + 0.5));
}

/** Query-term weight for a term occurring `qtf` times in the query: qtf·(k3+1)/(qtf+k3); 1 when qtf = 1. */
export function queryTermWeight(qtf: number): number {
  return (qtf * (BM25.k3 + 1)) / (qtf + BM25.k3);
}

/**
 * One document's BM25 contribution of one term (the same formula the SQL evaluates, kept here for tests
 * and documentation): idf · qw · tf·(k1+1) / (tf + k1·(1 − b + b·dl/avgdl)).
 * @param tf field-weighted term frequency in the document.
 * @param dl field-weighted document length; avgdl its mean over the index (> 0).
 */
export function bm25TermScore(idf: number, qw: number, tf: number, dl: number, avgdl: number): number {
  if (tf <= 0) return 0;
  return (idf * qw * tf * (BM25.k1 + 1)) / (tf + BM25.k1 * (1 - BM25.b + (BM25.b * dl) / avgdl));
}

/** A query lexeme with its statistics. */
export interface WeightedTerm {
  lexeme: string;
  /** Document frequency (> 0). */
  df: number;
  /** idf · query-term weight: the term's importance in this query. */
  weight: number;
}

/** One source of candidates: documents whose `field` vector matches `query` (tsquery text). */
export interface CandidateBranch {
  field: "document" | "title";
  query: string;
}

export interface CandidatePlan {
  /** In priority order; candidates are taken from the first branches until the budget is reached. */
  branches: CandidateBranch[];
  /** True when the branches enumerate every document matching any term (so totals are exact). */
  complete: boolean;
}

export interface PlanOptions {
  /** N, indexed documents. */
  documents: number;
  /** Most candidates to score. */
  budget: number;
  /** Terms in more than max(budget, commonFraction·N, capped at commonCap) documents are "common". */
  commonFraction?: number;
  commonCap?: number;
  /** Most informative terms combined into coordination levels (2^n subsets are examined). */
  maxLevelTerms?: number;
  /** tsquery texts of quoted phrases: documents containing one are drawn right after the title branch. */
  phrases?: readonly string[];
}

/** Coordination levels, as fractions of the informative terms' total weight a candidate must carry. */
const LEVELS = [1, 0.7, 0.45];

/**
 * Plans a bounded candidate set for OR semantics (a document matches if it has any query term).
 *
 * When every matching document fits in the budget (Σ df ≤ budget) the plan is one complete branch and
 * ranking is exact BM25. Otherwise, which documents to score is decided by the weight they can carry,
 * like the MaxScore/WAND family of dynamic pruning (Turtle & Flood 1995; Broder et al. 2003), using
 * only what a GIN index answers cheaply (boolean matches):
 *  1. all terms in the title(+MeSH) vector: the best-matching documents for any query; then documents
 *     containing a quoted phrase, if any;
 *  2. coordination levels over the informative terms (df below the "common" line): documents holding a
 *     set of terms whose idf-weights sum to ≥ 100 %, 70 %, 45 % of the total, each level one boolean
 *     query (an OR of the minimal such sets);
 *  3. any informative term in the document;
 *  4. common terms in the title vector (all of them, then any): for a term found in a large share of the
 *     corpus an occurrence in the title is what sets a document apart (weight 3 against 1), and title
 *     postings are a fraction of document postings, which keeps the index read short;
 *  5. any term anywhere (the last resort, reached only when the rest did not fill the budget).
 * The budget caps the cost whatever the query: the database stops reading branches once it is full.
 * @param terms query terms with df > 0 (any order).
 */
export function planCandidates(terms: readonly WeightedTerm[], opts: PlanOptions): CandidatePlan {
  if (terms.length === 0) return { branches: [], complete: true };
  const sorted = [...terms].sort((a, b) => b.weight - a.weight || a.lexeme.localeCompare(b.lexeme));
  const all = sorted.map((t) => t.lexeme);
  const sumDf = sorted.reduce((s, t) => s + t.df, 0);
  if (sumDf <= opts.budget) return { branches: [{ field: "document", query: tsqueryOf(all, "|") }], complete: true };

  const commonDf = Math.max(opts.budget, Math.min((opts.commonFraction ?? 0.2) * opts.documents, opts.commonCap ?? 50_000));
  const informative = sorted.filter((t) => t.df <= commonDf).slice(0, opts.maxLevelTerms ?? 6);
  const common = sorted.filter((t) => t.df > commonDf).map((t) => t.lexeme);
  const branches: CandidateBranch[] = [];
  const add = (b: CandidateBranch) => {
    if (!branches.some((x) => x.field === b.field && x.query === b.query)) branches.push(b);
  };

  add({ field: "title", query: tsqueryOf(all.slice(0, opts.maxLevelTerms ?? 6), "&") });
  if (opts.phrases?.length) add({ field: "document", query: opts.phrases.map((p) => `(${p})`).join(" | ") });
  if (informative.length >= 2) {
    const total = informative.reduce((s, t) => s + t.weight, 0);
    for (const level of LEVELS) add({ field: "document", query: minimalSetsQuery(informative, level * total) });
  }
  if (informative.length >= 1) add({ field: "document", query: tsqueryOf(informative.map((t) => t.lexeme), "|") });
  if (common.length >= 2) add({ field: "title", query: tsqueryOf(common, "&") });
  if (common.length >= 1) add({ field: "title", query: tsqueryOf(common, "|") });
  add({ field: "document", query: tsqueryOf(all, "|") });
  return { branches, complete: false };
}

/**
 * tsquery text matching documents that contain some set of `terms` whose weights sum to ≥ `threshold`:
 * the OR of the minimal such sets (a set is minimal when dropping any member takes it below threshold).
 * With ≤ 6 terms there are at most 63 sets to examine and 20 minimal ones.
 */
export function minimalSetsQuery(terms: readonly WeightedTerm[], threshold: number): string {
  const n = terms.length;
  const weightOf = (mask: number) => terms.reduce((s, t, i) => (mask & (1 << i) ? s + t.weight : s), 0);
  // Compare with a relative tolerance so that a threshold equal to a set's own sum selects it.
  const eps = 1e-9 * Math.max(1, threshold);
  const minimal: number[] = [];
  for (let mask = 1; mask < 1 << n; mask++) {
    if (weightOf(mask) + eps < threshold) continue;
    let isMinimal = true;
    for (let i = 0; i < n && isMinimal; i++)
      if (mask & (1 << i) && weightOf(mask & ~(1 << i)) + eps >= threshold) isMinimal = false;
    if (isMinimal) minimal.push(mask);
  }
  if (minimal.length === 0) return tsqueryOf(terms.map((t) => t.lexeme), "&");
  const conj = minimal.map((mask) => {
    const lex = terms.filter((_, i) => mask & (1 << i)).map((t) => t.lexeme);
    return lex.length === 1 ? tsqueryLexeme(lex[0]!) : `(${tsqueryOf(lex, "&")})`;
  });
  return conj.join(" | ");
}
