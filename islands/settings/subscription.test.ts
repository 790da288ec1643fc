import { describe, expect, test } from "bun:test";
import { subscriptionStatus, titleCase } from "./subscription.ts";

describe("subscription status badge (spec §4)", () => {
  test("an active trial is 'Active Trial' in blue", () => {
    expect(subscriptionStatus({ exists: true, status: "active", is_trial: true })).toEqual({ label: "Active Trial", color: "blue" });
  });

  test("each status has the spec's colour", () => {
    expect(subscriptionStatus({ exists: true, status: "trial_expired", is_trial: true })).toEqual({ label: "Trial Expired", color: "orange" });
    expect(subscriptionStatus({ exists: true, status: "active", is_trial: false })).toEqual({ label: "Active", color: "green" });
    expect(subscriptionStatus({ exists: true, status: "past_due", is_trial: false })).toEqual({ label: "Past Due", color: "orange" });
    expect(subscriptionStatus({ exists: true, status: "canceled", is_trial: false })).toEqual({ label: "Canceled", color: "red" });
  });

  test("no subscription, or a status the spec does not colour, is grey", () => {
    expect(subscriptionStatus({ exists: false, status: null, is_trial: null })).toEqual({ label: "No Subscription", color: "grey" });
    expect(subscriptionStatus({ exists: true, status: "paused", is_trial: false })).toEqual({ label: "Paused", color: "grey" });
  });

  test("names are shown in title case", () => {
    expect(titleCase("plus")).toBe("Plus");
    expect(titleCase("past_due")).toBe("Past Due");
  });
});
