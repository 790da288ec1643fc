import Stripe from "stripe";

/**
 * A local HTTP stand-in for the few Stripe endpoints LitReview uses, for tests, browser tests and benchmarks
 * (Stripe itself cannot be reached from here). The application talks to it with the real `stripe` SDK, pointed
 * here by STRIPE_API_URL; the stand-in checks each request as Stripe would (API key, version header, form
 * encoding, required and known parameters, existing objects) and answers in Stripe's shapes (see the SDK's types
 * in node_modules/stripe/esm/resources). It also plays Stripe's other side: its checkout page completes the
 * payment, and it sends webhook events signed with the SDK's own `generateTestHeaderStringAsync`.
 *
 * Endpoints: POST /v1/customers, GET /v1/prices, POST /v1/checkout/sessions, GET|POST|DELETE
 * /v1/subscriptions/:id, and the payment page GET /c/pay/:session (→ success_url; `?cancel=1` → cancel_url).
 * Anything else is answered 404 and recorded in `unexpected`.
 *
 * Run alone (browser tests): bun tests/support/stripe-stand-in.ts --port N --webhook URL [--delay-ms N]
 */

/** A request the stand-in received, with its parameters decoded. */
export interface RecordedRequest {
  method: string;
  path: string;
  params: Record<string, unknown>;
  idempotencyKey: string | null;
}

/** Where and how events are delivered: by default POSTed to `webhookUrl`. */
export type Deliver = (body: string, headers: Record<string, string>) => Promise<Response> | Response;

export interface StandInOptions {
  /** Port to listen on (default: any free one). */
  port?: number;
  /** The application's webhook URL; or give `deliver`. */
  webhookUrl?: string;
  deliver?: Deliver;
  /** Delay before events caused by the payment page are sent (the browser is redirected first). Default 0. */
  deliveryDelayMs?: number;
  /** Prices to create: lookup key → amount in cents (default STANDARD_PRICES). */
  prices?: Record<string, number>;
}

/**
 * The default catalogue: Plus and Pro billed annually and Plus monthly; Max has no price (so a page shows the
 * fallback). Amounts differ from the page's fallbacks ($7.99, $15.99) so a test can tell which it shows.
 */
export const STANDARD_PRICES: Record<string, number> = {
  litreview_plus_annual: 8988,
  litreview_plus_monthly: 899,
  litreview_pro_annual: 17988,
};

const DAY_S = 24 * 60 * 60;

type Json = Record<string, any>;

/**
 * Decodes Stripe's form encoding (also used in query strings): `a[b][0][c]=v` → {a: {b: [{c: "v"}]}}.
 */
export function parseStripeParams(encoded: string): Record<string, unknown> {
  const root: Json = {};
  for (const [rawKey, value] of new URLSearchParams(encoded)) {
    const parts = rawKey.replace(/\]/g, "").split("[");
    let node: any = root;
    parts.forEach((part, i) => {
      const last = i === parts.length - 1;
      const nextIsIndex = !last && /^\d+$/.test(parts[i + 1]!);
      const key: string | number = Array.isArray(node) ? Number(part) : part;
      if (last) node[key] = value;
      else node = node[key] ??= nextIsIndex ? [] : {};
    });
  }
  return root;
}

class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

const fail = (message: string, code = "parameter_invalid"): never => {
  throw new StripeApiError(400, "invalid_request_error", message, code);
};

let counter = 0;
const newId = (prefix: string) =>
  `${prefix}_${Date.now().toString(36)}${(++counter).toString(36).padStart(4, "0")}${Math.random().toString(36).slice(2, 8)}`;

