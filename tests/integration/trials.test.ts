import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { sql } from "kysely";
import { spawnSync } from "node:child_process";
import { join, resolve } from "node:path";
import { APP_BACKENDS } from "../support/database.ts";
import { createTestApp, type TestApp, type TestUser } from "../support/app.ts";
import { decodeQuotedPrintable, startSmtpServer } from "../support/smtp.ts";
import { openDatabase } from "../../src/db/database.ts";
import { runJobsUntilIdle } from "../../src/jobs/worker.ts";
import { applicationSchedules, jobHandlers } from "../../src/job-registry.ts";
import { grantsReviewAccess, hasActiveReviewAccess } from "../../src/subscriptions/service.ts";
import { OperatorError, endPlan, grantPlan } from "../../src/subscriptions/operator.ts";
import {
  STRIPE_EVENT_RETENTION_MS,
  TRIAL_EMAIL_JOB,
  TRIAL_SWEEP_JOB,
  sweepTrials,
} from "../../src/subscriptions/trials.ts";

// The end of the free trial: access closes at trial_ends_at on the server even if no job ran; the sweep (a job the
// schedule enqueues, or `npm run subscription -- expire-trials`) marks trials expired and e-mails the user two days
// before and at the end, once each, through a real SMTP server. And the operator's grant and end.

const ROOT = resolve(import.meta.dir, "..", "..");
const DAY_MS = 24 * 60 * 60 * 1000;

