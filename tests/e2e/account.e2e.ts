import type { Locator, Page, Request } from "@playwright/test";
import { expect, islandsReady, signInNewUser, test, TEST_PASSWORD, uniqueEmail, waitForMail } from "./fixtures.ts";

// The account pages of a signed-up user, in a real browser against the running app (scripts/run-e2e.mjs):
// password recovery through the e-mailed link, /settings (profile, password, main interests, subscription,
// account deletion), the session's end on a rejected token, and the redirects of a signed-in user.

/** Waits for the next API call `method path` the page makes, and returns it. */
function nextCall(page: Page, method: string, path: string): Promise<Request> {
  return page.waitForRequest((r) => r.method() === method && new URL(r.url()).pathname === `/api/v1${path}`);
}

/** Signs up through the API only (no session), as someone who already has an account. */
async function existingAccount(page: Page, fullName: string): Promise<string> {
  const email = uniqueEmail();
  const res = await page.request.post("/api/v1/users/signup", {
    data: { email, full_name: fullName, password: TEST_PASSWORD },
  });
  expect(res.ok()).toBe(true);
  return email;
}

async function openSettings(page: Page, query = ""): Promise<void> {
  await page.goto(`/settings${query}`);
  await islandsReady(page);
  await expect(page.locator('[data-island="SettingsPanel"]')).toHaveAttribute("data-hydrated", "true");
}

/** Signs up `fullName`, opens /settings and returns the account's e-mail and the Password section. */
async function passwordSection(page: Page, fullName: string): Promise<{ email: string; section: Locator }> {
  const email = await signInNewUser(page, fullName);
  await openSettings(page);
  return { email, section: page.getByRole("region", { name: "Password" }) };
}

test.describe("password recovery", () => {
  test("the e-mailed link opens the reset page, the new password logs in and the old one no longer does", async ({
    page,
  }) => {
    const email = await existingAccount(page, "Rita Levi");

    await page.goto("/recover-password");
    await islandsReady(page);
    const address = page.getByLabel("Email");
    await address.focus();
    await address.blur();
    await expect(page.getByText("Email is required")).toBeVisible();

    const since = Date.now();
    await address.fill(email);
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(
      page.getByTestId("toast-success").filter({ hasText: "Password recovery email sent successfully." }),
    ).toBeVisible();

    const mail = await waitForMail(email, since);
    expect(mail.subject).toContain("Password recovery");
    const link = /https?:\/\/[^\s"<>]+\/reset-password\?token=[A-Za-z0-9_%-]+/.exec(mail.text)?.[0];
    expect(link).toBeTruthy();

    await page.goto(link!);
    await islandsReady(page);
    const newPassword = "a-brand-new-passphrase-7";
    await page.getByLabel("New Password").fill("short");
    await page.getByLabel("New Password").blur();
    await expect(page.getByText("Password must be at least 8 characters")).toBeVisible();
    await page.getByLabel("New Password").fill(newPassword);
    await expect(page.getByTestId("password-strength")).toHaveAttribute("data-level", "High");
    await page.getByLabel("Confirm Password").fill(`${newPassword}x`);
    await page.getByLabel("Confirm Password").blur();
    await expect(page.getByText("The passwords do not match")).toBeVisible();
    await page.getByLabel("Confirm Password").fill(newPassword);
    await page.getByRole("button", { name: "Reset Password" }).click();

    await expect(page).toHaveURL(/\/login$/);
    await islandsReady(page);
    await expect(page.getByText("Password updated successfully.")).toBeVisible();

    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(TEST_PASSWORD);
    await page.getByRole("button", { name: "Log In" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "Incorrect email or password" }).first()).toBeVisible();
    await page.getByLabel("Password").fill(newPassword);
    await page.getByRole("button", { name: "Log In" }).click();
    await expect(page).toHaveURL(/\/home$/);

    // The link works once.
    await page.evaluate(() => localStorage.removeItem("access_token"));
    await page.context().clearCookies();
    await page.goto(link!);
    await islandsReady(page);
    await page.getByLabel("New Password").fill("yet-another-passphrase-8");
    await page.getByLabel("Confirm Password").fill("yet-another-passphrase-8");
    await page.getByRole("button", { name: "Reset Password" }).click();
    // Said above the form (and in the error toast).
    await expect(page.locator("form").getByRole("alert").filter({ hasText: "Invalid token" })).toBeVisible();
    await expect(page).toHaveURL(/\/reset-password\?token=/);
  });

  test("without a token in the address, submitting the reset form does nothing", async ({ page }) => {
    const calls: string[] = [];
    page.on("request", (r) => {
      if (r.url().includes("/api/")) calls.push(r.url());
    });
    await page.goto("/reset-password");
    await islandsReady(page);
    await page.getByLabel("New Password").fill("a-brand-new-passphrase-7");
    await page.getByLabel("Confirm Password").fill("a-brand-new-passphrase-7");
    await page.getByRole("button", { name: "Reset Password" }).click();
    await expect(page).toHaveURL(/\/reset-password$/);
    await expect(page.getByTestId("toast-success")).toHaveCount(0);
    await expect(page.getByTestId("toast-error")).toHaveCount(0);
    expect(calls).toEqual([]);
  });
});

