import { expect, islandsReady, test, uniqueEmail } from "./fixtures.ts";

// The account journey a new user takes, in a real browser against the running app (see scripts/run-e2e.mjs).

const PASSWORD = "correct-horse-battery-9";

test("sign up, log in, land on /home, use the menus and log out", async ({ page }) => {
  const email = uniqueEmail();

  await page.goto("/signup");
  await islandsReady(page);
  await expect(page.getByText("Your account includes a free week trial of our Plus plan.")).toBeVisible();

  // Validation shows on blur, with the product's messages.
  await page.getByLabel("Email").fill("not-an-email");
  await page.getByLabel("Email").blur();
  await expect(page.getByText("Invalid email address")).toBeVisible();
  await page.getByLabel("Full Name").focus();
  await page.getByLabel("Full Name").blur();
  await expect(page.getByText("Full Name is required")).toBeVisible();

  await page.getByLabel("Full Name").fill("Ada Lovelace");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Confirm Password").fill(`${PASSWORD}x`);
  await page.getByLabel("Confirm Password").blur();
  await expect(page.getByText("The passwords do not match")).toBeVisible();
  await page.getByLabel("Confirm Password").fill(PASSWORD);
  await expect(page.getByText("The passwords do not match")).toBeHidden();
  await page.getByRole("button", { name: "Sign Up" }).click();

  await expect(page).toHaveURL(/\/login$/);
  await islandsReady(page);
  await expect(page.getByText("Sign up successful! Please log in.")).toBeVisible();

  // A wrong password shows the server's message and stays on the page.
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("wrong-password-1");
  await page.getByRole("button", { name: "Log In" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Incorrect email or password" }).first()).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);

  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Log In" }).click();

  await expect(page).toHaveURL(/\/home$/);
  await expect(page.getByRole("heading", { name: "Hi, Ada Lovelace" })).toBeVisible();
  await expect(page.getByText("Welcome back, nice to see you again!")).toBeVisible();
  await expect(page.getByText(/under migration and development/)).toBeVisible();
  await islandsReady(page);
  await expect(page.getByText("Login successful!")).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem("access_token"))).toBeTruthy();

  // The Tools menu works from the keyboard (arrows, Escape gives focus back) and with the pointer.
  const tools = page.getByRole("button", { name: "Tools" });
  await tools.focus();
  await page.keyboard.press("ArrowDown");
  await expect(page.getByRole("menuitem", { name: "Dashboard" })).toBeFocused();
  await page.keyboard.press("ArrowUp");
  await expect(page.getByRole("menuitem", { name: "Literature Suggestions" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("menu")).toBeHidden();
  await expect(tools).toBeFocused();
  await tools.click();
  await page.getByRole("menuitem", { name: "Dashboard" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole("heading", { name: "My Dashboard" })).toBeVisible();
  await islandsReady(page);

  // Logout: the token goes, the browser lands on /login, and signed-in pages are closed again.
  await page.getByRole("button", { name: /Ada Lovelace/ }).click();
  await page.getByRole("menuitem", { name: "Logout" }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => localStorage.getItem("access_token"))).toBeNull();
  await page.goto("/home");
  await expect(page).toHaveURL(/\/login\?next=%2Fhome$/);
});

test("signed-out visitors are sent to /login from signed-in pages and to /landing from /", async ({ page }) => {
  await page.goto("/literature_management");
  // The page asked for is kept as next, for after logging in.
  await expect(page).toHaveURL(/\/login\?next=%2Fliterature_management$/);
  await expect(page.getByRole("heading", { name: "Log In" })).toBeVisible();

  await page.goto("/?utm=test");
  await expect(page).toHaveURL(/\/landing\?utm=test$/);
  await expect(
    page.getByRole("heading", { name: "The ultimate research tools for biomedical scientists." }),
  ).toBeVisible();
  // A page without islands ships no script file at all.
  await expect(page.locator("script[src], script[type=module]")).toHaveCount(0);
});

test("login validates on blur with the product's messages", async ({ page }) => {
  await page.goto("/login");
  await islandsReady(page);
  await page.getByLabel("Email").focus();
  await page.getByLabel("Email").blur();
  await expect(page.getByText("Username is required")).toBeVisible();
  await page.getByLabel("Password").fill("short");
  await page.getByLabel("Password").blur();
  await expect(page.getByText("Password must be at least 8 characters")).toBeVisible();
  await expect(page.getByRole("link", { name: "Forgot Password?" })).toHaveAttribute("href", "/recover-password");
});

test("an unknown address shows the 404 page with a way back", async ({ page }) => {
  const res = await page.goto("/this/page/does-not-exist");
  expect(res?.status()).toBe(404);
  await expect(page.getByText("404", { exact: true })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Oops!" })).toBeVisible();
  await expect(page.getByText("The page you are looking for was not found.")).toBeVisible();
  await page.getByRole("link", { name: "Go Back" }).click();
  await expect(page).toHaveURL(/\/landing$/);
});