for (const backend of APP_BACKENDS) {
  describe(`trial end (${backend})`, () => {
    let t: TestApp;
    let smtp: Awaited<ReturnType<typeof startSmtpServer>>;

    beforeAll(async () => {
      smtp = await startSmtpServer();
      t = await createTestApp(backend, { env: { SMTP_URL: smtp.url } });
    });
    afterAll(async () => {
      await t?.close();
      await smtp?.close();
    });
    beforeEach(async () => {
      // Each test sweeps its own trials only: older tests' trials are put out of the sweep's reach.
      await t.db.updateTable("subscriptions").set({ is_trial: false }).execute();
      await t.db.deleteFrom("jobs").execute();
      smtp.received.length = 0;
    });

    /** A user whose trial ends at `endsAt` (status still active, as nothing has looked at it yet). */
    const trialEnding = (endsAt: Date, extra: { is_active?: boolean } = {}) =>
      t.signup({
        ...extra,
        subscription: {
          status: "active",
          subscription_type: "plus",
          billing_interval: "annual",
          is_trial: true,
          trial_ends_at: endsAt,
          current_period_end: endsAt,
        },
      });

    const emailJobs = () =>
      t.db
        .selectFrom("jobs")
        .select(["kind", sql<string>`payload->>'userId'`.as("userId"), sql<string>`payload->>'kind'`.as("notice")])
        .where("kind", "=", TRIAL_EMAIL_JOB)
        .orderBy("id")
        .execute();

    const status = async (u: TestUser) =>
      (
        await t.db
          .selectFrom("subscriptions")
          .select("status")
          .where("user_id", "=", u.user.id)
          .executeTakeFirstOrThrow()
      ).status;

    test("access closes at trial_ends_at to the millisecond, with no job having run", async () => {
      const endsAt = new Date(Date.now() + 3 * DAY_MS);
      const u = await trialEnding(endsAt);
      expect(await hasActiveReviewAccess(t.db, u.user.id, new Date(endsAt.getTime() - 1))).toBe(true);
      expect(await hasActiveReviewAccess(t.db, u.user.id, endsAt)).toBe(false);
      // Stripe's own trials end when Stripe says, not at our clock.
      const row = await t.db
        .selectFrom("subscriptions")
        .selectAll()
        .where("user_id", "=", u.user.id)
        .executeTakeFirstOrThrow();
      expect(grantsReviewAccess({ ...row, status: "trialing" }, new Date(endsAt.getTime() + DAY_MS))).toBe(true);
    });

    test("a trial that ended a moment ago, never swept: reviews refused, both pages gated, stored still 'active'", async () => {
      const u = await trialEnding(new Date(Date.now() - 1));
      const review = (await (
        await t.app.request("/api/v1/literature_review/create", { method: "POST", headers: u.headers })
      ).json()) as { id: string };
      const start = await t.app.request(`/api/v1/literature_review/start/${review.id}?user_query=asthma`, {
        method: "POST",
        headers: u.headers,
      });
      expect(start.status).toBe(403);
      const cookie = { cookie: `access_token=${u.token}` };
      expect(await (await t.app.request("/literature_management", { headers: cookie })).text()).toContain(
        "Upgrade to Access Literature Reviews",
      );
      expect(await (await t.app.request("/suggestions", { headers: cookie })).text()).toContain(
        "Upgrade to Access Weekly Suggestions",
      );
      expect(await status(u)).toBe("active");
    });

    test("the sweep marks ended trials expired and queues the end e-mail once; the reminder two days before, once", async () => {
      const now = new Date();
      const ended = await trialEnding(new Date(now.getTime() - 60_000));
      const soon = await trialEnding(new Date(now.getTime() + 2 * DAY_MS - 60_000));
      const later = await trialEnding(new Date(now.getTime() + 2 * DAY_MS + 90_000));

      expect(await sweepTrials(t.deps, now)).toEqual({ expired: 1, reminders: 1, endNotices: 1 });
      expect(await status(ended)).toBe("trial_expired");
      expect(await status(soon)).toBe("active");
      expect(await emailJobs()).toEqual([
        { kind: TRIAL_EMAIL_JOB, userId: soon.user.id, notice: "ending" },
        { kind: TRIAL_EMAIL_JOB, userId: ended.user.id, notice: "ended" },
      ]);
      // Again, and again a minute later: nothing more.
      expect(await sweepTrials(t.deps, now)).toEqual({ expired: 0, reminders: 0, endNotices: 0 });
      expect(await sweepTrials(t.deps, new Date(now.getTime() + 60_000))).toEqual({
        expired: 0,
        reminders: 0,
        endNotices: 0,
      });
      // Two minutes on, the later trial is within two days.
      expect(await sweepTrials(t.deps, new Date(now.getTime() + 120_000))).toEqual({
        expired: 0,
        reminders: 1,
        endNotices: 0,
      });
      expect((await emailJobs()).map((j) => [j.userId, j.notice])).toContainEqual([later.user.id, "ending"]);
      // Once both have ended, their end notices, once.
      const atEnd = new Date(now.getTime() + 2 * DAY_MS + 90_000);
      expect(await sweepTrials(t.deps, atEnd)).toEqual({ expired: 2, reminders: 0, endNotices: 2 });
      expect(await sweepTrials(t.deps, atEnd)).toEqual({ expired: 0, reminders: 0, endNotices: 0 });
    });

    test("the e-mails are delivered over SMTP by the job, with the trial's end and a link to the plans", async () => {
      const endsAt = new Date(Date.UTC(2031, 0, 15, 9, 30));
      const u = await trialEnding(endsAt);
      await t.db.updateTable("users").set({ full_name: "Rosalind Franklin" }).where("id", "=", u.user.id).execute();
      await sweepTrials(t.deps, new Date(endsAt.getTime() - DAY_MS));
      await sweepTrials(t.deps, new Date(endsAt.getTime() + 1000));
      expect(await runJobsUntilIdle(t.deps, jobHandlers(t.deps))).toBe(2);
      expect(smtp.received.map((m) => m.to)).toEqual([[u.user.email], [u.user.email]]);
      const [ending, ended] = smtp.received.map((m) => decodeQuotedPrintable(m.raw).replace(/\r?\n/g, " "));
      expect(ending).toContain("Subject: Your LitReview trial ends in two days");
      expect(ending).toContain("Hello Rosalind Franklin,");
      expect(ending).toContain("Your free week of LitReview Plus ends on Wednesday, January 15, 2031 at 09:30 UTC.");
      expect(ending).toContain("http://localhost:3000/settings?tab=subscription");
      expect(ended).toContain("Subject: Your LitReview trial has ended");
      expect(ended).toContain("ended on Wednesday, January 15, 2031 at 09:30 UTC.");
      const jobs = await t.db.selectFrom("jobs").select("status").where("kind", "=", TRIAL_EMAIL_JOB).execute();
      expect(jobs.map((j) => j.status)).toEqual(["done", "done"]);
    });

    test("sweeps running at the same time queue each e-mail once", async () => {
      const now = new Date();
      const users = await Promise.all([0, 1, 2].map(() => trialEnding(new Date(now.getTime() - 1000))));
      const results = await Promise.all(Array.from({ length: 6 }, () => sweepTrials(t.deps, now)));
      expect(results.reduce((n, r) => n + r.endNotices, 0)).toBe(3);
      expect(results.reduce((n, r) => n + r.expired, 0)).toBe(3);
      const jobs = await emailJobs();
      expect(jobs.map((j) => j.userId).sort()).toEqual(users.map((u) => u.user.id).sort());
    });

    test("no e-mail for a trial converted to a paid plan, a deactivated or a deleted account; a trial found already ended gets only the end notice", async () => {
      const now = new Date();
      const converted = await trialEnding(new Date(now.getTime() + DAY_MS));
      await t.db
        .updateTable("subscriptions")
        .set({ is_trial: false, source: "stripe" })
        .where("user_id", "=", converted.user.id)
        .execute();
      await trialEnding(new Date(now.getTime() + DAY_MS), { is_active: false });
      const lateFound = await trialEnding(new Date(now.getTime() - 5 * DAY_MS));
      const deleted = await trialEnding(new Date(now.getTime() + DAY_MS));

      expect(await sweepTrials(t.deps, now)).toEqual({ expired: 1, reminders: 2, endNotices: 1 });
      expect((await emailJobs()).map((j) => [j.userId, j.notice])).toEqual([
        [deleted.user.id, "ending"],
        [lateFound.user.id, "ended"],
      ]);
      await t.db.deleteFrom("users").where("id", "=", deleted.user.id).execute();
      expect(await runJobsUntilIdle(t.deps, jobHandlers(t.deps))).toBe(2);
      expect(smtp.received.map((m) => m.to)).toEqual([[lateFound.user.email]]);
    });

    test("the minute schedule enqueues one sweep however many processes fire it; the sweep job sweeps", async () => {
      const schedule = applicationSchedules(t.deps).find((s) => s.name === "subscriptions.trials")!;
      expect(schedule.cron).toBe("* * * * *");
      for (let i = 0; i < 3; i++) await schedule.run(t.deps, new Date());
      const sweeps = await t.db.selectFrom("jobs").select("id").where("kind", "=", TRIAL_SWEEP_JOB).execute();
      expect(sweeps.length).toBe(1);
      const u = await trialEnding(new Date(Date.now() - 1000));
      expect(await runJobsUntilIdle(t.deps, jobHandlers(t.deps))).toBe(2); // the sweep, then the e-mail it queued
      expect(await status(u)).toBe("trial_expired");
      expect(smtp.received.length).toBe(1);
    });

    test("records of Stripe events are kept 30 days, then pruned by the daily job", async () => {
      await t.db
        .insertInto("stripe_events")
        .values([
          {
            id: "evt_old",
            type: "invoice.paid",
            stripe_created_at: new Date(),
            received_at: new Date(Date.now() - STRIPE_EVENT_RETENTION_MS - 60_000),
          },
          {
            id: "evt_recent",
            type: "invoice.paid",
            stripe_created_at: new Date(),
            received_at: new Date(Date.now() - STRIPE_EVENT_RETENTION_MS + 60_000),
          },
        ])
        .execute();
      const prune = applicationSchedules(t.deps).find((s) => s.name === "subscriptions.prune-stripe-events")!;
      await prune.run(t.deps, new Date());
      await runJobsUntilIdle(t.deps, jobHandlers(t.deps));
      const left = await t.db
        .selectFrom("stripe_events")
        .select("id")
        .where("id", "in", ["evt_old", "evt_recent"])
        .execute();
      expect(left.map((r) => r.id)).toEqual(["evt_recent"]);
    });
  });

  describe(`operator grant and end (${backend})`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(backend);
    });
    afterAll(async () => {
      await t?.close();
    });

    test("grant opens reviews at once; end closes them at once; both show in GET /subscriptions/me", async () => {
      const u = await t.signup({ subscription: "expired_trial" });
      expect(await hasActiveReviewAccess(t.db, u.user.id)).toBe(false);
      expect(await grantPlan(t.deps, u.user.email.toUpperCase(), "pro")).toMatchObject({
        status: "active",
        subscription_type: "pro",
        is_trial: false,
        current_period_end: null,
      });
      expect(await hasActiveReviewAccess(t.db, u.user.id)).toBe(true);
      const me = async () =>
        (await (await t.app.request("/api/v1/subscriptions/me", { headers: u.headers })).json()) as {
          status: string;
          subscription_type: string;
        };
      expect(await me()).toMatchObject({ status: "active", subscription_type: "pro" });

      const { subscription, warning } = await endPlan(t.deps, u.user.email);
      expect(subscription.status).toBe("canceled");
      expect(warning).toBeUndefined();
      expect(await hasActiveReviewAccess(t.db, u.user.id)).toBe(false);
      expect((await me()).status).toBe("canceled");
      // An account without a subscription row gets one.
      const none = await t.signup({ subscription: "none" });
      expect(await grantPlan(t.deps, none.user.email, "plus", "monthly")).toMatchObject({
        exists: true,
        status: "active",
        billing_interval: "monthly",
      });
    });

    test("unknown addresses and a missing subscription are refused with a message", async () => {
      await expect(grantPlan(t.deps, "nobody@example.com", "plus")).rejects.toThrow(OperatorError);
      const none = await t.signup({ subscription: "none" });
      await expect(endPlan(t.deps, none.user.email)).rejects.toThrow(`${none.user.email} has no subscription.`);
    });

    if (backend === "postgres") {
      const cli = (args: string[], databaseUrl: string) =>
        spawnSync(process.execPath, [join(ROOT, "scripts", "subscription.ts"), ...args], {
          cwd: ROOT,
          encoding: "utf8",
          timeout: 60_000,
          env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: "silent", STRIPE_SECRET_KEY: "" },
        });

      test("npm run subscription -- grant / end, from another process, hold at the running app's next request", async () => {
        const u = await t.signup({ subscription: "expired_trial" });
        const start = async () => {
          const review = (await (
            await t.app.request("/api/v1/literature_review/create", { method: "POST", headers: u.headers })
          ).json()) as { id: string };
          return (
            await t.app.request(`/api/v1/literature_review/start/${review.id}?user_query=sepsis`, {
              method: "POST",
              headers: u.headers,
            })
          ).status;
        };
        expect(await start()).toBe(403);

        const granted = cli(["grant", u.user.email, "max"], t.databaseUrl!);
        expect(granted.stderr).toBe("");
        expect(granted.status).toBe(0);
        expect(JSON.parse(granted.stdout)).toMatchObject({ status: "active", subscription_type: "max" });
        expect(await start()).toBe(200);

        const ended = cli(["end", u.user.email], t.databaseUrl!);
        expect(ended.status).toBe(0);
        expect(await start()).toBe(403);

        const bad = cli(["grant", u.user.email, "gold"], t.databaseUrl!);
        expect(bad.status).toBe(2);
        expect(bad.stderr).toContain("PLAN must be one of plus, pro, max");
        const unknown = cli(["end", "nobody@example.com"], t.databaseUrl!);
        expect(unknown.status).toBe(1);
        expect(unknown.stderr).toContain("No account has the address nobody@example.com.");
      });

      test("npm run subscription -- expire-trials sweeps and sends the e-mails due, for an external cron", async () => {
        const u = await t.signup({ subscription: "expired_trial" });
        // Another connection, as a separate process would have.
        const other = openDatabase({ databaseUrl: t.databaseUrl!, dataDir: "", poolSize: 1 });
        try {
          const run = cli(["expire-trials"], t.databaseUrl!);
          expect(run.status).toBe(0);
          const result = JSON.parse(run.stdout) as { expired: number; endNotices: number; emailJobsRun: number };
          expect(result.expired).toBeGreaterThanOrEqual(1);
          expect(result.emailJobsRun).toBe(result.endNotices + (result as unknown as { reminders: number }).reminders);
          const row = await other.db
            .selectFrom("subscriptions")
            .select(["status", "trial_ended_notice_at"])
            .where("user_id", "=", u.user.id)
            .executeTakeFirstOrThrow();
          expect(row.status).toBe("trial_expired");
          expect(row.trial_ended_notice_at).not.toBeNull();
          const outbox = await other.db
            .selectFrom("email_outbox")
            .select(["to", "subject"])
            .where("to", "=", u.user.email)
            .execute();
          expect(outbox).toEqual([{ to: u.user.email, subject: "Your LitReview trial has ended" }]);
        } finally {
          await other.close();
        }
      });
    }
  });
}