export class StripeStandIn {
  readonly secretKey = `sk_test_standin_${Math.random().toString(36).slice(2, 12)}`;
  readonly webhookSecret = `whsec_standin_${Math.random().toString(36).slice(2, 14)}`;
  readonly requests: RecordedRequest[] = [];
  /** Requests to endpoints Stripe has but the stand-in does not (the app should never make them). */
  readonly unexpected: string[] = [];
  readonly prices = new Map<string, Json>();
  readonly customers = new Map<string, Json>();
  readonly sessions = new Map<string, Json>();
  readonly subscriptions = new Map<string, Json>();
  /** Every event created, in order, and the answer the application gave to its delivery. */
  readonly events: { event: Json; status: number | null }[] = [];
  /** Answers to send instead of the real ones, by "METHOD /path prefix", consumed once each. */
  private readonly failures: { match: string; status: number }[] = [];
  private readonly idempotent = new Map<string, Json>();
  private server: ReturnType<typeof Bun.serve> | null = null;
  private readonly pending = new Set<Promise<unknown>>();
  deliver: Deliver | null;
  deliveryDelayMs: number;

  constructor(private readonly opts: StandInOptions = {}) {
    this.deliveryDelayMs = opts.deliveryDelayMs ?? 0;
    this.deliver = opts.deliver ?? (opts.webhookUrl ? this.postTo(opts.webhookUrl) : null);
    for (const [key, amount] of Object.entries(opts.prices ?? STANDARD_PRICES)) this.addPrice(key, amount);
  }

  /** POSTs events to a URL, as Stripe does. */
  postTo(url: string): Deliver {
    return (body, headers) => fetch(url, { method: "POST", body, headers });
  }

  /** Starts listening on 127.0.0.1. */
  start(): this {
    this.server = Bun.serve({ port: this.opts.port ?? 0, hostname: "127.0.0.1", fetch: (req) => this.handle(req) });
    return this;
  }

