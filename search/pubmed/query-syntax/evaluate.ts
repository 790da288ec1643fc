/**
 * Evaluation of a parsed query, two ways over one shared plan (`planOf`): in memory over one record (`matchesRecord`)
 * and as a SQL condition over the `articles` table (`pubmedQuerySql`), which reads the normalised sources and words
 * stored with each article (stored.ts). Both read the same plan and the same normalised texts (sources.ts), so they
 * have exactly the same semantics (described in search/pubmed/query-syntax.ts).
 */
import { sql, type RawBuilder } from "kysely";
import { LANGUAGE_CODES } from "./fields.ts";
import { parseDateRange } from "./parse.ts";
import {
  FIELD_SOURCES,
  indexedWord,
  INDEXED_WORD_CHARS,
  OVERFLOW_WORD,
  SOURCES,
  sourceText,
  type Source,
} from "./sources.ts";
import type { PubmedField, PubmedQueryNode, PubmedQueryRecord, PubmedQueryTerm } from "./types.ts";
import { normalise } from "./words.ts";

// ---------------------------------------------------------------------------------------------------------------------
// The evaluation plan, shared by matchesRecord and pubmedQuerySql

type PlanNode =
  | {
      kind: "find";
      field: Exclude<PubmedField, "dp">;
      sources: readonly Source[];
      needle: string;
      words: string[];
      lastIsPrefix: boolean;
    }
  | { kind: "date"; from: string; to: string; fromYear: number; toYear: number }
  | { kind: "and" | "or"; children: PlanNode[] }
  | { kind: "not"; include: PlanNode; exclude: PlanNode };

interface Plan {
  root: PlanNode;
  /** The fields the query's terms search, and their sources. */
  fields: Set<Exclude<PubmedField, "dp">>;
  sources: Set<Source>;
}

const plans = new WeakMap<PubmedQueryNode, Plan>();

function planOf(node: PubmedQueryNode): Plan {
  const cached = plans.get(node);
  if (cached) return cached;
  const sources = new Set<Source>();
  const fields = new Set<Exclude<PubmedField, "dp">>();
  const build = (n: PubmedQueryNode): PlanNode => {
    if (n.kind === "and" || n.kind === "or") return { kind: n.kind, children: n.children.map(build) };
    if (n.kind === "not") return { kind: "not", include: build(n.include), exclude: build(n.exclude) };
    if (n.field === "dp") {
      const range = n.dateRange ?? parseDateRange(n.text, 0);
      const [fromYear, toYear] = [Number(range.from.slice(0, 4)), Number(range.to.slice(0, 4))];
      return { kind: "date", from: range.from, to: range.to, fromYear, toYear };
    }
    const needle = needleOf(n);
    const plan = {
      kind: "find" as const,
      field: n.field,
      sources: FIELD_SOURCES[n.field],
      needle,
      words: needle.split(/[ |]+/).filter(Boolean),
      // " child" (truncated), "| smith j" (an author's initials): the last word may be longer in the text.
      lastIsPrefix: !/[ |]$/.test(needle),
    };
    for (const s of plan.sources) sources.add(s);
    fields.add(n.field);
    return plan;
  };
  const plan = { root: build(node), fields, sources };
  plans.set(node, plan);
  return plan;
}

/** What a term looks for in its sources (see Source). */
function needleOf(term: PubmedQueryTerm): string {
  let text = term.text;
  if (term.field === "mh" || term.field === "majr") text = text.split("/")[0]!;
  if (term.field === "la") text = LANGUAGE_CODES[text.trim().toLowerCase()] ?? text;
  let words = normalise(text).trim().split(" ").filter(Boolean);
  if (term.field === "ta" && words.length > 1 && words[0] === "the") words = words.slice(1);
  const joined = words.join(" ");
  switch (term.field) {
    case "mh":
    case "majr":
    case "pt":
    case "la":
    case "ta":
      return term.truncated ? `| ${joined}` : `| ${joined} |`;
    case "au":
      if (term.truncated) return `| ${joined}`;
      if (term.phrase) return `| ${joined} |`;
      return words.length === 1 ? `| ${joined} ` : `| ${joined}`;
    default:
      return term.truncated ? ` ${joined}` : ` ${joined} `;
  }
}