test.describe("settings", () => {
  test("My Profile: read-only with N/A, checks on blur, 'No changes detected.', and an update sent field by field", async ({
    page,
  }) => {
    const email = await signInNewUser(page, "Grace Hopper");
    await openSettings(page);
    await expect(page.getByRole("tab", { name: "User" })).toHaveAttribute("aria-selected", "true");
    const profile = page.getByRole("region", { name: "My Profile" });
    await expect(profile.getByText(email)).toBeVisible();
    await expect(profile.getByText("N/A")).toBeVisible();

    await profile.getByRole("button", { name: "Edit Profile" }).click();
    const save = profile.getByRole("button", { name: "Save" });
    const address = profile.getByLabel("Email", { exact: true });
    await expect(save).toBeDisabled();
    await expect(profile.getByLabel("Institutional Email")).toHaveAttribute(
      "placeholder",
      "Optional institutional email",
    );

    await address.fill("");
    await address.blur();
    await expect(profile.getByText("Email is required")).toBeVisible();
    await expect(save).toBeDisabled();
    await address.fill("grace@");
    await expect(profile.getByText("Invalid email address")).toBeVisible();
    await profile.getByLabel("Full name").fill("G".repeat(31));
    await profile.getByLabel("Full name").blur();
    await expect(profile.getByText("Full name must be at most 30 characters")).toBeVisible();

    // Cancel forgets the edits.
    await profile.getByRole("button", { name: "Cancel" }).click();
    await expect(profile.getByText(email)).toBeVisible();
    await expect(profile.getByText("Grace Hopper")).toBeVisible();

    // A change of white space only: nothing is sent, the form closes.
    await profile.getByRole("button", { name: "Edit Profile" }).click();
    await profile.getByLabel("Full name").fill("Grace Hopper  ");
    await save.click();
    await expect(page.getByTestId("toast-info").filter({ hasText: "No changes detected." })).toBeVisible();
    await expect(profile.getByRole("button", { name: "Edit Profile" })).toBeVisible();

    // A real change sends only the fields that changed.
    await profile.getByRole("button", { name: "Edit Profile" }).click();
    await profile.getByLabel("Full name").fill("Grace B. Hopper");
    await profile.getByLabel("Institutional Email").fill("grace@navy.example.mil");
    const patch = nextCall(page, "PATCH", "/users/me");
    await save.click();
    expect((await patch).postDataJSON()).toEqual({
      full_name: "Grace B. Hopper",
      institution_email: "grace@navy.example.mil",
    });
    await expect(page.getByTestId("toast-success").filter({ hasText: "User updated successfully." })).toBeVisible();
    await expect(profile.getByText("grace@navy.example.mil")).toBeVisible();
    // The user menu follows at once.
    await expect(page.getByRole("button", { name: /Grace B\. Hopper/ })).toBeVisible();

    // Emptying the institutional address sends null and shows N/A again, after a reload too.
    await profile.getByRole("button", { name: "Edit Profile" }).click();
    await profile.getByLabel("Institutional Email").fill("");
    const clear = nextCall(page, "PATCH", "/users/me");
    await save.click();
    expect((await clear).postDataJSON()).toEqual({ institution_email: null });
    await expect(profile.getByText("N/A")).toBeVisible();
    await openSettings(page);
    await expect(page.getByRole("region", { name: "My Profile" }).getByText("Grace B. Hopper")).toBeVisible();
    await expect(page.getByRole("region", { name: "My Profile" }).getByText("N/A")).toBeVisible();
  });

  test("Password: rules on blur, the strength meter, Save only when valid, and the fresh token kept", async ({
    page,
  }) => {
    const { email, section } = await passwordSection(page, "Alan Turing");
    const save = section.getByRole("button", { name: "Save" });
    const current = section.getByLabel("Current Password");
    const fresh = section.getByLabel("New Password");
    const confirm = section.getByLabel("Confirm Password");
    await expect(save).toBeDisabled();

    await current.focus();
    await current.blur();
    await expect(section.getByText("Current password is required")).toBeVisible();
    await fresh.fill("short");
    await fresh.blur();
    await expect(section.getByText("Password must be at least 8 characters")).toBeVisible();
    await fresh.fill("abcdefgh");
    await expect(section.getByText("Password strength: Low (1/4)")).toBeVisible();
    const newPassword = "Enigma-Machine-1942";
    await fresh.fill(newPassword);
    await expect(section.getByTestId("password-strength")).toHaveAttribute("data-level", "High");
    await confirm.fill("Enigma-Machine-1943");
    await confirm.blur();
    await expect(section.getByText("The passwords do not match")).toBeVisible();
    await current.fill(TEST_PASSWORD);
    await expect(save).toBeDisabled();
    await confirm.fill(newPassword);
    await expect(save).toBeEnabled();

    const oldToken = await page.evaluate(() => localStorage.getItem("access_token"));
    await save.click();
    await expect(page.getByTestId("toast-success").filter({ hasText: "Password updated successfully." })).toBeVisible();
    await expect(current).toHaveValue("");
    const newToken = await page.evaluate(() => localStorage.getItem("access_token"));
    expect(newToken).toBeTruthy();
    expect(newToken).not.toBe(oldToken);
    // Other sessions end; this one carries on with the fresh token and the renewed cookie.
    expect(
      (await page.request.get("/api/v1/users/me", { headers: { authorization: `Bearer ${oldToken}` } })).status(),
    ).toBe(401);
    expect(
      (await page.request.get("/api/v1/users/me", { headers: { authorization: `Bearer ${newToken}` } })).status(),
    ).toBe(200);
    await openSettings(page);
    await expect(page).toHaveURL(/\/settings$/);
    // This browser holds the session cookie, so its API writes name their origin, as a page's would.
    const origin = new URL(page.url()).origin;
    const login = await page.request.post("/api/v1/login/access-token", {
      form: { username: email, password: newPassword },
      headers: { origin },
    });
    expect(login.status()).toBe(200);

    // A wrong current password is the server's error, in a toast.
    const again = page.getByRole("region", { name: "Password" });
    await again.getByLabel("Current Password").fill("not-my-password");
    await again.getByLabel("New Password").fill("Another-Secret-77");
    await again.getByLabel("Confirm Password").fill("Another-Secret-77");
    await again.getByRole("button", { name: "Save" }).click();
    await expect(page.getByTestId("toast-error").filter({ hasText: "Incorrect password" })).toBeVisible();
  });

  test("the strength meter loading after the first character does not move Save", async ({ page }) => {
    const { section } = await passwordSection(page, "Grace Murray");
    const save = section.getByRole("button", { name: "Save" });
    // The meter's code loads on the first character; a slow network makes that moment visible.
    await page.route("**/assets/*.js", async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 800));
      await route.continue();
    });
    await section.getByLabel("New Password").fill("a");
    await expect(section.getByTestId("password-strength")).toHaveCount(0);
    const before = (await save.boundingBox())!.y;
    await expect(section.getByTestId("password-strength")).toBeVisible();
    expect((await save.boundingBox())!.y).toBeCloseTo(before, 0);
  });

  test("a request refused for the old token while the password change is answered does not end the session", async ({
    page,
  }) => {
    const { section } = await passwordSection(page, "Ada Lovelace");
    await section.getByLabel("Current Password").fill(TEST_PASSWORD);
    await section.getByLabel("New Password").fill("Analytical-Engine-1843");
    await section.getByLabel("Confirm Password").fill("Analytical-Engine-1843");
    // As a user sees the form before saving: the strength meter shown.
    await expect(section.getByTestId("password-strength")).toHaveAttribute("data-level", "High");
    const save = section.getByRole("button", { name: "Save" });
    await expect(save).toBeEnabled();
    // The server ends the other sessions, the old token included, before its answer reaches the page. Meanwhile the
    // page's queries refetch (the tab shown again), still with the old token: the server refuses them.
    const refused: string[] = [];
    page.on("response", (r) => {
      if (r.status() === 401) refused.push(new URL(r.url()).pathname);
    });
    await page.route("**/api/v1/users/me/password", async (route) => {
      const answer = await route.fetch();
      const refusal = page.waitForResponse((r) => r.status() === 401, { timeout: 10_000 });
      await page.evaluate(() => window.dispatchEvent(new Event("visibilitychange")));
      await refusal;
      await route.fulfill({ response: answer });
    });
    await save.click();
    await expect(page.getByTestId("toast-success").filter({ hasText: "Password updated successfully." })).toBeVisible();
    expect(refused.length).toBeGreaterThan(0);
    // Still signed in, on the same page: the refused requests were sent again with the new token.
    await expect(section.getByLabel("Current Password")).toHaveValue("");
    await expect(page).toHaveURL(/\/settings$/);
    await expect(page.getByRole("region", { name: "My Profile" })).toBeVisible();
  });

  test("Main Interests: five numbered slots, no commas, stored comma-joined, and 'No changes detected.'", async ({
    page,
  }) => {
    await signInNewUser(page, "Rosalind Franklin");
    await openSettings(page);
    const section = page.getByRole("region", { name: "Main Interests" });
    await expect(section.getByRole("listitem")).toHaveText(["N/A", "N/A", "N/A", "N/A", "N/A"]);

    await section.getByRole("button", { name: "Edit Interests" }).click();
    const save = section.getByRole("button", { name: "Save" });
    await expect(save).toBeDisabled();
    await expect(section.getByLabel("Interest 1")).toHaveAttribute("maxlength", "100");
    await section.getByLabel("Interest 1").fill("X-ray crystallography, DNA");
    await section.getByLabel("Interest 1").blur();
    await expect(section.getByText("Commas are not allowed.")).toBeVisible();
    await expect(save).toBeEnabled();
    await save.click();
    // Refused in the page: the form stays open.
    await expect(section.getByLabel("Interest 1")).toBeVisible();

    await section.getByLabel("Interest 1").fill("X-ray crystallography");
    await section.getByLabel("Interest 3").fill("  Virus structure  ");
    const patch = nextCall(page, "PATCH", "/users/me");
    await save.click();
    expect((await patch).postDataJSON()).toEqual({ description: "X-ray crystallography, Virus structure" });
    await expect(
      page.getByTestId("toast-success").filter({ hasText: "Main interests updated successfully." }),
    ).toBeVisible();
    await expect(section.getByRole("listitem")).toHaveText([
      "X-ray crystallography",
      "Virus structure",
      "N/A",
      "N/A",
      "N/A",
    ]);

    await section.getByRole("button", { name: "Edit Interests" }).click();
    await section.getByLabel("Interest 2").fill(" Virus structure ");
    await section.getByRole("button", { name: "Save" }).click();
    await expect(page.getByTestId("toast-info").filter({ hasText: "No changes detected." })).toBeVisible();
    await expect(section.getByRole("button", { name: "Edit Interests" })).toBeVisible();

    await openSettings(page);
    await expect(page.getByRole("region", { name: "Main Interests" }).getByRole("listitem")).toHaveText([
      "X-ray crystallography",
      "Virus structure",
      "N/A",
      "N/A",
      "N/A",
    ]);
  });

  test("Subscription: the trial's status card, tab=subscription and the checkout return parameters", async ({
    page,
  }) => {
    await signInNewUser(page, "Barbara McClintock");
    await openSettings(page, "?tab=subscription&subscription_checkout=success");
    await expect(
      page.getByTestId("toast-success").filter({ hasText: "Subscription updated successfully!" }),
    ).toBeVisible();
    // The parameter is handled once, then removed from the address; the tab stays selected.
    await expect(page).toHaveURL(/\/settings\?tab=subscription$/);
    await expect(page.getByRole("heading", { name: "Subscription" })).toBeFocused();
    await expect(page.getByRole("heading", { name: "Subscription" })).toBeInViewport();
    const section = page.getByRole("region", { name: "Subscription" });
    await expect(section.getByText("Active Trial")).toBeVisible();
    await expect(section.getByText("Loading subscription details...")).toHaveCount(0);
    await expect(section.getByText(/Your free trial ends on/)).toBeVisible();

    await openSettings(page, "?subscription_checkout=cancel");
    await expect(
      page.getByTestId("toast-error").filter({ hasText: "Subscription process was canceled or failed." }),
    ).toBeVisible();
    await expect(page).toHaveURL(/\/settings$/);
  });

  test("Danger Zone: Delete Account asks for confirmation, then deletes the account and logs out", async ({ page }) => {
    const email = await signInNewUser(page, "Doomed Account");
    await openSettings(page);
    await expect(page.getByRole("button", { name: "Delete Account" })).toBeHidden();
    await page.getByText("Danger Zone").click();
    await page.getByRole("button", { name: "Delete Account" }).click();
    const dialog = page.getByRole("dialog", { name: "Confirmation Required" });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText("permanently deleted");
    await expect(dialog).toContainText("cannot be undone");
    await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toBeHidden();

    await page.getByRole("button", { name: "Delete Account" }).click();
    await page.getByRole("dialog", { name: "Confirmation Required" }).getByRole("button", { name: "Delete" }).click();
    await expect(page).toHaveURL(/\/login$/);
    expect(await page.evaluate(() => localStorage.getItem("access_token"))).toBeNull();
    const login = await page.request.post("/api/v1/login/access-token", {
      form: { username: email, password: TEST_PASSWORD },
    });
    expect(login.status()).toBe(400);
  });
});

