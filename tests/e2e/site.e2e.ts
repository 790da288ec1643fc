import type { Page } from "@playwright/test";
import { expect, expectNoSeriousA11yViolations, islandsReady, signInNewUser, test } from "./fixtures.ts";

// What every page has, in a real browser: the theme toggle, the cookie banner and "Manage cookies", the
// compact navigation of small screens, a Content-Security-Policy the pages keep to, and accessibility (axe-core).

/** Waits until the page is fully loaded, and its islands hydrated when it has any. */
async function ready(page: Page): Promise<void> {
  await page.waitForLoadState("load");
  if ((await page.locator("[data-island]").count()) > 0) await islandsReady(page);
}

test.describe("theme", () => {
  test("the toggle switches to dark and back, is remembered under 'theme' and applies on every page", async ({
    page,
  }) => {
    await page.goto("/landing");
    const html = page.locator("html");
    const toggle = page.getByRole("button", { name: "Dark theme" });
    await expect(html).toHaveAttribute("data-theme", "light");
    await expect(toggle).toHaveAttribute("aria-pressed", "false");

    await toggle.click();
    await expect(html).toHaveAttribute("data-theme", "dark");
    await expect(toggle).toHaveAttribute("aria-pressed", "true");
    expect(await page.evaluate(() => localStorage.getItem("theme"))).toBe("dark");

    await page.goto("/login");
    await expect(html).toHaveAttribute("data-theme", "dark");
    await expect(page.getByRole("button", { name: "Dark theme" })).toHaveAttribute("aria-pressed", "true");

    await signInNewUser(page, "Night Owl");
    await page.goto("/home");
    await islandsReady(page);
    await expect(html).toHaveAttribute("data-theme", "dark");
    await page.getByRole("button", { name: "Dark theme" }).click();
    await expect(html).toHaveAttribute("data-theme", "light");
    expect(await page.evaluate(() => localStorage.getItem("theme"))).toBe("light");
  });
});

test.describe("cookie consent", () => {
  test.use({ consentAnswered: false });

  test("the banner asks first, sets nothing before an answer, and Manage cookies changes or withdraws the choice", async ({
    page,
  }) => {
    await page.goto("/landing");
    const banner = page.getByRole("region", { name: "Your cookie choices" });
    await expect(banner).toBeVisible();
    await expect(banner.getByRole("link", { name: "Cookie policy (in French)" })).toHaveAttribute("href", "/cookies");
    // No answer counts as refusal: nothing is stored, no cookie is set, and the question stays on the next page.
    expect(await page.context().cookies()).toEqual([]);
    expect(await page.evaluate(() => localStorage.getItem("cookie_consent"))).toBeNull();
    await page.goto("/cookies");
    await expect(banner).toBeVisible();

    await banner.getByRole("button", { name: "Accept" }).click();
    await expect(banner).toBeHidden();
    const stored = JSON.parse((await page.evaluate(() => localStorage.getItem("cookie_consent"))) ?? "null") as {
      choice: string;
      date: string;
    };
    expect(stored.choice).toBe("accepted");
    expect(Date.parse(stored.date)).toBeGreaterThan(Date.now() - 60_000);
    expect(await page.context().cookies()).toEqual([]);
    await page.reload();
    await expect(banner).toBeHidden();
    await expect(page.locator("html")).toHaveAttribute("data-consent", "accepted");

    // The language cookie may exist once accepted; withdrawing consent deletes it.
    await page.evaluate(() => {
      // biome-ignore lint/suspicious/noDocumentCookie: set as a script of the site would
      document.cookie = "lang=fr; Path=/; SameSite=Lax";
    });
    const manage = page.getByRole("button", { name: "Manage cookies" });
    await manage.click();
    await expect(banner).toBeVisible();
    await expect(banner.getByRole("button", { name: "Refuse" })).toBeFocused();
    await expect(banner.getByRole("status")).toHaveText("Your current choice: cookies accepted.");
    await banner.getByRole("button", { name: "Refuse" }).click();
    await expect(banner).toBeHidden();
    await expect(manage).toBeFocused();
    expect((await page.context().cookies()).map((c) => c.name)).not.toContain("lang");
    expect(JSON.parse((await page.evaluate(() => localStorage.getItem("cookie_consent"))) ?? "{}").choice).toBe(
      "refused",
    );

    // Escape closes a reopened banner without changing the answer.
    await manage.click();
    await expect(banner).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(banner).toBeHidden();
    expect(JSON.parse((await page.evaluate(() => localStorage.getItem("cookie_consent"))) ?? "{}").choice).toBe(
      "refused",
    );
  });

  test("signed-in pages have the banner and the control too, and a refusal leaves the session working", async ({
    page,
  }) => {
    await signInNewUser(page, "Cookie Reader");
    await page.goto("/home");
    await islandsReady(page);
    const banner = page.getByRole("region", { name: "Your cookie choices" });
    await expect(banner).toBeVisible();
    await banner.getByRole("button", { name: "Refuse" }).click();
    await expect(banner).toBeHidden();
    await page.goto("/settings");
    await expect(page).toHaveURL(/\/settings$/);
    await expect(page.getByRole("button", { name: "Manage cookies" })).toBeVisible();
  });
});

