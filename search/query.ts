/**
 * Free-text query handling and BM25 arithmetic for the PostgreSQL full-text adapter.
 * Everything here is pure (no database): parsing what the user typed, escaping lexemes into tsquery text,
 * the BM25 formulas, and the plan of the bounded candidate set. `postgres-index.ts` and `postgres/` do the SQL.
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
  /** Documents having the term in the title vector (title, MeSH, keywords); ≤ df. */
  titleDf: number;
  /** idf · query-term weight: the term's importance in this query. */
  weight: number;
}

/**
 * One source of candidates: documents whose `field` vector matches `query` (tsquery text), read one of
 * three ways:
 *  - "index": every match through the GIN index, newest PMIDs kept (cost grows with the posting lists and
 *    with the matching rows, each fetched from the table);
 *  - "index-first": through the GIN index, but only the first matches in table order are fetched (for a
 *    broad branch: the posting lists are still read, the table fetches are bounded);
 *  - "scan": the primary key walked from the newest PMID, each row tested until enough match (cost grows
 *    with the inverse of the match density; bounded by MAX_SCANNED_ROWS).
 * The planner's own choice is not used because its tsquery selectivity estimates are too coarse for it:
 * a wrong "scan" on a sparse query reads the table.
 */
export interface CandidateBranch {
  field: "document" | "title";
  query: string;
  access: "index" | "index-first" | "scan";
}

export interface CandidatePlan {
  /** In priority order; candidates are taken from the first branches until enough are found. */
  branches: CandidateBranch[];
  /** True when the branches enumerate every document matching any term (so totals are exact). */
  complete: boolean;
}

export interface PlanOptions {
  /** N, indexed documents. */
  documents: number;
  /** When Σ df ≤ budget, every match is scored (one complete branch). */
  budget: number;
  /** Candidates wanted from the branches of a bounded plan. */
  target: number;
  /** An exclusion (or excluded PMIDs) also filters the rows: matches are sparser for a scan. */
  filtered?: boolean;
  /** A year range filters the rows. Years follow PMIDs, so a scan of the newest rows is never used then. */
  yearRange?: boolean;
  /** Quoted phrases (tsquery text, and the smallest df of their words): drawn after the conjunctions. */
  phrases?: readonly { query: string; df: number }[];
}

/** Most terms combined in the conjunctive branches (the highest-weighted). */
const MAX_COMBINED_TERMS = 6;
/**
 * Coordination levels: shares of the total query weight a document must carry to be drawn, tried in
 * turn (each level is read only if the ones before found too few documents).
 */
const COORDINATION_LEVELS = [0.8, 0.6, 0.45];
/**
 * Most terms in the coordination levels (the highest-weighted): with 4 there are at most 6 minimal sets
 * per level, which keeps GIN's per-entry boolean check cheap; on the benchmark corpus 6 terms instead of 4
 * raised the overlap with exhaustive BM25's top 10 by under 0.01.
 */
const MAX_COORDINATED_TERMS = 4;
/**
 * Most posting entries a coordination level may read (its terms' df summed), bounding its cost to about
 * 60 ms in the worst case and far less in practice (levels stop once enough documents are found). At
 * 1M benchmark records, 120,000 left most questions without coordination (overlap with exhaustive BM25
 * 0.55), 300,000 gave 0.59 at the same p95, 600,000 nothing more for 5 ms more.
 */
const COORDINATION_POSTINGS = 300_000;
/** Most rows a primary-key scan tests before giving up (bounds a scan whose matches are sparser than estimated). */
export const MAX_SCANNED_ROWS = 10_000;

/**
 * Costs in microseconds used to choose how to read a branch, measured on the benchmark server
 * (docs/benchmarks.md; PostgreSQL 15 with its default 128 MB of shared buffers, 1M records, so
 * most table pages come from the operating system's cache): a disjunction's bitmap costs about 0.2 µs
 * per posting entry; a conjunction about 0.08 µs per entry of its shortest list per term (GIN skips
 * through the longer lists); a matching row fetched from the table at random about 3 µs; a row tested
 * in a primary-key scan (pages read in order) about 1.7 µs. Only their ratios matter.
 */
