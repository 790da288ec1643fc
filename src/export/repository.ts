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

type Row = Omit<ExportArticle, "publication_date_precision" | "author_list" | "record_kind"> & {
  publication_date_precision: string | null;
  author_list: unknown;
  record_kind: string;
};

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

/** Articles one export reads from one query: a batch is written and sent before the next is read. */
export const EXPORT_BATCH_SIZE = 100;
/** Most records in one export file; the rest of a longer list is asked for with `skip` (docs/decisions/0033-…). */
export const MAX_EXPORT_RECORDS = 10_000;

/** Which part of an ordered list an export holds: the records after the first `skip`, at most `limit` of them. */
export interface ExportWindow {
  skip: number;
  limit: number;
}

/**
 * The user's liked articles still in the index, newest like first, in batches of at most `batchSize`: the first
 * batch skips `window.skip`, each later one continues after the last like read (keyset on the likes index, so a
 * batch deep in the list costs what the first does, and a like added or removed meanwhile neither repeats nor skips
 * one); at most `window.limit` articles in all.
 */
export async function* likedBatches(
  db: Database,
  userId: string,
  window: ExportWindow,
  batchSize = EXPORT_BATCH_SIZE,
): AsyncGenerator<ExportArticle[]> {
  let after: { at: string; pmid: number } | null = null;
  for (let left = window.limit; left > 0; ) {
    let q = db
      .selectFrom("likes as l")
      .innerJoin("articles as a", "a.pmid", "l.article_pmid")
      .select([...columns, sql<string>`l.liked_at::text`.as("cursor_at")])
      .where("l.user_id", "=", userId)
      .orderBy("l.liked_at", "desc")
      .orderBy("l.article_pmid", "desc")
      .limit(Math.min(batchSize, left));
    // The timestamp goes back as text, cast by the server: a JavaScript Date would drop its microseconds and repeat or
    // skip likes (a parameter typed timestamptz is turned into a Date by the PostgreSQL driver, hence ::text first).
    const at = after ? sql`(${after.at}::text)::timestamptz` : null;
    q = after ? q.where(sql<boolean>`(l.liked_at, l.article_pmid) < (${at}, ${after.pmid})`) : q.offset(window.skip);
    const rows = await q.execute();
    if (rows.length === 0) return;
    const last = rows[rows.length - 1]!;
    after = { at: last.cursor_at, pmid: last.pmid };
    left -= rows.length;
    yield rows.map(({ cursor_at: _, ...row }) => toExport(row));
    if (rows.length < batchSize) return;
  }
}

/** How many of the user's likes an export can hold (articles still in the index). */
export async function likedCount(db: Database, userId: string): Promise<number> {
  const row = await db
    .selectFrom("likes as l")
    .innerJoin("articles as a", "a.pmid", "l.article_pmid")
    .select((eb) => eb.fn.countAll<string | number>().as("n"))
    .where("l.user_id", "=", userId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * A review's cited articles in citation order, or all its ranked articles in rank order, in batches as
 * `likedBatches` reads them (keyset on the citation number or the rank, the PMID breaking ties).
 */
export async function* reviewListBatches(
  db: Database,
  reviewId: string,
  list: "cited" | "relevant",
  window: ExportWindow,
  batchSize = EXPORT_BATCH_SIZE,
): AsyncGenerator<ExportArticle[]> {
  const order = list === "cited" ? sql<number>`r.citation_number` : sql<number>`r.rank`;
  let after: { position: number; pmid: number } | null = null;
  for (let left = window.limit; left > 0; ) {
    let q = db
      .selectFrom("literature_review_articles as r")
      .innerJoin("articles as a", "a.pmid", "r.pmid")
      .select([...columns, order.as("cursor_position")])
      .where("r.review_id", "=", reviewId)
      .orderBy(order)
      .orderBy("r.pmid")
      .limit(Math.min(batchSize, left));
    if (list === "cited") q = q.where("r.citation_number", "is not", null);
    q = after ? q.where(sql<boolean>`(${order}, r.pmid) > (${after.position}, ${after.pmid})`) : q.offset(window.skip);
    const rows = await q.execute();
    if (rows.length === 0) return;
    const last = rows[rows.length - 1]!;
    after = { position: last.cursor_position, pmid: last.pmid };
    left -= rows.length;
    yield rows.map(({ cursor_position: _, ...row }) => toExport(row));
    if (rows.length < batchSize) return;
  }
}

/** How many articles a review's list holds. */
export async function reviewListCount(db: Database, reviewId: string, list: "cited" | "relevant"): Promise<number> {
  let q = db
    .selectFrom("literature_review_articles as r")
    .innerJoin("articles as a", "a.pmid", "r.pmid")
    .select((eb) => eb.fn.countAll<string | number>().as("n"))
    .where("r.review_id", "=", reviewId);
  if (list === "cited") q = q.where("r.citation_number", "is not", null);
  return Number((await q.executeTakeFirst())?.n ?? 0);
}

/** A review's cited articles in citation order, or all its ranked articles in rank order, all at once (the summary). */
export async function reviewListForExport(
  db: Database,
  reviewId: string,
  list: "cited" | "relevant",
): Promise<ExportArticle[]> {
  let q = db
    .selectFrom("literature_review_articles as r")
    .innerJoin("articles as a", "a.pmid", "r.pmid")
    .select(columns)
    .where("r.review_id", "=", reviewId);
  q =
    list === "cited" ? q.where("r.citation_number", "is not", null).orderBy("r.citation_number") : q.orderBy("r.rank");
  return (await q.execute()).map(toExport);
}

/** Articles by PMID, in the order given (those not in the index left out). */
export async function articlesForExport(db: Database, pmids: readonly number[]): Promise<ExportArticle[]> {
  if (!pmids.length) return [];
  const rows = (
    await db
      .selectFrom("articles as a")
      .select(columns)
      .where("a.pmid", "in", [...pmids])
      .execute()
  ).map(toExport);
  const byPmid = new Map(rows.map((r) => [r.pmid, r]));
  return pmids.flatMap((p) => byPmid.get(p) ?? []);
}
