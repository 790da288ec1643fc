/**
 * PubMed's search syntax (field tags, Boolean operators, phrases, truncation, date ranges), parsed once and evaluated
 * three ways: in memory over one record (`matchesRecord`, what the tests' E-utilities stand-in answers with), as a SQL
 * condition over the `articles` table (`pubmedQuerySql`, the local reading of a topic written in PubMed's syntax) and
 * back into PubMed's notation (`translatePubmedQuery`, the shape of esearch's `querytranslation`). The in-memory and
 * the SQL evaluation have exactly the same semantics (search/pubmed/query-syntax.test.ts holds them to it over real
 * records on PGlite and PostgreSQL), so a strategy pasted from PubMed reads the same against the records PubMed sent
 * and against the local index.
 *
 * Syntax, as PubMed's help describes it (https://pubmed.ncbi.nlm.nih.gov/help/, sections "Search field descriptions
 * and tags", "Combining search terms with Boolean operators", "Truncation" and "Phrase searching"; the older PubMed
 * Help, https://www.ncbi.nlm.nih.gov/books/NBK3827/):
 *  - `term[tag]`: a field tag in square brackets, short or long form, any case (`[tiab]` or `[Title/Abstract]`, `[mh]`
 *    or `[MeSH Terms]`…, see FIELD_TAGS), optionally after a space. It applies to the quoted phrase just before it, or
 *    to all the unquoted words since the previous operator, parenthesis, tag or phrase: `heart failure[tiab]` is the
 *    phrase, as PubMed searches a tagged phrase it finds in its phrase index.
 *  - `AND`, `OR`, `NOT` in capitals combine terms (lower-case "and", "or", "not" are words). Terms side by side without
 *    an operator are ANDed. PubMed processes operators left to right without precedence, so `a OR b AND c` is
 *    `(a OR b) AND c`; parentheses nest. `a NOT b` is a AND NOT b.
 *  - `"…"`: a phrase, its words adjacent and in this order. Untagged words outside quotes are separate terms.
 *  - `word*`: any word beginning with `word`; PubMed requires at least four characters before the asterisk. Only the
 *    end of a term may be truncated (`"breast feed*"[tiab]`).
 *  - `[dp]` dates: `2020`, `2020/03`, `2020/03/15` (the whole year, month or day) and ranges `2015:2020`,
 *    `2015/01/01:2020/12/31` (inclusive).
 *
 * Words. Text is compared as words: a word is a maximal run of word characters, the Unicode letters, marks and
 * numbers (general categories L, M, N; a code point unassigned in the running engine's Unicode version counts as a word
 * character when it lies between two of them), so "COVID-19" is the words "covid" "19", "Crohn's" is "crohn" "s", and
 * dashes, quotes, "±", "≥" or a no-break space separate words. A term's words must appear as whole words, adjacent and
 * in order; a truncated term's last word is a prefix. Case is folded by Unicode's simple case mappings: a letter
 * matches every letter linked to it by single-character upper- or lower-casing ("É" = "é", "Σ" = "σ" = "ς", "µ" = "μ",
 * "Ⅲ" = "ⅲ"; "ı", "İ", "ſ" and the Kelvin sign fold to "i", "i", "s", "k"). Nothing else is equated: accents are kept
 * ("cafe" is not "café"), text is compared code point by code point (the query is put in NFC, as PubMed's XML is).
 * Both evaluations use the same explicit sets of characters, never a locale: in JavaScript a `u` regex of the word
 * class and a map of the case pairs; in PostgreSQL `lower(… COLLATE "C")` (ASCII letters only, in any locale),
 * `translate()` with the query's non-ASCII case pairs and `regexp_replace()` with the same bracket expression.
 * PostgreSQL's `\m`, `\M`, `~*`, `lower()` and `[[:alpha:]]` were not usable: they classify and fold non-ASCII letters
 * by the database's locale (in the "C" locale, not at all), which JavaScript cannot reproduce.
 *
 * Fields, on the columns we store (PubmedQueryRecord):
 *  - [ti] title, [ab] abstract, [tiab] both; [ot] keywords; [tw] title, abstract, MeSH headings and keywords;
 *    untagged and [all] title, abstract, MeSH headings, keywords, authors and journal, all as words.
 *  - [mh] a MeSH heading of the record equals the term (as words, case-insensitive); a truncated term matches the
 *    headings it begins; a "/subheading" is ignored. [majr] the same over the major-topic headings.
 *  - [au] an author "Smith J" matches "Smith J" and "Smith JA" (the last word of a name of two or more words is a
 *    prefix: PubMed's automatic truncation of initials); a single word is a whole last name ("smith" matches "Smith J",
 *    not "Smithers J"); a quoted name matches exactly ("\"smith j\"[au]" does not match "Smith JA").
 *  - [ta] the journal title equals the term, with or without its trailing parenthesised qualifier and a leading "The"
 *    ("lancet[ta]" matches "Lancet (London, England)").
 *  - [dp] publication_date within the range; when it is unknown, publication_year within the range's years.
 *  - [pt] a publication type equals the term; [la] the language code equals the term, given as an ISO 639-2 code
 *    ("eng") or an English name ("english"), see LANGUAGE_CODES.
 *
 * Where this differs from PubMed:
 *  - No automatic term mapping (ATM): PubMed maps untagged words to MeSH headings, synonyms and plural forms; here they
 *    are searched literally, as words of the fields listed above (words of MeSH headings included).
 *  - No MeSH explosion: PubMed's [mh] also finds the headings below the term in the MeSH tree, and maps entry terms
 *    ("children" → "Child"); we hold no tree, so [mh] is the heading itself, exactly; no subheadings are stored.
 *    Publication types are not exploded either.
 *  - Journals: PubMed's [ta] takes the NLM title abbreviation ("N Engl J Med") or ISSN; we store the full title only.
 *  - No phrase index: a tagged or quoted phrase is always searched as adjacent words (PubMed breaks phrases missing
 *    from its index into words), and no stopwords are dropped. Languages: only the record's first language is stored.
 *  - Unsupported: proximity (`[tiab:~3]`), tags of fields we do not store ([ad], [sh], [pmid], [edat]…: a
 *    PubmedQuerySyntaxError names them), `term*` on fewer than four characters (an error, where PubMed warns).
 */
