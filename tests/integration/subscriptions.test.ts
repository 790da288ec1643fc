import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { APP_BACKENDS } from "../support/database.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { hasActiveReviewAccess } from "../../src/subscriptions/service.ts";
import type { SubscriptionType } from "../../src/db/types.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

interface SubscriptionBody {
  exists: boolean;
  status: string | null;
  subscription_type: string | null;
  billing_interval: string | null;
  is_trial: boolean | null;
  trial_ends_at: string | null;
  current_period_end: string | null;
  cancel_at_period_end: boolean | null;
}

for (const backend of APP_BACKENDS) {
  describe(`subscriptions (${backend})`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(backend);
    });
    afterAll(async () => {
      await t?.close();
    });

    /** GET /subscriptions/me as this user. */
    async function mySubscription(headers: Record<string, string>): Promise<SubscriptionBody> {
      const res = await t.app.request("/api/v1/subscriptions/me", { headers });
      expect(res.status).toBe(200);
      return (await res.json()) as SubscriptionBody;
    }

    test("signing up starts a one-week Plus trial", async () => {
      const before = Date.now();
      const res = await t.app.request("/api/v1/users/signup", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "trial@example.com", full_name: "Tria Lee", password: "trial-password" }),
      });
      expect(res.status).toBe(200);
      const login = await t.app.request("/api/v1/login/access-token", {
        method: "POST",
        body: new URLSearchParams({ username: "trial@example.com", password: "trial-password" }),
      });
      const { access_token } = (await login.json()) as { access_token: string };

      const sub = await mySubscription({ authorization: `Bearer ${access_token}` });
      expect(sub).toMatchObject({
        exists: true,
        status: "active",
        subscription_type: "plus",
        billing_interval: "annual",
        is_trial: true,
        cancel_at_period_end: false,
      });
      const ends = Date.parse(sub.trial_ends_at!);
      expect(ends).toBeGreaterThanOrEqual(before + 7 * DAY_MS - 1000);
      expect(ends).toBeLessThanOrEqual(Date.now() + 7 * DAY_MS + 1000);
      expect(Date.parse(sub.current_period_end!)).toBe(ends);
    });

    test("a user without a subscription reads exists: false and nulls", async () => {
      const { headers } = await t.signup({ subscription: "none" });
      expect(await mySubscription(headers)).toEqual({
        exists: false,
        status: null,
        subscription_type: null,
        billing_interval: null,
        is_trial: null,
        trial_ends_at: null,
        current_period_end: null,
        cancel_at_period_end: null,
      });
    });

    test("a trial whose end has passed reads as trial_expired, and that is stored", async () => {
      const { user, headers } = await t.signup({ subscription: "expired_trial" });
      const sub = await mySubscription(headers);
      expect(sub.status).toBe("trial_expired");
      expect(sub.is_trial).toBe(true);
      const row = await t.db
        .selectFrom("subscriptions")
        .select("status")
        .where("user_id", "=", user.id)
        .executeTakeFirstOrThrow();
      expect(row.status).toBe("trial_expired");
      // Reading again keeps answering the same.
      expect((await mySubscription(headers)).status).toBe("trial_expired");
    });

    test("a paid subscription is shown as stored", async () => {
      const periodEnd = new Date(Date.now() + 300 * DAY_MS);
      const { headers } = await t.signup({
        subscription: {
          status: "active",
          subscription_type: "pro",
          billing_interval: "annual",
          is_trial: false,
          current_period_end: periodEnd,
          cancel_at_period_end: true,
        },
      });
      const sub = await mySubscription(headers);
      expect(sub).toMatchObject({
        exists: true,
        status: "active",
        subscription_type: "pro",
        is_trial: false,
        trial_ends_at: null,
        cancel_at_period_end: true,
      });
      expect(Date.parse(sub.current_period_end!)).toBe(periodEnd.getTime());
    });

    test("the subscription needs a signed-in user", async () => {
      const res = await t.app.request("/api/v1/subscriptions/me");
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ detail: "Could not validate credentials" });
    });

    test("the one-statement read of /me keeps every rule of the sign-in: logged-out tokens, deactivated accounts, older token versions", async () => {
      const loggedOut = await t.signup();
      expect(
        (await t.app.request("/api/v1/login/logout", { method: "POST", headers: loggedOut.headers })).status,
      ).toBeLessThan(300);
      const inactive = await t.signup();
      await t.db.updateTable("users").set({ is_active: false }).where("id", "=", inactive.user.id).execute();
      const changed = await t.signup();
      await t.db.updateTable("users").set({ token_version: 1 }).where("id", "=", changed.user.id).execute();
      for (const u of [loggedOut, inactive, changed]) {
        const res = await t.app.request("/api/v1/subscriptions/me", { headers: u.headers });
        expect(res.status).toBe(401);
        expect(res.headers.get("www-authenticate")).toBe("Bearer");
        expect(await res.json()).toEqual({ detail: "Could not validate credentials" });
      }
      const malformed = await t.app.request("/api/v1/subscriptions/me", {
        headers: { authorization: "Bearer not.a.token" },
      });
      expect(malformed.status).toBe(401);
    });

    test("review access: a running trial and active paid plans open it", async () => {
      const trial = await t.signup();
      expect(await hasActiveReviewAccess(t.db, trial.user.id)).toBe(true);
      for (const plan of ["plus", "pro", "max"] as const) {
        const paid = await t.signup({ subscription: { status: "active", subscription_type: plan, is_trial: false } });
        expect(await hasActiveReviewAccess(t.db, paid.user.id)).toBe(true);
      }
      // A trial converted to a paid plan keeps access although its trial end has passed.
      const converted = await t.signup({
        subscription: {
          status: "active",
          subscription_type: "plus",
          is_trial: false,
          trial_ends_at: new Date(Date.now() - DAY_MS),
        },
      });
      expect(await hasActiveReviewAccess(t.db, converted.user.id)).toBe(true);
    });

    test("review access: no subscription, an ended trial, or an inactive status keep it closed", async () => {
      const none = await t.signup({ subscription: "none" });
      expect(await hasActiveReviewAccess(t.db, none.user.id)).toBe(false);

      // Not yet marked trial_expired in the database: access is still refused.
      const lapsed = await t.signup({ subscription: "expired_trial" });
      expect(await hasActiveReviewAccess(t.db, lapsed.user.id)).toBe(false);

      for (const status of ["trial_expired", "past_due", "canceled"] as const) {
        const u = await t.signup({ subscription: { status, subscription_type: "plus", is_trial: false } });
        expect(await hasActiveReviewAccess(t.db, u.user.id)).toBe(false);
      }
      // A plan the types rule out but the text column admits (an operator's SQL could write it).
      const basic = "basic" as SubscriptionType;
      const unknownPlan = await t.signup({
        subscription: { status: "active", subscription_type: basic, is_trial: false },
      });
      expect(await hasActiveReviewAccess(t.db, unknownPlan.user.id)).toBe(false);
    });
  });
}
