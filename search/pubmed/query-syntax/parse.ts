/**
 * Recognising a topic written in PubMed's search syntax (`isPubmedSyntax`) and parsing it into a query tree
 * (`parsePubmedQuery`), with the reading of field tags and publication dates. The syntax is described in
 * search/pubmed/query-syntax.ts.
 */
import { FIELD_TAGS, UNSEARCHABLE_TAGS } from "./fields.ts";
import { PubmedQuerySyntaxError, type PubmedField, type PubmedQueryNode, type PubmedQueryTerm } from "./types.ts";

/** Longest query read, in characters (PubMed's own search box takes about 4,000 in a GET request). */
export const MAX_PUBMED_QUERY_CHARS = 10_000;
/** Deepest nesting of parentheses accepted. */
const MAX_DEPTH = 50;
/** PubMed: "at least four characters" before the truncation asterisk. */
const MIN_TRUNCATION_CHARS = 4;

// ---------------------------------------------------------------------------------------------------------------------
// Recognising PubMed syntax

/** How a bracketed text reads as a field tag. */
function tagKind(raw: string): { field: PubmedField } | { unsupported: string } | null {
  const tag = raw.trim().toLowerCase().replace(/\s+/g, " ");
  const noexp = tag.replace(/:noexp$/, "");
  const field = FIELD_TAGS[noexp];
  if (field && (noexp === tag || field === "mh" || field === "majr")) return { field };
  const head = tag.split(":")[0]!.trim();
  if (FIELD_TAGS[head] && /:~\s*\d+$/.test(tag))
    return { unsupported: `proximity searching ([${raw.trim()}]) is not supported here` };
  if (UNSEARCHABLE_TAGS.has(tag) || UNSEARCHABLE_TAGS.has(head))
    return {
      unsupported: `the field tag [${raw.trim()}] is not searchable here: this index does not store that field`,
    };
  return null;
}

/**
 * Whether a topic is written in PubMed's search syntax rather than in plain words: it has a PubMed field tag
 * (`[tiab]`, `[MeSH Terms]`…, including tags of fields this index cannot search, so that parsing explains it), an
 * upper-case AND, OR or NOT between two terms (not counted in a topic typed all in capitals), or a truncated word
 * (`child*`: three characters or more, the first a letter, before the asterisk). Plain topics ("asthma inhaled
 * corticosteroids children", "effect of x on y", a quoted phrase alone, "-word" exclusions) are not.
 */
