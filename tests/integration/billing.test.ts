import { afterAll, beforeAll, beforeEach, describe, expect, spyOn, test } from "bun:test";
import { sql } from "kysely";
import { APP_BACKENDS } from "../support/database.ts";
import { createTestApp, type TestApp, type TestUser } from "../support/app.ts";
import { startStripeStandIn, type StripeStandIn } from "../support/stripe-stand-in.ts";
import { clearPriceCache } from "../../src/subscriptions/prices.ts";
import { hasActiveReviewAccess } from "../../src/subscriptions/service.ts";
import { endPlan, grantPlan } from "../../src/subscriptions/operator.ts";
import { USER_JOB } from "../../src/suggestions/queueing.ts";
import { createApp } from "../../src/app.ts";
import { openDatabase } from "../../src/db/database.ts";

// Billing against the real stripe SDK, pointed at a local stand-in of Stripe's API (tests/support/stripe-stand-in.ts),
// with webhook deliveries signed by the SDK's generateTestHeaderStringAsync. Every call and state of issue 10, on
// PGlite and PostgreSQL.

const SITE = "http://localhost:3000";
const RETURN = {
  success_url: `${SITE}/settings?tab=subscription&subscription_checkout=success`,
  cancel_url: `${SITE}/settings?tab=subscription&subscription_checkout=cancel`,
};
const NOT_CONFIGURED = { detail: "Payments are not configured on this server." };

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

const post = (body: unknown, headers: Record<string, string>): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/json", ...headers },
  body: JSON.stringify(body),
});