import { sql, type RawBuilder } from "kysely";

/** A field a term searches (PubMed's short tag names). */
export type PubmedField = "all" | "tiab" | "ti" | "ab" | "tw" | "ot" | "mh" | "majr" | "au" | "ta" | "dp" | "pt" | "la";

/** One search term: a word, a phrase or a date range, in one field. */
export interface PubmedQueryTerm {
  kind: "term";
  /** As written, without the quotes, the truncation asterisk and the tag; runs of white space made one space. */
  text: string;
  field: PubmedField;
  /** Written in double quotes. */
  phrase: boolean;
  /** Ended with `*`. */
  truncated: boolean;
  /** [dp] only: the inclusive range of publication dates, ISO YYYY-MM-DD. */
  dateRange?: { from: string; to: string };
}

/** A parsed PubMed query: terms combined by AND, OR (any number of children) and NOT (include AND NOT exclude). */
export type PubmedQueryNode =
  | PubmedQueryTerm
  | { kind: "and"; children: PubmedQueryNode[] }
  | { kind: "or"; children: PubmedQueryNode[] }
  | { kind: "not"; include: PubmedQueryNode; exclude: PubmedQueryNode };

/**
 * What the evaluation reads of an article: a subset of both search/pubmed/mapping.ts ParsedArticle and the `articles`
 * row. A missing `mesh_major_terms` counts as none.
 */
export interface PubmedQueryRecord {
  title: string | null;
  abstract: string | null;
  mesh_terms: string[];
  mesh_major_terms: string[];
  keywords: string[];
  /** "Smith J, Doe AB" (search/pubmed/mapping.ts formatAuthors). */
  authors: string | null;
  journal: string | null;
  /** ISO YYYY-MM-DD. */
  publication_date: string | null;
  publication_year: number | null;
  publication_types: string[];
  /** ISO 639-2 code as PubMed gives it ("eng"). */
  language: string | null;
}

/** A query PubMed's syntax cannot read; `message` says what and where, for the user. */
export class PubmedQuerySyntaxError extends Error {
  constructor(
    message: string,
    /** 0-based character offset in the query where the problem is, when there is one place. */
    readonly position: number | null = null,
  ) {
    super(message);
    this.name = "PubmedQuerySyntaxError";
  }
}

/** Longest query read, in characters (PubMed's own search box takes about 4,000 in a GET request). */
export const MAX_PUBMED_QUERY_CHARS = 10_000;
/** Deepest nesting of parentheses accepted. */
const MAX_DEPTH = 50;
/** PubMed: "at least four characters" before the truncation asterisk. */
const MIN_TRUNCATION_CHARS = 4;

