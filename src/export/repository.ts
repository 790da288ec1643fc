import { CITATION_COLUMNS } from "../articles/citation.ts";
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
  "a.language",
  ...CITATION_COLUMNS.map((c) => `a.${c}` as const),
  "a.issn",
  sql<string | null>`a.epub_date::text`.as("epub_date"),
  "a.author_list",
] as const;

type Row = Omit<ExportArticle, "publication_date_precision" | "author_list" | "record_kind"> & { publication_date_precision: string | null; author_list: unknown; record_kind: string };

function toExport(row: Row): ExportArticle {
  const p = row.publication_date_precision;
  const k = row.record_kind;
  // jsonb arrives parsed from both drivers; a string (a driver that leaves jsonb as text) is parsed here.
  const list = typeof row.author_list === "string" ? (JSON.parse(row.author_list) as unknown) : row.author_list;
  return {
    ...row,
    publication_date_precision: p === "day" || p === "month" || p === "year" ? p : null,
    author_list: Array.isArray(list) ? (list as ExportArticle["author_list"]) : [],
    record_kind: k === "book" || k === "chapter" ? k : "article",
  };
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

/** Articles by PMID, in the order given (those not in the index left out). */
export async function articlesForExport(db: Database, pmids: readonly number[]): Promise<ExportArticle[]> {
  if (!pmids.length) return [];
  const rows = (await db.selectFrom("articles as a").select(columns).where("a.pmid", "in", [...pmids]).execute()).map(toExport);
  const byPmid = new Map(rows.map((r) => [r.pmid, r]));
  return pmids.flatMap((p) => byPmid.get(p) ?? []);
}