export function isPubmedSyntax(topic: string): boolean {
  for (const m of topic.matchAll(/\[([^[\]]+)\]/g)) if (tagKind(m[1]!) !== null) return true;
  if (/\p{L}[\p{L}\p{M}\p{N}'-]{2,}\*+(?=$|[\s)"[])/u.test(topic)) return true;
  const letters = topic.replace(/[^\p{L}]/gu, "");
  const allCapitals = letters.length > 12 && letters === letters.toUpperCase() && letters !== letters.toLowerCase();
  if (allCapitals) return false;
  const tokens = topic.split(/[\s()]+/).filter(Boolean);
  return tokens.some((t, i) => i > 0 && i < tokens.length - 1 && (t === "AND" || t === "OR" || t === "NOT"));
}

// ---------------------------------------------------------------------------------------------------------------------
// Parsing

type Token =
  | { type: "("; pos: number }
  | { type: ")"; pos: number }
  | { type: "op"; op: "AND" | "OR" | "NOT"; pos: number }
  | { type: "word"; text: string; pos: number }
  | { type: "quoted"; text: string; pos: number }
  | { type: "tag"; field: PubmedField; raw: string; pos: number };

const QUOTES = /[\u201C\u201D\u201E\u201F\u00AB\u00BB\u2033]/g;

function tokenize(s: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < s.length) {
    const c = s[i]!;
    if (/\s/.test(c)) {
      i++;
    } else if (c === "(" || c === ")") {
      tokens.push(c === "(" ? { type: "(", pos: i } : { type: ")", pos: i });
      i++;
    } else if (c === '"') {
      const close = s.indexOf('"', i + 1);
      if (close === -1) throw new PubmedQuerySyntaxError(`The quote opened at character ${i + 1} is never closed.`, i);
      tokens.push({ type: "quoted", text: s.slice(i + 1, close), pos: i });
      i = close + 1;
    } else if (c === "[") {
      const close = s.indexOf("]", i + 1);
      if (close === -1)
        throw new PubmedQuerySyntaxError(`The field tag opened at character ${i + 1} is never closed with "]".`, i);
      const raw = s.slice(i + 1, close);
      const kind = tagKind(raw);
      if (kind === null) throw new PubmedQuerySyntaxError(`[${raw.trim()}] is not a PubMed field tag.`, i);
      if ("unsupported" in kind) throw new PubmedQuerySyntaxError(`${capitalise(kind.unsupported)}.`, i);
      tokens.push({ type: "tag", field: kind.field, raw, pos: i });
      i = close + 1;
    } else if (c === "]") {
      throw new PubmedQuerySyntaxError(`The "]" at character ${i + 1} closes no field tag.`, i);
    } else {
      let end = i;
      while (end < s.length && !/[\s()"[\]]/.test(s[end]!)) end++;
      const text = s.slice(i, end);
      if (text === "AND" || text === "OR" || text === "NOT") tokens.push({ type: "op", op: text, pos: i });
      else tokens.push({ type: "word", text, pos: i });
      i = end;
    }
  }
  return tokens;
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Has at least one word character. */
const hasWordChar = (s: string) => /[\p{L}\p{M}\p{N}]/u.test(s);

/**
 * Parses a query in PubMed's syntax (see search/pubmed/query-syntax.ts).
 * @param text the query; longer than MAX_PUBMED_QUERY_CHARS is an error.
 * @returns the query tree: AND and OR nodes flattened (`a AND b AND c` is one node of three), NOT binary.
 * @throws PubmedQuerySyntaxError on an unclosed quote, bracket or parenthesis, an operator without a term on one of its
 *   sides, an unknown or unsupported field tag, a bad date, a misplaced or too short truncation, or an empty query.
 */
export function parsePubmedQuery(text: string): PubmedQueryNode {
  if (text.length > MAX_PUBMED_QUERY_CHARS)
    throw new PubmedQuerySyntaxError(
      `The query is longer than ${MAX_PUBMED_QUERY_CHARS.toLocaleString("en-US")} characters.`,
    );
  const source = text.normalize("NFC").replace(QUOTES, '"');
  const raw = tokenize(source);
  // Untagged words without a letter or digit ("&", "-") carry nothing to search: drop them, as PubMed does.
  const tokens = raw.filter((t, i) => {
    if (t.type !== "word" || hasWordChar(t.text) || t.text.includes("*")) return true;
    let j = i;
    while (raw[j]?.type === "word") j++;
    return raw[j]?.type === "tag";
  });
  if (tokens.length === 0) throw new PubmedQuerySyntaxError("The query has nothing to search for.");
  let at = 0;

  const sequence = (depth: number): PubmedQueryNode => {
    let node = operand(depth, null);
    for (;;) {
      const t = tokens[at];
      if (t === undefined || t.type === ")") return node;
      if (t.type === "op") {
        at++;
        node = combine(t.op, node, operand(depth, t));
      } else {
        node = combine("AND", node, operand(depth, null));
      }
    }
  };

  const operand = (depth: number, after: Extract<Token, { type: "op" }> | null): PubmedQueryNode => {
    const t = tokens[at];
    if (t === undefined || t.type === ")" || t.type === "op") {
      if (after)
        throw new PubmedQuerySyntaxError(`${after.op} at character ${after.pos + 1} needs a term after it.`, after.pos);
      if (t?.type === "op")
        throw new PubmedQuerySyntaxError(`${t.op} at character ${t.pos + 1} needs a term before it.`, t.pos);
      if (t?.type === ")") {
        const prev = tokens[at - 1];
        if (prev?.type === "(")
          throw new PubmedQuerySyntaxError(`The parentheses at character ${prev.pos + 1} are empty.`, prev.pos);
        throw new PubmedQuerySyntaxError(`The ")" at character ${t.pos + 1} closes no "(".`, t.pos);
      }
      throw new PubmedQuerySyntaxError("The query has nothing to search for.");
    }
    if (t.type === "tag") {
      const message = `The field tag [${t.raw.trim()}] at character ${t.pos + 1} does not follow a term.`;
      throw new PubmedQuerySyntaxError(message, t.pos);
    }
    if (t.type === "(") {
      if (depth >= MAX_DEPTH)
        throw new PubmedQuerySyntaxError(`Parentheses are nested more than ${MAX_DEPTH} deep.`, t.pos);
      at++;
      const inner = sequence(depth + 1);
      const close = tokens[at];
      if (close?.type !== ")")
        throw new PubmedQuerySyntaxError(`The "(" at character ${t.pos + 1} is never closed.`, t.pos);
      at++;
      return inner;
    }
    if (t.type === "quoted") {
      at++;
      const tag = tokens[at];
      if (tag?.type === "tag") {
        at++;
        return makeTerm(t.text, tag.field, true, t.pos);
      }
      return makeTerm(t.text, "all", true, t.pos);
    }
    // Words: all of them up to a tag are the tagged term; without a tag, only the first is a term.
    let end = at;
    while (tokens[end]?.type === "word") end++;
    const tag = tokens[end];
    if (tag?.type === "tag") {
      const words = tokens.slice(at, end).map((w) => (w as { text: string }).text);
      at = end + 1;
      return makeTerm(words.join(" "), tag.field, false, t.pos);
    }
    at++;
    return makeTerm(t.text, "all", false, t.pos);
  };

  const node = sequence(0);
  const rest = tokens[at];
  if (rest !== undefined)
    throw new PubmedQuerySyntaxError(`The ")" at character ${rest.pos + 1} closes no "(".`, rest.pos);
  return node;
}

/** Left-to-right combination: `left op right`, flattening runs of the same operator. */
function combine(op: "AND" | "OR" | "NOT", left: PubmedQueryNode, right: PubmedQueryNode): PubmedQueryNode {
  if (op === "NOT") return { kind: "not", include: left, exclude: right };
  const kind = op === "AND" ? "and" : "or";
  const children = [
    ...(left.kind === kind ? left.children : [left]),
    ...(right.kind === kind ? right.children : [right]),
  ];
  return { kind, children };
}

function makeTerm(written: string, field: PubmedField, phrase: boolean, pos: number): PubmedQueryTerm {
  let text = written.replace(/\s+/g, " ").trim();
  const truncated = /\*$/.test(text);
  text = text.replace(/\*+$/, "").trim();
  if (text.includes("*"))
    throw new PubmedQuerySyntaxError(`"${written.trim()}": PubMed truncates (*) only at the end of a term.`, pos);
  if (field === "dp") {
    if (truncated) throw new PubmedQuerySyntaxError(`"${written.trim()}": a date cannot be truncated.`, pos);
    return { kind: "term", text, field, phrase, truncated: false, dateRange: parseDateRange(text, pos) };
  }
  // An untagged word keeps its inner punctuation ("covid-19") but not what clings to its ends ("asthma,").
  if (field === "all" && !phrase) text = text.replace(/^[^\p{L}\p{M}\p{N}]+|[^\p{L}\p{M}\p{N}]+$/gu, "");
  if (!hasWordChar(text))
    throw new PubmedQuerySyntaxError(`"${written.trim()}" has no letters or digits to search for.`, pos);
  if (truncated && field !== "au" && [...text].filter((c) => hasWordChar(c)).length < MIN_TRUNCATION_CHARS)
    throw new PubmedQuerySyntaxError(
      `"${written.trim()}": PubMed needs at least ${MIN_TRUNCATION_CHARS} characters before the truncation asterisk (*).`,
      pos,
    );
  return { kind: "term", text, field, phrase, truncated };
}

/** "2020", "2020/03", "2020/03/15" (or 2020-03-15) → the first and last day it covers. */
function parseDate(text: string, pos: number, whole: string): { from: string; to: string } {
  const m = /^(\d{4})(?:[/-](\d{1,2})(?:[/-](\d{1,2}))?)?$/.exec(text.trim());
  if (!m)
    throw new PubmedQuerySyntaxError(
      `"${whole}"[dp]: write a publication date as YYYY, YYYY/MM or YYYY/MM/DD, or a range FROM:TO of them.`,
      pos,
    );
  const year = Number(m[1]);
  if (year < 1000) throw new PubmedQuerySyntaxError(`"${whole}"[dp]: ${m[1]} is not a year.`, pos);
  const pad = (n: number) => String(n).padStart(2, "0");
  if (m[2] === undefined) return { from: `${m[1]}-01-01`, to: `${m[1]}-12-31` };
  const month = Number(m[2]);
  if (month < 1 || month > 12) throw new PubmedQuerySyntaxError(`"${whole}"[dp]: ${m[2]} is not a month.`, pos);
  const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (m[3] === undefined) return { from: `${m[1]}-${pad(month)}-01`, to: `${m[1]}-${pad(month)}-${pad(lastDay)}` };
  const day = Number(m[3]);
  if (day < 1 || day > lastDay) throw new PubmedQuerySyntaxError(`"${whole}"[dp]: ${text.trim()} is not a date.`, pos);
  const iso = `${m[1]}-${pad(month)}-${pad(day)}`;
  return { from: iso, to: iso };
}

export function parseDateRange(text: string, pos: number): { from: string; to: string } {
  const compact = text.replace(/\s+/g, "");
  const parts = compact.split(":");
  if (parts.length > 2 || parts.some((p) => p === ""))
    throw new PubmedQuerySyntaxError(
      `"${text}"[dp]: a date range is FROM:TO, e.g. 2015:2020 or 2015/01/01:2020/12/31.`,
      pos,
    );
  const from = parseDate(parts[0]!, pos, text).from;
  const to = parseDate(parts[parts.length - 1]!, pos, text).to;
  if (from > to) throw new PubmedQuerySyntaxError(`"${text}"[dp]: the range ends before it starts.`, pos);
  return { from, to };
}
