import { type OpenAPIHono, createRoute } from "@hono/zod-openapi";
import type { AppDeps } from "../deps.ts";
import { credentialsRefused, requireUser, resolveUserWith, type AuthEnv } from "../auth/middleware.ts";
import { SIGNED_IN, apiRoute, createApi, errorResponses, jsonBody, jsonContent } from "../http/openapi.ts";
import { allowedOrigins } from "../http/security.ts";
import { readSubscription } from "./service.ts";
import { joinSubscription, subscriptionOfJoin } from "./repository.ts";
import { readPrices } from "./prices.ts";
import { cancelAtPeriodEnd, startCheckout } from "./checkout.ts";
import { handleStripeEvent, verifyStripeEvent } from "./webhook.ts";
import {
  CheckoutRequestSchema,
  CheckoutResponseSchema,
  PricesReadSchema,
  SubscriptionReadSchema,
  WebhookAckSchema,
} from "./schemas.ts";

/** An app of this module's routes. */
type SubscriptionsApi = OpenAPIHono<AuthEnv>;

/** What the routes that change a subscription declare: their tag, a bearer token, and the signed-in user. */
function signedInDefaults(deps: AppDeps) {
  return { tags: ["subscriptions"], security: SIGNED_IN, middleware: [requireUser(deps)] };
}

/**
 * /api/v1/subscriptions (docs/product.md §7): the signed-in user's subscription, the plans' prices, checkout, cancel,
 * and Stripe's webhook. docs/decisions/0018-billing-with-stripe.md explains the billing model.
 */
export function subscriptionsRoutes(deps: AppDeps) {
  const app = createApi<AuthEnv>();
  // Registered in this order, which is the order of the API document.
  registerSubscriptionReads(app, deps);
  registerSubscriptionChanges(app, deps, signedInDefaults(deps));
  registerStripeWebhook(app, deps);
  return app;
}

/** GET /me and GET /prices: the caller's subscription, and the plans' prices (public). */
function registerSubscriptionReads(app: SubscriptionsApi, deps: AppDeps): void {
  const me = apiRoute({
    tags: ["subscriptions"],
    security: SIGNED_IN,
    method: "get",
    path: "/me",
    summary: "Read the signed-in user's subscription",
    description: "A trial whose end has passed reads as trial_expired.",
    responses: { 200: jsonContent(SubscriptionReadSchema, "The subscription, or `exists: false`") },
  });
  // The busiest call of the subscription (every settings visit, every window focus): the user and their subscription
  // are read in one statement rather than requireUser's lookup and then a second one.
  app.openapi(me, async (c) => {
    const found = await resolveUserWith(deps, c, joinSubscription);
    if (!found) throw credentialsRefused();
    return c.json(await readSubscription(deps.db, found.user.id, new Date(), subscriptionOfJoin(found.row)), 200);
  });

  const prices = apiRoute({
    tags: ["subscriptions"],
    method: "get",
    path: "/prices",
    summary: "The plans' prices",
    description:
      "From Stripe, by lookup key, cached one hour. Without STRIPE_SECRET_KEY every price is null (the page shows its fallback prices). " +
      "Public: prices are the same for everyone.",
    responses: {
      200: jsonContent(PricesReadSchema, "Monthly and annual price of each plan, null where missing"),
      ...errorResponses(502),
    },
  });
  app.openapi(prices, async (c) => c.json(await readPrices(deps.config), 200));
}

/** POST /checkout and POST /cancel: paying for a plan, and ending it at the period's end. */
function registerSubscriptionChanges(
  app: SubscriptionsApi,
  deps: AppDeps,
  signedIn: ReturnType<typeof signedInDefaults>,
): void {
  const checkout = apiRoute({
    ...signedIn,
    method: "post",
    path: "/checkout",
    summary: "Start paying for a plan",
    description:
      "Creates a Stripe Checkout session in subscription mode for the plan's annual price and returns its page; the browser goes there, " +
      "and Stripe sends it back to success_url or cancel_url (addresses of this site). Our records change only when Stripe's webhook says so. " +
      "Someone already paying for another plan or interval has that subscription switched instead, and checkout_url is success_url. " +
      "Only Plus, billed annually, is on sale (docs/product.md §1).",
    request: { body: jsonBody(CheckoutRequestSchema) },
    responses: {
      200: jsonContent(CheckoutResponseSchema, "Where to send the browser"),
      ...errorResponses(400, 409, 502),
    },
  });
  app.openapi(checkout, async (c) => {
    const result = await startCheckout(deps, c.get("user"), c.req.valid("json"), allowedOrigins(c, deps.config));
    return c.json(result, 200);
  });

  const cancel = apiRoute({
    ...signedIn,
    method: "post",
    path: "/cancel",
    summary: "Cancel at the end of the current period",
    description:
      "Asks Stripe to end the paid subscription when the current period ends; it stays active until then. Asking again changes nothing.",
    responses: {
      200: jsonContent(SubscriptionReadSchema, "The subscription as it now reads (cancel_at_period_end true)"),
      ...errorResponses(400, 502),
    },
  });
  app.openapi(cancel, async (c) => c.json(await cancelAtPeriodEnd(deps, c.get("user").id), 200));
}

/** POST /webhook: Stripe's events, verified on the raw body. */
function registerStripeWebhook(app: SubscriptionsApi, deps: AppDeps): void {
  // Declared with createRoute, not apiRoute: the body must reach the handler untouched (no validator may parse and
  // re-encode it, or the signature no longer matches), so it is described here but not validated by a schema.
  const webhook = createRoute({
    tags: ["subscriptions"],
    method: "post",
    path: "/webhook",
    summary: "Stripe's webhook endpoint",
    description:
      "For Stripe only. The Stripe-Signature header is verified on the raw body with STRIPE_WEBHOOK_SECRET (timestamp at most 300 s old). " +
      "Handles checkout.session.completed, customer.subscription.created/updated/deleted, invoice.paid and invoice.payment_failed by " +
      "re-reading the subscription from Stripe; each event id is applied once. Other events are acknowledged and ignored.",
    request: {
      body: {
        content: {
          "application/json": { schema: { type: "object", description: "A Stripe Event object, as Stripe signed it" } },
        },
        required: true,
      },
    },
    responses: {
      200: jsonContent(WebhookAckSchema, "Received (applied now, or earlier, or not of interest)"),
      ...errorResponses(400, 413, 502, 503),
    },
  });
  app.openapi(webhook, async (c) => {
    // The exact bytes Stripe signed. Nothing before this handler reads the body (the size limit passes a counted
    // copy of the same bytes along).
    const raw = new Uint8Array(await c.req.arrayBuffer());
    const event = await verifyStripeEvent(deps.config.STRIPE_WEBHOOK_SECRET, raw, c.req.header("stripe-signature"));
    await handleStripeEvent(deps, event);
    return c.json({ received: true as const }, 200);
  });
}