test.describe("small screens", () => {
  test.use({ viewport: { width: 390, height: 800 } });

  test("the top bar gives way to a compact menu that reaches every page and logs out", async ({ page }) => {
    await signInNewUser(page, "Pocket User");
    await page.goto("/home");
    await islandsReady(page);
    await expect(page.getByRole("button", { name: "Tools" })).toBeHidden();
    const menu = page.getByRole("button", { name: "Menu" });
    await expect(menu).toBeVisible();
    await menu.click();
    await expect(page.getByRole("menuitem")).toHaveText([
      "Home",
      "Dashboard",
      "Literature Review",
      "Literature Suggestions",
      "Settings",
      "Logout",
    ]);
    await page.getByRole("menuitem", { name: "Settings" }).click();
    await expect(page).toHaveURL(/\/settings$/);
    await islandsReady(page);
    await expect(page.getByRole("button", { name: "Manage cookies" })).toBeVisible();
    await page.getByRole("button", { name: "Menu" }).click();
    await page.getByRole("menuitem", { name: "Logout" }).click();
    await expect(page).toHaveURL(/\/login$/);
    expect(await page.evaluate(() => localStorage.getItem("access_token"))).toBeNull();
  });
});

test("no page breaks its Content-Security-Policy: the inline script runs, nothing is refused", async ({ page }) => {
  await page.addInitScript(() => {
    (window as unknown as { cspViolations: string[] }).cspViolations = [];
    document.addEventListener("securitypolicyviolation", (e) => {
      (window as unknown as { cspViolations: string[] }).cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  const violations = async () => page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);
  for (const path of ["/landing", "/login", "/cookies"]) {
    const res = await page.goto(path);
    expect(res?.headers()["content-security-policy"]).toContain("'nonce-");
    await ready(page);
    // The inline script ran: it set the theme and the consent state.
    await expect(page.locator("html")).toHaveAttribute("data-theme", "light");
    await expect(page.locator("html")).toHaveAttribute("data-consent", "refused");
    expect(await violations()).toEqual([]);
  }
  await signInNewUser(page, "Policy Keeper");
  for (const path of ["/home", "/settings", "/literature_management"]) {
    await page.goto(path);
    await islandsReady(page);
    expect(await violations()).toEqual([]);
  }
});

test.describe("accessibility (axe-core: no serious or critical violation)", () => {
  for (const path of [
    "/landing",
    "/login",
    "/signup",
    "/recover-password",
    "/reset-password?token=abc",
    "/privacy",
    "/legal",
    "/cookies",
    "/no-such-page",
  ]) {
    test(`${path}`, async ({ page }) => {
      await page.goto(path);
      await ready(page);
      await expectNoSeriousA11yViolations(page);
    });
  }

  test("forms showing their validation messages", async ({ page }) => {
    await page.goto("/signup");
    await islandsReady(page);
    await page.getByRole("button", { name: "Sign Up" }).click();
    await page.getByLabel("Password", { exact: true }).fill("abc");
    await expect(page.getByText("Full Name is required")).toBeVisible();
    await expectNoSeriousA11yViolations(page);
  });

  test.describe("with the cookie banner showing, in light and dark themes", () => {
    test.use({ consentAnswered: false });
    test("landing", async ({ page }) => {
      await page.goto("/landing");
      await ready(page);
      await expectNoSeriousA11yViolations(page);
      await page.getByRole("button", { name: "Dark theme" }).click();
      await expectNoSeriousA11yViolations(page);
    });
  });

  test("signed-in pages: /home and /settings, with its forms open, the Danger Zone's dialog, and dark theme", async ({
    page,
  }) => {
    await signInNewUser(page, "Axe User");
    await page.goto("/home");
    await islandsReady(page);
    await expectNoSeriousA11yViolations(page);

    await page.goto("/settings");
    await islandsReady(page);
    await expect(page.getByRole("region", { name: "Subscription" }).getByText("Active Trial")).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await page.getByRole("button", { name: "Edit Profile" }).click();
    await page.getByRole("button", { name: "Edit Interests" }).click();
    await page.getByLabel("Interest 1").fill("a, b");
    await page.getByLabel("Interest 1").blur();
    await page.getByLabel("New Password").fill("abc");
    await page.getByLabel("New Password").blur();
    await expectNoSeriousA11yViolations(page);
    await page.getByRole("button", { name: "Dark theme" }).click();
    await expectNoSeriousA11yViolations(page);
    await page.getByText("Danger Zone").click();
    await page.getByRole("button", { name: "Delete Account" }).click();
    await expect(page.getByRole("dialog", { name: "Confirmation Required" })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
  });
});
