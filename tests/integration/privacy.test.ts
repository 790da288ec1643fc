// Retention and "Download my data" (docs/decisions/0035-retention-and-data-export.md): the privacy policy's periods
// applied by the daily job with an injected clock, and the user's copy of her data, produced by a job, e-mailed as a
// link only she can open, until it expires.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { APP_BACKENDS } from "../support/database.ts";
import { createTestApp, type TestApp, type TestUser } from "../support/app.ts";
import { seedIndexedArticles } from "../support/articles.ts";
import { decodeQuotedPrintable, startSmtpServer } from "../support/smtp.ts";
import { applyRetention, planRetention } from "../../src/privacy/retention.ts";
import { produceDataExport } from "../../src/privacy/data-export.ts";
import { addDays } from "../../src/privacy/policy.ts";
import { replaceBatch } from "../../src/suggestions/repository.ts";

const NOW = new Date("2030-03-01T04:15:00Z");
const daysAgo = (n: number) => addDays(NOW, -n);

for (const backend of APP_BACKENDS) {
  describe(`privacy (${backend})`, () => {
    let t: TestApp;
    let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
    const mailsTo = (email: string) =>
      smtp.received.filter((m) => m.to.includes(email)).map((m) => decodeQuotedPrintable(m.raw));
    const setActive = (u: TestUser, at: Date) =>
      t.db.updateTable("users").set({ last_active_at: at }).where("id", "=", u.user.id).execute();
    const exists = async (u: TestUser) =>
      (await t.db.selectFrom("users").select("id").where("id", "=", u.user.id).executeTakeFirst()) !== undefined;

    beforeAll(async () => {
      smtp = await startSmtpServer();
      t = await createTestApp(backend, { env: { SMTP_URL: smtp.url } });
      await seedIndexedArticles(t, [
        { pmid: 93000001, title: "Sepsis bundles and mortality", date: "2020-01-01", mesh: ["Sepsis"] },
      ]);
    });
    afterAll(async () => {
      await t.close();
      await smtp.close();
    });

    test("an account inactive for 2 years is told 30 days before, once, then deleted with what it owns; billing is archived 5 years", async () => {
      const idle = await t.signup({ email: `idle-${backend}@example.com` });
      const recent = await t.signup();
      await setActive(idle, daysAgo(710));
      await setActive(recent, daysAgo(30));
      await t.app.request("/api/v1/likes/93000001", { method: "POST", headers: idle.headers });
      await t.db.insertInto("stripe_customers").values({ user_id: idle.user.id, customer_id: "cus_idle" }).execute();

      const plan = await planRetention(t.db, NOW);
      expect(plan.notices.map((n) => n.email)).toContain(idle.user.email);
      expect(plan.notices.map((n) => n.email)).not.toContain(recent.user.email);
      // Due 730 days after the last login: 20 days from now, but never less than the 30-day notice.
      expect(plan.notices.find((n) => n.email === idle.user.email)?.deleteOn).toEqual(addDays(NOW, 30));

      const first = await applyRetention(t.deps, NOW);
      expect(first.notices.map((n) => n.email)).toContain(idle.user.email);
      expect(first.deletions).toEqual([]);
      await t.runJobs();
      const notice = mailsTo(idle.user.email);
      expect(notice).toHaveLength(1);
      expect(notice[0]).toContain("Your inactive account will be deleted on 31 March 2030");
      expect(notice[0]).toContain("/login");
      // The next day's run does not tell her again, and nothing is deleted before the notice period ends.
      expect((await applyRetention(t.deps, addDays(NOW, 1))).notices.map((n) => n.email)).not.toContain(
        idle.user.email,
      );
      expect((await applyRetention(t.deps, addDays(NOW, 29))).deletions).toEqual([]);
      expect(await exists(idle)).toBe(true);

      const done = await applyRetention(t.deps, addDays(NOW, 30));
      expect(done.deletions.map((d) => d.email)).toEqual([idle.user.email]);
      expect(await exists(idle)).toBe(false);
      expect(await exists(recent)).toBe(true);
      expect(
        await t.db.selectFrom("likes").select("article_pmid").where("user_id", "=", idle.user.id).execute(),
      ).toEqual([]);
      const archive = await t.db
        .selectFrom("account_archives")
        .selectAll()
        .where("user_id", "=", idle.user.id)
        .executeTakeFirstOrThrow();
      expect(archive.reason).toBe("inactive");
      expect((archive.record as { payment_customer_id: string }).payment_customer_id).toBe("cus_idle");
      expect(new Date(archive.delete_after).toISOString()).toBe("2035-03-31T04:15:00.000Z");

      // Five years on, the archive goes too.
      expect((await applyRetention(t.deps, new Date("2035-03-30T00:00:00Z"))).archivesDeleted).toBe(0);
      expect((await applyRetention(t.deps, new Date("2035-04-01T00:00:00Z"))).archivesDeleted).toBeGreaterThanOrEqual(
        1,
      );
      expect(
        await t.db.selectFrom("account_archives").select("id").where("user_id", "=", idle.user.id).execute(),
      ).toEqual([]);
    });

    test("a login after the notice keeps the account; an administrator is never deleted for inactivity", async () => {
      const back = await t.signup();
      const admin = await t.signup({ is_superuser: true });
      await setActive(back, daysAgo(725));
      await setActive(admin, daysAgo(900));
      expect((await applyRetention(t.deps, NOW)).notices.map((n) => n.email)).toContain(back.user.email);
      const login = await t.app.request("/api/v1/login/access-token", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ username: back.user.email, password: back.password }),
      });
      expect(login.status).toBe(200);
      const row = await t.db
        .selectFrom("users")
        .select(["retention_notice_at", "last_active_at"])
        .where("id", "=", back.user.id)
        .executeTakeFirstOrThrow();
      expect(row.retention_notice_at).toBeNull();
      const later = await applyRetention(t.deps, addDays(NOW, 40));
      expect(later.deletions.map((d) => d.email)).not.toContain(back.user.email);
      expect(later.deletions.map((d) => d.email)).not.toContain(admin.user.email);
      expect(later.inactiveAdministrators).toContain(admin.user.email);
      expect(await exists(back)).toBe(true);
      expect(await exists(admin)).toBe(true);
    });

    test("deleting one's own account archives its billing, and a trial leaves no archive", async () => {
      const payer = await t.signup({
        subscription: {
          status: "active",
          subscription_type: "pro",
          is_trial: false,
          source: "stripe",
          stripe_subscription_id: `sub_${backend}_payer`,
          stripe_customer_id: "cus_payer",
        },
      });
      const trial = await t.signup();
      for (const u of [payer, trial])
        expect((await t.app.request("/api/v1/users/me", { method: "DELETE", headers: u.headers })).status).toBe(200);
      const archives = await t.db
        .selectFrom("account_archives")
        .select(["user_id", "reason"])
        .where("user_id", "in", [payer.user.id, trial.user.id])
        .execute();
      expect(archives).toEqual([{ user_id: payer.user.id, reason: "account_deleted" }]);
    });

    test("Download my data: queued once a day, e-mailed as a link, one JSON file only its owner can open, until it expires", async () => {
      const owner = await t.signup({ description: "sepsis outcomes" });
      const other = await t.signup();
      await t.app.request("/api/v1/likes/93000001", { method: "POST", headers: owner.headers });
      await t.db
        .insertInto("literature_reviews")
        .values({
          user_id: owner.user.id,
          user_query: "sepsis bundles",
          status: "complete",
          summary: "Bundles help [1].",
        })
        .execute();
      // A week of suggestions and a login network for each user: the file holds the owner's only.
      const sections = (pmid: number) => ({
        new_weekly_articles: [],
        new_yearly_articles: [],
        pertinent_articles: [{ pmid, reason: "Matches your interest: sepsis outcomes", signal: "interest" as const }],
        disruptive_articles: [],
      });
      const summaries = {
        new_weekly_articles: null,
        new_yearly_articles: null,
        pertinent_articles: "Sepsis bundles lower mortality [1].",
        disruptive_articles: null,
      };
      await replaceBatch(t.db, { userId: owner.user.id, week: "2026-W48", sections: sections(93000001), summaries });
      await replaceBatch(t.db, { userId: other.user.id, week: "2026-W48", sections: sections(93000001), summaries });
      await t.db
        .insertInto("known_login_clients")
        .values([
          { user_id: owner.user.id, client_key: "192.0.2.10" },
          { user_id: other.user.id, client_key: "198.51.100.7" },
        ])
        .execute();

      const asked = await t.app.request("/api/v1/privacy/data-export", { method: "POST", headers: owner.headers });
      expect(asked.status).toBe(202);
      const body = (await asked.json()) as { id: string; status: string; message: string };
      expect(body.status).toBe("queued");
      expect(body.message).toBe(
        "We are preparing a copy of your data. You will receive an e-mail with a download link.",
      );
      // Before the job ran: "being prepared", not a file.
      const early = await t.app.request(`/api/v1/privacy/data-export/${body.id}`, { headers: owner.headers });
      expect(early.status).toBe(409);
      // Asking again the same day returns the same export.
      const again = (await (
        await t.app.request("/api/v1/privacy/data-export", { method: "POST", headers: owner.headers })
      ).json()) as { id: string };
      expect(again.id).toBe(body.id);

      await t.runJobs();
      await t.runJobs();
      const mail = mailsTo(owner.user.email).find((m) => m.includes("Your data is ready to download"));
      expect(mail).toBeDefined();
      // The e-mail links to the download page, which a browser can open signed out (issue 35).
      const link = /https?:\/\/\S+\/my-data\/[0-9a-f-]{36}/.exec(mail!)?.[0];
      expect(link).toBeDefined();
      const page = new URL(link!).pathname;
      expect(page).toBe(`/my-data/${body.id}`);
      const path = `/api/v1/privacy/data-export/${body.id}`;
      const signedOut = await t.app.request(page);
      expect(signedOut.status).toBe(302);
      expect(signedOut.headers.get("location")).toBe(`/login?next=${encodeURIComponent(page)}`);
      const ownPage = await t.app.request(page, { headers: { cookie: `access_token=${owner.token}` } });
      expect(ownPage.status).toBe(200);
      expect(await ownPage.text()).toContain(`href="${path}"`);
      const otherPage = await t.app.request(page, { headers: { cookie: `access_token=${other.token}` } });
      expect(otherPage.status).toBe(403);
      const otherText = await otherPage.text();
      expect(otherText).toContain("This download link belongs to another account.");
      expect(otherText).not.toContain("expired");

      const file = await t.app.request(path, { headers: owner.headers });
      expect(file.status).toBe(200);
      expect(file.headers.get("content-disposition")).toContain("attachment");
      const data = (await file.json()) as Record<string, unknown> & {
        account: Record<string, unknown>;
        reviews: { user_query: string }[];
        likes: { pmid: number }[];
      };
      expect(data.account.email).toBe(owner.user.email);
      expect(data.account).not.toHaveProperty("hashed_password");
      expect(data.interests).toBe("sepsis outcomes");
      expect(data.reviews.map((r) => r.user_query)).toEqual(["sepsis bundles"]);
      expect(data.likes.map((l) => l.pmid)).toEqual([93000001]);
      for (const key of ["subscriptions", "shares_sent", "shares_received"])
        expect(Array.isArray(data[key])).toBe(true);
      expect(data.weekly_suggestions).toEqual([
        expect.objectContaining({
          week: "2026-W48",
          pertinent_articles_summary: "Sepsis bundles lower mortality [1].",
          articles: [
            {
              section: "pertinent_articles",
              rank: 0,
              pmid: 93000001,
              reason: "Matches your interest: sepsis outcomes",
            },
          ],
        }),
      ]);
      const networks = (data.login_networks as { network: string }[]).map((n) => n.network);
      expect(networks).toContain("192.0.2.10");
      expect(networks).not.toContain("198.51.100.7");

      // Another account is told the link is not theirs, not that it expired.
      const foreign = await t.app.request(path, { headers: other.headers });
      expect(foreign.status).toBe(403);
      expect(await foreign.json()).toEqual({
        detail: "This download link belongs to another account. Sign in as the account the e-mail was sent to.",
      });
      expect(await (await t.app.request(path, { headers: other.headers })).text()).not.toContain("expired");
      // Signed out: an API client gets the 401; a browser opening an older e-mail's link to the file is sent to the
      // download page (and from there through the login), not shown raw JSON.
      expect((await t.app.request(path)).status).toBe(401);
      const browser = await t.app.request(path, {
        headers: { accept: "text/html,application/xhtml+xml,*/*;q=0.8", "sec-fetch-mode": "navigate" },
      });
      expect(browser.status).toBe(302);
      expect(browser.headers.get("location")).toBe(page);
      await t.db
        .updateTable("data_exports")
        .set({ expires_at: addDays(new Date(), -1) })
        .where("id", "=", body.id)
        .execute();
      const expired = await t.app.request(path, { headers: owner.headers });
      expect(expired.status).toBe(404);
      expect(((await expired.json()) as { detail: string }).detail).toContain("expired");
    });

    test("the job does nothing for an export already produced (a retried job sends no second e-mail)", async () => {
      const u = await t.signup();
      const { id } = (await (
        await t.app.request("/api/v1/privacy/data-export", { method: "POST", headers: u.headers })
      ).json()) as { id: string };
      await t.runJobs();
      await t.runJobs();
      await produceDataExport(t.deps, id, new Date());
      await t.runJobs();
      expect(mailsTo(u.user.email).filter((m) => m.includes("Your data is ready"))).toHaveLength(1);
    });

    if (backend === "postgres") {
      test("npm run retention -- --dry-run prints what is due and changes nothing", async () => {
        const idle = await t.signup({ email: `dry-run-${Date.now()}@example.com` });
        await setActive(idle, new Date("2028-01-01T00:00:00Z"));
        const proc = Bun.spawn(
          [process.execPath, "scripts/retention.ts", "--dry-run", "--now", "2030-01-15T00:00:00Z"],
          {
            cwd: `${import.meta.dir}/../..`,
            env: { ...process.env, DATABASE_URL: t.databaseUrl!, SECRET_KEY: "x".repeat(40), LOG_LEVEL: "warn" },
            stdout: "pipe",
          },
        );
        const out = await new Response(proc.stdout).text();
        expect(await proc.exited).toBe(0);
        expect(out).toContain("dry run: nothing changed");
        expect(out).toContain(`${idle.user.email}: deletion on 2030-02-14`);
        const row = await t.db
          .selectFrom("users")
          .select("retention_notice_at")
          .where("id", "=", idle.user.id)
          .executeTakeFirstOrThrow();
        expect(row.retention_notice_at).toBeNull();
      }, 60_000);
    }
  });
}
