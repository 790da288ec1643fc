import type { AppDeps } from "../deps.ts";
import type { Database } from "../db/database.ts";
import { ApiError } from "../http/errors.ts";
import { hasActiveReviewAccess } from "../subscriptions/service.ts";
import * as repo from "./repository.ts";
import { storedEvidenceTable, type ReviewDetails, type ReviewPublic, type ReviewStatusPublic } from "./schemas.ts";
import { REVIEW_JOB, REVIEW_JOB_KIND } from "./pipeline.ts";
import { enqueueJob } from "../jobs/kinds.ts";
import { storedConcepts } from "./topic.ts";
import { describeFilters, storedFilters, type ReviewFilters } from "./filters.ts";
import { storedReport } from "./report.ts";
import { DESIGN_INFO } from "../articles/evidence.ts";
import type { ArticlePublic } from "../articles/schemas.ts";
import type { EvidenceRow } from "./evidence/types.ts";

// Rules of the literature review API. Only starting a review requires a review subscription; creating,
// listing, reading and deleting one's own reviews need only a signed-in user (docs/decisions/0004-review-access.md).

// Response details, exported for the tests and the pages that show them.
export const SUBSCRIPTION_REQUIRED = "An active Plus, Pro, or Max subscription is required to use literature reviews.";
export const REVIEW_NOT_FOUND = "Review not found";
export const REVIEW_ALREADY_STARTED = "This review has already been started. Create a new review for another topic.";
export const REVIEW_DELETED = "Review deleted successfully.";
/** A quiet stream sends a comment this often. */
export const STREAM_HEARTBEAT_MS = 15_000;
/** A status stream ends after this long; the client then polls or reopens it. */
export const STREAM_MAX_MS = 10 * 60_000;
const TERMINAL_STATUSES = new Set(["complete", "canceled", "error", "no_articles_found"]);
/** Whether a review status is terminal (docs/product.md §4). */
export const isTerminal = (status: string) => TERMINAL_STATUSES.has(status);

/** Reviews one user may have in progress at once: enough for real work, too few to hog the workers. */
export const MAX_REVIEWS_IN_PROGRESS = 3;
export const TOO_MANY_IN_PROGRESS = `You already have ${MAX_REVIEWS_IN_PROGRESS} reviews in progress. Wait for one of them to finish before starting another.`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function toPublic(row: repo.ReviewRow): ReviewPublic {
  const filters = describeFilters(storedFilters(row.search_filters));
  const { id, user_query, created_at, updated_at } = row;
  return { id, user_query, status: row.status, filters, created_at, updated_at };
}

/**
 * The user's review, or 404. A malformed id, an unknown id and another user's review all answer the same,
 * so that nobody can learn which review ids exist. @throws ApiError 404.
 */
export async function ownReview(db: Database, userId: string, id: string): Promise<repo.ReviewRow> {
  const row = UUID.test(id) ? await repo.findUserReview(db, userId, id) : undefined;
  if (!row) throw new ApiError(404, REVIEW_NOT_FOUND);
  return row;
}

/** Creates an empty review (status initial, no query yet) for the user. */
export async function createReview(deps: AppDeps, userId: string): Promise<ReviewPublic> {
  return toPublic(await repo.insertReview(deps.db, userId));
}

/** One page of the user's reviews, newest first, with the user's total number of reviews. */
export async function listReviews(
  deps: AppDeps,
  userId: string,
  skip: number,
  limit: number,
): Promise<{ data: ReviewPublic[]; count: number }> {
  const [rows, count] = await Promise.all([
    repo.listUserReviews(deps.db, userId, skip, limit),
    repo.countUserReviews(deps.db, userId),
  ]);
  return { data: rows.map(toPublic), count };
}

/** @throws ApiError 403 unless the user has an active Plus, Pro or Max subscription (trial included). */
export async function assertReviewAccess(deps: AppDeps, userId: string): Promise<void> {
  if (!(await hasActiveReviewAccess(deps.db, userId))) throw new ApiError(403, SUBSCRIPTION_REQUIRED);
}

/**
 * Starts the review on `userQuery` (already trimmed and length-checked; access checked by assertReviewAccess):
 * sets the query, the optional filters (stored with the review) and status searching and queues the pipeline job in one
 * transaction, so that a started review always has its job and a failed start leaves the review as it was.
 * @throws ApiError 404 when not the user's review, 409 when already started, 429 when the user already has
 *   MAX_REVIEWS_IN_PROGRESS reviews in progress.
 */
