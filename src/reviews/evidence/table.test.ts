import { describe, expect, test } from "bun:test";
import fixture from "../fixtures/nasopharyngeal-carcinoma.json";
import type { SummaryArticle } from "../summary/types.ts";
import { buildEvidenceTable } from "./table.ts";

// Real PubMed records (src/reviews/fixtures/README.md): structured and unstructured abstracts, and two with none.
const ARTICLES = fixture as SummaryArticle[];
const norm = (s: string) => s.replace(/\s+/g, " ").trim();

describe("the evidence table of the cited articles", () => {
  const cited = ARTICLES.slice(0, 12);
  const duplicates = new Map([[cited[4]!.pmid, [111, 222]]]);
  const rows = buildEvidenceTable(cited, duplicates);

  test("one row per cited article, in citation order, with its other PMIDs", () => {
    expect(rows.map((r) => r.pmid)).toEqual(cited.map((a) => a.pmid));
    expect(rows.map((r) => r.citation)).toEqual(cited.map((_, i) => i + 1));
    expect(rows[4]!.duplicate_pmids).toEqual([111, 222]);
    expect(rows.filter((r) => r.duplicate_pmids.length > 0)).toHaveLength(1);
    // A copy: the table never shares the grouping's arrays.
    expect(rows[4]!.duplicate_pmids).not.toBe(duplicates.get(cited[4]!.pmid));
  });

  test("every text cell is a span of the article's abstract, or null", () => {
    for (const [i, row] of rows.entries()) {
      const abstract = norm(cited[i]!.abstract ?? "");
      const spans = [row.population, row.intervention, row.comparator, row.outcome, row.result];
      for (const span of [...spans, ...row.effects.map((e) => e.text)]) {
        if (span !== null) expect(abstract).toContain(norm(span));
      }
    }
    // Articles without an abstract have nothing in their row but what the record states.
    for (const [i, row] of rows.entries()) {
      if (cited[i]!.abstract) continue;
      const cells = [row.population, row.intervention, row.outcome, row.result, row.participants];
      expect(cells).toEqual([null, null, null, null, null]);
      expect(row.effects).toEqual([]);
    }
  });

  test("no cited article, no rows", () => {
    expect(buildEvidenceTable([], new Map())).toEqual([]);
  });
});
