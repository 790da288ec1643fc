import type { Config } from "../config.ts";
import { paymentsAvailable, readPrices } from "../subscriptions/prices.ts";
import { PLANS, planPrice } from "../../islands/settings/subscription.ts";
import type { PricesData } from "../../islands/settings/subscription-query.ts";
import { PaymentsUnavailableNotice, PlanCardContent } from "../../islands/settings/PlanCardContent.tsx";
import * as settings from "../../islands/settings/settings.css.ts";
import { PublicLayout, type Site } from "./layouts.tsx";
import * as s from "./pages.css.ts";
import * as p from "./pricing.css.ts";

/** What /pricing shows: the prices as GET /subscriptions/prices gives them (undefined when they could not be read). */
export interface Pricing {
  prices: PricesData | undefined;
  paymentsAvailable: boolean;
}

/**
 * The prices for /pricing, read on the server from the same source as the settings page (Stripe, cached an hour).
 * When Stripe cannot be reached and nothing is cached, `prices` is undefined and the cards show the product's fallbacks
 * (the plan's fallback monthly price and '$--' for the year), as the settings page does.
 */
export async function pricingOf(config: Config): Promise<Pricing> {
  try {
    const read = await readPrices(config);
    return { prices: read, paymentsAvailable: read.payments_available };
  } catch (err) {
    const reason = err instanceof Error ? err.message : err;
    console.warn("pricing page: prices unavailable, showing the fallback prices:", reason);
    return { prices: undefined, paymentsAvailable: paymentsAvailable(config) };
  }
}

/**
 * /pricing: the plan cards of the settings page (Plus, Pro, Max, billed annually), read-only: no button starts a
 * checkout here; a visitor signs up (which starts the free Plus trial) and subscribes from the settings page, where a
 * signed-in user is sent instead (`signedIn`). Server-rendered without script.
 */
export function PricingPage({ site, pricing, signedIn = false }: { site: Site; pricing: Pricing; signedIn?: boolean }) {
  return (
    <PublicLayout site={site}>
      <div className={s.container}>
        <h1 className={s.pageTitle}>Pricing</h1>
        <p className={s.lead}>
          All plans are billed annually. Every new account includes a free week trial of our Plus plan.
        </p>
        {pricing.paymentsAvailable ? null : <PaymentsUnavailableNotice />}
        <ul className={settings.planGrid} aria-label="Plans">
          {PLANS.map((plan) => (
            <li
              key={plan}
              className={settings.planCard}
              aria-labelledby={`pricing-${plan}`}
              data-testid={`plan-${plan}`}
            >
              <PlanCardContent
                plan={plan}
                price={planPrice(plan, pricing.prices)}
                nameId={`pricing-${plan}`}
                headingLevel={2}
              />
            </li>
          ))}
        </ul>
        <div className={`${s.ctaActions} ${p.pricingActions}`}>
          {signedIn ? (
            <a href="/settings?tab=subscription" className={s.button.primary}>
              Your Subscription
            </a>
          ) : (
            <>
              <a href="/signup" className={s.button.primary}>
                Start Your Free Trial
              </a>
              <a href="/login" className={s.button.outline}>
                Log In
              </a>
            </>
          )}
        </div>
      </div>
    </PublicLayout>
  );
}
