import type { Page } from "@playwright/test";
import {
  createAccount,
  expect,
  expectNoSeriousA11yViolations,
  islandsReady,
  signIn,
  test,
  TEST_PASSWORD,
  uniqueEmail,
} from "./fixtures.ts";

// A new user's first hour (issue 24): the login after signing up, public pricing, a destination kept through login,
// a server without payments, English readings of the legal pages, the phone banner and help button, the session
// restored from the stored token after a browser restart, and the account forms' error toast. Each at a phone's
// width (390 px) and a desktop's (1366 px), with axe on every page. E2E_SCREENSHOT_DIR, when set, keeps screenshots.

const WIDTHS = [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1366, height: 900 },
] as const;

async function shot(page: Page, name: string): Promise<void> {
  const dir = process.env.E2E_SCREENSHOT_DIR;
  if (dir) await page.screenshot({ path: `${dir}/${name}.png`, fullPage: true });
}

/** Whether the page scrolls sideways (content wider than the viewport). */
async function overflowsSideways(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth + 1);
}

/** Logs in through the form of the current /login page. */
async function logInThroughForm(page: Page, email: string, password = TEST_PASSWORD): Promise<void> {
  await islandsReady(page);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Log In" }).click();
}

for (const size of WIDTHS) {
  test.describe(`at ${size.width} px`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });

    test("after signing up, /login has the new address filled in and the password focused", async ({ page }) => {
      const email = uniqueEmail();
      await page.goto("/signup");
      await islandsReady(page);
      await page.getByLabel("Full Name").fill("Grace Hopper");
      await page.getByLabel("Email").fill(email);
      await page.getByLabel("Password", { exact: true }).fill(TEST_PASSWORD);
      await page.getByLabel("Confirm Password").fill(TEST_PASSWORD);
      await page.getByRole("button", { name: "Sign Up" }).click();
      await expect(page).toHaveURL(/\/login$/);
      await islandsReady(page);
      await expect(page.getByText("Sign up successful! Please log in.")).toBeVisible();
      await expect(page.getByLabel("Email")).toHaveValue(email);
      await expect(page.getByLabel("Password")).toBeFocused();
      await expectNoSeriousA11yViolations(page);
      await shot(page, `login-prefilled-${size.width}`);
      // Shown once: coming back to /login later starts empty.
      await page.reload();
      await islandsReady(page);
      await expect(page.getByLabel("Email")).toHaveValue("");
    });

    test("/pricing shows the plan cards read-only, linked from the landing page and the footer", async ({ page }) => {
      await page.goto("/landing");
      await page.getByRole("main").getByRole("link", { name: "See Pricing" }).click();
      await expect(page).toHaveURL(/\/pricing$/);
      await expect(page.getByRole("heading", { level: 1, name: "Pricing" })).toBeVisible();
      for (const plan of ["Plus", "Pro", "Max"]) {
        await expect(page.getByRole("heading", { level: 2, name: plan })).toBeVisible();
      }
      await expect(page.getByTestId("plan-plus-annual")).toContainText(/Billed annually: \$[\d.-]+\/year/);
      await expect(page.getByRole("main").getByRole("button")).toHaveCount(0);
      const trial = page.getByRole("main").getByRole("link", { name: "Start Your Free Trial" });
      await expect(trial).toHaveAttribute("href", "/signup");
      expect(await overflowsSideways(page)).toBe(false);
      await expectNoSeriousA11yViolations(page);
      await shot(page, `pricing-${size.width}`);
      await page.goto("/privacy");
      await page.getByRole("contentinfo").getByRole("link", { name: "Pricing" }).click();
      await expect(page).toHaveURL(/\/pricing$/);
    });

    test("a share link opened signed out leads to the article after login, a foreign next not", async ({ page }) => {
      const bob = await createAccount(page, "Bob Share");
      await page.goto("/dashboard?tab=shares&article=12345");
      await expect(page).toHaveURL(/\/login\?next=%2Fdashboard%3Ftab%3Dshares%26article%3D12345$/);
      await expectNoSeriousA11yViolations(page);
      await logInThroughForm(page, bob.email);
      await expect(page).toHaveURL(/\/dashboard\?tab=shares&article=12345$/);
      await expect(page.getByRole("heading", { name: "My Dashboard" })).toBeVisible();

      // An open-redirect attempt lands on the site's own home instead.
      await page.context().clearCookies();
      await page.evaluate(() => localStorage.clear());
      await page.goto("/login?next=%2F%2Fevil.example%2Fhome");
      await logInThroughForm(page, bob.email);
      await expect(page).toHaveURL(/\/home$/);
      expect(new URL(page.url()).host).not.toBe("evil.example");
    });

    test("without a payment provider the plans say so once and no button starts a checkout", async ({ page }) => {
      const ann = await createAccount(page, "Ann Trial");
      await page.route("**/api/v1/subscriptions/prices", (route) =>
        route.fulfill({
          json: {
            individual: {
              plus: { monthly: null, annual: null },
              pro: { monthly: null, annual: null },
              max: { monthly: null, annual: null },
            },
            payments_available: false,
          },
        }),
      );
      await signIn(page, ann);
      await page.goto("/settings?tab=subscription");
      await islandsReady(page);
      await expect(page.getByTestId("payments-unavailable")).toHaveCount(1);
      const notice = page.getByTestId("payments-unavailable");
      await expect(notice).toContainText("Online payment is not available on this server");
      await expect(page.getByTestId("plan-plus").getByRole("button", { name: "Upgrade to Paid" })).toBeDisabled();
      await expect(page.getByTestId("plan-plus-monthly")).toContainText("$7.99");
      await expectNoSeriousA11yViolations(page);
      await page.getByTestId("payments-unavailable").scrollIntoViewIfNeeded();
      await shot(page, `settings-no-payments-${size.width}`);
    });

    test("legal pages have English readings, marked as translations; the footer speaks English", async ({ page }) => {
      for (const [fr, heading] of [
        ["/legal", "Terms of Use"],
        ["/privacy", "Privacy Policy"],
        ["/cookies", "Cookie Policy"],
      ] as const) {
        await page.goto(fr);
        await page.getByRole("link", { name: "Read the English translation" }).click();
        await expect(page).toHaveURL(new RegExp(`${fr}/en$`));
        await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
        const note = page.getByTestId("translation-note");
        await expect(note).toContainText("The French version is the only governing version");
        await expect(page.getByRole("link", { name: "Read the French version" })).toHaveAttribute("href", fr);
        expect(await overflowsSideways(page)).toBe(false);
        await expectNoSeriousA11yViolations(page);
      }
      await shot(page, `cookies-en-${size.width}`);
      await expect(page.getByRole("button", { name: "Manage cookies" })).toBeVisible();
      await expect(page.getByRole("contentinfo").getByText("Gérer mes cookies")).toHaveCount(0);
    });

    test("after a browser restart (cookie gone, token kept) the token restores the session", async ({ page }) => {
      const rae = await createAccount(page, "Rae Restart");
      await signIn(page, rae);
      // The restart: session cookies go, localStorage stays.
      await page.context().clearCookies();
      await page.goto("/");
      await expect(page).toHaveURL(/\/home$/);
      await expect(page.getByRole("heading", { name: "Hi, Rae Restart" })).toBeVisible();

      await page.context().clearCookies();
      await page.goto("/settings");
      await expect(page).toHaveURL(/\/settings$/);

      await page.context().clearCookies();
      await page.goto("/login");
      await expect(page).toHaveURL(/\/home$/);
      await expectNoSeriousA11yViolations(page);

      // A token the server refuses is dropped, and the login form stays.
      await page.context().clearCookies();
      await page.evaluate(() => localStorage.setItem("access_token", "not-a-valid-token"));
      await page.goto("/login");
      await islandsReady(page);
      await expect(page.getByRole("heading", { name: "Log In" })).toBeVisible();
      await expect.poll(() => page.evaluate(() => localStorage.getItem("access_token"))).toBeNull();
      await expect(page).toHaveURL(/\/login$/);
    });

    test("forms keep the inline message and add the error toast with the server's detail", async ({ page }) => {
      const taken = await createAccount(page, "Tom Taken");
      await page.goto("/login");
      await logInThroughForm(page, taken.email, "wrong-password-1");
      const toast = page.getByTestId("toast-error");
      await expect(page.locator("form").getByRole("alert")).toHaveText("Incorrect email or password");
      await expect(toast).toContainText("Something went wrong!");
      await expect(toast).toContainText("Incorrect email or password");
      await expectNoSeriousA11yViolations(page);
      await shot(page, `login-error-${size.width}`);

      await page.goto("/signup");
      await islandsReady(page);
      await page.getByLabel("Full Name").fill("Tom Again");
      await page.getByLabel("Email").fill(taken.email);
      await page.getByLabel("Password", { exact: true }).fill(TEST_PASSWORD);
      await page.getByLabel("Confirm Password").fill(TEST_PASSWORD);
      await page.getByRole("button", { name: "Sign Up" }).click();
      const inline = page.locator("form").getByRole("alert");
      await expect(inline).toBeVisible();
      await expect(page.getByTestId("toast-error")).toContainText("Something went wrong!");
      await expect(page.getByTestId("toast-error")).toContainText((await inline.textContent()) ?? "");
      await expectNoSeriousA11yViolations(page);
    });
  });
}

