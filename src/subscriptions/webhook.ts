import Stripe from "stripe";
import type { AppDeps } from "../deps.ts";
import { ApiError } from "../http/errors.ts";
import { requireStripe } from "./stripe.ts";
import { idOf, syncStripeSubscription, type SyncOutcome, type SyncTarget } from "./sync.ts";

/**
 * POST /subscriptions/webhook (docs/decisions/0018-billing-with-stripe.md): Stripe's deliveries.
 * 1. The signature is verified on the raw bytes of the body with the SDK (`constructEventAsync`: Bun's Web Crypto
 *    is asynchronous), with STRIPE_WEBHOOK_SECRET only, and a timestamp at most 300 s old. Anything else is 400,
 *    whatever else is configured.
 * 2. The events that matter all say "this subscription changed": the subscription is re-read from Stripe and
 *    mirrored (sync.ts), with the event id recorded in the transaction of the effect.
 * 3. The answer is 200 `{"received": true}` as soon as that is committed; a failure to reach Stripe is 502, so
 *    that Stripe delivers the event again later.
 */

/** Stripe's tolerance for the signature timestamp (the SDK's default, stated). */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/** The event types this server acts on. */
export const HANDLED_EVENTS = new Set([
  "checkout.session.completed",
  "customer.subscription.created",
  "customer.subscription.updated",
  "customer.subscription.deleted",
  "invoice.paid",
  "invoice.payment_failed",
]);

export const SIGNATURE_MISSING = "Missing Stripe-Signature header";
export const SIGNATURE_INVALID = "Invalid Stripe signature";

/**
 * Verifies a delivery and returns its event.
 * @param rawBody the body exactly as received (bytes, not re-encoded).
 * @throws ApiError 400 for a missing or invalid signature, an old timestamp, or no STRIPE_WEBHOOK_SECRET.
 */
export async function verifyStripeEvent(
  secret: string | undefined,
  rawBody: Uint8Array,
  signature: string | undefined,
): Promise<Stripe.Event> {
  if (!signature) throw new ApiError(400, SIGNATURE_MISSING);
  if (!secret) {
    console.error("stripe webhook: a delivery arrived but STRIPE_WEBHOOK_SECRET is not set, so it cannot be verified");
    throw new ApiError(400, SIGNATURE_INVALID);
  }
  try {
    // The SDK's static helpers need no API key: verifying needs only the endpoint's secret.
    return await Stripe.webhooks.constructEventAsync(
      Buffer.from(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength),
      signature,
      secret,
      SIGNATURE_TOLERANCE_SECONDS,
    );
  } catch {
    throw new ApiError(400, SIGNATURE_INVALID);
  }
}

/** The Stripe subscription an event is about, with what helps find its user; null when it is about none. */
export function targetOfEvent(event: Stripe.Event): SyncTarget | null {
  switch (event.type) {
    case "checkout.session.completed": {
      const session = event.data.object;
      const subscription = idOf(session.subscription);
      if (session.mode !== "subscription" || !subscription) return null;
      return {
        stripeSubscriptionId: subscription,
        customerId: idOf(session.customer),
        userIdHint: session.client_reference_id ?? session.metadata?.user_id ?? null,
      };
    }
    case "customer.subscription.created":
    case "customer.subscription.updated":
    case "customer.subscription.deleted": {
      const sub = event.data.object;
      return {
        stripeSubscriptionId: sub.id,
        customerId: idOf(sub.customer),
        userIdHint: sub.metadata?.user_id ?? null,
      };
    }
    case "invoice.paid":
    case "invoice.payment_failed": {
      const invoice = event.data.object;
      // Newer API versions name the subscription under parent; older ones (an endpoint pinned to one) at the top.
      const legacy = (invoice as unknown as { subscription?: string | { id: string } | null }).subscription;
      const subscription = idOf(invoice.parent?.subscription_details?.subscription ?? legacy ?? null);
      if (!subscription) return null;
      return {
        stripeSubscriptionId: subscription,
        customerId: idOf(invoice.customer),
        userIdHint: invoice.parent?.subscription_details?.metadata?.user_id ?? null,
      };
    }
    default:
      return null;
  }
}

/**
 * Applies one verified event. Events of other types, and invoices of no subscription, are acknowledged and left.
 * @returns what happened, for the log and the tests.
 * @throws ApiError 503 without STRIPE_SECRET_KEY (the event cannot be re-read; Stripe retries for three days);
 *   502 when Stripe cannot be reached.
 */
export async function handleStripeEvent(deps: AppDeps, event: Stripe.Event): Promise<SyncOutcome | "not handled"> {
  if (!HANDLED_EVENTS.has(event.type)) return "not handled";
  const target = targetOfEvent(event);
  if (!target) return "not handled";
  const stripe = requireStripe(deps.config);
  return syncStripeSubscription(deps, stripe, target, {
    event: { id: event.id, type: event.type, created: new Date(event.created * 1000) },
  });
}
