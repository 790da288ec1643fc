import { sql } from "kysely";
import type { Database } from "../db/database.ts";
import type { ExportArticle } from "./csl.ts";

// What the exports read: articles with every field a reference needs, in the order of their list.

const columns = [
  "a.pmid",
  "a.title",
  "a.authors",
  "a.abstract",
  "a.journal",
  sql<string | null>`a.publication_date::text`.as("publication_date"),
  "a.publication_date_precision",
  "a.doi",
  "a.pmc_id",
  "a.publication_types",
  "a.mesh_terms",
  "a.keywords",
] as const;

function toExport(row: Omit<ExportArticle, "publication_date_precision"> & { publication_date_precision: string | null }): ExportArticle {
  const p = row.publication_date_precision;
  return { ...row, publication_date_precision: p === "day" || p === "month" || p === "year" ? p : null };
}

/** The user's liked articles still in the index, newest like first. */
export async function likedForExport(db: Database, userId: string): Promise<ExportArticle[]> {
  const rows = await db.selectFrom("likes as l").innerJoin("articles as a", "a.pmid", "l.article_pmid").select(columns).where("l.user_id", "=", userId).orderBy("l.liked_at", "desc").orderBy("l.article_pmid", "desc").execute();
  return rows.map(toExport);
}

/** A review's cited articles in citation order, or all its ranked articles in rank order. */
export async function reviewListForExport(db: Database, reviewId: string, list: "cited" | "relevant"): Promise<ExportArticle[]> {
  let q = db.selectFrom("literature_review_articles as r").innerJoin("articles as a", "a.pmid", "r.pmid").select(columns).where("r.review_id", "=", reviewId);
  q = list === "cited" ? q.where("r.citation_number", "is not", null).orderBy("r.citation_number") : q.orderBy("r.rank");
  return (await q.execute()).map(toExport);
}