export async function startReview(
  deps: AppDeps,
  userId: string,
  id: string,
  userQuery: string,
  filters: ReviewFilters | null = null,
): Promise<ReviewPublic> {
  await ownReview(deps.db, userId, id);
  const started = await deps.db.transaction().execute(async (trx) => {
    // The user's row is locked first, so that concurrent starts by one user are counted one after another.
    if ((await repo.lockUserAndCountInProgress(trx, userId, REVIEW_JOB_KIND)) >= MAX_REVIEWS_IN_PROGRESS) {
      throw new ApiError(429, TOO_MANY_IN_PROGRESS, { "Retry-After": "5" });
    }
    const row = await repo.startUserReview(trx, userId, id, userQuery, filters);
    if (row) await enqueueJob(deps.jobs, REVIEW_JOB, { reviewId: row.id }, { db: trx, fairnessKey: userId });
    return row;
  });
  if (started) deps.jobs.wake?.();
  // The review existed a moment ago: either it was started already (or concurrently), or it was just deleted.
  if (!started) {
    await ownReview(deps.db, userId, id);
    throw new ApiError(409, REVIEW_ALREADY_STARTED);
  }
  return toPublic(started);
}

/** The status of the user's review, for polling. @throws ApiError 404. */
export async function reviewStatus(deps: AppDeps, userId: string, id: string): Promise<ReviewStatusPublic> {
  const row = await ownReview(deps.db, userId, id);
  return {
    id: row.id,
    status: row.status,
    user_query: row.user_query,
    progress: row.progress ?? null,
    updated_at: row.updated_at,
  };
}

/** The review with its summary, cited articles and one page of relevant articles. @throws ApiError 404. */
export async function reviewDetails(
  deps: AppDeps,
  userId: string,
  id: string,
  ftsSkip: number,
  ftsLimit: number,
): Promise<ReviewDetails> {
  const row = await ownReview(deps.db, userId, id);
  const [cited, page] = await Promise.all([
    repo.citedArticles(deps.db, row.id),
    repo.rankedArticlesPage(deps.db, row.id, ftsSkip, ftsLimit),
  ]);
  const evidence = storedEvidenceTable(row.evidence_table);
  return {
    id: row.id,
    status: row.status,
    user_query: row.user_query,
    progress: row.progress ?? null,
    summary: row.summary,
    summary_engine: row.summary_engine,
    articles_refs: withTableDesigns(cited, evidence),
    fts_articles_refs: withTableDesigns(page, evidence),
    fts_articles_total_count: row.fts_articles_total_count,
    matching_articles_count: row.matching_count,
    topic_concepts: storedConcepts(row.topic_concepts).map((c) => c.label),
    filters: describeFilters(storedFilters(row.search_filters)),
    search_report: storedReport(row.search_report),
    evidence_table: evidence,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/**
 * Articles with the design the review's evidence table read from their abstracts where it read one (issue 35 item 6:
 * a card, a citation badge and the table show one design for one study); the record's own design elsewhere.
 */
function withTableDesigns<
  A extends Pick<ArticlePublic, "pmid" | "study_design" | "study_design_label" | "study_design_abbreviation">,
>(articles: A[], table: readonly EvidenceRow[] | null): A[] {
  if (!table) return articles;
  const design = new Map(table.flatMap((r) => (r.design ? [[r.pmid, r.design] as const] : [])));
  return articles.map((a) => {
    const d = design.get(a.pmid);
    return d
      ? {
          ...a,
          study_design: d,
          study_design_label: DESIGN_INFO[d].label,
          study_design_abbreviation: DESIGN_INFO[d].abbreviation,
        }
      : a;
  });
}

/**
 * Deletes the user's review and its article lists. A pipeline still working on it notices and stops quietly.
 * @throws ApiError 404.
 */
export async function deleteReview(deps: AppDeps, userId: string, id: string): Promise<void> {
  const deleted = UUID.test(id) && (await repo.deleteUserReview(deps.db, userId, id, REVIEW_JOB_KIND));
  if (!deleted) throw new ApiError(404, REVIEW_NOT_FOUND);
}
