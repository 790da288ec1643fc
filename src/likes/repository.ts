import type { Database } from "../db/database.ts";
import { sql } from "kysely";
import { keptArticleColumns, toKeptArticle } from "../articles/repository.ts";
import type { LikedArticle } from "./schemas.ts";

// The likes table (migration 2026_11_24_0007): one row per (user, PMID); liked_at set by the first like.

function likedArticles(db: Database, userId: string) {
  return db
    .selectFrom("likes as l")
    .leftJoin("articles as a", "a.pmid", "l.article_pmid")
    .select([...keptArticleColumns, "l.article_pmid", "a.pmid as a_pmid", "l.liked_at"])
    .where("l.user_id", "=", userId);
}

function toLikedArticle(row: Parameters<typeof toKeptArticle>[0] & { liked_at: Date | string }): LikedArticle {
  return { ...toKeptArticle(row), liked_at: new Date(row.liked_at).toISOString() };
}

/**
 * Likes `pmid` if the index holds it, in one statement: the like is inserted unless it exists (the primary key makes a
 * concurrent double like one row, and keeps the first liked_at), and the article is read with the like's time.
 * @returns the liked article, or undefined when the index does not hold the PMID.
 */
export async function likeArticle(db: Database, userId: string, pmid: number): Promise<LikedArticle | undefined> {
  const row = await db
    .with("inserted", (qb) =>
      qb
        .insertInto("likes")
        .columns(["user_id", "article_pmid"])
        .expression((eb) =>
          eb
            .selectFrom("articles")
            .select([sql<string>`${userId}::uuid`.as("user_id"), "pmid"])
            .where("pmid", "=", pmid),
        )
        .onConflict((oc) => oc.doNothing())
        .returning("liked_at"),
    )
    .selectFrom("articles as a")
    .select([
      ...keptArticleColumns,
      "a.pmid as article_pmid",
      "a.pmid as a_pmid",
      // The statement's snapshot does not see its own insert: the new row's time comes from RETURNING.
      sql<Date>`coalesce((SELECT liked_at FROM inserted), (SELECT liked_at FROM likes WHERE user_id = ${userId} AND article_pmid = ${pmid}))`.as(
        "liked_at",
      ),
    ])
    .where("a.pmid", "=", pmid)
    .executeTakeFirst();
  return row?.liked_at ? toLikedArticle(row) : undefined;
}

/** Whether the index holds `pmid`. */
export async function articleExists(db: Database, pmid: number): Promise<boolean> {
  return (await db.selectFrom("articles").select("pmid").where("pmid", "=", pmid).executeTakeFirst()) !== undefined;
}

/** Removes the like; @returns whether there was one. */
export async function deleteLike(db: Database, userId: string, pmid: number): Promise<boolean> {
  const res = await db
    .deleteFrom("likes")
    .where("user_id", "=", userId)
    .where("article_pmid", "=", pmid)
    .executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

/** One liked article of the user, or undefined. */
export async function findLike(db: Database, userId: string, pmid: number): Promise<LikedArticle | undefined> {
  const row = await likedArticles(db, userId).where("l.article_pmid", "=", pmid).executeTakeFirst();
  return row ? toLikedArticle(row) : undefined;
}

/**
 * The user's liked articles, newest like first (ties by PMID, descending), read along likes_user_recent_idx.
 * `from.after` (the PMID of the previous page's last entry) starts the page right after that like by a keyset
 * condition on (liked_at, PMID), compared in SQL at the database's microsecond precision, so a page deep in a long
 * list costs what the first does; no page when it is not liked. `from.skip` is the plain offset kept for the API's
 * skip parameter. `limit` undefined: all of them.
 */
export async function listLikes(
  db: Database,
  userId: string,
  from: { skip?: number; after?: number } = {},
  limit?: number,
): Promise<LikedArticle[]> {
  let q = likedArticles(db, userId).orderBy("l.liked_at", "desc").orderBy("l.article_pmid", "desc");
  if (from.after !== undefined) {
    q = q.where(
      sql<boolean>`(l.liked_at, l.article_pmid) < (
        SELECT c.liked_at, c.article_pmid FROM likes AS c
        WHERE c.user_id = ${userId} AND c.article_pmid = ${from.after})`,
    );
  } else if (from.skip) q = q.offset(from.skip);
  if (limit !== undefined) q = q.limit(limit);
  return (await q.execute()).map(toLikedArticle);
}

/**
 * The PMIDs the user likes, newest like first: what a page needs to show every card's like state (an array of
 * integers, about 9 bytes a like in JSON, against about 1.5 kB for a liked article with its abstract). Read from
 * likes_user_recent_idx alone.
 */
export async function likedPmids(db: Database, userId: string): Promise<number[]> {
  const rows = await db
    .selectFrom("likes")
    .select("article_pmid")
    .where("user_id", "=", userId)
    .orderBy("liked_at", "desc")
    .orderBy("article_pmid", "desc")
    .execute();
  return rows.map((r) => Number(r.article_pmid));
}
