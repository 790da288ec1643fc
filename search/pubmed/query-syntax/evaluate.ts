/**
 * Evaluation of a parsed query, two ways over one shared plan (`planOf`): in memory over one record (`matchesRecord`)
 * and as a SQL condition over the `articles` table (`pubmedQuerySql`). Both read the same plan, so they have exactly
 * the same semantics (described in search/pubmed/query-syntax.ts).
 */
import { sql, type RawBuilder } from "kysely";
import { LANGUAGE_CODES } from "./fields.ts";
import { parseDateRange } from "./parse.ts";
import type { PubmedField, PubmedQueryNode, PubmedQueryRecord, PubmedQueryTerm } from "./types.ts";
import {
  foldFor,
  JOURNAL_QUALIFIER,
  JOURNAL_QUALIFIER_RE,
  LEADING_THE,
  LEADING_THE_RE,
  nonWordPattern,
  normalise,
  normaliseList,
  type Fold,
} from "./words.ts";

// ---------------------------------------------------------------------------------------------------------------------
// The evaluation plan, shared by matchesRecord and pubmedQuerySql

/**
 * Normalised sources, each a string in which terms are looked for as substrings:
 *  ti, ab, jo: " words "; au, mh, mj, kw, pt: "| item words | … |"; la: "| code |";
 *  ta: "| journal words | journal words without its qualifier |", each without a leading "the".
 */
type Source = "ti" | "ab" | "au" | "jo" | "ta" | "mh" | "mj" | "kw" | "pt" | "la";

const FIELD_SOURCES: Readonly<Record<Exclude<PubmedField, "dp">, readonly Source[]>> = {
  all: ["ti", "ab", "au", "jo", "mh", "kw"],
  tiab: ["ti", "ab"],
  ti: ["ti"],
  ab: ["ab"],
  tw: ["ti", "ab", "mh", "kw"],
  ot: ["kw"],
  mh: ["mh"],
  majr: ["mj"],
  au: ["au"],
  ta: ["ta"],
  pt: ["pt"],
  la: ["la"],
};

type PlanNode =
  | { kind: "find"; sources: readonly Source[]; needle: string }
  | { kind: "date"; from: string; to: string; fromYear: number; toYear: number }
  | { kind: "and" | "or"; children: PlanNode[] }
  | { kind: "not"; include: PlanNode; exclude: PlanNode };

interface Plan {
  fold: Fold;
  root: PlanNode;
  sources: Set<Source>;
}

const plans = new WeakMap<PubmedQueryNode, Plan>();

function termsOf(node: PubmedQueryNode, out: PubmedQueryTerm[] = []): PubmedQueryTerm[] {
  if (node.kind === "term") out.push(node);
  else if (node.kind === "not") {
    termsOf(node.include, out);
    termsOf(node.exclude, out);
  } else for (const c of node.children) termsOf(c, out);
  return out;
}

function planOf(node: PubmedQueryNode): Plan {
  const cached = plans.get(node);
  if (cached) return cached;
  const fold = foldFor(termsOf(node));
  const sources = new Set<Source>();
  const build = (n: PubmedQueryNode): PlanNode => {
    if (n.kind === "and" || n.kind === "or") return { kind: n.kind, children: n.children.map(build) };
    if (n.kind === "not") return { kind: "not", include: build(n.include), exclude: build(n.exclude) };
    if (n.field === "dp") {
      const range = n.dateRange ?? parseDateRange(n.text, 0);
      const [fromYear, toYear] = [Number(range.from.slice(0, 4)), Number(range.to.slice(0, 4))];
      return { kind: "date", from: range.from, to: range.to, fromYear, toYear };
    }
    const plan = { kind: "find" as const, sources: FIELD_SOURCES[n.field], needle: needleOf(n, fold) };
    for (const s of plan.sources) sources.add(s);
    return plan;
  };
  const plan = { fold, root: build(node), sources };
  plans.set(node, plan);
  return plan;
}