const COST = { postingEntry: 0.2, probedEntry: 0.08, fetchedRow: 3, scannedRow: 1.7 } as const;
/** Assumed share of rows an exclusion keeps, when estimating a scan. */
const FILTER_SELECTIVITY = 0.25;

/**
 * Plans a bounded candidate set for OR semantics (a document matches if it has any query term).
 *
 * When every matching document fits in the budget (Σ df ≤ budget) the plan is one complete branch and
 * ranking is exact BM25. Otherwise, which documents to score is decided by the query weight they can
 * carry, in the spirit of dynamic pruning (MaxScore, Turtle & Flood 1995; WAND, Broder et al. 2003) but
 * with only what a GIN index answers cheaply (boolean matches), in this order:
 *  1. all terms in the title vector (title, MeSH, keywords): the strongest matches for any query;
 *  2. all terms anywhere;
 *  3. documents containing a quoted phrase, if any;
 *  4. coordination levels: documents holding terms that carry ≥ 80 %, then 60 %, then 45 % of the
 *     query's total idf weight (each level one boolean query, the OR of the minimal such sets), over the
 *     highest-weighted terms whose posting lists together stay under COORDINATION_POSTINGS;
 *  5. any term in the title vector: for a term found in a large share of the corpus, an occurrence in
 *     the title is what sets a document apart (weight 3 against 1);
 *  6. any term anywhere (reached only when the rest found fewer than the target).
 * Each branch runs only while the ones before it found fewer than "enough" distinct documents (set by
 * the caller), and at most `target` documents are scored. How each branch is read (see
 * CandidateBranch) is chosen from its expected matches, estimated from df and title df assuming
 * independent terms: few matches are all fetched and the newest kept; many are read by a bounded scan
 * of the newest rows when dense enough, else the first ones found.
 * @param terms query terms with df > 0 (any order).
 */
export function planCandidates(terms: readonly WeightedTerm[], opts: PlanOptions): CandidatePlan {
  if (terms.length === 0) return { branches: [], complete: true };
  const sorted = [...terms].sort((a, b) => b.weight - a.weight || a.lexeme.localeCompare(b.lexeme));
  const all = sorted.map((t) => t.lexeme);
  const sumDf = sorted.reduce((s, t) => s + t.df, 0);
  if (sumDf <= opts.budget)
    return { branches: [{ field: "document", query: tsqueryOf(all, "|"), access: "index" }], complete: true };

  const access = (op: "all" | "any", frequencies: number[]) => branchAccess(op, frequencies, opts);

  const branches: CandidateBranch[] = [];
  const add = (b: CandidateBranch) => {
    if (!branches.some((x) => x.field === b.field && x.query === b.query)) branches.push(b);
  };
  const combined = sorted.slice(0, MAX_COMBINED_TERMS);
  const combinedQuery = tsqueryOf(
    combined.map((t) => t.lexeme),
    "&",
  );
  if (combined.length > 1)
    add({
      field: "title",
      query: combinedQuery,
      access: access(
        "all",
        combined.map((t) => t.titleDf),
      ),
    });
  if (combined.length > 1)
    add({
      field: "document",
      query: combinedQuery,
      access: access(
        "all",
        combined.map((t) => t.df),
      ),
    });
  if (opts.phrases?.length) {
    const most = opts.phrases.reduce((sum, p) => sum + p.df, 0);
    add({
      field: "document",
      query: opts.phrases.map((p) => `(${p.query})`).join(" | "),
      access: most <= 2 * opts.target ? "index" : "index-first",
    });
  }

  for (const branch of coordinationBranches(combined, opts.target)) add(branch);
  add({
    field: "title",
    query: tsqueryOf(all, "|"),
    access: access(
      "any",
      sorted.map((t) => t.titleDf),
    ),
  });
  add({
    field: "document",
    query: tsqueryOf(all, "|"),
    access: access(
      "any",
      sorted.map((t) => t.df),
    ),
  });
  return { branches, complete: false };
}

/**
 * How to read "all" or "any" of the terms with these frequencies (document counts). Every match is fetched (and the
 * newest kept) only when there can be few: a conjunction has at most min(df) matches (its terms may always occur
 * together: "adolescent idiopathic scoliosis"), a disjunction at most Σ df. Otherwise the cheaper of taking the first
 * matches the index yields and scanning the newest rows (a scan stops at MAX_SCANNED_ROWS even if it found fewer
 * than the target; the next branches then make up the rest). A disjunction's size is estimated assuming independent
 * terms; a conjunction's lies between that and min(df), and their geometric mean is used.
 */
