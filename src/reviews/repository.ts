import { sql, type Selectable } from "kysely";
import type { Database } from "../db/database.ts";
import type { ArticlesTable, LiteratureReviewsTable, ReviewStatus } from "../db/types.ts";
import { PIPELINE_STATUSES, type ReviewArticle } from "./schemas.ts";
import { articleColumns, toArticlePublic } from "../articles/repository.ts";
import type { ArticlePublic } from "../articles/schemas.ts";
import type { ReviewFilters } from "./filters.ts";

// All SQL about literature reviews. Functions take a Database, which may also be an open transaction.

/**
 * A review row. Timestamps are spelled out as Date because db/types.ts wraps them in Generated<…>, which makes
 * Kysely type their selected value as the column-type marker instead of Date; queries `$castTo` this type.
 */
export type ReviewRow = Omit<Selectable<LiteratureReviewsTable>, "created_at" | "updated_at"> & {
  created_at: Date;
  updated_at: Date;
};
/**
 * An article as reviews read it: every column but its reference list, which only the disruption signal reads, and its
 * syntax index (search/pubmed/query-syntax/stored.ts), which only the strategy evaluation reads, in SQL.
 */
export type ArticleRow = Omit<Selectable<ArticlesTable>, "reference_pmids" | "syntax_sources" | "syntax_words">;

/** One entry of a review's ranked list, as the pipeline stores it. */
export interface RankedEntry {
  pmid: number;
  score: number;
  /** Whether the article covers every concept of the topic (default true); partial matches are listed after. */
  coversTopic?: boolean;
}

/** Inserts a new review (status initial, no query) for the user and returns it. */
export function insertReview(db: Database, userId: string): Promise<ReviewRow> {
  return db
    .insertInto("literature_reviews")
    .values({ user_id: userId })
    .returningAll()
    .$castTo<ReviewRow>()
    .executeTakeFirstOrThrow();
}

/** One page of the user's reviews, newest first (in creation order, so that pages never overlap). */
export function listUserReviews(db: Database, userId: string, skip: number, limit: number): Promise<ReviewRow[]> {
  return db
    .selectFrom("literature_reviews")
    .selectAll()
    .$castTo<ReviewRow>()
    .where("user_id", "=", userId)
    .orderBy("seq", "desc")
    .offset(skip)
    .limit(limit)
    .execute();
}

/** Number of reviews the user has. */
export async function countUserReviews(db: Database, userId: string): Promise<number> {
  const row = await db
    .selectFrom("literature_reviews")
    .select(sql<number>`count(*)::int`.as("count"))
    .where("user_id", "=", userId)
    .executeTakeFirstOrThrow();
  return row.count;
}

/** The review if it exists and belongs to the user. `id` must be a well-formed uuid. */
export function findUserReview(db: Database, userId: string, id: string): Promise<ReviewRow | undefined> {
  return db
    .selectFrom("literature_reviews")
    .selectAll()
    .$castTo<ReviewRow>()
    .where("id", "=", id)
    .where("user_id", "=", userId)
    .executeTakeFirst();
}

/** The review, whoever owns it (for the pipeline). */
export function findReview(db: Database, id: string): Promise<ReviewRow | undefined> {
  return db.selectFrom("literature_reviews").selectAll().$castTo<ReviewRow>().where("id", "=", id).executeTakeFirst();
}

/**
 * Moves the user's review from initial to searching with its query. The status condition makes concurrent
 * starts safe: only one of them updates the row.
 * @returns the updated review, or undefined when it is not the user's or not in status initial.
 */
export function startUserReview(
  db: Database,
  userId: string,
  id: string,
  userQuery: string,
  filters: ReviewFilters | null = null,
): Promise<ReviewRow | undefined> {
  return db
    .updateTable("literature_reviews")
    .set({
      user_query: userQuery,
      search_filters: filters ? JSON.stringify(filters) : null,
      status: "searching",
      updated_at: sql`now()`,
    })
    .where("id", "=", id)
    .where("user_id", "=", userId)
    .where("status", "=", "initial")
    .returningAll()
    .$castTo<ReviewRow>()
    .executeTakeFirst();
}

