import { createHmac } from "node:crypto";
import { sql } from "kysely";
import type { Database } from "../db/database.ts";
import { PROSPECT_YEARS } from "../privacy/policy.ts";

// Shares to addresses without an active account (docs/decisions/0032-share-privacy-and-preferences.md). The row
// exists so that sharing the same article with the same address again is refused exactly as it is for an account
// (409); it holds no address, only a keyed hash of it, so the table is no list of strangers' addresses.

/**
 * The keyed hash that stands for an invited address: HMAC-SHA-256 (RFC 2104) of the trimmed, lower-cased address with
 * the server's key, hex. Without the key, nobody can test a guessed address against it.
 */
export function recipientHash(secretKey: Uint8Array, email: string): string {
  return createHmac("sha256", secretKey).update(`share-invitation:${email}`).digest("hex");
}

/**
 * Records an invitation. @returns the new row, or undefined when this sharer already invited this address to this
 * article (the unique index decides, so two concurrent requests give one row).
 */
export async function insertInvitation(db: Database, sharerId: string, hash: string, pmid: number) {
  return db
    .insertInto("share_invitations")
    .values({ sharer_id: sharerId, recipient_hash: hash, article_pmid: pmid })
    .onConflict((oc) => oc.columns(["sharer_id", "recipient_hash", "article_pmid"]).doNothing())
    .returning(["id", "article_pmid", "invited_at"])
    .executeTakeFirst();
}

/** One invitation with what its e-mail needs (the sharer's name, the article's title), or undefined once gone. */
export async function readInvitation(db: Database, id: string) {
  return db
    .selectFrom("share_invitations as i")
    .innerJoin("users as u", "u.id", "i.sharer_id")
    .leftJoin("articles as a", "a.pmid", "i.article_pmid")
    .select(["i.id", "i.article_pmid", "u.full_name as sharer_full_name", "u.email as sharer_email", "a.title"])
    .where("i.id", "=", id)
    .executeTakeFirst();
}

/**
 * Deletes invitations older than the privacy policy's period for prospect data (PROSPECT_YEARS, from the
 * invitation). @returns how many were deleted.
 */
export async function purgeOldInvitations(db: Database, now: Date = new Date()): Promise<number> {
  const res = await db
    .deleteFrom("share_invitations")
    .where("invited_at", "<", sql<Date>`${now.toISOString()}::timestamptz - make_interval(years => ${PROSPECT_YEARS})`)
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}
