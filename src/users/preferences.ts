import type { Database } from "../db/database.ts";

// The e-mail preferences kept on the user row (docs/decisions/0032-share-privacy-and-preferences.md). Other domains
// read and write them here rather than querying the `users` table themselves (docs/decisions/0038).

/** Whether the user receives the weekly digest e-mail. @throws when no user has this id. */
export async function weeklyDigestOf(db: Database, userId: string): Promise<boolean> {
  const row = await db.selectFrom("users").select("weekly_digest").where("id", "=", userId).executeTakeFirstOrThrow();
  return row.weekly_digest;
}

/** Turns the weekly digest e-mail on or off (a missing user is a no-op). */
export async function setWeeklyDigest(db: Database, userId: string, on: boolean): Promise<void> {
  await db.updateTable("users").set({ weekly_digest: on }).where("id", "=", userId).execute();
}

/** Whether the user is e-mailed when someone shares an article with them. @throws when no user has this id. */
export async function shareEmailsOf(db: Database, userId: string): Promise<boolean> {
  const row = await db.selectFrom("users").select("share_emails").where("id", "=", userId).executeTakeFirstOrThrow();
  return row.share_emails;
}

/** Turns share e-mails on or off (a missing user is a no-op). */
export async function setShareEmails(db: Database, userId: string, on: boolean): Promise<void> {
  await db.updateTable("users").set({ share_emails: on }).where("id", "=", userId).execute();
}
