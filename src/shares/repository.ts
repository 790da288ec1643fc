import type { Database } from "../db/database.ts";
import { keptArticleColumns, toKeptArticle } from "../articles/repository.ts";
import type { ReceivedShare } from "./schemas.ts";

// The shares table (migration 2026_11_24_0007): at most one share of an article from one user to another.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `id` can be a share id (anything else is simply not found, without asking the database). */
export function isShareId(id: string): boolean {
  return UUID.test(id);
}

/**
 * Records a share. @returns the new row, or undefined when this sharer already shared this article with this
 * recipient (the unique index decides, so two concurrent shares give one row).
 */
export async function insertShare(db: Database, sharerId: string, recipientId: string, pmid: number) {
  return db
    .insertInto("shares")
    .values({ sharer_id: sharerId, recipient_id: recipientId, article_pmid: pmid })
    .onConflict((oc) => oc.columns(["sharer_id", "recipient_id", "article_pmid"]).doNothing())
    .returning(["id", "article_pmid", "shared_at"])
    .executeTakeFirst();
}

/**
 * The user's received shares, newest first (ties by id), read along shares_recipient_recent_idx, with the sharer
 * (null when their account is gone) and the article (only its PMID when the record is gone). `limit` undefined: all.
 */
export async function listReceived(db: Database, recipientId: string, skip = 0, limit?: number): Promise<ReceivedShare[]> {
  let q = db
    .selectFrom("shares as s")
    .leftJoin("articles as a", "a.pmid", "s.article_pmid")
    .leftJoin("users as u", "u.id", "s.sharer_id")
    .select([
      ...keptArticleColumns,
      "s.id as share_id",
      "s.article_pmid",
      "s.shared_at",
      "a.pmid as a_pmid",
      "u.id as sharer_id",
      "u.full_name as sharer_full_name",
      "u.email as sharer_email",
    ])
    .where("s.recipient_id", "=", recipientId)
    .orderBy("s.shared_at", "desc")
    .orderBy("s.id", "desc");
  if (limit !== undefined) q = q.limit(limit);
  if (skip > 0) q = q.offset(skip);
  const rows = await q.execute();
  return rows.map((row) => ({
    id: row.share_id,
    article_pmid: row.article_pmid,
    shared_at: new Date(row.shared_at).toISOString(),
    sharer: row.sharer_id && row.sharer_email ? { id: row.sharer_id, full_name: row.sharer_full_name, email: row.sharer_email } : null,
    article: toKeptArticle(row),
  }));
}

/** Deletes one of the recipient's shares; @returns whether it was theirs and existed. */
export async function deleteReceived(db: Database, recipientId: string, shareId: string): Promise<boolean> {
  const res = await db.deleteFrom("shares").where("id", "=", shareId).where("recipient_id", "=", recipientId).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}
