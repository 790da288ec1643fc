import { sql } from "kysely";
import type { AppDeps } from "../deps.ts";
import type { Database } from "../db/database.ts";
import { ApiError } from "../http/errors.ts";
import { z } from "zod";
import { enqueueEmail } from "../email/jobs.ts";
import { enqueueJob, jobKind } from "../jobs/kinds.ts";
import { siteOrigin } from "../suggestions/digest.ts";
import { dataExportReadyEmail } from "./emails.ts";
import { DATA_EXPORT_INTERVAL_HOURS, DATA_EXPORT_VALID_DAYS, addDays } from "./policy.ts";

/**
 * "Download my data" (GDPR Art. 15 and 20: access and portability, as the privacy policy lists them): one JSON file
 * with everything the product holds about the user, produced by a job (DATA_EXPORT_JOB) and e-mailed as a link that
 * only its owner can open, until it expires (DATA_EXPORT_VALID_DAYS).
 */

export const DATA_EXPORT_JOB = "privacy.data-export";
/** The kind with its payload's schema (src/jobs/kinds.ts): the export row to fill. */
export const DATA_EXPORT = jobKind(DATA_EXPORT_JOB, z.object({ exportId: z.string().min(1) }));
/** The file's format version, bumped when a field changes meaning. */
export const DATA_EXPORT_FORMAT = 1;

/** Columns of `users` that are secrets or internal counters, never exported. */
const SECRET_USER_COLUMNS = new Set(["hashed_password", "token_version"]);

/** A data export's state as the API shows it. */
export interface DataExportStatus {
  id: string;
  status: "queued" | "ready" | "failed";
  created_at: Date;
  expires_at: Date;
}

/**
 * Queues a data export for `userId`, or returns the one asked for within DATA_EXPORT_INTERVAL_HOURS that is still
 * pending or downloadable (asking twice does not produce two files or two e-mails).
 */
export async function requestDataExport(
  deps: Pick<AppDeps, "db" | "jobs">,
  userId: string,
  now: Date,
): Promise<{ export: DataExportStatus; created: boolean }> {
  const result = await deps.db.transaction().execute(async (trx) => {
    // One request at a time per user: the user's row is the lock.
    await trx.selectFrom("users").select("id").where("id", "=", userId).forUpdate().executeTakeFirst();
    const recent = await trx
      .selectFrom("data_exports")
      .select(["id", "status", "created_at", "expires_at"])
      .where("user_id", "=", userId)
      .where("status", "in", ["queued", "ready"])
      .where("created_at", ">", addDays(now, -DATA_EXPORT_INTERVAL_HOURS / 24))
      .where("expires_at", ">", now)
      .orderBy("created_at", "desc")
      .executeTakeFirst();
    if (recent) return { export: recent as DataExportStatus, created: false };
    const row = await trx
      .insertInto("data_exports")
      .values({ user_id: userId, created_at: now, expires_at: addDays(now, DATA_EXPORT_VALID_DAYS) })
      .returning(["id", "status", "created_at", "expires_at"])
      .executeTakeFirstOrThrow();
    await enqueueJob(deps.jobs, DATA_EXPORT, { exportId: row.id }, { db: trx, maxAttempts: 3 });
    return { export: row as DataExportStatus, created: true };
  });
  if (result.created) deps.jobs.wake?.();
  return result;
}

/**
 * Everything held about `userId`, as one JSON-ready object: the account (without its password hash), interests and
 * e-mail preferences, subscription, reviews (topics, filters, summaries, cited PMIDs), likes, shares sent and received,
 * the weekly suggestions (each week's section summaries and suggested PMIDs with their reasons) and the networks the
 * account has signed in from (the login guard's record). Shares name the other person by e-mail only where the user
 * already sees it in the app (the sharer of a received share; the recipient of a sent one).
 * Throws when the user is gone.
 */
