import { nlmCitation } from "../articles/citation.ts";
import { authorsOf, isGroup, type ExportArticle } from "./csl.ts";

/**
 * The NLM citation line of an article ("Spine (Phila Pa 1976). 2007 Sep 1;32(19 Suppl):S120-5."), the one the article
 * card shows (src/articles/citation.ts), and a whole reference in NLM's Vancouver form (Citing Medicine): up to six
 * authors then "et al.", the title, "In: <book>." for a chapter, then the citation line. Pure.
 */
export function citationLine(a: ExportArticle): string | null {
  return nlmCitation(a);
}

/** "Crawford CH 3rd" / a group's name. */
function vancouverName(au: ReturnType<typeof authorsOf>[number]): string {
  if (isGroup(au)) return au.group;
  const initials = au.initials ?? (au.given ? Array.from(au.given.split(/[\s.-]+/).filter(Boolean), (w) => Array.from(w)[0]!).join("") : "");
  return [au.family, initials || null, au.suffix].filter(Boolean).join(" ");
}

/** Ends a sentence with a full stop unless it already ends with one, a question or an exclamation mark. */
const sentence = (s: string) => (/[.?!]$/.test(s.trim()) ? s.trim() : `${s.trim()}.`);

export function vancouverReference(a: ExportArticle): string {
  const authors = authorsOf(a);
  const names = authors.slice(0, 6).map(vancouverName);
  const parts: string[] = [];
  if (names.length) parts.push(`${names.join(", ")}${authors.length > 6 ? ", et al." : "."}`);
  const title = a.record_kind === "book" ? a.title || a.book_title : a.title;
  if (title) parts.push(sentence(title));
  if (a.record_kind === "chapter" && a.book_title) parts.push(`In: ${sentence(a.book_title)}`);
  const line = citationLine(a);
  if (line) parts.push(line);
  else if (a.journal) parts.push(sentence(a.journal));
  return parts.join(" ");
}