test("a rejected token in any call ends the session: the token goes and the browser lands on /login", async ({
  page,
}) => {
  await signInNewUser(page, "Stale Session");
  await openSettings(page);
  // The layout's own loads (likes, shares, history) start just after hydration: let them finish with the good token,
  // so that the call refused below is the profile's save.
  await page.waitForLoadState("networkidle");
  await page.evaluate(() => localStorage.setItem("access_token", "not-a-valid-token"));
  const profile = page.getByRole("region", { name: "My Profile" });
  await profile.getByRole("button", { name: "Edit Profile" }).click();
  await profile.getByLabel("Full name").fill("Anyone");
  await profile.getByRole("button", { name: "Save" }).click();
  // The page the session ended on is kept as next, for after logging in again.
  await expect(page).toHaveURL(/\/login\?next=%2Fsettings$/);
  expect(await page.evaluate(() => localStorage.getItem("access_token"))).toBeNull();
  await page.goto("/settings");
  await expect(page).toHaveURL(/\/login\?next=%2Fsettings$/);
});

test("a signed-in user is sent from / to /home and from the account forms to /, keeping the query string", async ({
  page,
}) => {
  await signInNewUser(page, "Redirected User");
  await page.goto("/?from=newsletter");
  await expect(page).toHaveURL(/\/home\?from=newsletter$/);
  for (const path of ["/login", "/signup", "/recover-password", "/reset-password?token=abc"]) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/home$/);
  }
});