test.describe("on a phone (390 px)", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the banner folds to one line and stays folded; the help button leaves the end clear", async ({ page }) => {
    const pia = await createAccount(page, "Pia Phone");
    await signIn(page, pia);
    await page.goto("/home");
    await islandsReady(page);
    const banner = page.getByRole("note", { name: "Migration notice" });
    // Folded from the first visit (issue 35); unfolded on request, and folded again.
    await banner.getByRole("button", { name: "Show more" }).click();
    const toggle = banner.getByRole("button", { name: "Show less" });
    await expect(toggle).toHaveAttribute("aria-expanded", "true");
    const open = (await banner.boundingBox())!.height;
    await toggle.click();
    await expect(banner.getByRole("button", { name: "Show more" })).toHaveAttribute("aria-expanded", "false");
    const folded = (await banner.boundingBox())!.height;
    expect(folded).toBeLessThan(open);
    expect(folded).toBeLessThanOrEqual(48);
    await expectNoSeriousA11yViolations(page);
    await shot(page, "home-banner-folded-390");

    await page.reload();
    await expect(banner.getByRole("button", { name: "Show more" })).toHaveAttribute("aria-expanded", "false");
    expect((await banner.boundingBox())!.height).toBe(folded);

    // Scrolled to the end, nothing of the footer lies under the help button.
    await page.getByRole("contentinfo").scrollIntoViewIfNeeded();
    await page.evaluate(() => {
      for (const el of document.querySelectorAll("*")) {
        if (el.scrollHeight > el.clientHeight) el.scrollTop = el.scrollHeight;
      }
    });
    const help = (await page.locator("summary[aria-label='Help']").boundingBox())!;
    const footerText = page.getByRole("contentinfo").locator("span, a, button");
    for (let i = 0; i < (await footerText.count()); i++) {
      const box = await footerText.nth(i).boundingBox();
      if (!box) continue;
      const acrossX = box.x < help.x + help.width && box.x + box.width > help.x;
      const acrossY = box.y < help.y + help.height && box.y + box.height > help.y;
      const overlaps = acrossX && acrossY;
      expect(overlaps, `footer element ${i} under the help button`).toBe(false);
    }
    await shot(page, "home-bottom-390");
  });
});

test("at 1366 px the banner shows whole, without the fold button", async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 900 });
  const dee = await createAccount(page, "Dee Desk");
  await signIn(page, dee);
  await page.goto("/home");
  const banner = page.getByRole("note", { name: "Migration notice" });
  await expect(banner).toContainText("some data may be missing.");
  await expect(banner.locator("button")).toBeHidden();
});
