import { describe, expect, test } from "bun:test";
import {
  PLAN_DETAILS,
  canCancel,
  withoutPayments,
  checkoutReturnUrls,
  isCurrentPlan,
  planButton,
  planPrice,
  subscriptionStatus,
  titleCase,
} from "./subscription.ts";
import { isPaidPlan, type PricesData, type SubscriptionData } from "./subscription-query.ts";

describe("subscription status badge (docs/product.md §4)", () => {
  test("an active trial is 'Active Trial' in blue", () => {
    expect(subscriptionStatus({ exists: true, status: "active", is_trial: true })).toEqual({
      label: "Active Trial",
      color: "blue",
    });
  });

  test("each status has the product's colour", () => {
    expect(subscriptionStatus({ exists: true, status: "trial_expired", is_trial: true })).toEqual({
      label: "Trial Expired",
      color: "orange",
    });
    expect(subscriptionStatus({ exists: true, status: "active", is_trial: false })).toEqual({
      label: "Active",
      color: "green",
    });
    expect(subscriptionStatus({ exists: true, status: "past_due", is_trial: false })).toEqual({
      label: "Past Due",
      color: "orange",
    });
    expect(subscriptionStatus({ exists: true, status: "canceled", is_trial: false })).toEqual({
      label: "Canceled",
      color: "red",
    });
  });

  test("no subscription, or a status docs/product.md does not colour (trialing without a trial), is grey", () => {
    expect(subscriptionStatus({ exists: false, status: null, is_trial: null })).toEqual({
      label: "No Subscription",
      color: "grey",
    });
    expect(subscriptionStatus({ exists: true, status: "trialing", is_trial: false })).toEqual({
      label: "Trialing",
      color: "grey",
    });
  });

  test("names are shown in title case", () => {
    expect(titleCase("plus")).toBe("Plus");
    expect(titleCase("past_due")).toBe("Past Due");
  });
});

const sub = (over: Partial<SubscriptionData>): SubscriptionData => ({
  exists: true,
  status: "active",
  subscription_type: "plus",
  billing_interval: "annual",
  is_trial: false,
  trial_ends_at: null,
  current_period_end: "2027-11-24T00:00:00.000Z",
  cancel_at_period_end: false,
  ...over,
});
const NONE: SubscriptionData = {
  exists: false,
  status: null,
  subscription_type: null,
  billing_interval: null,
  is_trial: null,
  trial_ends_at: null,
  current_period_end: null,
  cancel_at_period_end: null,
};

describe("plan buttons (docs/product.md §4)", () => {
  test("Pro and Max are 'Coming Soon' and disabled, whatever the subscription", () => {
    for (const s of [
      NONE,
      sub({ is_trial: true }),
      sub({ subscription_type: "pro" }),
      sub({ subscription_type: "max" }),
    ]) {
      expect(planButton("pro", s)).toEqual({ label: "Coming Soon", disabled: true });
      expect(planButton("max", s)).toEqual({ label: "Coming Soon", disabled: true });
    }
  });

  test("no subscription (or an ended one): 'Subscribe'", () => {
    expect(planButton("plus", NONE)).toEqual({ label: "Subscribe", disabled: false });
    expect(planButton("plus", undefined)).toEqual({ label: "Subscribe", disabled: false });
    expect(planButton("plus", sub({ status: "canceled" }))).toEqual({ label: "Subscribe", disabled: false });
  });

  test("a trial, running or expired: 'Upgrade to Paid'", () => {
    expect(planButton("plus", sub({ is_trial: true }))).toEqual({ label: "Upgrade to Paid", disabled: false });
    expect(planButton("plus", sub({ is_trial: true, status: "trial_expired" }))).toEqual({
      label: "Upgrade to Paid",
      disabled: false,
    });
  });

  test("same plan and billing: 'Current Plan', disabled; same plan, other billing: 'Switch Billing'", () => {
    expect(planButton("plus", sub({}))).toEqual({ label: "Current Plan", disabled: true });
    expect(planButton("plus", sub({ status: "past_due" }))).toEqual({ label: "Current Plan", disabled: true });
    expect(planButton("plus", sub({ billing_interval: "monthly" }))).toEqual({
      label: "Switch Billing",
      disabled: false,
    });
  });

  test("another plan: 'Upgrade' when higher in plus < pro < max, else 'Downgrade'", () => {
    expect(planButton("plus", sub({ subscription_type: "pro" }))).toEqual({ label: "Downgrade", disabled: false });
    expect(planButton("plus", sub({ subscription_type: "max" }))).toEqual({ label: "Downgrade", disabled: false });
  });
});