// ---------------------------------------------------------------------------------------------------------------------
// In memory

/** Normalised sources of records, computed on first use (records are immutable while they are searched). */
const recordSources = new WeakMap<PubmedQueryRecord, Partial<Record<Source, string>>>();

function sourceValue(record: PubmedQueryRecord, source: Source): string {
  let values = recordSources.get(record);
  if (!values) recordSources.set(record, (values = {}));
  return (values[source] ??= sourceText(record, source));
}

/**
 * Whether a record matches a parsed query (see search/pubmed/query-syntax.ts for the semantics). Plans and the record's
 * normalised text are cached, so evaluating one query over many records is cheap.
 */
export function matchesRecord(node: PubmedQueryNode, record: PubmedQueryRecord): boolean {
  const plan = planOf(node);
  const evaluate = (n: PlanNode): boolean => {
    switch (n.kind) {
      case "find":
        return n.sources.some((s) => sourceValue(record, s).includes(n.needle));
      case "date": {
        const date = record.publication_date?.slice(0, 10);
        if (date) return n.from <= date && date <= n.to;
        const year = record.publication_year;
        return year !== null && year !== undefined && n.fromYear <= year && year <= n.toYear;
      }
      case "and":
        return n.children.every(evaluate);
      case "or":
        return n.children.some(evaluate);
      case "not":
        return evaluate(n.include) && !evaluate(n.exclude);
    }
  };
  return evaluate(plan.root);
}

// ---------------------------------------------------------------------------------------------------------------------
// SQL

/*
 * The SQL reads what stored.ts keeps with each article: `syntax_sources`, the normalised sources (SOURCES order), and
 * `syntax_words`, a tsvector of their distinct words (sources.ts indexedWords). Per term, in two steps:
 *  1. the record's words must include the term's words (the last one as a prefix when it is truncated): a lookup in
 *     the row's tsvector, necessary since the normalised sources are made of those words;
 *  2. one of the term's sources must contain the needle, exactly as `matchesRecord` tests it: one `strpos` in the
 *     field's sources joined by U+0001, which no needle holds, so that no match spans two sources.
 * The whole query's words (AND and OR as the tree says; dates and the excluded side of a NOT ask nothing) come first as
 * one `@@` test, which a GIN index on `syntax_words` can answer: the candidate set. Nothing is folded or normalised at
 * query time, so the cost of a row is a few tsvector lookups per term and a substring search per term whose words it
 * holds, whatever letters the query uses (issue 34).
 */

/** A tsquery operand: the lexeme quoted (tsquery input takes it as it is, no normalisation), `:*` for a prefix. */
function lexeme(word: string, prefix: boolean): string {
  const kept = indexedWord(word);
  const quoted = `'${kept.replaceAll("\\", "\\\\").replaceAll("'", "''")}'`;
  return prefix || [...word].length > INDEXED_WORD_CHARS ? `${quoted}:*` : quoted;
}

/** What a find node asks of the word index, or null when it has no words. */
function findWords(n: Extract<PlanNode, { kind: "find" }>): string | null {
  if (n.words.length === 0) return null;
  return n.words.map((w, i) => lexeme(w, n.lastIsPrefix && i === n.words.length - 1)).join(" & ");
}

/** A record indexed as holding every word (sources.ts OVERFLOW_WORD) passes every word test. */
const orOverflow = (query: string) => `(${query}) | ${lexeme(OVERFLOW_WORD, false)}`;

/** The words a record must hold to match the (sub)query, as tsquery text; null when it asks nothing of them. */
function candidateWords(n: PlanNode): string | null {
  switch (n.kind) {
    case "find":
      return findWords(n);
    case "date":
      return null;
    case "not":
      return candidateWords(n.include);
    case "and": {
      const parts = n.children.map(candidateWords).filter((p): p is string => p !== null);
      return parts.length === 0 ? null : parts.map((p) => `(${p})`).join(" & ");
    }
    case "or": {
      const parts = n.children.map(candidateWords);
      if (parts.some((p) => p === null)) return null;
      return parts.map((p) => `(${p})`).join(" | ");
    }
  }
}