export async function buildDataExport(db: Database, userId: string, now: Date): Promise<Record<string, unknown>> {
  const user = await db.selectFrom("users").selectAll().where("id", "=", userId).executeTakeFirst();
  if (!user) throw new Error(`data export: user ${userId} is gone`);
  const account = Object.fromEntries(Object.entries(user).filter(([k]) => !SECRET_USER_COLUMNS.has(k)));
  const [subscriptions, reviews, likes, shares, suggestions, loginNetworks] = await Promise.all([
    db
      .selectFrom("subscriptions")
      .select([
        "subscription_type",
        "status",
        "billing_interval",
        "is_trial",
        "trial_ends_at",
        "current_period_end",
        "cancel_at_period_end",
        "source",
        "created_at",
        "updated_at",
      ])
      .where("user_id", "=", userId)
      .execute(),
    exportedReviews(db, userId),
    db
      .selectFrom("likes")
      .select(["article_pmid as pmid", "liked_at"])
      .where("user_id", "=", userId)
      .orderBy("liked_at")
      .execute(),
    exportedShares(db, userId),
    exportedSuggestions(db, userId),
    // The login guard's record (src/auth/login-guard.ts): personal data too (an address, or an IPv6 /64).
    db
      .selectFrom("known_login_clients")
      .select(["client_key as network", "last_login_at"])
      .where("user_id", "=", userId)
      .orderBy("last_login_at")
      .execute(),
  ]);
  return {
    format: DATA_EXPORT_FORMAT,
    generated_at: now.toISOString(),
    account,
    interests: user.description,
    subscriptions,
    reviews,
    likes,
    shares_sent: shares.sent,
    shares_received: shares.received,
    weekly_suggestions: suggestions,
    login_networks: loginNetworks,
  };
}

/** The user's reviews in creation order, each with the PMIDs its summary cites, in citation order. */
async function exportedReviews(db: Database, userId: string) {
  const [reviews, citations] = await Promise.all([
    db
      .selectFrom("literature_reviews")
      .select(["id", "user_query", "status", "summary", "summary_engine", "search_filters", "created_at", "updated_at"])
      .where("user_id", "=", userId)
      .orderBy("created_at")
      .execute(),
    db
      .selectFrom("literature_review_articles as a")
      .innerJoin("literature_reviews as r", "r.id", "a.review_id")
      .select(["a.review_id", "a.pmid", "a.citation_number"])
      .where("r.user_id", "=", userId)
      .where("a.citation_number", "is not", null)
      .orderBy("a.review_id")
      .orderBy("a.citation_number")
      .execute(),
  ]);
  const cited = new Map<string, number[]>();
  for (const c of citations) cited.set(c.review_id, [...(cited.get(c.review_id) ?? []), c.pmid]);
  return reviews.map((r) => ({ ...r, cited_pmids: cited.get(r.id) ?? [] }));
}

/** Shares the user made (with the recipient's e-mail) and received (with the sharer's), oldest first. */
async function exportedShares(db: Database, userId: string) {
  const [sent, received] = await Promise.all([
    db
      .selectFrom("shares as s")
      .innerJoin("users as r", "r.id", "s.recipient_id")
      .select(["s.article_pmid as pmid", "r.email as recipient_email", "s.shared_at"])
      .where("s.sharer_id", "=", userId)
      .orderBy("s.shared_at")
      .execute(),
    db
      .selectFrom("shares as s")
      .leftJoin("users as f", "f.id", "s.sharer_id")
      .select(["s.article_pmid as pmid", "f.email as sharer_email", "s.shared_at"])
      .where("s.recipient_id", "=", userId)
      .orderBy("s.shared_at")
      .execute(),
  ]);
  return { sent, received };
}

/**
 * The weekly suggestions kept for the user, by ISO week: the four sections' summaries and the suggested articles
 * (PMID, section, rank and the reason shown), so the file holds what the Suggestions page and the digests showed.
 */
async function exportedSuggestions(db: Database, userId: string) {
  const [weeks, articles] = await Promise.all([
    db
      .selectFrom("weekly_suggestions")
      .select([
        "id",
        "week",
        "created_at",
        "digest_queued_at",
        "new_weekly_articles_summary",
        "new_yearly_articles_summary",
        "pertinent_articles_summary",
        "disruptive_articles_summary",
      ])
      .where("user_id", "=", userId)
      .orderBy("week")
      .execute(),
    db
      .selectFrom("suggestion_articles as sa")
      .innerJoin("weekly_suggestions as ws", "ws.id", "sa.suggestion_id")
      .select(["sa.suggestion_id", "sa.section", "sa.rank", "sa.article_pmid as pmid", "sa.reason"])
      .where("ws.user_id", "=", userId)
      .orderBy("sa.section")
      .orderBy("sa.rank")
      .execute(),
  ]);
  return weeks.map(({ id, ...week }) => ({
    ...week,
    articles: articles.filter((a) => a.suggestion_id === id).map(({ suggestion_id: _, ...a }) => a),
  }));
}

