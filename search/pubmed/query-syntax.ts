/**
 * PubMed's search syntax (field tags, Boolean operators, phrases, truncation, date ranges), parsed once and evaluated
 * three ways: in memory over one record (`matchesRecord`, what the tests' E-utilities stand-in answers with), as a SQL
 * condition over the `articles` table (`pubmedQuerySql`, the local reading of a topic written in PubMed's syntax) and
 * back into PubMed's notation (`translatePubmedQuery`, the shape of esearch's `querytranslation`). The in-memory and
 * the SQL evaluation have exactly the same semantics (search/pubmed/query-syntax.test.ts holds them to it over real
 * records on PGlite and PostgreSQL), so a strategy pasted from PubMed reads the same against the records PubMed sent
 * and against the local index.
 *
 * This file is the public entry; the parts are in search/pubmed/query-syntax/: types.ts (the query tree, the record,
 * the error), fields.ts (field tags, language codes), parse.ts (recognising and parsing), words.ts (words and case
 * folding), sources.ts (the normalised texts terms are looked for in), stored.ts (their copies kept with each article),
 * evaluate.ts (the shared plan, `matchesRecord` and `pubmedQuerySql`), limits.ts (what a user's strategy may hold) and
 * translate.ts.
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
 * Texts are folded and split into words in JavaScript only (a `u` regex of the word class, the case classes of
 * every character at once), never by a database locale: the SQL evaluation reads the normalised texts stored with each
 * article at ingest (query-syntax/stored.ts). PostgreSQL's `\m`, `\M`, `~*`, `lower()` and `[[:alpha:]]` classify and
 * fold non-ASCII letters by the database's locale (in the "C" locale, not at all), which JavaScript cannot reproduce;
 * and folding in SQL at query time cost a scan of every text per distinct letter of the query (issue 34).
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
export { FIELD_TAGS, LANGUAGE_CODES } from "./query-syntax/fields.ts";
export { isPubmedSyntax, MAX_PUBMED_QUERY_CHARS, parsePubmedQuery } from "./query-syntax/parse.ts";
export { matchesRecord, pubmedQuerySql } from "./query-syntax/evaluate.ts";
export {
  checkStrategyLimits,
  MAX_STRATEGY_DEPTH,
  MAX_STRATEGY_DISTINCT_CHARACTERS,
  MAX_STRATEGY_TERMS,
} from "./query-syntax/limits.ts";
export { fillSyntaxIndex, syntaxIndexOf } from "./query-syntax/stored.ts";
export { pubmedQueryWords, translatePubmedQuery } from "./query-syntax/translate.ts";
export {
  PubmedQuerySyntaxError,
  type PubmedField,
  type PubmedQueryNode,
  type PubmedQueryRecord,
  type PubmedQueryTerm,
} from "./query-syntax/types.ts";