/** The exclusions of a chain `a NOT b NOT c` as one flat list (`a AND NOT b AND NOT c`), so the SQL stays shallow. */
function notChain(n: Extract<PlanNode, { kind: "not" }>): { include: PlanNode; excludes: PlanNode[] } {
  const excludes: PlanNode[] = [];
  let at: PlanNode = n;
  while (at.kind === "not") {
    excludes.unshift(at.exclude);
    at = at.include;
  }
  return { include: at, excludes };
}

function conditionSql(n: PlanNode): RawBuilder<boolean> {
  switch (n.kind) {
    case "find": {
      const found = sql`strpos(n.${sql.raw(`f_${n.field}`)}, ${n.needle}) > 0`;
      const words = findWords(n);
      if (words === null) return sql<boolean>`(${found})`;
      return sql<boolean>`(a.syntax_words @@ ${orOverflow(words)}::tsquery AND ${found})`;
    }
    case "date":
      return sql<boolean>`coalesce(CASE WHEN a.publication_date IS NOT NULL
        THEN a.publication_date BETWEEN ${n.from}::date AND ${n.to}::date
        ELSE a.publication_year BETWEEN ${n.fromYear}::integer AND ${n.toYear}::integer END, false)`;
    case "and":
    case "or":
      return sql<boolean>`(${sql.join(
        n.children.map((c) => conditionSql(c)),
        n.kind === "and" ? sql` AND ` : sql` OR `,
      )})`;
    case "not": {
      const { include, excludes } = notChain(n);
      const parts = [conditionSql(include), ...excludes.map((e) => sql`NOT coalesce(${conditionSql(e)}, false)`)];
      return sql<boolean>`(${sql.join(parts, sql` AND `)})`;
    }
  }
}

/**
 * The query as a condition on a row of `articles` aliased `a`, e.g.
 * `db.selectFrom("articles as a").select("a.pmid").where(pubmedQuerySql(node))`. Same semantics as `matchesRecord` on
 * every row whose syntax index is stored (stored.ts; a row without it never matches: fill it first with
 * `fillSyntaxIndex`), on PGlite and PostgreSQL whatever the database's locale (nothing locale-dependent is used). User
 * text only travels as bound parameters. Cost per row: one `@@` test of the query's words (answerable by the GIN index
 * on `syntax_words`), then, for a candidate, its sources unpacked once and per term a few tsvector lookups and a
 * substring search in each source of the terms whose words it holds: linear in the stored text and the number of terms,
 * independent of the letters used.
 */
export function pubmedQuerySql(node: PubmedQueryNode): RawBuilder<boolean> {
  const plan = planOf(node);
  const words = candidateWords(plan.root);
  let condition = conditionSql(plan.root);
  if (plan.sources.size > 0) {
    // The sources the query reads, unpacked from the stored array once per row; then each field's text, its sources
    // joined by a character no needle holds (U+0001), so that a term is one substring search whatever its field.
    const unpacked = [...plan.sources].map(
      (s) => sql`max(u.e) FILTER (WHERE u.i = ${sql.lit(SOURCES.indexOf(s) + 1)}) AS ${sql.raw(s)}`,
    );
    const fields = [...plan.fields].map((f) => {
      const parts = FIELD_SOURCES[f].map((s) => sql`s.${sql.raw(s)}`);
      return sql`${parts.length === 1 ? parts[0]! : sql`concat_ws(chr(1), ${sql.join(parts)})`} AS ${sql.raw(`f_${f}`)}`;
    });
    const s = sql`(SELECT ${sql.join(unpacked)} FROM unnest(a.syntax_sources) WITH ORDINALITY AS u(e, i)) AS s`;
    // OFFSET 0 keeps the planner from pulling the subquery up and computing the fields again at every use.
    const n = sql`(SELECT ${sql.join(fields)} FROM ${s} OFFSET 0) AS n`;
    condition = sql<boolean>`EXISTS (SELECT 1 FROM ${n} WHERE ${condition})`;
  }
  // A row without its index never matches (not even a strategy of dates alone: one rule for every strategy).
  if (words === null) return sql<boolean>`(a.syntax_words IS NOT NULL AND ${condition})`;
  return sql<boolean>`(a.syntax_words @@ ${orOverflow(words)}::tsquery AND ${condition})`;
}
