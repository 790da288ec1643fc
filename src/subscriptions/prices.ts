import type Stripe from "stripe";
import type { Config } from "../config.ts";
import {
  INTERVALS,
  PLANS,
  PRICE_LOOKUP_KEYS,
  callStripe,
  planOfLookupKey,
  stripeClient,
  type Interval,
  type Plan,
} from "./stripe.ts";

/** One price as GET /subscriptions/prices shows it: the amount in dollars (an annual price is the whole year's). */
export interface PriceAmount {
  unit_amount: number;
}

/**
 * GET /subscriptions/prices (docs/product.md §3): per plan, the monthly and annual price, null where Stripe has none,
 * and whether this server can take payments at all (STRIPE_SECRET_KEY set): without it the pages say so once and
 * disable the buttons that would start a checkout, instead of letting each one fail.
 */
export interface PricesRead {
  individual: Record<Plan, Record<Interval, PriceAmount | null>>;
  payments_available: boolean;
}

/** A Stripe price this server can sell: its id (for checkout) and amount. */
export interface SellablePrice {
  id: string;
  unit_amount: number;
}

/** docs/product.md §9: prices are cached one hour. */
export const PRICES_CACHE_MS = 60 * 60 * 1000;
/** After a failed refresh, the last good list is served this long before Stripe is asked again. */
const RETRY_AFTER_FAILURE_MS = 60 * 1000;

type PriceTable = Record<Plan, Record<Interval, SellablePrice | null>>;

interface CacheEntry {
  table: PriceTable | null;
  expiresAt: number;
  pending: Promise<PriceTable> | null;
}

const caches = new WeakMap<Config, CacheEntry>();

function emptyTable(): PriceTable {
  return Object.fromEntries(PLANS.map((p) => [p, Object.fromEntries(INTERVALS.map((i) => [i, null]))])) as PriceTable;
}

/**
 * Builds the table from Stripe's active prices carrying our lookup keys. A price counts only if it is recurring
 * with the interval its key names (year for annual, month for monthly) and has a fixed amount; anything else is
 * left out (shown as missing) rather than sold at a wrong price.
 */
export function priceTableOf(prices: readonly Stripe.Price[]): PriceTable {
  const table = emptyTable();
  for (const price of prices) {
    const key = planOfLookupKey(price.lookup_key);
    if (!key || !price.active || price.unit_amount === null) continue;
    const wanted = key.interval === "annual" ? "year" : "month";
    if (price.recurring?.interval !== wanted || (price.recurring.interval_count ?? 1) !== 1) continue;
    table[key.plan][key.interval] = { id: price.id, unit_amount: price.unit_amount };
  }
  return table;
}

async function fetchTable(stripe: Stripe): Promise<PriceTable> {
  const keys = PLANS.flatMap((p) => INTERVALS.map((i) => PRICE_LOOKUP_KEYS[p][i]));
  const list = await callStripe("list prices", () =>
    stripe.prices.list({ lookup_keys: keys, active: true, limit: 100 }),
  );
  return priceTableOf(list.data);
}

/**
 * The sellable prices, from Stripe, cached per configuration for PRICES_CACHE_MS; concurrent callers share one
 * request. Without STRIPE_SECRET_KEY every price is missing. When a refresh fails, the previous list is kept (and
 * Stripe asked again a minute later); with no previous list the failure is thrown.
 * @throws ApiError 502 when Stripe cannot be reached and nothing is cached.
 */
export async function sellablePrices(config: Config, now: number = Date.now()): Promise<PriceTable> {
  const stripe = stripeClient(config);
  if (!stripe) return emptyTable();
  let entry = caches.get(config);
  if (!entry) {
    entry = { table: null, expiresAt: 0, pending: null };
    caches.set(config, entry);
  }
  if (entry.table && now < entry.expiresAt) return entry.table;
  const cache = entry;
  cache.pending ??= fetchTable(stripe)
    .then((table) => {
      cache.table = table;
      cache.expiresAt = Date.now() + PRICES_CACHE_MS;
      return table;
    })
    .catch((err) => {
      if (!cache.table) throw err;
      cache.expiresAt = Date.now() + RETRY_AFTER_FAILURE_MS;
      return cache.table;
    })
    .finally(() => {
      cache.pending = null;
    });
  return cache.pending;
}

/** Forgets the cached prices of `config` (an operator changed them; tests). */
export function clearPriceCache(config: Config): void {
  caches.delete(config);
}

/** GET /subscriptions/prices: amounts in dollars (Stripe's are in cents). */
export async function readPrices(config: Config): Promise<PricesRead> {
  const table = await sellablePrices(config);
  const individual = Object.fromEntries(
    PLANS.map((plan) => [
      plan,
      Object.fromEntries(
        INTERVALS.map((i) => [i, table[plan][i] ? { unit_amount: table[plan][i]!.unit_amount / 100 } : null]),
      ),
    ]),
  ) as PricesRead["individual"];
  return { individual, payments_available: paymentsAvailable(config) };
}

/** Whether checkouts can be started on this server: a payment provider is configured (STRIPE_SECRET_KEY). */
export function paymentsAvailable(config: Config): boolean {
  return stripeClient(config) !== null;
}
