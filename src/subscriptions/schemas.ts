import { z } from "@hono/zod-openapi";
import { INTERVALS, PLANS, PRICE_LOOKUP_KEYS } from "./stripe.ts";
import { SUBSCRIPTION_STATUSES } from "../db/column-types.ts";

/** GET /subscriptions/me (docs/product.md §3). Every field but `exists` is null when the user has no subscription. */
export const SubscriptionReadSchema = z
  .object({
    exists: z.boolean(),
    status: z.enum(SUBSCRIPTION_STATUSES).nullable(),
    subscription_type: z.enum(PLANS).nullable(),
    billing_interval: z.enum(INTERVALS).nullable(),
    is_trial: z.boolean().nullable(),
    trial_ends_at: z.date().nullable(),
    current_period_end: z.date().nullable(),
    cancel_at_period_end: z.boolean().nullable(),
  })
  .openapi("SubscriptionRead");

const PriceAmountSchema = z
  .object({
    unit_amount: z.number().openapi({ description: "US dollars; an annual price is the whole year's", example: 95.88 }),
  })
  .nullable()
  .openapi({ description: "null when Stripe has no active price with this plan's lookup key" });

const PlanPricesSchema = z.object({ monthly: PriceAmountSchema, annual: PriceAmountSchema });

/** GET /subscriptions/prices (docs/product.md §3). */
export const PricesReadSchema = z
  .object({
    individual: z.object({ plus: PlanPricesSchema, pro: PlanPricesSchema, max: PlanPricesSchema }),
    payments_available: z.boolean().openapi({
      description:
        "false when this server has no payment provider configured: no checkout can be started (the page says so once)",
    }),
  })
  .openapi("SubscriptionPrices", {
    description: `Prices of Stripe's active recurring prices found by lookup key: ${Object.values(PRICE_LOOKUP_KEYS)
      .flatMap((byInterval) => Object.values(byInterval))
      .join(", ")}.`,
  });

/** A return address of the checkout (an absolute http(s) URL of this site; the service checks the site). */
const ReturnUrl = z
  .string()
  .max(2048, "URL too long")
  .refine((v) => /^https?:\/\//i.test(v) && URL.canParse(v), "Invalid URL");

/** POST /subscriptions/checkout (docs/product.md §3, §7). */
export const CheckoutRequestSchema = z
  .object({
    subscription_type: z.enum(PLANS),
    billing_interval: z.enum(INTERVALS).openapi({ description: "Only annual is sold (docs/product.md §1)." }),
    success_url: ReturnUrl.openapi({
      example: "https://litreview.example/settings?tab=subscription&subscription_checkout=success",
    }),
    cancel_url: ReturnUrl.openapi({
      example: "https://litreview.example/settings?tab=subscription&subscription_checkout=cancel",
    }),
  })
  .openapi("CheckoutSessionRequest");

export const CheckoutResponseSchema = z
  .object({
    checkout_url: z.string().openapi({ description: "Stripe's payment page; after a plan switch, success_url" }),
  })
  .openapi("CheckoutSessionResponse");

/** The webhook's answer to Stripe. */
export const WebhookAckSchema = z.object({ received: z.literal(true) }).openapi("WebhookAck");