for (const backend of APP_BACKENDS) {
  describe(`billing with Stripe (${backend})`, () => {
    let t: TestApp;
    let stripe: StripeStandIn;

    beforeAll(async () => {
      stripe = startStripeStandIn();
      t = await createTestApp(backend, { env: stripe.env });
      stripe.deliver = (body, headers) =>
        t.app.request("/api/v1/subscriptions/webhook", { method: "POST", body, headers });
    });
    afterAll(async () => {
      await stripe?.stop();
      await t?.close();
    });
    beforeEach(() => {
      // Each test starts with Stripe's current prices, not a list cached by an earlier test.
      clearPriceCache(t.deps.config);
      expect(stripe.unexpected).toEqual([]);
    });

    async function me(user: TestUser): Promise<SubscriptionBody> {
      const res = await t.app.request("/api/v1/subscriptions/me", { headers: user.headers });
      expect(res.status).toBe(200);
      return (await res.json()) as SubscriptionBody;
    }

    const row = (userId: string) =>
      t.db.selectFrom("subscriptions").selectAll().where("user_id", "=", userId).executeTakeFirstOrThrow();

    async function checkout(user: TestUser, body: Record<string, unknown> = {}): Promise<Response> {
      return t.app.request(
        "/api/v1/subscriptions/checkout",
        post({ subscription_type: "plus", billing_interval: "annual", ...RETURN, ...body }, user.headers),
      );
    }

    /**
     * Subscribes through the real flow: checkout, the payment page, Stripe's events. @returns Stripe's subscription id.
     */
    async function subscribe(user: TestUser): Promise<string> {
      const res = await checkout(user);
      expect(res.status).toBe(200);
      const { checkout_url } = (await res.json()) as { checkout_url: string };
      const sessionId = checkout_url.split("/").at(-1)!;
      const { subscription, events } = stripe.completeCheckout(sessionId, { deliver: false });
      for (const e of events) expect((await stripe.send(e)).status).toBe(200);
      return subscription.id as string;
    }

    const eventCount = async (id: string) =>
      (
        await t.db
          .selectFrom("stripe_events")
          .select(sql<number>`count(*)::int`.as("n"))
          .where("id", "=", id)
          .executeTakeFirstOrThrow()
      ).n;

    // ---- prices ------------------------------------------------------------------------------------------------

    test("prices come from Stripe by lookup key, in dollars, null where Stripe has none", async () => {
      const res = await t.app.request("/api/v1/subscriptions/prices");
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({
        individual: {
          plus: { monthly: { unit_amount: 8.99 }, annual: { unit_amount: 89.88 } },
          pro: { monthly: null, annual: { unit_amount: 179.88 } },
          max: { monthly: null, annual: null },
        },
        payments_available: true,
      });
      const asked = stripe.requests.filter((r) => r.path === "/v1/prices").at(-1)!;
      expect(asked.params.active).toBe("true");
      expect(asked.params.lookup_keys).toEqual(
        expect.arrayContaining([
          "litreview_plus_annual",
          "litreview_pro_annual",
          "litreview_max_annual",
          "litreview_plus_monthly",
        ]),
      );
    });

    test("prices are cached an hour: many calls, even at once, ask Stripe once", async () => {
      const before = stripe.requests.filter((r) => r.path === "/v1/prices").length;
      const answers = await Promise.all(Array.from({ length: 8 }, () => t.app.request("/api/v1/subscriptions/prices")));
      for (const a of answers) expect(a.status).toBe(200);
      await t.app.request("/api/v1/subscriptions/prices");
      expect(stripe.requests.filter((r) => r.path === "/v1/prices").length).toBe(before + 1);
    });

    test("a price whose interval does not match its lookup key is not offered", async () => {
      const wrong = stripe.addPrice("litreview_max_annual", 100, {
        recurring: { interval: "month", interval_count: 1, usage_type: "licensed" },
      });
      try {
        const body = (await (await t.app.request("/api/v1/subscriptions/prices")).json()) as {
          individual: { max: { annual: unknown } };
        };
        expect(body.individual.max.annual).toBeNull();
      } finally {
        stripe.prices.delete(wrong.id);
      }
    });

    test("Stripe unreachable and nothing cached: prices answer 502; a cached list is served through a failure", async () => {
      const errors = spyOn(console, "error").mockImplementation(() => {});
      try {
        for (let i = 0; i < 3; i++) stripe.failNext("GET /v1/prices", 500); // the SDK retries twice
        const res = await t.app.request("/api/v1/subscriptions/prices");
        expect(res.status).toBe(502);
        expect(await res.json()).toEqual({
          detail: "The payment provider could not be reached. Please try again later.",
        });
        expect((await t.app.request("/api/v1/subscriptions/prices")).status).toBe(200);
      } finally {
        errors.mockRestore();
      }
    });

    // ---- checkout ----------------------------------------------------------------------------------------------

    test("checkout creates the customer once and a subscription-mode session for the Plus annual price", async () => {
      const user = await t.signup();
      const res = await checkout(user);
      expect(res.status).toBe(200);
      const { checkout_url } = (await res.json()) as { checkout_url: string };
      expect(checkout_url.startsWith(`${stripe.url}/c/pay/cs_test_`)).toBe(true);

      const customerCalls = stripe.requests.filter((r) => r.path === "/v1/customers");
      const created = customerCalls.at(-1)!;
      expect(created.params).toMatchObject({ email: user.user.email, metadata: { user_id: user.user.id } });
      expect(created.idempotencyKey).toBe(`litreview-customer-${user.user.id}`);
      const session = stripe.requests.filter((r) => r.path === "/v1/checkout/sessions").at(-1)!;
      const customerId = (
        await t.db
          .selectFrom("stripe_customers")
          .select("customer_id")
          .where("user_id", "=", user.user.id)
          .executeTakeFirstOrThrow()
      ).customer_id;
      expect(session.params).toEqual({
        mode: "subscription",
        customer: customerId,
        line_items: [{ price: stripe.priceByLookupKey("litreview_plus_annual")!.id, quantity: "1" }],
        success_url: RETURN.success_url,
        cancel_url: RETURN.cancel_url,
        client_reference_id: user.user.id,
        metadata: { user_id: user.user.id },
        subscription_data: { metadata: { user_id: user.user.id } },
      });

      // A second checkout reuses the customer.
      expect((await checkout(user)).status).toBe(200);
      expect(stripe.requests.filter((r) => r.path === "/v1/customers").length).toBe(customerCalls.length);
      expect(stripe.requests.filter((r) => r.path === "/v1/checkout/sessions").at(-1)!.params.customer).toBe(
        customerId,
      );
      // Nothing changed on our side: only Stripe's webhook changes the subscription.
      expect(await me(user)).toMatchObject({ status: "active", is_trial: true });
    });

    test("two first checkouts at once make one Stripe customer", async () => {
      const user = await t.signup();
      const before = stripe.customers.size;
      const answers = await Promise.all([checkout(user), checkout(user), checkout(user)]);
      for (const a of answers) expect(a.status).toBe(200);
      expect(stripe.customers.size).toBe(before + 1);
      const rows = await t.db.selectFrom("stripe_customers").selectAll().where("user_id", "=", user.user.id).execute();
      expect(rows.length).toBe(1);
    });

    test("paying turns the trial into the paid plan, from Stripe's events only", async () => {
      const user = await t.signup();
      const res = await checkout(user);
      const { checkout_url } = (await res.json()) as { checkout_url: string };
      // The browser coming back to success_url, without Stripe's word, changes nothing.
      const back = await t.app.request(RETURN.success_url.replace(SITE, ""), { headers: user.headers });
      expect(back.status).toBeLessThan(400);
      expect(await me(user)).toMatchObject({ status: "active", is_trial: true });

      const { subscription, events } = stripe.completeCheckout(checkout_url.split("/").at(-1)!, { deliver: false });
      expect(events.map((e) => e.type)).toEqual([
        "customer.subscription.created",
        "invoice.paid",
        "checkout.session.completed",
      ]);
      for (const e of events) expect(await (await stripe.send(e)).json()).toEqual({ received: true });

      const sub = await me(user);
      expect(sub).toMatchObject({
        exists: true,
        status: "active",
        subscription_type: "plus",
        billing_interval: "annual",
        is_trial: false,
        cancel_at_period_end: false,
      });
      expect(Date.parse(sub.current_period_end!)).toBe(subscription.items.data[0].current_period_end * 1000);
      const stored = await row(user.user.id);
      expect(stored.source).toBe("stripe");
      expect(stored.stripe_subscription_id).toBe(subscription.id);
      expect(await hasActiveReviewAccess(t.db, user.user.id)).toBe(true);
    });

    test("a returning subscriber's first payment queues this week's suggestions at once; a trial turning paid does not", async () => {
      const userJobs = async (userId: string) =>
        (await t.db.selectFrom("jobs").select("payload").where("kind", "=", USER_JOB).execute()).filter(
          (j) => (j.payload as { userId?: string }).userId === userId,
        );
      const returning = await t.signup({ subscription: "expired_trial", description: "sepsis" });
      await subscribe(returning);
      expect((await userJobs(returning.user.id)).map((j) => j.payload)).toEqual([
        { userId: returning.user.id, replace: false },
      ]);
      // Still in the trial (access already open): the weekly run takes care of it.
      const trialing = await t.signup({ description: "sepsis" });
      await subscribe(trialing);
      expect(await userJobs(trialing.user.id)).toEqual([]);
    });

    test("the checkout.session.completed event alone is enough (events arrive in any order)", async () => {
      const user = await t.signup({ subscription: "expired_trial" });
      const res = await checkout(user);
      const { checkout_url } = (await res.json()) as { checkout_url: string };
      const { events } = stripe.completeCheckout(checkout_url.split("/").at(-1)!, { deliver: false });
      expect((await stripe.send(events.find((e) => e.type === "checkout.session.completed")!)).status).toBe(200);
      expect(await me(user)).toMatchObject({ status: "active", is_trial: false, subscription_type: "plus" });
    });

    test("checkout refuses what is not on sale, foreign return addresses, and bad input", async () => {
      const user = await t.signup();
      const expectDetail = async (res: Response, status: number, detail: string) => {
        expect(res.status).toBe(status);
        expect(((await res.json()) as { detail: string }).detail).toBe(detail);
      };
      await expectDetail(await checkout(user, { subscription_type: "pro" }), 400, "This plan cannot be purchased yet.");
      await expectDetail(await checkout(user, { subscription_type: "max" }), 400, "This plan cannot be purchased yet.");
      await expectDetail(
        await checkout(user, { billing_interval: "monthly" }),
        400,
        "Only annual billing is available.",
      );
      await expectDetail(
        await checkout(user, { success_url: "https://evil.example/phish" }),
        400,
        "success_url and cancel_url must be addresses of this site.",
      );
      await expectDetail(
        await checkout(user, { cancel_url: "http://localhost:3001/settings" }),
        400,
        "success_url and cancel_url must be addresses of this site.",
      );
      for (const bad of [
        { subscription_type: "gold" },
        { billing_interval: "weekly" },
        { success_url: "not a url" },
        { cancel_url: "javascript:alert(1)" },
      ]) {
        expect((await checkout(user, bad)).status).toBe(422);
      }
      expect(
        (await t.app.request("/api/v1/subscriptions/checkout", post({ subscription_type: "plus" }, user.headers)))
          .status,
      ).toBe(422);
      expect(
        (
          await t.app.request(
            "/api/v1/subscriptions/checkout",
            post({ subscription_type: "plus", billing_interval: "annual", ...RETURN }, {}),
          )
        ).status,
      ).toBe(401);
    });

    test("someone already paying for the plan gets 409; an administrator's grant too", async () => {
      const paying = await t.signup();
      await subscribe(paying);
      const again = await checkout(paying);
      expect(again.status).toBe(409);
      expect(await again.json()).toEqual({ detail: "You are already subscribed to this plan." });

      const granted = await t.signup();
      await grantPlan(t.deps, granted.user.email, "pro");
      const res = await checkout(granted);
      expect(res.status).toBe(409);
      expect(await res.json()).toEqual({
        detail: "Your plan was set up by an administrator. Please contact support to change it.",
      });
    });

    test("switching billing of a live Stripe subscription changes its price instead of starting a second one", async () => {
      const user = await t.signup();
      // A Plus monthly subscription (as an older offer sold them), mirrored through the webhook.
      const customer = stripe.addCustomer(user.user.email);
      await t.db.insertInto("stripe_customers").values({ user_id: user.user.id, customer_id: customer.id }).execute();
      const monthly = stripe.createSubscription(customer.id, stripe.priceByLookupKey("litreview_plus_monthly")!.id, {
        metadata: { user_id: user.user.id },
      });
      expect((await stripe.send(stripe.event("customer.subscription.created", monthly))).status).toBe(200);
      expect(await me(user)).toMatchObject({ subscription_type: "plus", billing_interval: "monthly", is_trial: false });
      const sessionsBefore = stripe.sessions.size;

      const res = await checkout(user);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ checkout_url: RETURN.success_url });
      expect(stripe.sessions.size).toBe(sessionsBefore);
      const update = stripe.requests
        .filter((r) => r.method === "POST" && r.path === `/v1/subscriptions/${monthly.id}`)
        .at(-1)!;
      expect(update.params).toEqual({
        items: [{ id: monthly.items.data[0].id, price: stripe.priceByLookupKey("litreview_plus_annual")!.id }],
        cancel_at_period_end: "false",
        proration_behavior: "create_prorations",
      });
      expect(await me(user)).toMatchObject({ subscription_type: "plus", billing_interval: "annual", status: "active" });
      await stripe.settle();
    });

    test("without STRIPE_SECRET_KEY: checkout and cancel answer 503, prices are all missing and payments unavailable, trials still work", async () => {
      const plain = await createTestApp(backend);
      try {
        const user = await plain.signup();
        const res = await plain.app.request(
          "/api/v1/subscriptions/checkout",
          post({ subscription_type: "plus", billing_interval: "annual", ...RETURN }, user.headers),
        );
        expect(res.status).toBe(503);
        expect(await res.json()).toEqual(NOT_CONFIGURED);
        const cancel = await plain.app.request("/api/v1/subscriptions/cancel", {
          method: "POST",
          headers: user.headers,
        });
        expect(cancel.status).toBe(503);
        expect(await cancel.json()).toEqual(NOT_CONFIGURED);
        expect(await (await plain.app.request("/api/v1/subscriptions/prices")).json()).toEqual({
          individual: {
            plus: { monthly: null, annual: null },
            pro: { monthly: null, annual: null },
            max: { monthly: null, annual: null },
          },
          // Said once on the plans, and the checkout buttons are disabled, rather than each failing (issue 24).
          payments_available: false,
        });
        expect(await hasActiveReviewAccess(plain.db, user.user.id)).toBe(true);
      } finally {
        await plain.close();
      }
    });

    // ---- cancel ------------------------------------------------------------------------------------------------

    test("cancel sets cancel at period end at Stripe (not an immediate cancel); the plan stays active until then", async () => {
      const user = await t.signup();
      const subId = await subscribe(user);
      await stripe.settle();
      const updatedEvents = () =>
        t.db.selectFrom("stripe_events").select("id").where("type", "=", "customer.subscription.updated").execute();
      const updatedBefore = (await updatedEvents()).length;
      const res = await t.app.request("/api/v1/subscriptions/cancel", { method: "POST", headers: user.headers });
      expect(res.status).toBe(200);
      const body = (await res.json()) as SubscriptionBody;
      expect(body).toMatchObject({ status: "active", cancel_at_period_end: true, is_trial: false });
      const calls = stripe.requests.filter((r) => r.path === `/v1/subscriptions/${subId}` && r.method !== "GET");
      expect(calls.map((c) => [c.method, c.params])).toEqual([["POST", { cancel_at_period_end: "true" }]]);
      expect(await hasActiveReviewAccess(t.db, user.user.id)).toBe(true);
      // Stripe's own customer.subscription.updated follows and changes nothing. It is delivered in the background,
      // so it may already be processed here: the revision read now is the cancel's or the event's.
      const revision = (await row(user.user.id)).revision;
      await stripe.settle();
      const after = await row(user.user.id);
      expect(after.cancel_at_period_end).toBe(true);
      // The event's "unchanged" decision is committed (recorded, revision bumped once) and nothing else moved.
      expect((await updatedEvents()).length).toBe(updatedBefore + 1);
      expect([revision, revision + 1]).toContain(after.revision);
      expect(await me(user)).toEqual(body);

      // At the period end Stripe deletes it: canceled, access closed.
      stripe.updateSubscription(subId, { status: "canceled", ended_at: Math.floor(Date.now() / 1000) });
      expect(
        (await stripe.send(stripe.event("customer.subscription.deleted", stripe.subscriptions.get(subId)!))).status,
      ).toBe(200);
      expect(await me(user)).toMatchObject({ status: "canceled" });
      expect(await hasActiveReviewAccess(t.db, user.user.id)).toBe(false);
    });

    test("cancel without a paid subscription is 400 and asks Stripe nothing", async () => {
      const before = stripe.requests.length;
      for (const subscription of ["trial", "expired_trial", "none"] as const) {
        const user = await t.signup({ subscription });
        const res = await t.app.request("/api/v1/subscriptions/cancel", { method: "POST", headers: user.headers });
        expect(res.status).toBe(400);
        expect(await res.json()).toEqual({ detail: "You have no paid subscription to cancel." });
      }
      expect(stripe.requests.length).toBe(before);
      expect((await t.app.request("/api/v1/subscriptions/cancel", { method: "POST" })).status).toBe(401);
    });

    // ---- webhook -----------------------------------------------------------------------------------------------

    async function deliverRaw(body: string, headers: Record<string, string>): Promise<Response> {
      return t.app.request("/api/v1/subscriptions/webhook", { method: "POST", body, headers });
    }

    test("a delivery as Stripe sends it passes the cross-site check and is applied", async () => {
      const user = await t.signup();
      const subId = await subscribe(user);
      stripe.updateSubscription(subId, { status: "past_due" });
      const { body, headers } = await stripe.signed(
        stripe.event("invoice.payment_failed", stripe.invoiceOf(stripe.subscriptions.get(subId)!, "open")),
      );
      // Exactly Stripe's headers: no Origin, no Sec-Fetch-Site, no cookie, a body read in chunks with no length.
      const stream = new ReadableStream({
        start(controller) {
          const bytes = new TextEncoder().encode(body);
          for (let i = 0; i < bytes.length; i += 100) controller.enqueue(bytes.slice(i, i + 100));
          controller.close();
        },
      });
      const res = await t.app.request("/api/v1/subscriptions/webhook", {
        method: "POST",
        headers,
        body: stream,
        duplex: "half",
      } as RequestInit);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ received: true });
      expect(await me(user)).toMatchObject({ status: "past_due" });
      expect(await hasActiveReviewAccess(t.db, user.user.id)).toBe(false);

      // Paid later: active again.
      stripe.updateSubscription(subId, { status: "active" });
      expect(
        (await stripe.send(stripe.event("invoice.paid", stripe.invoiceOf(stripe.subscriptions.get(subId)!, "paid"))))
          .status,
      ).toBe(200);
      expect(await me(user)).toMatchObject({ status: "active" });
    });

    test("a large event (over the 64 KB default body limit) is accepted", async () => {
      const user = await t.signup();
      const subId = await subscribe(user);
      const invoice = {
        ...stripe.invoiceOf(stripe.subscriptions.get(subId)!, "paid"),
        lines: {
          object: "list",
          data: Array.from({ length: 400 }, (_, i) => ({ id: `il_${i}`, description: "x".repeat(300) })),
        },
      };
      const event = stripe.event("invoice.paid", invoice);
      const { body } = await stripe.signed(event);
      expect(body.length).toBeGreaterThan(100_000);
      expect((await stripe.send(event)).status).toBe(200);
    });

    test("bad signatures, old timestamps and a missing header are 400 and change nothing", async () => {
      const user = await t.signup();
      const subId = await subscribe(user);
      stripe.updateSubscription(subId, { status: "canceled", ended_at: Math.floor(Date.now() / 1000) });
      const event = stripe.event("customer.subscription.deleted", stripe.subscriptions.get(subId)!);
      const good = await stripe.signed(event);
      const cases: [string, Record<string, string>, string][] = [
        ["wrong secret", (await stripe.signed(event, { secret: "whsec_someone_else" })).headers, good.body],
        [
          "timestamp 301 s old",
          (await stripe.signed(event, { timestamp: Math.floor(Date.now() / 1000) - 301 })).headers,
          good.body,
        ],
        ["body changed after signing", good.headers, good.body.replace('"canceled"', '"active"')],
        ["garbage header", { ...good.headers, "stripe-signature": "t=1,v1=abc" }, good.body],
      ];
      for (const [what, headers, body] of cases) {
        const res = await deliverRaw(body, headers);
        expect(res.status, what).toBe(400);
        expect(await res.json()).toEqual({ detail: "Invalid Stripe signature" });
      }
      const { "stripe-signature": _s, ...unsigned } = good.headers;
      const missing = await deliverRaw(good.body, unsigned);
      expect(missing.status).toBe(400);
      expect(await missing.json()).toEqual({ detail: "Missing Stripe-Signature header" });
      expect(await me(user)).toMatchObject({ status: "active" });
      expect(await eventCount(event.id)).toBe(0);
      // The same event, properly signed and recent (299 s old), is applied.
      const fresh = await stripe.signed(event, { timestamp: Math.floor(Date.now() / 1000) - 299 });
      expect((await deliverRaw(fresh.body, fresh.headers)).status).toBe(200);
      expect(await me(user)).toMatchObject({ status: "canceled" });
    });

    test("verifying needs only STRIPE_WEBHOOK_SECRET: without it every delivery is 400; without the API key a valid one is 503", async () => {
      const errors = spyOn(console, "error").mockImplementation(() => {});
      const noSecret = await createTestApp(backend, {
        env: { STRIPE_SECRET_KEY: stripe.secretKey, STRIPE_API_URL: stripe.url },
      });
      const noKey = await createTestApp(backend, { env: { STRIPE_WEBHOOK_SECRET: stripe.webhookSecret } });
      try {
        const { body, headers } = await stripe.signed(
          stripe.event("customer.subscription.updated", {
            id: "sub_x",
            object: "subscription",
            customer: "cus_x",
            metadata: {},
          }),
        );
        const a = await noSecret.app.request("/api/v1/subscriptions/webhook", { method: "POST", body, headers });
        expect(a.status).toBe(400);
        expect(await a.json()).toEqual({ detail: "Invalid Stripe signature" });
        const b = await noKey.app.request("/api/v1/subscriptions/webhook", { method: "POST", body, headers });
        expect(b.status).toBe(503);
        expect(await b.json()).toEqual(NOT_CONFIGURED);
        const forged = await noKey.app.request("/api/v1/subscriptions/webhook", {
          method: "POST",
          body,
          headers: { ...headers, "stripe-signature": "t=1,v1=00" },
        });
        expect(forged.status).toBe(400);
      } finally {
        errors.mockRestore();
        await noSecret.close();
        await noKey.close();
      }
    });

    test("a duplicate delivery changes nothing", async () => {
      const user = await t.signup();
      const subId = await subscribe(user);
      stripe.updateSubscription(subId, {
        cancel_at_period_end: true,
        cancel_at: stripe.subscriptions.get(subId)!.items.data[0].current_period_end,
      });
      const event = stripe.event("customer.subscription.updated", stripe.subscriptions.get(subId)!);
      expect((await stripe.send(event)).status).toBe(200);
      const first = await row(user.user.id);
      expect(first.cancel_at_period_end).toBe(true);

      stripe.updateSubscription(subId, { cancel_at_period_end: false, cancel_at: null }); // Stripe moved on since
      const gets = stripe.requests.filter((r) => r.method === "GET").length;
      const again = await stripe.send(event);
      expect(again.status).toBe(200);
      expect(await row(user.user.id)).toEqual(first);
      expect(await eventCount(event.id)).toBe(1);
      // Recognised before Stripe is even asked.
      expect(stripe.requests.filter((r) => r.method === "GET").length).toBe(gets);
    });

    test("an older `updated` delivered after a newer one changes nothing: the subscription is re-read from Stripe", async () => {
      const user = await t.signup();
      const subId = await subscribe(user);
      const sub = stripe.subscriptions.get(subId)!;
      const now = Math.floor(Date.now() / 1000);
      // Older: the customer asked to cancel; newer: they changed their mind. Stripe now says: not cancelling.
      stripe.updateSubscription(subId, { cancel_at_period_end: true, cancel_at: sub.items.data[0].current_period_end });
      const older = stripe.event("customer.subscription.updated", sub, { created: now - 60 });
      stripe.updateSubscription(subId, { cancel_at_period_end: false, cancel_at: null });
      const newer = stripe.event("customer.subscription.updated", sub, { created: now - 30 });

      expect((await stripe.send(newer)).status).toBe(200);
      const afterNewer = await row(user.user.id);
      expect(afterNewer.cancel_at_period_end).toBe(false);
      expect((await stripe.send(older)).status).toBe(200);
      const afterOlder = await row(user.user.id);
      expect(afterOlder.cancel_at_period_end).toBe(false);
      expect({ ...afterOlder, revision: 0 }).toEqual({ ...afterNewer, revision: 0 }); // nothing visible changed
    });

    test("ten concurrent deliveries of one event have exactly one effect", async () => {
      const user = await t.signup();
      const subId = await subscribe(user);
      stripe.updateSubscription(subId, { status: "past_due" });
      const event = stripe.event("invoice.payment_failed", stripe.invoiceOf(stripe.subscriptions.get(subId)!, "open"));
      const before = await row(user.user.id);
      const answers = await Promise.all(Array.from({ length: 10 }, () => stripe.send(event)));
      for (const a of answers) expect(a.status).toBe(200);
      const after = await row(user.user.id);
      expect(after.status).toBe("past_due");
      expect(after.revision).toBe(before.revision + 1);
      expect(await eventCount(event.id)).toBe(1);
    });

    test("concurrent deliveries of different events converge on Stripe's current state", async () => {
      const user = await t.signup();
      const subId = await subscribe(user);
      const sub = stripe.subscriptions.get(subId)!;
      stripe.updateSubscription(subId, { cancel_at_period_end: true, cancel_at: sub.items.data[0].current_period_end });
      const events = Array.from({ length: 6 }, (_, i) =>
        stripe.event(
          i % 2 ? "customer.subscription.updated" : "invoice.paid",
          i % 2 ? sub : stripe.invoiceOf(sub, "paid"),
        ),
      );
      const answers = await Promise.all(events.map((e) => stripe.send(e)));
      for (const a of answers) expect(a.status).toBe(200);
      expect(await me(user)).toMatchObject({ status: "active", cancel_at_period_end: true });
      for (const e of events) expect(await eventCount(e.id)).toBe(1);
    });

    if (backend === "postgres") {
      test("two server processes receiving deliveries at once: one effect per event, and the row converges", async () => {
        // A second app on its own connection pool to the same database, as another process would be.
        const handle = openDatabase({ databaseUrl: t.databaseUrl!, dataDir: "", poolSize: 5 });
        try {
          const other = createApp({ ...t.deps, db: handle.db });
          const deliverTo = [t.app, other];
          const sendVia = async (event: Record<string, unknown>, i: number) => {
            const { body, headers } = await stripe.signed(event);
            return deliverTo[i % 2]!.request("/api/v1/subscriptions/webhook", { method: "POST", body, headers });
          };
          const user = await t.signup();
          const subId = await subscribe(user);
          const sub = stripe.subscriptions.get(subId)!;

          stripe.updateSubscription(subId, { status: "past_due" });
          const once = stripe.event("invoice.payment_failed", stripe.invoiceOf(sub, "open"));
          const before = await row(user.user.id);
          for (const a of await Promise.all(Array.from({ length: 10 }, (_, i) => sendVia(once, i))))
            expect(a.status).toBe(200);
          expect((await row(user.user.id)).revision).toBe(before.revision + 1);
          expect(await eventCount(once.id)).toBe(1);

          stripe.updateSubscription(subId, {
            status: "active",
            cancel_at_period_end: true,
            cancel_at: sub.items.data[0].current_period_end,
          });
          const many = Array.from({ length: 12 }, (_, i) =>
            stripe.event(
              i % 2 ? "customer.subscription.updated" : "invoice.paid",
              i % 2 ? sub : stripe.invoiceOf(sub, "paid"),
            ),
          );
          for (const a of await Promise.all(many.map((e, i) => sendVia(e, i)))) expect(a.status).toBe(200);
          expect(await me(user)).toMatchObject({ status: "active", cancel_at_period_end: true });
          for (const e of many) expect(await eventCount(e.id)).toBe(1);
        } finally {
          await handle.close();
        }
      });
    }

    test("Stripe unreachable while re-reading: 502, not recorded, applied when Stripe delivers again", async () => {
      const errors = spyOn(console, "error").mockImplementation(() => {});
      try {
        const user = await t.signup();
        const subId = await subscribe(user);
        stripe.updateSubscription(subId, { status: "canceled", ended_at: Math.floor(Date.now() / 1000) });
        const event = stripe.event("customer.subscription.deleted", stripe.subscriptions.get(subId)!);
        for (let i = 0; i < 3; i++) stripe.failNext(`GET /v1/subscriptions/${subId}`, 503);
        const res = await stripe.send(event);
        expect(res.status).toBe(502);
        expect(await eventCount(event.id)).toBe(0);
        expect(await me(user)).toMatchObject({ status: "active" });
        expect((await stripe.send(event)).status).toBe(200);
        expect(await me(user)).toMatchObject({ status: "canceled" });
      } finally {
        errors.mockRestore();
      }
    });

    test("events of no interest, of unknown subscriptions, or of no user of ours are acknowledged and change nothing", async () => {
      const warn = spyOn(console, "warn").mockImplementation(() => {});
      try {
        const other = stripe.event("customer.created", stripe.addCustomer("someone@example.com"));
        expect(await (await stripe.send(other)).json()).toEqual({ received: true });
        expect(await eventCount(other.id)).toBe(0);

        const ghost = stripe.event("customer.subscription.updated", {
          id: "sub_does_not_exist",
          object: "subscription",
          customer: "cus_nobody",
          metadata: {},
        });
        expect((await stripe.send(ghost)).status).toBe(200);
        expect(await eventCount(ghost.id)).toBe(1);

        const stranger = stripe.createSubscription(
          stripe.addCustomer("stranger@example.com").id,
          stripe.priceByLookupKey("litreview_plus_annual")!.id,
        );
        const count = await t.db
          .selectFrom("subscriptions")
          .select(sql<number>`count(*)::int`.as("n"))
          .executeTakeFirstOrThrow();
        expect((await stripe.send(stripe.event("customer.subscription.created", stranger))).status).toBe(200);
        expect(
          (await t.db.selectFrom("subscriptions").select(sql<number>`count(*)::int`.as("n")).executeTakeFirstOrThrow())
            .n,
        ).toBe(count.n);
      } finally {
        warn.mockRestore();
      }
    });

    test("a subscription whose first payment has not gone through never replaces the trial", async () => {
      const user = await t.signup();
      const customer = stripe.addCustomer(user.user.email);
      await t.db.insertInto("stripe_customers").values({ user_id: user.user.id, customer_id: customer.id }).execute();
      const incomplete = stripe.createSubscription(customer.id, stripe.priceByLookupKey("litreview_plus_annual")!.id, {
        status: "incomplete",
      });
      expect((await stripe.send(stripe.event("customer.subscription.created", incomplete))).status).toBe(200);
      expect(await me(user)).toMatchObject({ status: "active", is_trial: true });
      stripe.updateSubscription(incomplete.id, { status: "incomplete_expired" });
      expect((await stripe.send(stripe.event("customer.subscription.deleted", incomplete))).status).toBe(200);
      expect(await me(user)).toMatchObject({ status: "active", is_trial: true });
    });

    test("an ended older subscription never overwrites the current one", async () => {
      const user = await t.signup();
      const first = await subscribe(user);
      // The first one ended; the user subscribed again.
      stripe.updateSubscription(first, { status: "canceled", ended_at: Math.floor(Date.now() / 1000) });
      expect(
        (await stripe.send(stripe.event("customer.subscription.deleted", stripe.subscriptions.get(first)!))).status,
      ).toBe(200);
      expect(await me(user)).toMatchObject({ status: "canceled" });
      const second = await subscribe(user);
      expect(await me(user)).toMatchObject({ status: "active" });
      // A late copy of the first one's deletion changes nothing now.
      expect(
        (await stripe.send(stripe.event("customer.subscription.deleted", stripe.subscriptions.get(first)!))).status,
      ).toBe(200);
      expect(await me(user)).toMatchObject({ status: "active" });
      expect((await row(user.user.id)).stripe_subscription_id).toBe(second);
    });

    test("an administrator's active grant is not changed by Stripe's events", async () => {
      const user = await t.signup();
      const subId = await subscribe(user);
      // End it in Stripe (the operator's `end` does that), then grant Max.
      stripe.updateSubscription(subId, { status: "canceled", ended_at: Math.floor(Date.now() / 1000) });
      expect(
        (await stripe.send(stripe.event("customer.subscription.deleted", stripe.subscriptions.get(subId)!))).status,
      ).toBe(200);
      await grantPlan(t.deps, user.user.email, "max");
      const other = stripe.createSubscription(
        stripe.addCustomer("x@example.com").id,
        stripe.priceByLookupKey("litreview_plus_annual")!.id,
        { metadata: { user_id: user.user.id } },
      );
      expect((await stripe.send(stripe.event("customer.subscription.created", other))).status).toBe(200);
      expect(await me(user)).toMatchObject({ status: "active", subscription_type: "max", is_trial: false });
    });

    test("the operator's end cancels a paid Stripe subscription at Stripe at once; a grant over it is refused", async () => {
      const user = await t.signup();
      const subId = await subscribe(user);
      await expect(grantPlan(t.deps, user.user.email, "pro")).rejects.toThrow(
        `End it first: npm run subscription -- end ${user.user.email}`,
      );
      const { subscription, warning } = await endPlan(t.deps, user.user.email);
      expect(warning).toBeUndefined();
      expect(subscription.status).toBe("canceled");
      expect(
        stripe.requests.filter((r) => r.path === `/v1/subscriptions/${subId}` && r.method === "DELETE").length,
      ).toBe(1);
      expect(stripe.subscriptions.get(subId)!.status).toBe("canceled");
      await stripe.settle(); // Stripe's customer.subscription.deleted agrees
      expect(await me(user)).toMatchObject({ status: "canceled" });
      expect(await hasActiveReviewAccess(t.db, user.user.id)).toBe(false);
      expect(await grantPlan(t.deps, user.user.email, "pro")).toMatchObject({
        status: "active",
        subscription_type: "pro",
      });
    });

    test("another user's Stripe subscription cannot be cancelled or read through mine", async () => {
      const alice = await t.signup();
      const bob = await t.signup();
      const aliceSub = await subscribe(alice);
      const res = await t.app.request("/api/v1/subscriptions/cancel", { method: "POST", headers: bob.headers });
      expect(res.status).toBe(400);
      expect(stripe.subscriptions.get(aliceSub)!.cancel_at_period_end).toBe(false);
      expect(await me(bob)).toMatchObject({ is_trial: true });
      expect(await me(alice)).toMatchObject({ is_trial: false, status: "active" });
    });
  });
}
