import { readFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import {
  createAccount,
  expect,
  expectNoSeriousA11yViolations,
  islandsReady,
  signIn,
  signInNewUser,
  test,
  TEST_PASSWORD,
  waitForMail,
} from "./fixtures.ts";

// A new user's first week (issue 35), at a phone's width (390 px) and a laptop's (1366 px): the review form after a
// refused topic, its length limit and its draft; cited cards with their [n], the evidence table's designs and the
// quoted sentence marked; the "Download my data" link opened signed out and by another account; the password change
// and its toasts; public pages seen signed in; the migration banner on a phone.

const WIDTHS = [
  { name: "phone", width: 390, height: 844 },
  { name: "laptop", width: 1366, height: 900 },
] as const;

/** Opens the review history on a phone, where it sits behind its toggle, and selects the review `id`. */
async function selectReview(page: Page, id: string): Promise<void> {
  const toggle = page.getByTestId("review-history-toggle");
  if ((await toggle.isVisible()) && (await toggle.getAttribute("aria-expanded")) !== "true") await toggle.click();
  await page
    .locator(`[data-testid="review-history-item"][data-review-id="${id}"]`)
    .getByTestId("review-history-select")
    .click();
  await expect(page.getByTestId("review-detail")).toHaveAttribute("data-review-id", id);
}

/** Creates an empty review through the API with the page's stored token. */
async function createReview(page: Page): Promise<string> {
  const token = await page.evaluate(() => localStorage.getItem("access_token"));
  const res = await page.request.post("/api/v1/literature_review/create", {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { id: string }).id;
}

/** Keeps a screenshot when E2E_SCREENSHOT_DIR is set. */
async function shot(page: Page, name: string): Promise<void> {
  const dir = process.env.E2E_SCREENSHOT_DIR;
  if (dir) await page.screenshot({ path: `${dir}/${name}.png`, fullPage: false });
}

/** Whether the page scrolls sideways. */
async function overflowsSideways(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth + 1);
}

for (const size of WIDTHS) {
  test.describe(`at ${size.width} px`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });

    test("the topic form: its limit as the user types, a refused topic said once beside a usable form, a draft kept across reviews", async ({
      page,
    }) => {
      await signInNewUser(page, "Fay Form");
      const first = await createReview(page);
      const second = await createReview(page);
      const starts: string[] = [];
      page.on("request", (r) => {
        if (r.url().includes("/api/v1/literature_review/start/")) starts.push(r.url());
      });
      await page.goto("/literature_management");
      await islandsReady(page);
      await selectReview(page, first);
      const input = page.getByTestId("review-topic-input");
      const submit = page.getByTestId("review-topic-submit");
      const count = page.getByTestId("review-topic-count");
      const error = page.getByTestId("review-topic-error");

      // The limit shows as the user types; past it, the topic is refused here with the server's own message.
      await input.fill("spinal fusion outcomes");
      await expect(count).toHaveText("22 / 500 characters");
      await input.fill(`spinal fusion ${"outcomes ".repeat(60)}`.trim());
      await expect(count).toHaveText("553 / 500 characters");
      await expect(count).toHaveAttribute("data-over", "true");
      await expect(error).toHaveText("Review topic must be at most 500 characters.");
      await submit.click();
      await expect(input).toBeFocused();
      expect(starts).toEqual([]);
      // A search strategy in PubMed's syntax may be longer: 2,000 characters.
      const strategy = `(${Array.from({ length: 40 }, (_, i) => `"spinal fusion ${i}"[tiab]`).join(" OR ")}) AND outcome*`;
      await input.fill(strategy);
      await expect(count).toHaveText(
        `${strategy.length.toLocaleString("en-US")} / 2,000 characters (a search strategy in PubMed's syntax)`,
      );
      await expect(error).toHaveCount(0);

      // A topic the server refuses: its message once, under the field; no banner, no toast; the form stays usable and
      // the error goes as the topic is edited.
      await input.fill("spinal[tiab] AND (fusion[tiab]");
      await submit.click();
      await expect(error).toContainText("Search strategy:");
      await shot(page, `review-refused-${size.width}`);
      expect(starts).toHaveLength(1);
      await expect(page.getByTestId("review-error-banner")).toHaveCount(0);
      await expect(page.getByTestId("toast-error")).toHaveCount(0);
      await expect(input).toBeEnabled();
      await expect(submit).toBeEnabled();
      await input.press("End");
      await input.press(")");
      await expect(error).toHaveCount(0);
      await expectNoSeriousA11yViolations(page);

      // Any other failure: said once, in the banner; the disabled form says why and offers to close it.
      await page.route("**/api/v1/literature_review/start/**", (route) =>
        route.fulfill({ status: 503, json: { detail: "The review service is busy." } }),
      );
      await submit.click();
      const banner = page.getByTestId("review-error-banner");
      await expect(banner).toContainText("Could not start the review process: The review service is busy.");
      await expect(page.getByTestId("toast-error")).toHaveCount(0);
      await expect(input).toBeDisabled();
      const locked = page.getByTestId("review-topic-locked");
      await expect(locked).toContainText("The topic can be edited again once the error above is closed.");
      await expectNoSeriousA11yViolations(page);
      await shot(page, `review-locked-${size.width}`);
      await locked.getByRole("button", { name: "Close the error and edit the topic" }).click();
      await expect(banner).toHaveCount(0);
      await expect(input).toBeEnabled();
      await expect(input).toBeFocused();
      await page.unroute("**/api/v1/literature_review/start/**");

      // The typed topic survives a visit to another review.
      await input.fill("lumbar fusion adjacent segment disease");
      await selectReview(page, second);
      await expect(page.getByTestId("review-topic-input")).toHaveValue("");
      await selectReview(page, first);
      await expect(page.getByTestId("review-topic-input")).toHaveValue("lumbar fusion adjacent segment disease");
      expect(await overflowsSideways(page)).toBe(false);
    });

    test("cited cards show their [n] and the evidence table's design; a citation's dialog marks the quoted sentence", async ({
      page,
    }) => {
      test.setTimeout(90_000);
      await signInNewUser(page, "Cy Cited");
      const id = await createReview(page);
      await page.goto("/literature_management");
      await islandsReady(page);
      await selectReview(page, id);
      await page.getByTestId("review-topic-input").fill("antibiotic treatment of vertebral osteomyelitis");
      await page.getByTestId("review-topic-submit").click();
      const summary = page.getByTestId("review-summary");
      await expect(summary).toHaveAttribute("data-revealing", "false", { timeout: 30_000 });

      // Cited cards carry the number the summary cites them by, in order.
      const cited = page.getByTestId("cited-articles").getByTestId("article-card");
      const shown = await cited.count();
      expect(shown).toBeGreaterThan(1);
      for (let i = 0; i < shown; i++)
        await expect(cited.nth(i).getByTestId("article-citation-number")).toHaveText(`[${i + 1}]`);
      // [1] in the summary is the first card.
      await summary.locator('[data-testid="citation-ref"][data-ref="1"]').first().click();
      const dialog = page.getByTestId("article-dialog");
      await expect(dialog).toBeVisible();
      const firstTitle = (await cited.first().getByRole("button").first().textContent())?.trim();
      await expect(dialog.getByRole("heading").first()).toHaveText(firstTitle!);
      // The sentence the summary quoted is marked in the abstract (beside any the evidence table read numbers from).
      const marks = dialog.getByTestId("article-dialog-mark");
      await expect(marks.first()).toBeVisible();
      const summaryText = ((await summary.textContent()) ?? "").replace(/\s+/g, " ");
      const quoted = (await marks.allTextContents())
        .map((m) =>
          m
            .replace(/\s+/g, " ")
            .trim()
            .replace(/[.!?]$/, ""),
        )
        .filter((m) => m.length > 20 && summaryText.includes(m));
      expect(quoted.length).toBeGreaterThan(0);
      await page.keyboard.press("Escape");
      await expect(dialog).toBeHidden();

      // A card and the evidence table name one design for one study.
      await page.getByTestId("evidence-table-panel").getByText("Evidence table").click();
      const rows = page.getByTestId("evidence-table").getByTestId("evidence-row");
      await expect(rows.first()).toBeVisible();
      let compared = 0;
      for (let i = 0; i < (await rows.count()); i++) {
        const row = rows.nth(i);
        const pmid = await row.getAttribute("data-pmid");
        // The row's first line: "[n] Design".
        const study = (await row.locator("th span").first().textContent()) ?? "";
        const design = /^\[\d+\]\s*(.+)$/u.exec(study.trim())?.[1]?.trim();
        const card = page.locator(`[data-testid="cited-articles"] [data-testid="article-card"][data-pmid="${pmid}"]`);
        if (!design || design === "not stated" || (await card.count()) === 0) continue;
        await expect(card.getByTestId("study-design")).toHaveText(
          new RegExp(`^${design.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`),
        );
        compared++;
      }
      expect(compared).toBeGreaterThan(0);
      await shot(page, `review-cited-${size.width}`);
      await expectNoSeriousA11yViolations(page);
      expect(await overflowsSideways(page)).toBe(false);
    });

    test("the Download my data link: signed out it leads through the login page to the file; another account is told it is not theirs", async ({
      page,
      browser,
    }) => {
      test.setTimeout(60_000);
      const owner = await createAccount(page, "Dana Data");
      const since = Date.now();
      const asked = await page.request.post("/api/v1/privacy/data-export", {
        headers: { authorization: `Bearer ${owner.token}` },
      });
      expect(asked.status()).toBe(202);
      const mail = await waitForMail(owner.email, since);
      const link = /https?:\/\/\S+\/my-data\/[0-9a-f-]{36}/.exec(mail.text)?.[0];
      expect(link).toBeDefined();
      const path = new URL(link!).pathname;

      // Signed out: the login page, then back to the download.
      await page.context().clearCookies();
      await page.goto(path);
      await expect(page).toHaveURL(new RegExp(`/login\\?next=${encodeURIComponent(path)}$`));
      await islandsReady(page);
      await page.getByLabel("Email").fill(owner.email);
      await page.getByLabel("Password").fill(TEST_PASSWORD);
      await page.getByRole("button", { name: "Log In" }).click();
      await expect(page).toHaveURL(new RegExp(`${path}$`));
      await expect(page.getByTestId("data-export-ready")).toBeVisible();
      await shot(page, `my-data-${size.width}`);
      await expectNoSeriousA11yViolations(page);
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        page.getByRole("link", { name: "Download my data" }).click(),
      ]);
      const data = JSON.parse(readFileSync(await download.path(), "utf8")) as { account: { email: string } };
      expect(data.account.email).toBe(owner.email);

      // Another account opening the same link.
      const context = await browser.newContext({ viewport: { width: size.width, height: size.height } });
      try {
        const other = await context.newPage();
        const stranger = await createAccount(other, "Sam Stranger");
        await signIn(other, stranger);
        const answer = await other.goto(path);
        expect(answer?.status()).toBe(403);
        await expect(other.getByTestId("data-export-another-account")).toHaveText(
          "This download link belongs to another account. Sign in as the account the e-mail was sent to.",
        );
        await expect(other.getByText(/expired/)).toHaveCount(0);
      } finally {
        await context.close();
      }
    });

    test("a password change says that it signs the other sessions out, and its success clears the form's earlier error", async ({
      page,
    }) => {
      await signInNewUser(page, "Pat Password");
      await page.goto("/settings");
      await islandsReady(page);
      await expect(page.locator('[data-island="SettingsPanel"]')).toHaveAttribute("data-hydrated", "true");
      const section = page.getByRole("region", { name: "Password" });
      await expect(section).toContainText(
        "Saving a new password signs you out of LitReview in every other browser and device; this one stays signed in.",
      );
      const oldToken = await page.evaluate(() => localStorage.getItem("access_token"));
      await section.getByLabel("Current Password").fill("not-my-password");
      await section.getByLabel("New Password").fill("Another-Secret-77");
      await section.getByLabel("Confirm Password").fill("Another-Secret-77");
      await section.getByRole("button", { name: "Save" }).click();
      const wrong = page.getByTestId("toast-error").filter({ hasText: "Incorrect password" });
      await expect(wrong).toBeVisible();

      await section.getByLabel("Current Password").fill(TEST_PASSWORD);
      await section.getByRole("button", { name: "Save" }).click();
      await expect(
        page.getByTestId("toast-success").filter({ hasText: "Password updated successfully." }),
      ).toBeVisible();
      await expect(page.getByTestId("toast-error")).toHaveCount(0);
      await expect(section.getByTestId("password-changed")).toHaveText(
        "Your password was changed. Every other browser and device has been signed out.",
      );
      await shot(page, `password-changed-${size.width}`);
      // As said: the other sessions' token no longer works.
      expect(
        (await page.request.get("/api/v1/users/me", { headers: { authorization: `Bearer ${oldToken}` } })).status(),
      ).toBe(401);
      await expectNoSeriousA11yViolations(page);
    });

    test("public pages show a signed-in user as signed in, with a way back, never Log In", async ({ page }) => {
      const lee = await createAccount(page, "Lee Signed-In");
      await signIn(page, lee);
      for (const path of ["/privacy", "/legal", "/cookies", "/privacy/en", "/pricing", "/landing"]) {
        await page.goto(path);
        const header = page.getByRole("banner");
        // The link home names who is signed in; from 480 px the header shows it too.
        const home = header.getByRole("link", { name: "Home (signed in as Lee Signed-In)" });
        await expect(home).toHaveAttribute("href", "/home");
        await expect(home).toBeVisible();
        if (size.width >= 480)
          await expect(header.getByTestId("signed-in-as")).toHaveText("Signed in as Lee Signed-In");
        if (size.width >= 480) {
          await expect(header.getByTestId("signed-in-as")).toHaveText("Signed in as Lee Signed-In");
          await expect(header.getByTestId("signed-in-as")).toBeVisible();
        }
        await expect(page.getByRole("link", { name: "Log In" })).toHaveCount(0);
        expect(await overflowsSideways(page)).toBe(false);
      }
      // /pricing leads a subscriber to their subscription rather than to a trial.
      await page.goto("/pricing");
      await expect(page.getByRole("main").getByRole("link", { name: "Your Subscription" })).toHaveAttribute(
        "href",
        "/settings?tab=subscription",
      );
      await expect(page.getByRole("main").getByRole("link", { name: "Start Your Free Trial" })).toHaveCount(0);
      await shot(page, `pricing-signed-in-${size.width}`);
      await expectNoSeriousA11yViolations(page);
      // Signed out, the same pages offer the login.
      await page.context().clearCookies();
      await page.goto("/privacy");
      await expect(page.getByRole("banner").getByRole("link", { name: "Log In" })).toBeVisible();
      await expect(page.getByTestId("signed-in-as")).toHaveCount(0);
    });

    test("the migration banner: folded to one line on a phone from the first visit, whole on a laptop", async ({
      page,
    }) => {
      const mo = await createAccount(page, "Mo Banner");
      await signIn(page, mo);
      await page.evaluate(() => localStorage.removeItem("banner_collapsed"));
      await page.goto("/home");
      await islandsReady(page);
      const banner = page.getByRole("note", { name: "Migration notice" });
      await expect(banner).toContainText("some data may be missing.");
      await shot(page, `banner-${size.width}`);
      const text = banner.locator("p");
      const cut = () => text.evaluate((p) => p.scrollWidth > p.clientWidth + 1);
      if (size.width < 768) {
        // Folded: one line, the rest a click away; unfolded, it stays so.
        const more = banner.getByRole("button", { name: "Show more" });
        await expect(more).toHaveAttribute("aria-expanded", "false");
        expect((await banner.boundingBox())!.height).toBeLessThanOrEqual(48);
        expect(await cut()).toBe(true);
        await more.click();
        await expect(banner.getByRole("button", { name: "Show less" })).toHaveAttribute("aria-expanded", "true");
        expect((await banner.boundingBox())!.height).toBeGreaterThan(48);
        await page.reload();
        await expect(banner.getByRole("button", { name: "Show less" })).toHaveAttribute("aria-expanded", "true");
      } else {
        await expect(banner.locator("button")).toBeHidden();
        expect(await cut()).toBe(false);
      }
      await expectNoSeriousA11yViolations(page);
    });
  });
}
