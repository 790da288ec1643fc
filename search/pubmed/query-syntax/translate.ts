/**
 * A parsed query read back: its positive words and phrases, for ranking (`pubmedQueryWords`), and its rendering in the
 * notation of PubMed's query translation (`translatePubmedQuery`).
 */
import { FIELD_NAMES } from "./fields.ts";
import { parseDateRange } from "./parse.ts";
import type { PubmedField, PubmedQueryNode } from "./types.ts";

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
    if (n.kind !== "term") {
      for (const c of n.children) visit(c);
      return;
    }
    if (!TOPICAL.has(n.field)) return;
    const text = (n.field === "mh" || n.field === "majr" ? n.text.split("/")[0]! : n.text).trim();
    const key = text.toLowerCase();
    if (text && !seen.has(key)) {
      seen.add(key);
      out.push(text);
    }
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