/** Field tags (lower case, inner white space single) → field. Long forms as PubMed's query translation writes them. */
export const FIELD_TAGS: Readonly<Record<string, PubmedField>> = {
  all: "all",
  "all fields": "all",
  tiab: "tiab",
  "title/abstract": "tiab",
  ti: "ti",
  title: "ti",
  ab: "ab",
  abstract: "ab",
  tw: "tw",
  "text word": "tw",
  "text words": "tw",
  ot: "ot",
  "other term": "ot",
  "other terms": "ot",
  mh: "mh",
  mesh: "mh",
  "mesh terms": "mh",
  "mesh term": "mh",
  majr: "majr",
  "mesh major topic": "majr",
  au: "au",
  auth: "au",
  author: "au",
  ta: "ta",
  jour: "ta",
  journal: "ta",
  dp: "dp",
  pdat: "dp",
  "date - publication": "dp",
  "publication date": "dp",
  pt: "pt",
  ptyp: "pt",
  "publication type": "pt",
  la: "la",
  lang: "la",
  language: "la",
};

/** PubMed's names of the fields, as in its query translation. */
const FIELD_NAMES: Readonly<Record<PubmedField, string>> = {
  all: "All Fields",
  tiab: "Title/Abstract",
  ti: "Title",
  ab: "Abstract",
  tw: "Text Word",
  ot: "Other Term",
  mh: "MeSH Terms",
  majr: "MeSH Major Topic",
  au: "Author",
  ta: "Journal",
  dp: "Date - Publication",
  pt: "Publication Type",
  la: "Language",
};

/** PubMed field tags of fields the local index does not store (recognised, so the error can say so). */
const UNSEARCHABLE_TAGS = new Set(
  (
    "ad|affl|affiliation|aid|article identifier|book|cn|corporate author|cois|conflict of interest statement|crdt|" +
    "create date|dcom|completion date|ed|editor|edat|entrez date|fau|full author name|fir|full investigator name|gr|" +
    "grant number|ip|issue|ir|investigator|isbn|jid|nlm unique id|lastau|last author|last author name|1au|" +
    "first author|first author name|lid|location id|lr|modification date|mhda|mesh date|nm|" +
    "supplementary concept|pa|pharmacological action|pg|pagination|pl|place of publication|pmid|uid|pmcid|ps|" +
    "personal name as subject|pubn|publisher|rn|ec/rn number|sb|subset|filter|sh|subheading|mesh subheading|si|" +
    "secondary source id|sso|tt|transliterated title|vi|volume|grants and funding"
  ).split("|"),
);

/** English names of MEDLINE languages → ISO 639-2 codes as PubMed stores them (NLM's language code list). */
export const LANGUAGE_CODES: Readonly<Record<string, string>> = {
  afrikaans: "afr",
  albanian: "alb",
  arabic: "ara",
  armenian: "arm",
  azerbaijani: "aze",
  bosnian: "bos",
  bulgarian: "bul",
  catalan: "cat",
  chinese: "chi",
  croatian: "hrv",
  czech: "cze",
  danish: "dan",
  dutch: "dut",
  english: "eng",
  esperanto: "epo",
  estonian: "est",
  finnish: "fin",
  french: "fre",
  georgian: "geo",
  german: "ger",
  greek: "gre",
  hebrew: "heb",
  hindi: "hin",
  hungarian: "hun",
  icelandic: "ice",
  indonesian: "ind",
  italian: "ita",
  japanese: "jpn",
  korean: "kor",
  latin: "lat",
  latvian: "lav",
  lithuanian: "lit",
  macedonian: "mac",
  malay: "may",
  maori: "mao",
  norwegian: "nor",
  persian: "per",
  polish: "pol",
  portuguese: "por",
  romanian: "rum",
  russian: "rus",
  serbian: "srp",
  slovak: "slo",
  slovenian: "slv",
  spanish: "spa",
  swedish: "swe",
  thai: "tha",
  turkish: "tur",
  ukrainian: "ukr",
  urdu: "urd",
  vietnamese: "vie",
  welsh: "wel",
};

// ---------------------------------------------------------------------------------------------------------------------
// Recognising PubMed syntax

