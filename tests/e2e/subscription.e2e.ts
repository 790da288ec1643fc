import { readFileSync } from "node:fs";
import type { Locator, Page } from "@playwright/test";
import { expect, expectNoSeriousA11yViolations, islandsReady, signInNewUser, test } from "./fixtures.ts";
import { SUBSCRIPTION_ACCOUNTS, type SeededTokens, type SubscriptionAccountName } from "./accounts.ts";

// The Subscription section of /settings in every state (accounts seeded by the harness, tests/e2e/seed.ts), a real
// subscribe through the Stripe stand-in's payment page and its webhook, cancelling, and the trial gate of the
// literature review and suggestions pages once a trial has ended. Prices come from the stand-in's catalogue
// (tests/support/stripe-stand-in.ts): Plus $89.88 a year, Pro $179.88, Max none (so Max shows the fallback).

function seededTokens(): SeededTokens {
  const file = process.env.E2E_FIXTURES_FILE;
  if (!file) throw new Error("E2E_FIXTURES_FILE is not set: run the browser tests through node scripts/run-e2e.mjs");
  return JSON.parse(readFileSync(file, "utf8")) as SeededTokens;
}

/** Signs the browser in as a seeded account: the session cookie for pages, the token in localStorage for the API. */
async function signInAs(page: Page, name: SubscriptionAccountName): Promise<void> {
  const token = seededTokens()[name];
  const base = new URL(process.env.E2E_BASE_URL ?? "http://127.0.0.1:3000");
  await page
    .context()
    .addCookies([
      { name: "access_token", value: token, domain: base.hostname, path: "/", httpOnly: true, sameSite: "Lax" },
    ]);
  await page.goto("/landing");
  await page.evaluate((t) => localStorage.setItem("access_token", t), token);
}

/** Opens /settings?tab=subscription and waits for the subscription to be loaded. */
async function openSubscription(page: Page, query = "?tab=subscription"): Promise<Locator> {
  await page.goto(`/settings${query}`);
  await islandsReady(page);
  const section = page.getByRole("region", { name: "Subscription" });
  await expect(section.getByText("Loading subscription details...")).toHaveCount(0);
  await expect(section.getByTestId("subscription-status")).toBeVisible();
  return section;
}

const plan = (section: Locator, name: "plus" | "pro" | "max") => section.getByTestId(`plan-${name}`);
const planButton = (section: Locator, name: "plus" | "pro" | "max") => plan(section, name).getByRole("button");

/** What each seeded state must show. */
const STATES: {
  name: SubscriptionAccountName;
  badge: string;
  color: "blue" | "orange" | "green" | "red" | "grey";
  banners: ("trial" | "expired" | "cancel")[];
  plus: string;
  plusEnabled: boolean;
  cancel: boolean;
  autoRenew?: "Yes" | "No";
}[] = [
  {
    name: "none",
    badge: "No Subscription",
    color: "grey",
    banners: [],
    plus: "Subscribe",
    plusEnabled: true,
    cancel: false,
  },
  {
    name: "trial",
    badge: "Active Trial",
    color: "blue",
    banners: ["trial"],
    plus: "Upgrade to Paid",
    plusEnabled: true,
    cancel: false,
    autoRenew: "No",
  },
  {
    name: "expired",
    badge: "Trial Expired",
    color: "orange",
    banners: ["expired"],
    plus: "Upgrade to Paid",
    plusEnabled: true,
    cancel: false,
    autoRenew: "No",
  },
  {
    name: "active",
    badge: "Active",
    color: "green",
    banners: [],
    plus: "Current Plan",
    plusEnabled: false,
    cancel: true,
    autoRenew: "Yes",
  },
  {
    name: "monthly",
    badge: "Active",
    color: "green",
    banners: [],
    plus: "Switch Billing",
    plusEnabled: true,
    cancel: true,
    autoRenew: "Yes",
  },
  {
    name: "pastDue",
    badge: "Past Due",
    color: "orange",
    banners: [],
    plus: "Current Plan",
    plusEnabled: false,
    cancel: true,
    autoRenew: "Yes",
  },
  {
    name: "canceled",
    badge: "Canceled",
    color: "red",
    banners: [],
    plus: "Subscribe",
    plusEnabled: true,
    cancel: false,
    autoRenew: "No",
  },
  {
    name: "cancelling",
    badge: "Active",
    color: "green",
    banners: ["cancel"],
    plus: "Current Plan",
    plusEnabled: false,
    cancel: false,
    autoRenew: "No",
  },
  {
    name: "granted",
    badge: "Active",
    color: "green",
    banners: [],
    plus: "Downgrade",
    plusEnabled: true,
    cancel: true,
    autoRenew: "Yes",
  },
];

