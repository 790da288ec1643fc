// The references of "copy summary with references", written by Citation.js (@citation-js/plugin-csl, citeproc-js)
// with the CSL style it ships as "vancouver": NLM's Citing Medicine, the style PubMed cites in.
import { Cite, plugins } from "@citation-js/core";
import "@citation-js/plugin-csl";
import { pagesOf, toCsl, type ExportArticle } from "./csl.ts";

/**
 * The library's "vancouver" style with two settings of its own attributes, so that the journal line reads as PubMed
 * and the article card show it ("Spine (Phila Pa 1976). 2007 Sep 1;32(19 Suppl):S120-5."): a hyphen between pages
 * (the style's locale term `page-range-delimiter`; citeproc's default is an en dash), and pages as MEDLINE gives them
 * (no `page-range-format`: MedlinePgn is already abbreviated by NLM, and re-abbreviating it would change the
 * publisher-written "7443-7444" and the "; discussion 104-5" parts that PubMed shows as they are).
 */
const STYLE = "vancouver-pubmed";
const styles = plugins.config.get("@csl").styles as { get(name: string): string; add(name: string, xml: string): void };
const base = styles.get("vancouver");
const RANGE_FORMAT = ' page-range-format="minimal"';
if (!base.includes(RANGE_FORMAT) || !base.includes("<terms>"))
  throw new Error("@citation-js/plugin-csl's vancouver style changed: review src/export/vancouver.ts");
styles.add(
  STYLE,
  base.replace(RANGE_FORMAT, "").replace("<terms>", '<terms><term name="page-range-delimiter">-</term>'),
);

/**
 * An article as the style needs it: its CSL-JSON item (src/export/csl.ts) with NLM's title abbreviation (MedlineTA,
 * else ISO's) as `container-title-short`, which the style prints for a journal, and `page` as MedlinePgn gives it.
 */
function nlmItem(a: ExportArticle): Record<string, unknown> {
  const item = toCsl(a);
  const abbreviation = a.journal_medline_ta || a.journal_iso_abbreviation;
  if (a.record_kind === "article" && abbreviation) item["container-title-short"] = abbreviation;
  const page = a.medline_pages?.trim() || pagesOf(a)?.full;
  if (page) item.page = page;
  return item;
}

/**
 * `articles` as numbered references in NLM's Vancouver form (Citing Medicine, as PubMed cites), one line each, in their
 * order: "1. Crawford CH 3rd, … Title. Spine (Phila Pa 1976). 2007 Sep 1;32(19 Suppl):S120-5. doi:… PubMed PMID: …".
 */
export function vancouverReferences(articles: readonly ExportArticle[]): string[] {
  if (!articles.length) return [];
  const text = new Cite(articles.map(nlmItem)).format("bibliography", { template: STYLE, format: "text" }) as string;
  return text.trim().split("\n");
}
