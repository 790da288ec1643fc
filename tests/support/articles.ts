import type { TestApp } from "./app.ts";

/** An article to seed: what the suggestion and search tests choose; the rest is filled in alike. */
export interface ArticleSeed {
  pmid: number;
  title: string;
  /** YYYY-MM-DD, day precision. */
  date: string;
  mesh: string[];
  /** PMIDs it cites (its reference list); none when absent. */
  references?: number[];
}

/**
 * Inserts the articles (an abstract made from the title and headings, with a result sentence), then indexes them and
 * refreshes the index.
 */
export async function seedIndexedArticles(t: TestApp, articles: readonly ArticleSeed[]): Promise<void> {
  await t.db
    .insertInto("articles")
    .values(
      articles.map((a) => ({
        pmid: a.pmid,
        title: a.title,
        authors: "Doe J, Roe R",
        abstract: `${a.title}. We studied ${a.mesh.join(" and ").toLowerCase()} in a cohort of patients. Results showed a significant association (p < 0.01). These results inform practice.`,
        journal: "Journal of Tests",
        publication_date: a.date,
        publication_date_precision: "day",
        publication_year: Number(a.date.slice(0, 4)),
        mesh_terms: a.mesh,
        keywords: [],
        publication_types: ["Journal Article"],
        content_hash: `seed-${a.pmid}`,
        abstract_sections: "[]",
        doi: null,
        pmc_id: null,
        full_text_link: null,
        pdf_free_link: null,
        language: "eng",
        reference_pmids: a.references ?? [],
      })),
    )
    .execute();
  await t.deps.search.index(articles.map((a) => a.pmid));
  await t.deps.search.refresh();
}