/**
 * Locks the user's row (FOR UPDATE: concurrent callers for one user wait for each other) and counts the user's
 * reviews in progress: her reviews whose pipeline is still running, plus her `jobKind` jobs still queued or running
 * for a review she has deleted. Such a job runs on until the pipeline notices, so deleting a running review and
 * starting another cannot pile jobs up (issue 22, item 5: 31 queued). Call inside the transaction that starts a review.
 */
export async function lockUserAndCountInProgress(db: Database, userId: string, jobKind: string): Promise<number> {
  await db.selectFrom("users").select("id").where("id", "=", userId).forUpdate().execute();
  const row = await db
    .selectNoFrom((eb) => [
      eb
        .selectFrom("literature_reviews")
        .select(sql<number>`count(*)::int`.as("n"))
        .where("user_id", "=", userId)
        .where("status", "in", PIPELINE_STATUSES)
        .as("reviews"),
      eb
        .selectFrom("jobs")
        .select(sql<number>`count(*)::int`.as("n"))
        .where("fairness_key", "=", userId)
        .where("status", "in", ["queued", "running"])
        .where("kind", "=", jobKind)
        .where(sql<boolean>`NOT EXISTS (
          SELECT 1 FROM literature_reviews AS r WHERE r.id = (jobs.payload->>'reviewId')::uuid)`)
        .as("orphans"),
    ])
    .executeTakeFirstOrThrow();
  return Number(row.reviews) + Number(row.orphans);
}

/**
 * Deletes the user's review (its ranked list goes with it) and its `jobKind` job if that is still waiting in the
 * queue (a running one notices the deletion and stops). @returns whether a review was deleted.
 */
export async function deleteUserReview(db: Database, userId: string, id: string, jobKind: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const result = await trx
      .deleteFrom("literature_reviews")
      .where("id", "=", id)
      .where("user_id", "=", userId)
      .executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) return false;
    await trx
      .deleteFrom("jobs")
      .where("fairness_key", "=", userId)
      .where("status", "=", "queued")
      .where("kind", "=", jobKind)
      .where(sql<boolean>`payload->>'reviewId' = ${id}`)
      .execute();
    return true;
  });
}

/**
 * Compare-and-set of a review's status: moves it to `to` (with `extra` columns) only if its status is one of
 * `from`. The pipeline advances this way so that a review deleted, or finished by another run, is never
 * written over.
 * @returns whether the review was updated.
 */