/** What a term looks for in its sources (see Source). */
function needleOf(term: PubmedQueryTerm, fold: Fold): string {
  let text = term.text;
  if (term.field === "mh" || term.field === "majr") text = text.split("/")[0]!;
  if (term.field === "la") text = LANGUAGE_CODES[text.trim().toLowerCase()] ?? text;
  let words = normalise(text, fold).trim().split(" ").filter(Boolean);
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

/** Normalised sources of records, per folding (records are immutable while they are searched). */
const recordSources = new WeakMap<PubmedQueryRecord, { key: string; values: Partial<Record<Source, string>> }>();

function sourceValue(record: PubmedQueryRecord, source: Source, fold: Fold): string {
  let entry = recordSources.get(record);
  if (!entry || entry.key !== fold.key) recordSources.set(record, (entry = { key: fold.key, values: {} }));
  const known = entry.values[source];
  if (known !== undefined) return known;
  let value: string;
  switch (source) {
    case "ti":
      value = normalise(record.title ?? "", fold);
      break;
    case "ab":
      value = normalise(record.abstract ?? "", fold);
      break;
    case "jo":
      value = normalise(record.journal ?? "", fold);
      break;
    case "au":
      value = normaliseList(record.authors ? record.authors.split(", ") : [], fold);
      break;
    case "mh":
      value = normaliseList(record.mesh_terms ?? [], fold);
      break;
    case "mj":
      value = normaliseList(record.mesh_major_terms ?? [], fold);
      break;
    case "kw":
      value = normaliseList(record.keywords ?? [], fold);
      break;
    case "pt":
      value = normaliseList(record.publication_types ?? [], fold);
      break;
    case "la":
      value = `|${normalise(record.language ?? "", fold)}|`;
      break;
    case "ta": {
      const journal = record.journal ?? "";
      const bare = (s: string) => normalise(s, fold).replace(LEADING_THE_RE, " ");
      value = `|${bare(journal)}|${bare(journal.replace(JOURNAL_QUALIFIER_RE, ""))}|`;
      break;
    }
  }
  entry.values[source] = value;
  return value;
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
        return n.sources.some((s) => sourceValue(record, s, plan.fold).includes(n.needle));
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
 * The SQL evaluates exactly what `matchesRecord` does, in two steps per term and source, so that the costly part runs
 * only on rows that can match:
 *  1. the source, case-folded, must contain each word of the term's needle as a substring (`strpos`): necessary,
 *     since the normalised source is the folded text with its non-word runs made single spaces;
 *  2. the normalised source (`regexp_replace` of the non-word runs) must contain the needle.
 * Folding, locale-free: `lower(x COLLATE "C")` lower-cases ASCII letters only, whatever the database's locale; then
 * `translate(…, fold_from, fold_to)` maps the non-ASCII characters of the folding (Fold.sqlFrom), only on texts that
 * hold one of them (a few `strpos`; translate() scans its list for every character of the text, about 20 ns a
 * character even for a one-character list, where lower() in "C" costs a tenth of that).
 * The subquery `r` holds the raw texts and the three parameters, `n` the folded texts; both are fenced by OFFSET 0 so
 * that each is computed once per row.
 */

/** Raw text of a prefilter column. */
function rawSql(column: Source): RawBuilder<string> {
  switch (column) {
    case "ti":
      return sql`coalesce(a.title, '')`;
    case "ab":
      return sql`coalesce(a.abstract, '')`;
    case "jo":
    case "ta":
      return sql`coalesce(a.journal, '')`;
    case "la":
      return sql`coalesce(a.language, '')`;
    case "au":
      return sql`coalesce(a.authors, '')`;
    default:
      return sql`array_to_string(${LIST_ARRAYS[column]!}, '|')`;
  }
}

/** `x` folded (see above) with the folding of `lists` (the subquery "r" or "n"), whose fold_from has `k` characters. */
function foldSql(x: RawBuilder<unknown>, lists: "r" | "n", k: number): RawBuilder<string> {
  const from = sql.ref(`${lists}.fold_from`);
  const holds = Array.from({ length: k }, (_, i) => sql`strpos(${x}, substr(${from}, ${sql.lit(i + 1)}, 1)) > 0`);
  return sql<string>`(CASE WHEN ${sql.join(holds, sql` OR `)}
    THEN translate(lower(${x} COLLATE "C"), ${from}, ${sql.ref(`${lists}.fold_to`)}) ELSE lower(${x} COLLATE "C") END)`;
}

/** An already folded text normalised as `normalise` does. */
const normaliseSql = (folded: RawBuilder<unknown>) =>
  sql<string>`(' ' || btrim(regexp_replace(${folded}, n.word_gaps, ' ', 'g'), ' ') || ' ')`;

/** The raw array of a list source. */
const LIST_ARRAYS: Partial<Record<Source, RawBuilder<unknown>>> = {
  au: sql`string_to_array(coalesce(a.authors, ''), ', ')`,
  mh: sql`coalesce(a.mesh_terms, '{}')`,
  mj: sql`coalesce(a.mesh_major_terms, '{}')`,
  kw: sql`coalesce(a.keywords, '{}')`,
  pt: sql`coalesce(a.publication_types, '{}')`,
};

/** Column of the subqueries holding the text a source is prefiltered on ("ta" uses the journal's). */
const foldedColumn = (source: Source) => (source === "ta" ? "jo" : source);

/** The normalised text of a source (see Source), computed from the folded column or the raw array. */
function normalisedSql(source: Source, k: number): RawBuilder<string> {
  switch (source) {
    case "ti":
    case "ab":
    case "jo":
      return normaliseSql(sql.ref(`n.${source}`));
    case "la":
      return sql<string>`('|' || ${normaliseSql(sql`n.la`)} || '|')`;
    case "ta": {
      const bare = (folded: RawBuilder<unknown>) => sql`regexp_replace(${normaliseSql(folded)}, ${LEADING_THE}, ' ')`;
      return sql<string>`('|' || ${bare(sql`n.jo`)} || '|' || ${bare(sql`regexp_replace(n.jo, ${JOURNAL_QUALIFIER}, '')`)} || '|')`;
    }
    default: {
      const item = normaliseSql(foldSql(sql`u.e`, "n", k));
      return sql<string>`('|' || coalesce((SELECT string_agg(${item}, '|') FROM unnest(${LIST_ARRAYS[source]!}) AS u(e)), '') || '|')`;
    }
  }
}

function conditionSql(n: PlanNode, k: number): RawBuilder<boolean> {
  switch (n.kind) {
    case "find": {
      const words = [...new Set(n.needle.split(/[ |]+/).filter(Boolean))];
      const perSource = n.sources.map((source) => {
        const folded = sql.ref(`n.${foldedColumn(source)}`);
        const prefilter = words.map((w) => sql`strpos(${folded}, ${w}) > 0`);
        return sql`(${sql.join([...prefilter, sql`strpos(${normalisedSql(source, k)}, ${n.needle}) > 0`], sql` AND `)})`;
      });
      return sql<boolean>`(${sql.join(perSource, sql` OR `)})`;
    }
    case "date":
      return sql<boolean>`coalesce(CASE WHEN a.publication_date IS NOT NULL
        THEN a.publication_date BETWEEN ${n.from}::date AND ${n.to}::date
        ELSE a.publication_year BETWEEN ${n.fromYear}::integer AND ${n.toYear}::integer END, false)`;
    case "and":
    case "or":
      return sql<boolean>`(${sql.join(
        n.children.map((c) => conditionSql(c, k)),
        n.kind === "and" ? sql` AND ` : sql` OR `,
      )})`;
    case "not":
      return sql<boolean>`(${conditionSql(n.include, k)} AND NOT ${conditionSql(n.exclude, k)})`;
  }
}

/**
 * The query as a condition on a row of `articles` aliased `a`, e.g.
 * `db.selectFrom("articles as a").select("a.pmid").where(pubmedQuerySql(node))`. Same semantics as `matchesRecord`, on
 * PGlite and PostgreSQL whatever the database's locale: no locale-dependent function or regex feature is used (see the
 * comment above). User text only ever travels as bound parameters. Cost: a case folding of each field the query
 * reads, per row (a few µs for a title and abstract), then, for the rows whose fields contain all of a term's words, a
 * normalisation of those fields (about 80 µs for an abstract). It reads every row it is applied to, so on a large table
 * apply it to a candidate set (e.g. the full-text index's matches) rather than to the whole table.
 */
export function pubmedQuerySql(node: PubmedQueryNode): RawBuilder<boolean> {
  const plan = planOf(node);
  const k = [...plan.fold.sqlFrom].length;
  const condition = conditionSql(plan.root, k);
  if (plan.sources.size === 0) return condition;
  const columns = [...new Set([...plan.sources].map(foldedColumn))].sort();
  const raw = columns.map((c) => sql`${rawSql(c)} AS ${sql.raw(c)}`);
  const folded = columns.map((c) => sql`${foldSql(sql.ref(`r.${c}`), "r", k)} AS ${sql.raw(c)}`);
  const params = sql`(SELECT ${plan.fold.sqlFrom}::text AS fold_from, ${plan.fold.sqlTo}::text AS fold_to,
    ${nonWordPattern()}::text AS word_gaps) AS p`;
  const r = sql`(SELECT ${sql.join(raw)}, p.fold_from, p.fold_to, p.word_gaps FROM ${params} OFFSET 0) AS r`;
  const n = sql`(SELECT ${sql.join(folded)}, r.fold_from, r.fold_to, r.word_gaps FROM ${r} OFFSET 0) AS n`;
  return sql<boolean>`EXISTS (SELECT 1 FROM ${n} WHERE ${condition})`;
}