describe("plan prices (docs/product.md §9)", () => {
  const prices: PricesData = {
    individual: {
      plus: { monthly: { unit_amount: 8.99 }, annual: { unit_amount: 89.88 } },
      pro: { monthly: null, annual: { unit_amount: 179.88 } },
      max: { monthly: { unit_amount: 30 }, annual: null },
    },
    payments_available: true,
  };

  test("the monthly display is the annual price / 12; the annual total is shown", () => {
    expect(planPrice("plus", prices)).toEqual({ monthly: "$7.49", annual: "$89.88" });
    expect(planPrice("pro", prices)).toEqual({ monthly: "$14.99", annual: "$179.88" });
    expect(
      planPrice("plus", {
        ...prices,
        individual: { ...prices.individual, plus: { monthly: null, annual: { unit_amount: 100 } } },
      }),
    ).toEqual({ monthly: "$8.33", annual: "$100.00" });
  });

  test("a missing annual price shows the fallback monthly price and '$--' (a monthly price is never used: billed annually only)", () => {
    expect(planPrice("max", prices)).toEqual({ monthly: "$23.99", annual: "$--" });
    expect(planPrice("plus", undefined)).toEqual({ monthly: "$7.99", annual: "$--" });
    expect(planPrice("pro", undefined)).toEqual({ monthly: "$15.99", annual: "$--" });
    expect(planPrice("max", undefined)).toEqual({ monthly: "$23.99", annual: "$--" });
  });

  test("Pro and Max list 'Everything in Plus/Pro' and 'To be announced...'; Plus marks full-text search and collaboration Coming Soon", () => {
    expect(PLAN_DETAILS.pro.features.map((f) => f.text)).toEqual(["Everything in Plus", "To be announced..."]);
    expect(PLAN_DETAILS.max.features.map((f) => f.text)).toEqual(["Everything in Pro", "To be announced..."]);
    expect(PLAN_DETAILS.plus.features.filter((f) => f.comingSoon).map((f) => f.text)).toEqual([
      "Full-text search",
      "Collaboration",
    ]);
  });
});

describe("Cancel Subscription and checkout", () => {
  test("Cancel shows only for an existing paid plan not set to cancel (docs/product.md §4)", () => {
    expect(canCancel(sub({}))).toBe(true);
    expect(canCancel(sub({ status: "past_due" }))).toBe(true);
    expect(canCancel(sub({ cancel_at_period_end: true }))).toBe(false);
    expect(canCancel(sub({ is_trial: true }))).toBe(false);
    expect(canCancel(sub({ is_trial: true, status: "trial_expired" }))).toBe(false);
    expect(canCancel(sub({ status: "trial_expired" }))).toBe(false);
    expect(canCancel(sub({ status: "canceled" }))).toBe(false);
    expect(canCancel(NONE)).toBe(false);
  });

  test("checkout returns to /settings?tab=subscription with subscription_checkout=success or cancel (docs/product.md §7)", () => {
    expect(checkoutReturnUrls("https://lr.example")).toEqual({
      success_url: "https://lr.example/settings?tab=subscription&subscription_checkout=success",
      cancel_url: "https://lr.example/settings?tab=subscription&subscription_checkout=cancel",
    });
  });

  test("a paid plan in force is what a completed checkout leads to", () => {
    expect(isPaidPlan(sub({}))).toBe(true);
    expect(isPaidPlan(sub({ is_trial: true }))).toBe(false);
    expect(isPaidPlan(sub({ status: "past_due" }))).toBe(false);
    expect(isPaidPlan(NONE)).toBe(false);
  });
});

describe("the plan marked 'Your plan'", () => {
  test("is the paid plan in force, whichever its button says", () => {
    expect(isCurrentPlan("plus", sub({}))).toBe(true);
    expect(isCurrentPlan("pro", sub({ subscription_type: "pro" }))).toBe(true);
    expect(isCurrentPlan("plus", sub({ billing_interval: "monthly", status: "past_due" }))).toBe(true);
    expect(isCurrentPlan("plus", sub({ is_trial: true }))).toBe(false);
    expect(isCurrentPlan("plus", sub({ status: "canceled" }))).toBe(false);
    expect(isCurrentPlan("plus", NONE)).toBe(false);
    expect(isCurrentPlan("pro", sub({}))).toBe(false);
  });
});

describe("withoutPayments (a server with no payment provider)", () => {
  test("disables every button that would start a checkout and keeps its label; others are unchanged", () => {
    const sub: SubscriptionData = {
      exists: true,
      status: "active",
      subscription_type: "plus",
      billing_interval: "annual",
      is_trial: true,
      trial_ends_at: null,
      current_period_end: null,
      cancel_at_period_end: false,
    };
    expect(withoutPayments(planButton("plus", sub), true)).toEqual({ label: "Upgrade to Paid", disabled: true });
    expect(withoutPayments(planButton("plus", sub), false)).toEqual({ label: "Upgrade to Paid", disabled: false });
    expect(withoutPayments(planButton("pro", sub), true)).toEqual({ label: "Coming Soon", disabled: true });
    expect(withoutPayments(planButton("plus", undefined), true)).toEqual({ label: "Subscribe", disabled: true });
  });
});