export async function advanceReview(
  db: Database,
  id: string,
  from: readonly ReviewStatus[],
  to: ReviewStatus,
  extra: {
    summary?: string | null;
    summary_engine?: string | null;
    error_message?: string | null;
    fts_articles_total_count?: number;
    matching_count?: number | null;
    /** The topic's concepts (stored as JSON). */
    topic_concepts?: unknown;
    /** The evidence table (EvidenceRow[], src/reviews/evidence/types.ts) as JSON text. */
    evidence_table?: string | null;
  } = {},
): Promise<boolean> {
  const { topic_concepts, ...rest } = extra;
  const result = await db
    .updateTable("literature_reviews")
    // A step's progress line belongs to the status it was written in: a new status clears it.
    .set({
      ...rest,
      ...(topic_concepts !== undefined ? { topic_concepts: JSON.stringify(topic_concepts) } : {}),
      status: to,
      progress: null,
      updated_at: sql`now()`,
    })
    .where("id", "=", id)
    .where("status", "in", from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Sets the progress line of a review in one of the `during` statuses (null clears it); updated_at moves on, so status
 * streams and polls see the change. @returns false when the review is gone or has moved to another status.
 */
export async function setReviewProgress(
  db: Database,
  id: string,
  during: readonly ReviewStatus[],
  progress: string | null,
): Promise<boolean> {
  const result = await db
    .updateTable("literature_reviews")
    .set({ progress, updated_at: sql`now()` })
    .where("id", "=", id)
    .where("status", "in", during)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

const ARTICLE_COLUMNS = [
  "pmid",
  "title",
  "authors",
  "abstract",
  "abstract_sections",
  "journal",
  "publication_date",
  "publication_date_precision",
  "publication_year",
  "doi",
  "pmc_id",
  "full_text_link",
  "pdf_free_link",
  "language",
  "publication_types",
  "mesh_terms",
  "keywords",
  "retraction_notice_pmid",
  "entrez_date",
  "mesh_major_terms",
  "volume",
  "issue",
  "medline_pages",
  "start_page",
  "end_page",
  "elocation_pii",
  "journal_iso_abbreviation",
  "journal_medline_ta",
  "issn",
  "epub_date",
  "author_list",
  "book_publisher",
  "book_publisher_place",
  "book_title",
  "record_kind",
  "content_hash",
  "created_at",
  "updated_at",
] as const satisfies readonly (keyof ArticleRow)[];
// Every column of ArticleRow is listed: a column added to articles fails to compile here until it is.
const ARTICLE_COLUMNS_COMPLETE: [Exclude<keyof ArticleRow, (typeof ARTICLE_COLUMNS)[number]>] extends [never]
  ? true
  : false = true;
void ARTICLE_COLUMNS_COMPLETE;

/** Full article rows for these PMIDs (those not in the table are absent), in no particular order. */
export function findArticles(db: Database, pmids: number[]): Promise<ArticleRow[]> {
  if (pmids.length === 0) return Promise.resolve([]);
  return db.selectFrom("articles").select(ARTICLE_COLUMNS).where("pmid", "in", pmids).execute();
}

/** Replaces the review's ranked list with `entries` (rank = position + 1, citations cleared). */
export async function replaceRankedArticles(db: Database, reviewId: string, entries: RankedEntry[]): Promise<void> {
  await db.deleteFrom("literature_review_articles").where("review_id", "=", reviewId).execute();
  if (entries.length === 0) return;
  await db
    .insertInto("literature_review_articles")
    .values(
      entries.map((e, i) => ({
        review_id: reviewId,
        rank: i + 1,
        pmid: e.pmid,
        score: e.score,
        citation_number: null,
        covers_topic: e.coversTopic ?? true,
      })),
    )
    .execute();
}

/** The best `limit` articles of the review's ranked list that cover its topic, as full rows, best first. */
export function topRankedArticles(db: Database, reviewId: string, limit: number): Promise<ArticleRow[]> {
  return db
    .selectFrom("literature_review_articles as r")
    .innerJoin("articles as a", "a.pmid", "r.pmid")
    .selectAll("a")
    .where("r.review_id", "=", reviewId)
    .where("r.covers_topic", "=", true)
    .orderBy("r.rank")
    .limit(limit)
    .execute();
}

/**
 * Numbers the cited articles of the review: `citedPmids[i]` gets citation number i + 1 and every other article
 * of the list none. One statement, so re-running it after a crash gives the same result.
 */
export async function setCitations(db: Database, reviewId: string, citedPmids: number[]): Promise<void> {
  // Passed as an array literal in text, a form both drivers send unchanged.
  const cited = `{${citedPmids.map((p) => Math.trunc(p)).join(",")}}`;
  await db
    .updateTable("literature_review_articles")
    .set({ citation_number: sql<number | null>`array_position(cast(cast(${cited} as text) as integer[]), pmid)` })
    .where("review_id", "=", reviewId)
    .execute();
}

/** The review's cited articles in citation order. */
export async function citedArticles(db: Database, reviewId: string): Promise<ArticlePublic[]> {
  const rows = await db
    .selectFrom("literature_review_articles as r")
    .innerJoin("articles as a", "a.pmid", "r.pmid")
    .select(articleColumns)
    .where("r.review_id", "=", reviewId)
    .where("r.citation_number", "is not", null)
    .orderBy("r.citation_number")
    .execute();
  return rows.map(toArticlePublic);
}

/** One page of the review's ranked list, best first: articles covering the topic, then partial matches. */
export async function rankedArticlesPage(
  db: Database,
  reviewId: string,
  skip: number,
  limit: number,
): Promise<ReviewArticle[]> {
  const rows = await db
    .selectFrom("literature_review_articles as r")
    .innerJoin("articles as a", "a.pmid", "r.pmid")
    .select([...articleColumns, "r.covers_topic"])
    .where("r.review_id", "=", reviewId)
    .orderBy("r.rank")
    .offset(skip)
    .limit(limit)
    .execute();
  return rows.map(toArticlePublic);
}