function branchAccess(op: "all" | "any", frequencies: number[], opts: PlanOptions): CandidateBranch["access"] {
  const n = Math.max(opts.documents, 1);
  const density = opts.filtered ? FILTER_SELECTIVITY : 1;
  const least = Math.min(...frequencies);
  const sum = frequencies.reduce((a, d) => a + d, 0);
  if ((op === "all" ? least : sum) <= 2 * opts.target) return "index";
  const p = frequencies.map((d) => Math.min(d, n) / n);
  const matches =
    op === "all" ? Math.sqrt(n * p.reduce((a, x) => a * x, 1) * least) : n * (1 - p.reduce((a, x) => a * (1 - x), 1));
  const first =
    (op === "all" ? COST.probedEntry * frequencies.length * least : COST.postingEntry * sum) +
    COST.fetchedRow * opts.target;
  const scannedRows = Math.min(MAX_SCANNED_ROWS, (opts.target * n) / (Math.max(matches, 1) * density));
  return !opts.yearRange && COST.scannedRow * scannedRows < first ? "scan" : "index-first";
}

/**
 * The coordination-level branches (step 4 of `planCandidates`), strictest level first, over the highest-weighted of
 * `combined` (sorted by weight, highest first) whose posting lists stay under COORDINATION_POSTINGS together. None
 * when fewer than two terms qualify.
 */
function coordinationBranches(combined: readonly WeightedTerm[], target: number): CandidateBranch[] {
  const coordinated: WeightedTerm[] = [];
  let postings = 0;
  for (const t of combined) {
    if (coordinated.length === MAX_COORDINATED_TERMS) break;
    if (postings + t.df > COORDINATION_POSTINGS) continue;
    coordinated.push(t);
    postings += t.df;
  }
  if (coordinated.length <= 1) return [];
  const branches: CandidateBranch[] = [];
  const total = coordinated.reduce((s, t) => s + t.weight, 0);
  for (const level of COORDINATION_LEVELS) {
    const sets = minimalSets(coordinated, level * total);
    if (sets.length === 0) continue;
    const most = sets.reduce((sum, set) => sum + Math.min(...set.map((t) => t.df)), 0);
    branches.push({ field: "document", query: setsQuery(sets), access: most <= 2 * target ? "index" : "index-first" });
  }
  return branches;
}

/**
 * The minimal sets of `terms` whose weights sum to ≥ `threshold` (a set is minimal when dropping any
 * member takes it below the threshold). With ≤ 6 terms there are at most 63 sets to examine and 20
 * minimal ones.
 */
export function minimalSets(terms: readonly WeightedTerm[], threshold: number): WeightedTerm[][] {
  const n = terms.length;
  const weightOf = (mask: number) => terms.reduce((s, t, i) => (mask & (1 << i) ? s + t.weight : s), 0);
  // Compare with a relative tolerance so that a threshold equal to a set's own sum selects it.
  const eps = 1e-9 * Math.max(1, threshold);
  const out: WeightedTerm[][] = [];
  for (let mask = 1; mask < 1 << n; mask++) {
    if (weightOf(mask) + eps < threshold) continue;
    let isMinimal = true;
    for (let i = 0; i < n && isMinimal; i++)
      if (mask & (1 << i) && weightOf(mask & ~(1 << i)) + eps >= threshold) isMinimal = false;
    if (isMinimal) out.push(terms.filter((_, i) => mask & (1 << i)));
  }
  return out;
}

/** tsquery text of an OR of conjunctions. @throws Error on an empty list. */
export function setsQuery(sets: readonly (readonly WeightedTerm[])[]): string {
  if (sets.length === 0) throw new Error("setsQuery needs at least one set");
  return sets
    .map((set) =>
      set.length === 1
        ? tsqueryLexeme(set[0]!.lexeme)
        : `(${tsqueryOf(
            set.map((t) => t.lexeme),
            "&",
          )})`,
    )
    .join(" | ");
}
