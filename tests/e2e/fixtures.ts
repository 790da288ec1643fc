import { expect, test as base, type Page } from "@playwright/test";

/**
 * The browser tests' `test`: every test fails on a script error or a console error in the page (a hydration
 * mismatch shows up there). Failed HTTP answers a test provokes on purpose (a wrong password) are logged by the
 * browser too; those are not script errors and are left out.
 */
export const test = base.extend<{ pageErrors: string[] }>({
  pageErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on("pageerror", (err) => errors.push(`pageerror: ${err.message}`));
      page.on("console", (msg) => {
        if (msg.type() === "error" && !msg.text().startsWith("Failed to load resource")) errors.push(`console: ${msg.text()}`);
      });
      await use(errors);
      expect(errors).toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

/** Waits until every island of the page is hydrated (islands/client.tsx sets the flag). */
export async function islandsReady(page: Page): Promise<void> {
  await page.locator("body[data-client-loaded]").waitFor({ state: "attached" });
}

/** A fresh address for a new account, unique across runs. */
export function uniqueEmail(): string {
  return `e2e-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.com`;
}

/**
 * Creates an account through the API and signs the page's browser context in, as the login form does: the API sets
 * the session cookie, and the token is kept in localStorage.
 */
export async function signInNewUser(page: Page, fullName: string): Promise<string> {
  const email = uniqueEmail();
  const password = "correct-horse-battery-9";
  const signup = await page.request.post("/api/v1/users/signup", { data: { email, full_name: fullName, password } });
  expect(signup.ok()).toBe(true);
  const login = await page.request.post("/api/v1/login/access-token", { form: { username: email, password } });
  expect(login.ok()).toBe(true);
  const { access_token } = (await login.json()) as { access_token: string };
  await page.goto("/landing");
  await page.evaluate((token) => localStorage.setItem("access_token", token), access_token);
  return email;
}
