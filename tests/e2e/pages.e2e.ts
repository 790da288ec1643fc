import { expect, islandsReady, signInNewUser, test } from "./fixtures.ts";

// Page-level behaviour: the remembered theme, the help contact, and an island hydrated in the browser.

test("the theme stored under 'theme' is applied before the first paint, light by default", async ({ page }) => {
  await page.goto("/landing");
  await expect(page.locator("html")).toHaveAttribute("data-theme", "light");
  const light = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);

  await page.evaluate(() => localStorage.setItem("theme", "dark"));
  // Set by the inline script in <head>, before the body is parsed: this page loads no other script.
  await page.goto("/landing");
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
  const dark = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  expect(dark).not.toBe(light);
});

test("the help button shows the support contact on public pages", async ({ page }) => {
  await page.goto("/landing");
  const help = page.getByText("Need help?");
  await expect(help).toBeHidden();
  await page.getByLabel("Help").click();
  await expect(help).toBeVisible();
  await expect(page.getByRole("link", { name: /@/ }).last()).toHaveAttribute("href", /^mailto:/);
});

test("a new account's trial opens the review workspace, hydrated as an island", async ({ page }) => {
  await signInNewUser(page, "Rosalind Franklin");
  const scripts: string[] = [];
  page.on("request", (r) => {
    if (r.resourceType() === "script") scripts.push(r.url());
  });
  await page.goto("/literature_management");
  await islandsReady(page);
  await expect(page.locator('[data-island="ReviewWorkspace"]')).toHaveAttribute("data-hydrated", "true");
  // The top bar's menus and their compact stand-in for small screens.
  const menus = page.locator('[data-island="NavMenus"]');
  await expect(menus).toHaveCount(2);
  for (const menu of await menus.all()) await expect(menu).toHaveAttribute("data-hydrated", "true");
  await expect(page.getByTestId("review-workspace")).toBeVisible();
  await expect(page.getByText("Upgrade to Access Literature Reviews")).toHaveCount(0);
  // Only this page's islands are fetched: no form island chunk comes with it.
  expect(scripts.some((u) => /LoginForm|SignupForm/.test(u))).toBe(false);
});