/** The job: writes the file and e-mails its link. A failure marks the export failed after the last attempt. */
export async function produceDataExport(
  deps: Pick<AppDeps, "db" | "jobs" | "config">,
  exportId: string,
  now: Date,
): Promise<void> {
  const row = await deps.db
    .selectFrom("data_exports")
    .select(["user_id", "status", "expires_at"])
    .where("id", "=", exportId)
    .executeTakeFirst();
  if (row?.status !== "queued") return;
  const content = await buildDataExport(deps.db, row.user_id, now);
  const user = await deps.db
    .selectFrom("users")
    .select("email")
    .where("id", "=", row.user_id)
    .executeTakeFirstOrThrow();
  const link = `${siteOrigin(deps.config)}${dataExportPagePath(exportId)}`;
  await deps.db.transaction().execute(async (trx) => {
    const done = await trx
      .updateTable("data_exports")
      // Cast from text: a string parameter typed jsonb would be stored as one JSON string (postgres.js serialises it).
      .set({ status: "ready", content: sql`cast(cast(${JSON.stringify(content)} as text) as jsonb)`, ready_at: now })
      .where("id", "=", exportId)
      .where("status", "=", "queued")
      .executeTakeFirst();
    if (Number(done.numUpdatedRows) === 0) return;
    await enqueueEmail(
      deps,
      dataExportReadyEmail({
        to: user.email,
        link,
        expiresAt: new Date(row.expires_at),
        supportEmail: deps.config.SUPPORT_EMAIL,
      }),
      { db: trx },
    );
  });
  deps.jobs.wake?.();
}

/** The page the e-mail links to (src/pages/routes.tsx): signed out, it leads through the login page and back. */
export function dataExportPagePath(exportId: string): string {
  return `/my-data/${exportId}`;
}

/** The file itself, for the page's download link. */
export function dataExportFilePath(exportId: string): string {
  return `/api/v1/privacy/data-export/${exportId}`;
}

/** What a download link leads to for the signed-in user who opened it. */
export type DataExportState =
  | { state: "ready"; expiresAt: Date }
  | { state: "preparing" }
  /** Expired, failed, pruned, or never existed. */
  | { state: "expired" }
  /** The export exists and is not the signed-in user's: the link was sent to another account (issue 35). */
  | { state: "another-account" };

export const DATA_EXPORT_EXPIRED = "This download link has expired. Ask for your data again from your settings.";
export const DATA_EXPORT_PREPARING =
  "Your data is still being prepared. The e-mail with the link arrives when it is ready.";
export const DATA_EXPORT_OTHER_ACCOUNT =
  "This download link belongs to another account. Sign in as the account the e-mail was sent to.";

/** Whether `id` can be an export's id (a UUID): anything else names no export, without asking the database. */
export function isExportId(id: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);
}

/**
 * What the export `exportId` is to `userId` at `now`. Saying that a link belongs to another account tells its opener
 * only that the random id exists, never whose it is or what it holds.
 */
export async function dataExportState(
  db: Database,
  userId: string,
  exportId: string,
  now: Date,
): Promise<DataExportState> {
  if (!isExportId(exportId)) return { state: "expired" };
  const row = await db
    .selectFrom("data_exports")
    .select(["user_id", "status", "expires_at"])
    .where("id", "=", exportId)
    .executeTakeFirst();
  if (!row) return { state: "expired" };
  if (row.user_id !== userId) return { state: "another-account" };
  if (new Date(row.expires_at) <= now || row.status === "failed") return { state: "expired" };
  if (row.status !== "ready") return { state: "preparing" };
  return { state: "ready", expiresAt: new Date(row.expires_at) };
}

/**
 * The export's file for its owner.
 * @throws ApiError 403 DATA_EXPORT_OTHER_ACCOUNT when it is another account's; 404 DATA_EXPORT_EXPIRED when it does
 *   not exist or has expired; 409 DATA_EXPORT_PREPARING while it is being prepared.
 */
export async function readDataExport(db: Database, userId: string, exportId: string, now: Date): Promise<string> {
  const state = await dataExportState(db, userId, exportId, now);
  if (state.state === "another-account") throw new ApiError(403, DATA_EXPORT_OTHER_ACCOUNT);
  if (state.state === "expired") throw new ApiError(404, DATA_EXPORT_EXPIRED);
  if (state.state === "preparing") throw new ApiError(409, DATA_EXPORT_PREPARING);
  const row = await db
    .selectFrom("data_exports")
    .select(sql<string>`content::text`.as("content"))
    .where("id", "=", exportId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  if (!row) throw new ApiError(404, DATA_EXPORT_EXPIRED);
  return row.content;
}

/** Deletes expired exports' files (the rows stay a day more, so a late click gets the "expired" answer). */
export async function pruneDataExports(db: Database, now: Date): Promise<number> {
  const res = await db.deleteFrom("data_exports").where("expires_at", "<", addDays(now, -1)).executeTakeFirst();
  return Number(res.numDeletedRows);
}