/** The colour a badge is drawn in, as the theme defines it (light theme). */
const COLORS = {
  blue: "rgb(43, 108, 176)",
  orange: "rgb(156, 66, 33)",
  green: "rgb(39, 103, 73)",
  red: "rgb(197, 48, 48)",
  grey: "rgb(74, 85, 104)",
};

test.describe("the Subscription section", () => {
  for (const state of STATES) {
    test(`${state.name}: '${state.badge}', its banners, plan buttons and Cancel`, async ({ page }) => {
      await signInAs(page, state.name);
      const section = await openSubscription(page);
      const status = section.getByTestId("subscription-status");
      const badge = status.getByText(state.badge, { exact: true });
      await expect(badge).toBeVisible();
      await expect(badge).toHaveCSS("color", COLORS[state.color]);

      await expect(status.getByTestId("trial-banner")).toHaveCount(state.banners.includes("trial") ? 1 : 0);
      await expect(status.getByTestId("trial-expired-banner")).toHaveCount(state.banners.includes("expired") ? 1 : 0);
      await expect(status.getByTestId("cancel-banner")).toHaveCount(state.banners.includes("cancel") ? 1 : 0);
      if (state.banners.includes("trial"))
        await expect(status.getByTestId("trial-banner")).toContainText(/Your free trial ends on \w{3} \d{1,2}, \d{4}/);
      if (state.banners.includes("cancel"))
        await expect(status.getByTestId("cancel-banner")).toContainText(/will end on \w{3} \d{1,2}, \d{4}/);
      if (state.autoRenew)
        await expect(status.locator("dt", { hasText: "Auto-renew" }).locator("+ dd")).toHaveText(state.autoRenew);

      await expect(planButton(section, "plus")).toHaveText(state.plus);
      if (state.plusEnabled) await expect(planButton(section, "plus")).toBeEnabled();
      else await expect(planButton(section, "plus")).toBeDisabled();
      for (const other of ["pro", "max"] as const) {
        await expect(planButton(section, other)).toHaveText("Coming Soon");
        await expect(planButton(section, other)).toBeDisabled();
      }
      await expect(section.getByRole("button", { name: "Cancel Subscription" })).toHaveCount(state.cancel ? 1 : 0);
    });
  }

  test("plan prices: annual / 12 from Stripe, the fallback and '$--' where a price is missing, Pro and Max features", async ({
    page,
  }) => {
    await signInAs(page, "trial");
    const section = await openSubscription(page);
    await expect(section.getByText("All plans are billed annually.")).toBeVisible();
    await expect(plan(section, "plus").getByTestId("plan-plus-monthly")).toHaveText("$7.49/month");
    await expect(plan(section, "plus").getByTestId("plan-plus-annual")).toHaveText("Billed annually: $89.88/year");
    await expect(plan(section, "pro").getByTestId("plan-pro-monthly")).toHaveText("$14.99/month");
    await expect(plan(section, "max").getByTestId("plan-max-monthly")).toHaveText("$23.99/month");
    await expect(plan(section, "max").getByTestId("plan-max-annual")).toHaveText("Billed annually: $--/year");
    await expect(plan(section, "pro").getByRole("listitem")).toHaveText(["✓Everything in Plus", "✓To be announced..."]);
    await expect(plan(section, "max").getByRole("listitem")).toHaveText(["✓Everything in Pro", "✓To be announced..."]);
    await expect(plan(section, "plus").getByRole("listitem").filter({ hasText: "Coming Soon" })).toHaveText([
      "✓Full-text searchComing Soon",
      "✓CollaborationComing Soon",
    ]);
  });

  test("axe-core finds no serious problem in the section, nor in the cancel dialog", async ({ page }) => {
    for (const name of ["trial", "expired", "cancelling", "none"] as const) {
      await signInAs(page, name);
      await openSubscription(page);
      await expectNoSeriousA11yViolations(page);
    }
    await signInAs(page, "active");
    const section = await openSubscription(page);
    await section.getByRole("button", { name: "Cancel Subscription" }).click();
    await expect(page.getByRole("dialog", { name: "Cancel Subscription" })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await page.getByRole("dialog").getByRole("button", { name: "Keep Subscription" }).click();
    await expect(page.getByRole("dialog")).toBeHidden();
    await page.emulateMedia({ colorScheme: "dark" });
    await page.evaluate(() => document.documentElement.setAttribute("data-theme", "dark"));
    await expectNoSeriousA11yViolations(page);
  });

  test("a refused checkout shows 'Something went wrong. Please try again later' and stays on the page", async ({
    page,
  }) => {
    // A plan granted by an administrator cannot be bought over (409).
    await signInAs(page, "granted");
    const section = await openSubscription(page);
    await planButton(section, "plus").click();
    await expect(
      page.getByTestId("toast-error").filter({ hasText: "Something went wrong. Please try again later" }),
    ).toBeVisible();
    await expect(page).toHaveURL(/\/settings\?tab=subscription$/);
    await expect(planButton(section, "plus")).toHaveText("Downgrade");
    expect(await page.evaluate(() => localStorage.getItem("checkoutInProgress"))).toBeNull();
  });
});

test.describe("subscribing and cancelling", () => {
  test("Upgrade to Paid: Stripe's page, back with the toast, the paid plan once the webhook arrives; then cancel", async ({
    page,
  }) => {
    await signInNewUser(page, "Chien-Shiung Wu");
    const section = await openSubscription(page);
    await expect(section.getByText("Active Trial", { exact: true })).toBeVisible();

    // Leaving for the payment page sets the flag; the stand-in's page sends the browser straight back to success_url.
    const checkout = page.waitForRequest(
      (r) => r.method() === "POST" && new URL(r.url()).pathname === "/api/v1/subscriptions/checkout",
    );
    const leftFor = page.waitForRequest((r) => r.url().includes("/c/pay/cs_test_"));
    await planButton(section, "plus").click();
    const body = (await checkout).postDataJSON();
    expect(body).toEqual({
      subscription_type: "plus",
      billing_interval: "annual",
      success_url: new URL("/settings?tab=subscription&subscription_checkout=success", page.url()).toString(),
      cancel_url: new URL("/settings?tab=subscription&subscription_checkout=cancel", page.url()).toString(),
    });
    await leftFor;
    await page.waitForURL(/\/settings\?tab=subscription$/);
    await islandsReady(page);
    await expect(
      page.getByTestId("toast-success").filter({ hasText: "Subscription updated successfully!" }),
    ).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem("checkoutInProgress"))).toBeNull();

    // Stripe's events arrive half a second after the redirect; the page keeps reading until they have.
    const status = page.getByRole("region", { name: "Subscription" }).getByTestId("subscription-status");
    await expect(status.getByText("Active", { exact: true })).toBeVisible();
    await expect(status.getByTestId("trial-banner")).toHaveCount(0);
    const chooser = page.getByRole("region", { name: "Subscription" });
    await expect(planButton(chooser, "plus")).toHaveText("Current Plan");
    await expect(planButton(chooser, "plus")).toBeDisabled();

    // Cancel: confirmation first; keeping it changes nothing.
    await chooser.getByRole("button", { name: "Cancel Subscription" }).click();
    const dialog = page.getByRole("dialog", { name: "Cancel Subscription" });
    await expect(dialog).toContainText("will stay active until");
    await expect(dialog.getByRole("button", { name: "Keep Subscription" })).toBeFocused();
    await dialog.getByRole("button", { name: "Keep Subscription" }).click();
    await expect(dialog).toBeHidden();
    await expect(status.getByTestId("cancel-banner")).toHaveCount(0);

    const cancel = page.waitForRequest(
      (r) => r.method() === "POST" && new URL(r.url()).pathname === "/api/v1/subscriptions/cancel",
    );
    await chooser.getByRole("button", { name: "Cancel Subscription" }).click();
    await page
      .getByRole("dialog", { name: "Cancel Subscription" })
      .getByRole("button", { name: "Cancel Subscription" })
      .click();
    await cancel;
    await expect(
      page.getByTestId("toast-success").filter({
        hasText: "Subscription cancellation requested. It will remain active until the end of the current period.",
      }),
    ).toBeVisible();
    await expect(page.getByRole("dialog")).toBeHidden();
    await expect(status.getByTestId("cancel-banner")).toContainText("will end on");
    await expect(status.getByText("Active", { exact: true })).toBeVisible();
    await expect(chooser.getByRole("button", { name: "Cancel Subscription" })).toHaveCount(0);

    // A reload shows the same: it is what Stripe said, stored.
    const again = await openSubscription(page);
    await expect(again.getByTestId("cancel-banner")).toBeVisible();
    await expect(again.getByRole("button", { name: "Cancel Subscription" })).toHaveCount(0);
  });

  test("coming back from the payment page without its parameter still clears the flag and refetches", async ({
    page,
  }) => {
    await signInAs(page, "none");
    await page.goto("/landing");
    await page.evaluate(() => localStorage.setItem("checkoutInProgress", "true"));
    const refetch = page.waitForRequest((r) => new URL(r.url()).pathname === "/api/v1/subscriptions/me");
    await openSubscription(page, "");
    await refetch;
    expect(await page.evaluate(() => localStorage.getItem("checkoutInProgress"))).toBeNull();
    await expect(page.getByTestId("toast-error")).toHaveCount(0);
  });
});

