import Stripe from "stripe";
import type { Config } from "../config.ts";
import { ApiError } from "../http/errors.ts";
import { BILLING_INTERVALS, SUBSCRIPTION_TYPES } from "../db/column-types.ts";

/**
 * The Stripe client of this server (docs/decisions/0018-billing-with-stripe.md), built from the configuration:
 * - STRIPE_SECRET_KEY turns on everything that calls Stripe (prices, checkout, cancel, the webhook's re-reads);
 * - STRIPE_WEBHOOK_SECRET is all the webhook needs to verify a delivery (see webhook.ts);
 * - STRIPE_API_URL points the SDK at another address than api.stripe.com (a local stand-in in tests).
 * Prices are found by lookup key (PRICE_LOOKUP_KEYS), so an operator sets up Stripe without changing code.
 */

/** The detail of every answer that needs Stripe on a server without STRIPE_SECRET_KEY. */
export const PAYMENTS_NOT_CONFIGURED = "Payments are not configured on this server.";

/** The detail of an answer when Stripe could not be reached or refused a well-formed request. */
export const PAYMENT_PROVIDER_FAILED = "The payment provider could not be reached. Please try again later.";

/** Plans of docs/product.md §1, in order (plus < pro < max): the values subscriptions.subscription_type holds. */
export const PLANS = SUBSCRIPTION_TYPES;
export type Plan = (typeof PLANS)[number];

/** Billing intervals of docs/product.md §3: the values subscriptions.billing_interval holds. */
export const INTERVALS = BILLING_INTERVALS;
export type Interval = (typeof INTERVALS)[number];

/**
 * The lookup key of each plan's price in Stripe. The operator gives each recurring price in the Stripe dashboard
 * (or API) one of these keys; moving a key to a new price changes what new checkouts charge, without a deploy.
 * Amounts are read in US dollars (docs/product.md §9 shows $).
 */
export const PRICE_LOOKUP_KEYS: Readonly<Record<Plan, Readonly<Record<Interval, string>>>> = {
  plus: { monthly: "litreview_plus_monthly", annual: "litreview_plus_annual" },
  pro: { monthly: "litreview_pro_monthly", annual: "litreview_pro_annual" },
  max: { monthly: "litreview_max_monthly", annual: "litreview_max_annual" },
};

/** The plan and interval of a lookup key of PRICE_LOOKUP_KEYS, or null for any other key. */
export function planOfLookupKey(key: string | null | undefined): { plan: Plan; interval: Interval } | null {
  if (!key) return null;
  for (const plan of PLANS)
    for (const interval of INTERVALS) if (PRICE_LOOKUP_KEYS[plan][interval] === key) return { plan, interval };
  return null;
}

/** Stripe's own timeout is 80 s; a checkout or cancel click should fail long before that. */
const REQUEST_TIMEOUT_MS = 20_000;

const clients = new WeakMap<Config, Stripe | null>();

/**
 * The Stripe SDK client for `config`, or null without STRIPE_SECRET_KEY. One client per configuration object
 * (it keeps connections alive). Network errors and 5xx answers are retried twice by the SDK, with idempotency keys
 * on writes, so a retried POST never acts twice.
 */
export function stripeClient(config: Config): Stripe | null {
  if (clients.has(config)) return clients.get(config)!;
  let client: Stripe | null = null;
  if (config.STRIPE_SECRET_KEY) {
    const api = config.STRIPE_API_URL ? new URL(config.STRIPE_API_URL) : null;
    client = new Stripe(config.STRIPE_SECRET_KEY, {
      maxNetworkRetries: 2,
      timeout: REQUEST_TIMEOUT_MS,
      appInfo: { name: "LitReview" },
      ...(api
        ? {
            host: api.hostname,
            port: api.port || (api.protocol === "https:" ? 443 : 80),
            protocol: api.protocol === "https:" ? "https" : "http",
          }
        : {}),
    });
  }
  clients.set(config, client);
  return client;
}

/** The Stripe client. @throws ApiError 503 PAYMENTS_NOT_CONFIGURED without STRIPE_SECRET_KEY. */
export function requireStripe(config: Config): Stripe {
  const client = stripeClient(config);
  if (!client) throw new ApiError(503, PAYMENTS_NOT_CONFIGURED);
  return client;
}

/** True for an error the Stripe SDK threw (an answer of Stripe's, or a connection failure). */
export function isStripeError(err: unknown): err is InstanceType<typeof Stripe.errors.StripeError> {
  return err instanceof Stripe.errors.StripeError;
}

/** True when Stripe answered that the object does not exist (404 resource_missing). */
export function isMissingObject(err: unknown): boolean {
  return isStripeError(err) && (err.statusCode === 404 || err.code === "resource_missing");
}

/**
 * Runs a Stripe call; a Stripe failure becomes ApiError 502 PAYMENT_PROVIDER_FAILED (logged with Stripe's own
 * message, which may name ids the user should not see). Other errors pass through.
 */
export async function callStripe<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (!isStripeError(err)) throw err;
    console.error(`stripe: ${what} failed: ${err.type} ${err.statusCode ?? ""} ${err.code ?? ""} ${err.message}`);
    throw new ApiError(502, PAYMENT_PROVIDER_FAILED);
  }
}