  get port(): number {
    return this.server!.port!;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The application configuration that points it here. */
  get env(): Record<string, string> {
    return { STRIPE_SECRET_KEY: this.secretKey, STRIPE_WEBHOOK_SECRET: this.webhookSecret, STRIPE_API_URL: this.url };
  }

  /** Waits for deliveries in flight, then stops listening. */
  async stop(): Promise<void> {
    await this.settle();
    await this.server?.stop(true);
  }

  /** Waits until every delivery started so far has been answered. */
  async settle(): Promise<void> {
    while (this.pending.size) await Promise.all([...this.pending]);
  }

  /** Makes the next request whose "METHOD /path" starts with `match` fail with `status` (a Stripe api_error). */
  failNext(match: string, status = 500): void {
    this.failures.push({ match, status });
  }

  // ---- Objects ---------------------------------------------------------------------------------------------

  addPrice(lookupKey: string, unitAmount: number, extra: Json = {}): Json {
    const interval = lookupKey.endsWith("_monthly") ? "month" : "year";
    const price = {
      id: newId("price"),
      object: "price",
      active: true,
      billing_scheme: "per_unit",
      created: Math.floor(Date.now() / 1000),
      currency: "usd",
      livemode: false,
      lookup_key: lookupKey,
      metadata: {},
      nickname: null,
      product: "prod_litreview",
      recurring: { interval, interval_count: 1, usage_type: "licensed", meter: null, trial_period_days: null },
      tax_behavior: "unspecified",
      type: "recurring",
      unit_amount: unitAmount,
      unit_amount_decimal: String(unitAmount),
      ...extra,
    };
    this.prices.set(price.id, price);
    return price;
  }

  priceByLookupKey(key: string): Json | undefined {
    return [...this.prices.values()].find((p) => p.lookup_key === key && p.active);
  }

  addCustomer(email: string, metadata: Json = {}): Json {
    const customer = {
      id: newId("cus"),
      object: "customer",
      created: Math.floor(Date.now() / 1000),
      email,
      name: null,
      metadata,
      livemode: false,
    };
    this.customers.set(customer.id, customer);
    return customer;
  }

  /**
   * Creates a subscription as Stripe would after a payment (status active unless given), one item on `priceId`,
   * the period starting now and lasting the price's interval.
   */
  createSubscription(customerId: string, priceId: string, patch: Json = {}): Json {
    const price = this.prices.get(priceId);
    if (!price) throw new Error(`no price ${priceId}`);
    const now = Math.floor(Date.now() / 1000);
    const id = newId("sub");
    const sub: Json = {
      id,
      object: "subscription",
      billing_cycle_anchor: now,
      cancel_at: null,
      cancel_at_period_end: false,
      canceled_at: null,
      collection_method: "charge_automatically",
      created: now,
      currency: "usd",
      customer: customerId,
      ended_at: null,
      items: {
        object: "list",
        data: [this.item(id, price, now)],
        has_more: false,
        url: `/v1/subscription_items?subscription=${id}`,
      },
      latest_invoice: null,
      livemode: false,
      metadata: {},
      start_date: now,
      status: "active",
      trial_end: null,
      trial_start: null,
      ...patch,
    };
    this.subscriptions.set(id, sub);
    return sub;
  }

  private item(subscriptionId: string, price: Json, start: number): Json {
    const length = price.recurring.interval === "month" ? 30 * DAY_S : 365 * DAY_S;
    return {
      id: newId("si"),
      object: "subscription_item",
      created: start,
      current_period_start: start,
      current_period_end: start + length,
      metadata: {},
      price,
      quantity: 1,
      subscription: subscriptionId,
    };
  }

  /** Changes a subscription as the Stripe dashboard or Stripe's billing engine would (no event is sent). */
  updateSubscription(id: string, patch: Json): Json {
    const sub = this.subscriptions.get(id);
    if (!sub) throw new Error(`no subscription ${id}`);
    Object.assign(sub, patch);
    return sub;
  }

  /** An invoice of a subscription, as events carry it. */
  invoiceOf(sub: Json, status: "paid" | "open"): Json {
    const item = sub.items.data[0];
    return {
      id: newId("in"),
      object: "invoice",
      amount_due: item.price.unit_amount,
      amount_paid: status === "paid" ? item.price.unit_amount : 0,
      attempt_count: 1,
      billing_reason: "subscription_cycle",
      currency: "usd",
      customer: sub.customer,
      livemode: false,
      parent: {
        type: "subscription_details",
        quote_details: null,
        subscription_details: { subscription: sub.id, metadata: sub.metadata },
      },
      period_end: item.current_period_start,
      period_start: item.current_period_start,
      status,
    };
  }

  // ---- Events ---------------------------------------------------------------------------------------------

  /** A Stripe event of `type` carrying a copy of `object` (as Stripe snapshots it). */
  event(type: string, object: Json, opts: { created?: number } = {}): Json {
    const event = {
      id: newId("evt"),
      object: "event",
      api_version: Stripe.API_VERSION,
      created: opts.created ?? Math.floor(Date.now() / 1000),
      data: { object: structuredClone(object) },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
    };
    this.events.push({ event, status: null });
    return event;
  }

  /**
   * The body and headers of a delivery of `event`, signed with the webhook secret (or `secret`) at `timestamp`
   * (seconds; default now), as Stripe sends them.
   */
  async signed(
    event: Json,
    opts: { secret?: string; timestamp?: number } = {},
  ): Promise<{ body: string; headers: Record<string, string> }> {
    const body = JSON.stringify(event, null, 2);
    const signature = await Stripe.webhooks.generateTestHeaderStringAsync({
      payload: body,
      secret: opts.secret ?? this.webhookSecret,
      ...(opts.timestamp !== undefined ? { timestamp: opts.timestamp } : {}),
    });
    return {
      body,
      headers: {
        "content-type": "application/json; charset=utf-8",
        "stripe-signature": signature,
        "user-agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)",
        "cache-control": "no-cache",
        accept: "*/*; q=0.5, application/xml",
      },
    };
  }

  /** Signs and delivers one event now; returns the application's answer. */
  async send(event: Json): Promise<Response> {
    if (!this.deliver) throw new Error("no webhook target");
    const { body, headers } = await this.signed(event);
    const res = await this.deliver(body, headers);
    const record = this.events.find((e) => e.event.id === event.id);
    if (record) record.status = res.status;
    return res;
  }

  /** Delivers events one after the other, in the background after `deliveryDelayMs` (awaited by settle/stop). */
  private sendLater(events: Json[]): void {
    const task = (async () => {
      if (this.deliveryDelayMs > 0) await Bun.sleep(this.deliveryDelayMs);
      for (const e of events) {
        const res = await this.send(e);
        await res.text();
      }
    })().catch((err) => console.error("stripe stand-in: delivery failed:", err));
    this.pending.add(task);
    void task.finally(() => this.pending.delete(task));
  }

  /**
   * What Stripe does when the customer pays on the checkout page: the session completes with a new active
   * subscription (metadata from subscription_data), and customer.subscription.created, invoice.paid and
   * checkout.session.completed are sent. @returns the events (not yet delivered when `deliver` is false).
   */
  completeCheckout(sessionId: string, opts: { deliver?: boolean } = {}): { subscription: Json; events: Json[] } {
    const session = this.sessions.get(sessionId);
    if (!session) throw new Error(`no session ${sessionId}`);
    if (session.status !== "open") throw new Error(`session ${sessionId} is ${session.status}`);
    const sub = this.createSubscription(session.customer, session._price, {
      metadata: { ...(session._subscription_metadata ?? {}) },
    });
    Object.assign(session, { status: "complete", payment_status: "paid", subscription: sub.id });
    const events = [
      this.event("customer.subscription.created", sub),
      this.event("invoice.paid", this.invoiceOf(sub, "paid")),
      this.event("checkout.session.completed", this.publicSession(session)),
    ];
    if (opts.deliver ?? true) this.sendLater(events);
    return { subscription: sub, events };
  }

  private publicSession(session: Json): Json {
    return Object.fromEntries(Object.entries(session).filter(([k]) => !k.startsWith("_")));
  }

  // ---- HTTP ------------------------------------------------------------------------------------------------

  private async handle(req: Request): Promise<Response> {
    const url = new URL(req.url);
    try {
      if (req.method === "GET" && url.pathname.startsWith("/c/pay/")) return this.paymentPage(url);
      if (!url.pathname.startsWith("/v1/")) return new Response("Not Found", { status: 404 });
      const auth = req.headers.get("authorization");
      if (auth !== `Bearer ${this.secretKey}`)
        throw new StripeApiError(401, "invalid_request_error", "Invalid API Key provided");
      if (!req.headers.get("stripe-version")) fail("Stripe-Version header missing");
      const body = req.method === "GET" || req.method === "DELETE" ? "" : await req.text();
      if (body && !(req.headers.get("content-type") ?? "").startsWith("application/x-www-form-urlencoded"))
        fail("Body must be form encoded");
      const params = parseStripeParams(req.method === "GET" || req.method === "DELETE" ? url.search.slice(1) : body);
      const idempotencyKey = req.headers.get("idempotency-key");
      this.requests.push({ method: req.method, path: url.pathname, params, idempotencyKey });
      const failure = this.failures.findIndex((f) => `${req.method} ${url.pathname}`.startsWith(f.match));
      if (failure >= 0) {
        const { status } = this.failures.splice(failure, 1)[0]!;
        throw new StripeApiError(status, "api_error", "An error occurred with our connection to Stripe.");
      }
      return Response.json(await this.route(req.method, url.pathname, params, idempotencyKey));
    } catch (err) {
      if (err instanceof StripeApiError) {
        return Response.json(
          { error: { type: err.type, message: err.message, ...(err.code ? { code: err.code } : {}) } },
          { status: err.status },
        );
      }
      console.error("stripe stand-in: internal error:", err);
      return Response.json({ error: { type: "api_error", message: String(err) } }, { status: 500 });
    }
  }

  private async route(method: string, path: string, p: Json, idempotencyKey: string | null): Promise<Json> {
    const keyed = (make: () => Json): Json => {
      // Stripe: the same idempotency key with the same endpoint returns the first answer again.
      if (!idempotencyKey || idempotencyKey.startsWith("stripe-node-retry-")) return make();
      const k = `${method} ${path} ${idempotencyKey}`;
      if (!this.idempotent.has(k)) this.idempotent.set(k, make());
      return this.idempotent.get(k)!;
    };
    if (method === "POST" && path === "/v1/customers") {
      this.allowOnly(p, ["email", "name", "metadata"]);
      if (typeof p.email !== "string" || !p.email.includes("@")) fail("email: a valid address is required");
      return keyed(() => {
        const c = this.addCustomer(p.email, p.metadata ?? {});
        if (p.name) c.name = p.name;
        return c;
      });
    }
    if (method === "GET" && path === "/v1/prices") {
      this.allowOnly(p, ["lookup_keys", "active", "limit", "expand"]);
      const keys = (p.lookup_keys ?? []) as string[];
      if (!Array.isArray(keys) || keys.length === 0 || keys.length > 10) fail("lookup_keys: between 1 and 10 keys");
      const data = [...this.prices.values()].filter(
        (pr) => keys.includes(pr.lookup_key) && (p.active === undefined || String(pr.active) === p.active),
      );
      return { object: "list", data, has_more: false, url: "/v1/prices" };
    }
    if (method === "POST" && path === "/v1/checkout/sessions") {
      this.allowOnly(p, [
        "mode",
        "customer",
        "line_items",
        "success_url",
        "cancel_url",
        "client_reference_id",
        "metadata",
        "subscription_data",
      ]);
      if (p.mode !== "subscription") fail("mode must be subscription");
      if (!this.customers.has(p.customer))
        throw new StripeApiError(400, "invalid_request_error", `No such customer: '${p.customer}'`, "resource_missing");
      const items = p.line_items as Json[] | undefined;
      if (!Array.isArray(items) || items.length !== 1) fail("line_items: exactly one item expected");
      const price = this.prices.get(items![0]!.price);
      if (!price?.active)
        throw new StripeApiError(
          400,
          "invalid_request_error",
          `No such price: '${items![0]!.price}'`,
          "resource_missing",
        );
      if (items![0]!.quantity !== "1") fail("line_items[0][quantity] must be 1");
      for (const u of ["success_url", "cancel_url"])
        if (typeof p[u] !== "string" || !URL.canParse(p[u])) fail(`${u}: an absolute URL is required`);
      const id = newId("cs_test");
      const session = {
        id,
        object: "checkout.session",
        cancel_url: p.cancel_url,
        client_reference_id: p.client_reference_id ?? null,
        customer: p.customer,
        livemode: false,
        metadata: p.metadata ?? {},
        mode: "subscription",
        payment_status: "unpaid",
        status: "open",
        subscription: null,
        success_url: p.success_url,
        url: `${this.url}/c/pay/${id}`,
        _price: price.id,
        _subscription_metadata: (p.subscription_data as Json | undefined)?.metadata ?? {},
      };
      this.sessions.set(id, session);
      return this.publicSession(session);
    }
    const subMatch = /^\/v1\/subscriptions\/([^/]+)$/.exec(path);
    if (subMatch) {
      const sub = this.subscriptions.get(decodeURIComponent(subMatch[1]!));
      if (!sub)
        throw new StripeApiError(
          404,
          "invalid_request_error",
          `No such subscription: '${subMatch[1]}'`,
          "resource_missing",
        );
      if (method === "GET") return sub;
      if (method === "POST") return this.updateFromApi(sub, p);
      if (method === "DELETE") {
        this.allowOnly(p, ["invoice_now", "prorate"]);
        if (sub.status === "canceled")
          throw new StripeApiError(
            400,
            "invalid_request_error",
            "This subscription is already canceled.",
            "resource_missing",
          );
        const now = Math.floor(Date.now() / 1000);
        Object.assign(sub, {
          status: "canceled",
          canceled_at: now,
          ended_at: now,
          cancel_at_period_end: false,
          cancel_at: null,
        });
        this.sendLater([this.event("customer.subscription.deleted", sub)]);
        return sub;
      }
    }
    this.unexpected.push(`${method} ${path}`);
    throw new StripeApiError(404, "invalid_request_error", `Unrecognized request URL (${method}: ${path})`);
  }

  /** POST /v1/subscriptions/:id: cancel_at_period_end, and a price switch of its one item. */
  private updateFromApi(sub: Json, p: Json): Json {
    this.allowOnly(p, ["cancel_at_period_end", "items", "proration_behavior", "metadata"]);
    if (sub.status === "canceled")
      fail("A canceled subscription can only update its cancellation_details and metadata.");
    if (p.cancel_at_period_end !== undefined) {
      if (p.cancel_at_period_end !== "true" && p.cancel_at_period_end !== "false")
        fail("cancel_at_period_end must be a boolean");
      const on = p.cancel_at_period_end === "true";
      sub.cancel_at_period_end = on;
      sub.cancel_at = on ? Math.max(...sub.items.data.map((i: Json) => i.current_period_end)) : null;
      sub.canceled_at = on ? Math.floor(Date.now() / 1000) : null;
    }
    if (p.items !== undefined) {
      const items = p.items as Json[];
      if (!Array.isArray(items) || items.length !== 1) fail("items: one item expected");
      const item = sub.items.data.find((i: Json) => i.id === items[0]!.id);
      if (!item) fail(`items[0][id]: no item ${items[0]!.id} on this subscription`);
      const price = this.prices.get(items[0]!.price);
      if (!price)
        throw new StripeApiError(
          400,
          "invalid_request_error",
          `No such price: '${items[0]!.price}'`,
          "resource_missing",
        );
      if (!["create_prorations", "none", "always_invoice", undefined].includes(p.proration_behavior))
        fail("proration_behavior invalid");
      Object.assign(item, this.item(sub.id, price, Math.floor(Date.now() / 1000)), { id: item.id });
    }
    if (p.metadata) sub.metadata = { ...sub.metadata, ...p.metadata };
    this.sendLater([this.event("customer.subscription.updated", sub)]);
    return sub;
  }

  /** Refuses parameters Stripe would not know for this call (catches a typo in the application's request). */
  private allowOnly(p: Json, known: string[]): void {
    for (const k of Object.keys(p))
      if (!known.includes(k)) fail(`Received unknown parameter: ${k}`, "parameter_unknown");
  }

  /** The hosted payment page: pays at once and sends the browser back, as a customer who clicks Pay would. */
  private paymentPage(url: URL): Response {
    const id = url.pathname.slice("/c/pay/".length);
    const session = this.sessions.get(id);
    if (!session) return new Response("No such checkout session", { status: 404 });
    if (url.searchParams.get("cancel") === "1") return Response.redirect(session.cancel_url, 303);
    if (session.status === "open") this.completeCheckout(id);
    return Response.redirect(session.success_url, 303);
  }
}

/** Starts a stand-in (see StandInOptions). */
export function startStripeStandIn(opts: StandInOptions = {}): StripeStandIn {
  return new StripeStandIn(opts).start();
}

if (import.meta.main) {
  const arg = (name: string) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? process.argv[i + 1] : undefined;
  };
  const standIn = startStripeStandIn({
    port: Number(arg("port") ?? 0),
    webhookUrl: arg("webhook"),
    deliveryDelayMs: Number(arg("delay-ms") ?? 0),
  });
  // The parent process reads this line for the keys and the address.
  console.log(JSON.stringify({ ready: true, ...standIn.env }));
  const stop = () => void standIn.stop().then(() => process.exit(0));
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}