/** How a bracketed text reads as a field tag. */
function tagKind(raw: string): { field: PubmedField } | { unsupported: string } | null {
  const tag = raw.trim().toLowerCase().replace(/\s+/g, " ");
  const noexp = tag.replace(/:noexp$/, "");
  const field = FIELD_TAGS[noexp];
  if (field && (noexp === tag || field === "mh" || field === "majr")) return { field };
  const head = tag.split(":")[0]!.trim();
  if (FIELD_TAGS[head] && /:~\s*\d+$/.test(tag)) return { unsupported: `proximity searching ([${raw.trim()}]) is not supported here` };
  if (UNSEARCHABLE_TAGS.has(tag) || UNSEARCHABLE_TAGS.has(head))
    return { unsupported: `the field tag [${raw.trim()}] is not searchable here: this index does not store that field` };
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
      if (close === -1) throw new PubmedQuerySyntaxError(`The field tag opened at character ${i + 1} is never closed with "]".`, i);
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
 * Parses a query in PubMed's syntax (see the module comment).
 * @param text the query; longer than MAX_PUBMED_QUERY_CHARS is an error.
 * @returns the query tree: AND and OR nodes flattened (`a AND b AND c` is one node of three), NOT binary.
 * @throws PubmedQuerySyntaxError on an unclosed quote, bracket or parenthesis, an operator without a term on one of its
 *   sides, an unknown or unsupported field tag, a bad date, a misplaced or too short truncation, or an empty query.
 */
export function parsePubmedQuery(text: string): PubmedQueryNode {
  if (text.length > MAX_PUBMED_QUERY_CHARS)
    throw new PubmedQuerySyntaxError(`The query is longer than ${MAX_PUBMED_QUERY_CHARS.toLocaleString("en-US")} characters.`);
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
      if (after) throw new PubmedQuerySyntaxError(`${after.op} at character ${after.pos + 1} needs a term after it.`, after.pos);
      if (t?.type === "op") throw new PubmedQuerySyntaxError(`${t.op} at character ${t.pos + 1} needs a term before it.`, t.pos);
      if (t?.type === ")") {
        const prev = tokens[at - 1];
        if (prev?.type === "(") throw new PubmedQuerySyntaxError(`The parentheses at character ${prev.pos + 1} are empty.`, prev.pos);
        throw new PubmedQuerySyntaxError(`The ")" at character ${t.pos + 1} closes no "(".`, t.pos);
      }
      throw new PubmedQuerySyntaxError("The query has nothing to search for.");
    }
    if (t.type === "tag") {
      const message = `The field tag [${t.raw.trim()}] at character ${t.pos + 1} does not follow a term.`;
      throw new PubmedQuerySyntaxError(message, t.pos);
    }
    if (t.type === "(") {
      if (depth >= MAX_DEPTH) throw new PubmedQuerySyntaxError(`Parentheses are nested more than ${MAX_DEPTH} deep.`, t.pos);
      at++;
      const inner = sequence(depth + 1);
      const close = tokens[at];
      if (close?.type !== ")") throw new PubmedQuerySyntaxError(`The "(" at character ${t.pos + 1} is never closed.`, t.pos);
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
  if (rest !== undefined) throw new PubmedQuerySyntaxError(`The ")" at character ${rest.pos + 1} closes no "(".`, rest.pos);
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

function parseDateRange(text: string, pos: number): { from: string; to: string } {
  const compact = text.replace(/\s+/g, "");
  const parts = compact.split(":");
  if (parts.length > 2 || parts.some((p) => p === ""))
    throw new PubmedQuerySyntaxError(`"${text}"[dp]: a date range is FROM:TO, e.g. 2015:2020 or 2015/01/01:2020/12/31.`, pos);
  const from = parseDate(parts[0]!, pos, text).from;
  const to = parseDate(parts[parts.length - 1]!, pos, text).to;
  if (from > to) throw new PubmedQuerySyntaxError(`"${text}"[dp]: the range ends before it starts.`, pos);
  return { from, to };
}

// ---------------------------------------------------------------------------------------------------------------------
// Words and case, shared by both evaluations

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
function nonWordPattern(): string {
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
interface Fold {
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
  for (const [from, to] of ASCII_FOLDS) pairs.set(from, to), (sqlFrom += from), (sqlTo += to);
  if (extra.length) {
    const links = caseLinks();
    for (const ch of extra) {
      const start = ch.codePointAt(0)!;
      const members = new Set([start]);
      const stack = [start];
      while (stack.length) for (const next of links.get(stack.pop()!) ?? []) if (!members.has(next)) members.add(next), stack.push(next);
      if (members.size < 2) continue;
      if ([...members].some((m) => m < 0x80)) continue; // an ASCII class, already folded
      const rep = String.fromCodePoint(Math.min(...members));
      if (pairs.has(rep) || pairs.get(String.fromCodePoint(Math.max(...members))) === rep) continue; // seen
      for (const m of [...members].sort((x, y) => x - y)) {
        const ch = String.fromCodePoint(m);
        if (ch === rep) continue;
        pairs.set(ch, rep);
        sqlFrom += ch;
        sqlTo += rep;
      }
    }
  }
  const from = [...pairs.keys()].sort();
  const escape = (c: string) => c.replace(/[\\\]^[-]/g, "\\$&");
  return { from, map: pairs, re: new RegExp(`[${from.map(escape).join("")}]`, "gu"), key: from.join(""), sqlFrom, sqlTo };
}

/** The folding a query needs: ASCII, plus the case classes of the non-ASCII letters its terms contain. */
function foldFor(terms: PubmedQueryTerm[]): Fold {
  const extra = new Set<string>();
  for (const t of terms) for (const ch of t.text) if (ch.codePointAt(0)! >= 0x80 && ch.toLowerCase() !== ch.toUpperCase()) extra.add(ch);
  return extra.size ? buildFold([...extra].sort()) : BASE_FOLD;
}

/** Words of a text under a folding, as " w1 w2 … " (two spaces when it has none). */
function normalise(text: string, fold: Fold): string {
  const folded = text.replace(fold.re, (c) => fold.map.get(c) ?? c);
  return ` ${(folded.match(wordRunRegex()) ?? []).join(" ")} `;
}

/** Words of each item, as "| w1 w2 | w3 |" ("||" for no item). */
function normaliseList(items: readonly string[], fold: Fold): string {
  return `|${items.map((i) => normalise(i, fold)).join("|")}|`;
}

/** A journal title's trailing qualifier: "Lancet (London, England)". The same pattern runs in PostgreSQL. */
const JOURNAL_QUALIFIER = "\\([^()]*\\)[ \\t\\r\\n]*$";
const JOURNAL_QUALIFIER_RE = new RegExp(JOURNAL_QUALIFIER);
const LEADING_THE = "^ the ";
const LEADING_THE_RE = new RegExp(LEADING_THE);

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
  else if (node.kind === "not") termsOf(node.include, out), termsOf(node.exclude, out);
  else for (const c of node.children) termsOf(c, out);
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
 * Whether a record matches a parsed query (see the module comment for the semantics). Plans and the record's
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

// ---------------------------------------------------------------------------------------------------------------------
// Words and translation

/** Fields whose terms say what the query is about (and can rank the matched set). */
const TOPICAL: ReadonlySet<PubmedField> = new Set(["all", "tiab", "ti", "ab", "tw", "ot", "mh", "majr"]);

/**
 * The positive words and phrases of a query, for ranking the records it matched: the texts of its title, abstract,
 * text-word, keyword and MeSH terms (not authors, journals, dates, types or languages, and nothing on the excluded
 * side of a NOT), without truncation asterisks or MeSH subheadings, in query order, each once (case-insensitively).
 */
export function pubmedQueryWords(node: PubmedQueryNode): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const visit = (n: PubmedQueryNode) => {
    if (n.kind === "not") return visit(n.include);
    if (n.kind !== "term") return n.children.forEach(visit);
    if (!TOPICAL.has(n.field)) return;
    const text = (n.field === "mh" || n.field === "majr" ? n.text.split("/")[0]! : n.text).trim();
    const key = text.toLowerCase();
    if (text && !seen.has(key)) seen.add(key), out.push(text);
  };
  visit(node);
  return out;
}

/**
 * The query in the notation of PubMed's query translation (esearch's `querytranslation`): each term as
 * `"text"[Field Name]` in lower case (`"child*"[Title/Abstract]`, `"smith j"[Author]`), date ranges as
 * `2015/01/01:2020/12/31[Date - Publication]`, every nested AND, OR or NOT in parentheses.
 */
export function translatePubmedQuery(node: PubmedQueryNode): string {
  const show = (n: PubmedQueryNode, nested: boolean): string => {
    if (n.kind === "term") {
      if (n.field === "dp") {
        const range = n.dateRange ?? parseDateRange(n.text, 0);
        return `${range.from.replaceAll("-", "/")}:${range.to.replaceAll("-", "/")}[${FIELD_NAMES.dp}]`;
      }
      return `"${n.text.toLowerCase()}${n.truncated ? "*" : ""}"[${FIELD_NAMES[n.field]}]`;
    }
    const text =
      n.kind === "not"
        ? `${show(n.include, true)} NOT ${show(n.exclude, true)}`
        : n.children.map((c) => show(c, true)).join(n.kind === "and" ? " AND " : " OR ");
    return nested ? `(${text})` : text;
  };
  return show(node, false);
}
