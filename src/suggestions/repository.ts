import { sql } from "kysely";
import type { Database } from "../db/database.ts";
import { findUserById } from "../users/repository.ts";
import { keptArticleColumns, toKeptArticle } from "../articles/repository.ts";
import { PAID_PLANS } from "../subscriptions/service.ts";
import type { Section, SectionEntry } from "./sections.ts";
import type { ProfileLike } from "./profile.ts";
import type { SuggestedArticle } from "./schemas.ts";

// weekly_suggestions and suggestion_articles (migration 2026_11_24_0008): one batch per user and ISO week.

/** Days during which a suggested article is not suggested again. */
export const RESUGGEST_AFTER_DAYS = 28;

/** What a user's job reads of the user. */
export async function readSuggestionUser(db: Database, userId: string) {
  return findUserById(db, userId);
}

/** The user's liked articles still in the index, with what the profile reads of them. */
export async function readProfileLikes(db: Database, userId: string): Promise<ProfileLike[]> {
  const rows = await db
    .selectFrom("likes as l")
    .innerJoin("articles as a", "a.pmid", "l.article_pmid")
    .select(["a.pmid", "a.title", "a.mesh_terms", "a.keywords", "l.liked_at"])
    .where("l.user_id", "=", userId)
    .execute();
  return rows.map((r) => ({ ...r, liked_at: new Date(r.liked_at) }));
}

/** Every PMID the user liked, in the index or not. */
export async function readLikedPmids(db: Database, userId: string): Promise<number[]> {
  return (await db.selectFrom("likes").select("article_pmid").where("user_id", "=", userId).execute()).map(
    (r) => r.article_pmid,
  );
}

/**
 * Which of `pmids` the user has liked (a batch is written once a week; what the user liked since must not be
 * suggested back). One indexed read of the user's likes among at most a batch's PMIDs.
 */
export async function likedAmong(db: Database, userId: string, pmids: readonly number[]): Promise<Set<number>> {
  if (pmids.length === 0) return new Set();
  const rows = await db
    .selectFrom("likes")
    .select("article_pmid")
    .where("user_id", "=", userId)
    .where(sql<boolean>`article_pmid = ANY(${[...new Set(pmids)]}::integer[])`)
    .execute();
  return new Set(rows.map((r) => r.article_pmid));
}

/** PMIDs suggested to the user in other weeks' batches of the last RESUGGEST_AFTER_DAYS days before `now`. */
export async function recentlySuggested(db: Database, userId: string, week: string, now: Date): Promise<number[]> {
  const since = new Date(now.getTime() - RESUGGEST_AFTER_DAYS * 86_400_000);
  const rows = await db
    .selectFrom("suggestion_articles as sa")
    .innerJoin("weekly_suggestions as ws", "ws.id", "sa.suggestion_id")
    .select("sa.article_pmid")
    .distinct()
    .where("ws.user_id", "=", userId)
    .where("ws.week", "<>", week)
    .where("ws.created_at", ">=", since)
    .execute();
  return rows.map((r) => r.article_pmid);
}

/** The user's batch of `week`, if any. */
export async function findBatch(db: Database, userId: string, week: string) {
  return db
    .selectFrom("weekly_suggestions")
    .selectAll()
    .where("user_id", "=", userId)
    .where("week", "=", week)
    .executeTakeFirst();
}

/**
 * What the candidate sections need of articles (see sections.ts CandidateArticle): no abstracts, since a user's
 * candidates number hundreds and only the few chosen are summarised (`readSummaryArticles`). The PMIDs go as one array
 * parameter: one parameter per PMID cost more to build and bind than the rows cost to read.
 */
export async function readCandidateArticles(db: Database, pmids: readonly number[]) {
  if (pmids.length === 0) return [];
  return db
    .selectFrom("articles")
    .select([
      "pmid",
      "title",
      "publication_year",
      "mesh_terms",
      sql<string | null>`publication_date::text`.as("publication_date"),
      sql<string | null>`entrez_date::text`.as("entrez_date"),
    ])
    .where(sql<boolean>`pmid = ANY(${[...pmids]}::integer[])`)
    .execute();
}

/** What the summarizer reads of the chosen articles. */
export async function readSummaryArticles(db: Database, pmids: readonly number[]) {
  if (pmids.length === 0) return [];
  return db
    .selectFrom("articles")
    .select(["pmid", "title", "abstract", "abstract_sections", "publication_year", "publication_types", "mesh_terms"])
    .where(sql<boolean>`pmid = ANY(${[...pmids]}::integer[])`)
    .execute();
}