test.describe("the trial gate", () => {
  test("once the trial has ended, /literature_management and /suggestions show the upgrade prompt, which leads to the plans", async ({
    page,
  }) => {
    expect(SUBSCRIPTION_ACCOUNTS.lapsed.subscription?.status).toBe("active"); // ended, never swept
    await signInAs(page, "lapsed");
    await page.goto("/literature_management");
    await expect(page.getByRole("heading", { name: "Upgrade to Access Literature Reviews" })).toBeVisible();
    await expect(
      page.getByText("The Literature Review feature requires an active Plus, Pro, or Max subscription."),
    ).toBeVisible();
    await page.goto("/suggestions");
    await expect(page.getByRole("heading", { name: "Upgrade to Access Weekly Suggestions" })).toBeVisible();
    await page.getByRole("link", { name: "View Subscription Plans" }).click();
    await expect(page).toHaveURL(/\/settings\?tab=subscription$/);
    const section = await openSubscription(page, "?tab=subscription");
    await expect(section.getByText("Trial Expired", { exact: true })).toBeVisible();
    await expect(planButton(section, "plus")).toHaveText("Upgrade to Paid");
  });

  test("a running trial opens both pages", async ({ page }) => {
    await signInAs(page, "trial");
    await page.goto("/literature_management");
    await expect(page.getByText("Upgrade to Access")).toHaveCount(0);
    await page.goto("/suggestions");
    await expect(page.getByRole("heading", { name: "Your Weekly Suggestions" })).toBeVisible();
  });
});
