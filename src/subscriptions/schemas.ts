import { z } from "@hono/zod-openapi";

/** GET /subscriptions/me (spec §3). Every field but `exists` is null when the user has no subscription. */
export const SubscriptionReadSchema = z
  .object({
    exists: z.boolean(),
    status: z.enum(["active", "trialing", "trial_expired", "past_due", "canceled"]).nullable(),
    subscription_type: z.enum(["plus", "pro", "max"]).nullable(),
    billing_interval: z.enum(["monthly", "annual"]).nullable(),
    is_trial: z.boolean().nullable(),
    trial_ends_at: z.date().nullable(),
    current_period_end: z.date().nullable(),
    cancel_at_period_end: z.boolean().nullable(),
  })
  .openapi("SubscriptionRead");