/** A batch to store: the four sections and their summaries. */
export interface NewBatch {
  userId: string;
  week: string;
  sections: Record<Section, SectionEntry[]>;
  summaries: Record<Section, string | null>;
}

/**
 * Stores a batch in `db` (the caller's transaction), replacing the user's batch of that week if there is one (its
 * digest_queued_at is kept, so a recomputed week never mails again). @returns the new batch id.
 */
export async function replaceBatch(db: Database, batch: NewBatch): Promise<string> {
  const previous = await db
    .deleteFrom("weekly_suggestions")
    .where("user_id", "=", batch.userId)
    .where("week", "=", batch.week)
    .returning("digest_queued_at")
    .executeTakeFirst();
  const row = await db
    .insertInto("weekly_suggestions")
    .values({
      user_id: batch.userId,
      week: batch.week,
      new_weekly_articles_summary: batch.summaries.new_weekly_articles,
      new_yearly_articles_summary: batch.summaries.new_yearly_articles,
      pertinent_articles_summary: batch.summaries.pertinent_articles,
      disruptive_articles_summary: batch.summaries.disruptive_articles,
      digest_queued_at: previous?.digest_queued_at ?? null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const values = (Object.entries(batch.sections) as [Section, SectionEntry[]][]).flatMap(([section, entries]) =>
    entries.map((e, rank) => ({
      suggestion_id: row.id,
      section,
      rank,
      article_pmid: e.pmid,
      reason: e.reason,
      signal: e.signal,
    })),
  );
  if (values.length > 0) await db.insertInto("suggestion_articles").values(values).execute();
  return row.id;
}

/** Marks the batch's digest as queued (in the transaction that queues it). */
export async function markDigestQueued(db: Database, batchId: string, at: Date): Promise<void> {
  await db.updateTable("weekly_suggestions").set({ digest_queued_at: at }).where("id", "=", batchId).execute();
}

/** The user's latest batch with its articles by section (in rank order), or undefined. */
export async function latestBatch(db: Database, userId: string) {
  const batch = await db
    .selectFrom("weekly_suggestions")
    .selectAll()
    .where("user_id", "=", userId)
    .orderBy("created_at", "desc")
    .limit(1)
    .executeTakeFirst();
  if (!batch) return undefined;
  const rows = await db
    .selectFrom("suggestion_articles as sa")
    .leftJoin("articles as a", "a.pmid", "sa.article_pmid")
    .select([
      ...keptArticleColumns,
      "sa.section",
      "sa.rank",
      "sa.article_pmid",
      "sa.reason",
      "sa.signal",
      "a.pmid as a_pmid",
    ])
    .where("sa.suggestion_id", "=", batch.id)
    .orderBy("sa.section")
    .orderBy("sa.rank")
    .execute();
  const sections: Record<string, SuggestedArticle[]> = {};
  for (const r of rows) (sections[r.section] ??= []).push({ ...toKeptArticle(r), reason: r.reason, signal: r.signal });
  return { batch, sections };
}

/**
 * Active accounts with a plus, pro or max subscription recorded as active or trialing (the exact rule is checked per
 * job).
 */
function subscribers(db: Database) {
  return db
    .selectFrom("users as u")
    .innerJoin("subscriptions as s", "s.user_id", "u.id")
    .select("u.id")
    .where("u.is_active", "=", true)
    .where("s.subscription_type", "in", [...PAID_PLANS])
    .where("s.status", "in", ["active", "trialing"]);
}

/**
 * Users the weekly run considers: active accounts with a plus, pro or max subscription recorded as active or
 * trialing, and no batch for `week` yet. Each user's job checks the exact access rule again when it runs.
 */
export async function usersDueForWeek(db: Database, week: string): Promise<string[]> {
  const rows = await subscribers(db)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom("weekly_suggestions as w")
            .select("w.id")
            .whereRef("w.user_id", "=", "u.id")
            .where("w.week", "=", week),
        ),
      ),
    )
    .orderBy("u.id")
    .execute();
  return rows.map((r) => r.id);
}

/** Users whose suggestion sources the daily preparation keeps ready: the weekly run's, whatever the week. */
export async function subscribedUsers(db: Database): Promise<string[]> {
  return (await subscribers(db).orderBy("u.id").execute()).map((r) => r.id);
}
