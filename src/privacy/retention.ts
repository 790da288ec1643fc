import { sql } from "kysely";
import type { AppDeps } from "../deps.ts";
import type { Database } from "../db/database.ts";
import { enqueueEmail } from "../email/jobs.ts";
import { siteOrigin } from "../suggestions/digest.ts";
import { archiveBilling } from "./archive.ts";
import { deletionNoticeEmail } from "./emails.ts";
import { DELETION_NOTICE_DAYS, INACTIVE_ACCOUNT_DAYS, addDays } from "./policy.ts";

/**
 * The retention job of the privacy policy (docs/decisions/0035-retention-and-data-export.md), run daily on the durable
 * job queue and by `npm run retention`:
 *  1. an account without a login for INACTIVE_ACCOUNT_DAYS − DELETION_NOTICE_DAYS is told by e-mail when it will be
 *     deleted (once; a login clears the notice and restarts the clock);
 *  2. an account without a login for INACTIVE_ACCOUNT_DAYS, told at least DELETION_NOTICE_DAYS before, is deleted
 *     with everything it owns (the foreign keys cascade), after its billing records are archived (archive.ts);
 *  3. archives past their delete_after date are deleted.
 * Administrators (superusers) are never deleted by inactivity: the server must keep one; they are listed instead.
 * Every step re-checks its condition in the statement that acts, so a login between the plan and the act wins.
 */

/** Most accounts one run notifies or deletes per step; the next day's run goes on (bounded work per job). */
export const RETENTION_BATCH = 500;

/** What a run did, or (dry run) would do. */
export interface RetentionReport {
  notices: { userId: string; email: string; deleteOn: Date }[];
  deletions: { userId: string; email: string; lastActiveAt: Date }[];
  archivesDeleted: number;
  /** Inactive administrators, kept: an operator decides. */
  inactiveAdministrators: string[];
}

/**
 * Lists what the policy asks for at `now`, changing nothing.
 * @param now The clock (inject it in tests).
 */
export async function planRetention(db: Database, now: Date): Promise<RetentionReport> {
  const noticeBefore = addDays(now, -(INACTIVE_ACCOUNT_DAYS - DELETION_NOTICE_DAYS));
  const deleteBefore = addDays(now, -INACTIVE_ACCOUNT_DAYS);
  const noticedBefore = addDays(now, -DELETION_NOTICE_DAYS);
  const [toNotify, toDelete, archives, admins] = await Promise.all([
    db
      .selectFrom("users")
      .select(["id", "email", "last_active_at"])
      .where("is_superuser", "=", false)
      .where("last_active_at", "<", noticeBefore)
      .where("retention_notice_at", "is", null)
      .orderBy("last_active_at")
      .limit(RETENTION_BATCH)
      .execute(),
    db
      .selectFrom("users")
      .select(["id", "email", "last_active_at"])
      .where("is_superuser", "=", false)
      .where("last_active_at", "<", deleteBefore)
      .where("retention_notice_at", "<=", noticedBefore)
      .orderBy("last_active_at")
      .limit(RETENTION_BATCH)
      .execute(),
    db
      .selectFrom("account_archives")
      .select(sql<number>`count(*)::int`.as("n"))
      .where("delete_after", "<", now)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("users")
      .select("email")
      .where("is_superuser", "=", true)
      .where("last_active_at", "<", deleteBefore)
      .execute(),
  ]);
  return {
    notices: toNotify.map((u) => ({
      userId: u.id,
      email: u.email,
      deleteOn: deletionDate(new Date(u.last_active_at), now),
    })),
    deletions: toDelete.map((u) => ({ userId: u.id, email: u.email, lastActiveAt: new Date(u.last_active_at) })),
    archivesDeleted: Number(archives.n),
    inactiveAdministrators: admins.map((a) => a.email),
  };
}

/** The day an account last active at `lastActive` is deleted when told at `now`: never less than the notice period. */
export function deletionDate(lastActive: Date, now: Date): Date {
  const due = addDays(lastActive, INACTIVE_ACCOUNT_DAYS);
  const earliest = addDays(now, DELETION_NOTICE_DAYS);
  return new Date(Math.max(due.getTime(), earliest.getTime()));
}

/**
 * Applies the policy at `now`: queues the notices, deletes the accounts and the expired archives.
 * @returns what was done (a notice or deletion whose condition changed since the plan is left out).
 */
export async function applyRetention(
  deps: Pick<AppDeps, "db" | "jobs" | "config">,
  now: Date,
): Promise<RetentionReport> {
  const plan = await planRetention(deps.db, now);
  const done: RetentionReport = {
    notices: [],
    deletions: [],
    archivesDeleted: 0,
    inactiveAdministrators: plan.inactiveAdministrators,
  };
  const loginUrl = `${siteOrigin(deps.config)}/login`;
  for (const notice of plan.notices) {
    const sent = await deps.db.transaction().execute(async (trx) => {
      const marked = await trx
        .updateTable("users")
        .set({ retention_notice_at: now })
        .where("id", "=", notice.userId)
        .where("retention_notice_at", "is", null)
        .where("last_active_at", "<", addDays(now, -(INACTIVE_ACCOUNT_DAYS - DELETION_NOTICE_DAYS)))
        .executeTakeFirst();
      if (Number(marked.numUpdatedRows) === 0) return false;
      const message = deletionNoticeEmail({
        to: notice.email,
        deleteOn: notice.deleteOn,
        loginUrl,
        supportEmail: deps.config.SUPPORT_EMAIL,
      });
      await enqueueEmail(deps, message, { db: trx });
      return true;
    });
    if (sent) done.notices.push(notice);
  }
  if (done.notices.length > 0) deps.jobs.wake?.();
  for (const deletion of plan.deletions) {
    const deleted = await deps.db.transaction().execute(async (trx) => {
      // Locks the row and re-checks: a login since the plan keeps the account.
      const still = await trx
        .selectFrom("users")
        .select("id")
        .where("id", "=", deletion.userId)
        .where("is_superuser", "=", false)
        .where("last_active_at", "<", addDays(now, -INACTIVE_ACCOUNT_DAYS))
        .where("retention_notice_at", "<=", addDays(now, -DELETION_NOTICE_DAYS))
        .forUpdate()
        .executeTakeFirst();
      if (!still) return false;
      await archiveBilling(trx, deletion.userId, "inactive", now);
      await trx.deleteFrom("users").where("id", "=", deletion.userId).execute();
      return true;
    });
    if (deleted) done.deletions.push(deletion);
  }
  const purged = await deps.db.deleteFrom("account_archives").where("delete_after", "<", now).executeTakeFirst();
  done.archivesDeleted = Number(purged.numDeletedRows);
  return done;
}
