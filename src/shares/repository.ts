import { sql } from "kysely";
import type { Database } from "../db/database.ts";
import { keptArticleColumns, toKeptArticle } from "../articles/repository.ts";
import type { ReceivedShare, ReceivedShareRef } from "./schemas.ts";

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
 * (null when their account is gone) and the article (only its PMID when the record is gone). `from.after` (the id of
 * the previous page's last share) starts the page right after it by a keyset condition on (shared_at, id), compared
 * in SQL; no page when it is not the recipient's. `from.skip` is the plain offset of the API's skip parameter.
 * `limit` undefined: all.
 */
export async function listReceived(
  db: Database,
  recipientId: string,
  from: { skip?: number; after?: string } = {},
  limit?: number,
): Promise<ReceivedShare[]> {
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
  if (from.after !== undefined) {
    q = q.where(
      sql<boolean>`(s.shared_at, s.id) < (
        SELECT c.shared_at, c.id FROM shares AS c
        WHERE c.recipient_id = ${recipientId} AND c.id = ${from.after}::uuid)`,
    );
  } else if (from.skip) q = q.offset(from.skip);
  if (limit !== undefined) q = q.limit(limit);
  const rows = await q.execute();
  return rows.map((row) => ({
    id: row.share_id,
    article_pmid: row.article_pmid,
    shared_at: new Date(row.shared_at).toISOString(),
    sharer:
      row.sharer_id && row.sharer_email
        ? { id: row.sharer_id, full_name: row.sharer_full_name, email: row.sharer_email }
        : null,
    article: toKeptArticle(row),
  }));
}

/**
 * The recipient's received shares as `{ id, article_pmid }` only, newest first (ties by id, the order of
 * listReceived): what the dashboard needs for its count, the `after` of any page and the page of a linked article
 * (about 60 bytes a share in JSON, against about 1.5 kB with the article's abstract). Joins nothing.
 */
export async function listReceivedRefs(db: Database, recipientId: string): Promise<ReceivedShareRef[]> {
  const rows = await db
    .selectFrom("shares")
    .select(["id", "article_pmid"])
    .where("recipient_id", "=", recipientId)
    .orderBy("shared_at", "desc")
    .orderBy("id", "desc")
    .execute();
  return rows.map((r) => ({ id: r.id, article_pmid: Number(r.article_pmid) }));
}

/** Whether `shareId` is one of the recipient's received shares. */
export async function hasReceived(db: Database, recipientId: string, shareId: string): Promise<boolean> {
  const row = await db
    .selectFrom("shares")
    .select("id")
    .where("id", "=", shareId)
    .where("recipient_id", "=", recipientId)
    .executeTakeFirst();
  return row !== undefined;
}

/** Deletes one of the recipient's shares; @returns whether it was theirs and existed. */
export async function deleteReceived(db: Database, recipientId: string, shareId: string): Promise<boolean> {
  const res = await db
    .deleteFrom("shares")
    .where("id", "=", shareId)
    .where("recipient_id", "=", recipientId)
    .executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}
