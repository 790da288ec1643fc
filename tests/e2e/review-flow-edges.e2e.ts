import type { APIRequestContext, Locator, Page } from "@playwright/test";
import {
  createAccount,
  expect,
  expectNoSeriousA11yViolations,
  islandsReady,
  layoutSettled,
  signIn,
  test,
  type Account,
} from "./fixtures.ts";

// Rough edges of the review page and the dashboard (issue 24, items 7–10), at a phone's width (390 px) and a
// desktop's (1366 px), with axe on each page touched: New Review reuses an untouched empty review, history entries
// show their filters, focus follows a submitted review, a skip link on every layout, at most two toasts that step
// around what the user just used, and an unlike on the dashboard that keeps the list still and offers Undo.
// E2E_SCREENSHOT_DIR, when set, keeps screenshots.

const TOPIC = "nasopharyngeal carcinoma radiotherapy";
const CREATED = "New literature review entry created.";
const REMOVED = "Removed from your likes.";
const WIDTHS = [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1366, height: 900 },
] as const;

async function shot(page: Page, name: string): Promise<void> {
  const dir = process.env.E2E_SCREENSHOT_DIR;
  if (dir) await page.screenshot({ path: `${dir}/${name}.png`, fullPage: false });
}

const auth = (a: Account) => ({ authorization: `Bearer ${a.token}` });

/** Creates and starts a review through the API (optionally filtered), and waits until it is complete. */
async function completedReview(request: APIRequestContext, who: Account, query: string): Promise<{ pmids: number[] }> {
  const headers = auth(who);
  const base = "/api/v1/literature_review";
  const { id } = (await (await request.post(`${base}/create`, { headers })).json()) as { id: string };
  expect((await request.post(`${base}/start/${id}?${query}`, { headers })).ok()).toBe(true);
  const status = async () => {
    const res = await request.get(`${base}/status/${id}`, { headers });
    return ((await res.json()) as { status: string }).status;
  };
  await expect.poll(status, { timeout: 30_000 }).toBe("complete");
  const res = await request.get(`${base}/details/${id}?fts_limit=12`, { headers });
  const details = (await res.json()) as { fts_articles_refs: { pmid: number }[] };
  return { pmids: details.fts_articles_refs.map((a) => a.pmid) };
}

/** The review history list, unfolded first on a phone (where it folds away). */
async function history(page: Page): Promise<Locator> {
  const toggle = page.getByTestId("review-history-toggle");
  if ((await toggle.isVisible()) && (await toggle.getAttribute("aria-expanded")) === "false") await toggle.click();
  return page.getByTestId("review-history");
}

/** Whether two elements' boxes overlap on screen. */
async function overlap(a: Locator, b: Locator): Promise<boolean> {
  const [x, y] = [await a.boundingBox(), await b.boundingBox()];
  if (!x || !y) return false;
  return x.x < y.x + y.width && y.x < x.x + x.width && x.y < y.y + y.height && y.y < x.y + x.height;
}

for (const size of WIDTHS) {
  test.describe(`at ${size.width} px`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });

    test("New Review selects the untouched empty review, adding none; entries show filters", async ({ page }) => {
      test.setTimeout(90_000);
      const ada = await createAccount(page, "Ada Filters");
      const q = (extra = "") => `user_query=${encodeURIComponent(TOPIC)}${extra}`;
      await completedReview(page.request, ada, q());
      await completedReview(page.request, ada, q("&year_from=2005&humans_only=true"));
      await signIn(page, ada);
      await page.goto("/literature_management");
      await islandsReady(page);

      const list = await history(page);
      await expect(list.getByTestId("review-history-item")).toHaveCount(2);
      const filters = list.getByTestId("review-history-filters");
      await expect(filters).toHaveCount(1);
      await expect(filters).toHaveText("Filters: Published 2005 or later · Humans only");

      // The first press creates one, with the product's toast; the next ones select it and add nothing.
      await page.getByTestId("new-review-button").click();
      await expect(page.getByTestId("toast-success").filter({ hasText: CREATED })).toBeVisible();
      await expect(list.getByTestId("review-history-item")).toHaveCount(3);
      const empty = list.getByTestId("review-history-item").filter({ hasText: "Untitled Review" });
      await expect(empty).toHaveCount(1);
      const emptyId = await empty.getAttribute("data-review-id");
      await expect(page.getByTestId("review-topic-input")).toBeFocused();

      // Another review selected, then New Review: back to the same empty review, its input focused.
      await (await history(page)).getByTestId("review-history-select").nth(1).click();
      await expect(page.getByTestId("review-detail")).toHaveAttribute("data-status", "complete");
      await page.getByTestId("new-review-button").click();
      await expect(page.getByTestId("review-detail")).toHaveAttribute("data-review-id", emptyId!);
      await expect(page.getByTestId("review-topic-input")).toBeFocused();
      // Pressed again while it is selected: it stays selected (no toggle off), still nothing new.
      await page.getByTestId("new-review-button").click();
      await expect(page.getByTestId("review-detail")).toHaveAttribute("data-review-id", emptyId!);
      await expect((await history(page)).getByTestId("review-history-item")).toHaveCount(3);
      const res = await page.request.get("/api/v1/literature_review/history", { headers: auth(ada) });
      expect(((await res.json()) as { count: number }).count).toBe(3);
      await expectNoSeriousA11yViolations(page);
      await shot(page, `h12-new-review-reused-${size.width}`);
    });

    test("after a submit focus goes to the status bubble, then the summary; two toasts at most", async ({ page }) => {
      test.setTimeout(90_000);
      const bea = await createAccount(page, "Bea Focus");
      await signIn(page, bea);
      await page.goto("/literature_management");
      await islandsReady(page);
      // Every element that takes focus from here on, in order.
      await page.evaluate(() => {
        const seen: string[] = [];
        (window as unknown as { focusLog: string[] }).focusLog = seen;
        document.addEventListener("focusin", (e) => {
          const t = e.target as HTMLElement;
          seen.push(t.dataset.testid ?? t.tagName);
        });
      });
      await page.getByTestId("new-review-button").click();
      await page.getByTestId("review-topic-input").fill(TOPIC);
      await page.getByTestId("review-topic-input").press("Enter");
      await expect(page.getByTestId("review-query-bubble")).toHaveText(TOPIC);
      await expect(page.getByTestId("review-summary-panel")).toBeFocused({ timeout: 30_000 });
      const log = await page.evaluate(() => (window as unknown as { focusLog: string[] }).focusLog);
      const status = log.indexOf("review-status-bubble");
      expect(status, log.join(" ")).toBeGreaterThan(log.indexOf("review-topic-input"));
      expect(log.indexOf("review-summary-panel")).toBeGreaterThan(status);

      // Three different toasts in quick succession (started, created, deleted): never more than two on screen.
      const toasts = page.getByTestId("toasts").locator("li");
      await page.getByTestId("new-review-button").click();
      await expect(page.getByTestId("toast-success").filter({ hasText: CREATED })).toBeVisible();
      expect(await toasts.count()).toBeLessThanOrEqual(2);
      const fresh = (await history(page)).getByTestId("review-history-item").filter({ hasText: "Untitled Review" });
      await fresh.getByTestId("review-delete-button").click();
      await expect(page.getByTestId("toast-success").filter({ hasText: "Review deleted successfully." })).toBeVisible();
      expect(await toasts.count()).toBeLessThanOrEqual(2);
      await expect(page.getByTestId("toast-success").filter({ hasText: CREATED })).toBeVisible();
      // The next entry's delete button now lies under the pointer: its tooltip fades in; axe must not read it mid-fade.
      await page.mouse.move(size.width / 2, size.height - 2);
      await layoutSettled(page);
      await expectNoSeriousA11yViolations(page);
      await shot(page, `h12-focus-summary-${size.width}`);
    });

    test("a toast shown right after a submit does not cover the query bubble", async ({ page }) => {
      test.setTimeout(90_000);
      const cy = await createAccount(page, "Cy Toast");
      await signIn(page, cy);
      await page.goto("/literature_management");
      await islandsReady(page);
      await page.getByTestId("new-review-button").click();
      await page.getByTestId("review-topic-input").fill(TOPIC);
      await page.getByTestId("review-topic-submit").click();
      const started = page.getByTestId("toast-success").filter({ hasText: "Literature review process started." });
      await expect(started).toBeVisible();
      const bubble = page.getByTestId("review-query-bubble");
      await expect(bubble).toBeVisible();
      await layoutSettled(page); // the stack settles (placed before paint, then on the next frame)
      for (const t of await page.getByTestId("toasts").locator("li").all()) {
        expect(await overlap(t, bubble)).toBe(false);
      }
      await expect(page.getByTestId("toasts").locator("li")).toHaveCount(2);
      await shot(page, `h12-toast-clear-of-bubble-${size.width}`);
      await expectNoSeriousA11yViolations(page);
    });

    test("a toast on the settings page never covers the plan prices", async ({ page }) => {
      const fay = await createAccount(page, "Fay Prices");
      await signIn(page, fay);
      await page.goto("/settings?tab=subscription&subscription_checkout=cancel");
      await islandsReady(page);
      const toast = page.getByTestId("toast-error").filter({ hasText: "Subscription process was canceled or failed." });
      await expect(toast).toBeVisible();
      const prices = page.locator('[data-testid$="-monthly"], [data-testid$="-annual"]');
      await expect(prices.first()).toContainText("$");
      // The plan cards scrolled up to where the toasts are.
      await prices.first().evaluate((e) => e.scrollIntoView({ block: "start" }));
      await layoutSettled(page);
      expect(await prices.count()).toBeGreaterThanOrEqual(6);
      for (const price of await prices.all()) expect(await overlap(toast, price)).toBe(false);
      await expectNoSeriousA11yViolations(page);
      await shot(page, `h12-settings-toast-${size.width}`);
    });

    test("every layout has a skip link to the main content, shown when focused", async ({ page }) => {
      const dee = await createAccount(page, "Dee Skip");
      for (const path of ["/landing", "/pricing"]) {
        await page.goto(path);
        await page.keyboard.press("Tab");
        const skip = page.getByRole("link", { name: "Skip to main content" });
        await expect(skip).toBeFocused();
        const box = await skip.boundingBox();
        expect(box && box.y >= 0 && box.y < 80, `skip link on screen at ${path}`).toBe(true);
        await shot(page, `h12-skip-link${path.replace("/", "-")}-${size.width}`);
        await page.keyboard.press("Enter");
        await expect(page.locator("main#main-content")).toBeFocused();
      }
      await signIn(page, dee);
      for (const path of ["/home", "/dashboard", "/literature_management", "/settings"]) {
        await page.goto(path);
        await islandsReady(page);
        await page.keyboard.press("Tab");
        await expect(page.getByRole("link", { name: "Skip to main content" })).toBeFocused();
        await page.keyboard.press("Enter");
        await expect(page.locator("main#main-content")).toBeFocused();
        // The next Tab goes into the page's content, past the header and menus.
        await page.keyboard.press("Tab");
        expect(await page.evaluate(() => !!document.activeElement?.closest("main"))).toBe(true);
      }
      await page.goto("/home");
      await page.keyboard.press("Tab");
      await expectNoSeriousA11yViolations(page);
      await shot(page, `h12-skip-link-home-${size.width}`);
    });

    test("unliking on the dashboard keeps the card's place with Undo until the pointer leaves", async ({ page }) => {
      test.setTimeout(90_000);
      const eve = await createAccount(page, "Eve Unlike");
      const { pmids } = await completedReview(page.request, eve, `user_query=${encodeURIComponent(TOPIC)}`);
      expect(pmids.length).toBeGreaterThanOrEqual(4);
      // Liked oldest first, so the dashboard (newest first) lists pmids[3], [2], [1], [0].
      for (const p of pmids.slice(0, 4)) {
        expect((await page.request.post(`/api/v1/likes/${p}`, { headers: auth(eve) })).ok()).toBe(true);
      }
      await signIn(page, eve);
      await page.goto("/dashboard");
      await islandsReady(page);
      const list = page.getByTestId("liked-list");
      const items = list.locator(":scope > li");
      await expect(items).toHaveCount(4);
      const first = items.nth(0);
      const second = items.nth(1);
      const firstBox = await first.boundingBox();
      const secondBox = await second.boundingBox();

      // Unlike the first card with the mouse: its place stays (same box), the next card does not move.
      const unlike = first.getByTestId("like-button");
      // The unlike makes the list's page load again (GET /likes/my): the cards must not move when it arrives.
      const refetched = page.waitForResponse(
        (r) => r.request().method() === "GET" && new URL(r.url()).pathname === "/api/v1/likes/my",
      );
      await unlike.hover();
      await unlike.click();
      await expect(first.getByTestId("removed-placeholder")).toBeVisible();
      await expect(first.getByTestId("removed-placeholder")).toContainText("Removed from your likes");
      await expect(first.getByTestId("removed-undo")).toBeFocused();
      const toast = page.getByTestId("toast-info").filter({ hasText: REMOVED });
      await expect(toast).toBeVisible();
      await expect(toast.getByTestId("toast-action")).toHaveText("Undo");
      await refetched;
      await layoutSettled(page);
      expect(await first.boundingBox()).toEqual(firstBox);
      expect(await second.boundingBox()).toEqual(secondBox);
      expect(await overlap(toast, first.getByTestId("removed-undo"))).toBe(false);
      await expectNoSeriousA11yViolations(page);
      await shot(page, `h12-dashboard-removed-${size.width}`);

      // Undo in the placeholder: liked again, the card back in its place.
      await first.getByTestId("removed-undo").click();
      await expect(first.getByTestId("removed-placeholder")).toHaveCount(0);
      await expect(first.getByTestId("like-button")).toHaveAttribute("aria-pressed", "true");
      const liked = async (p: number) => {
        const res = await page.request.get(`/api/v1/likes/status/${p}`, { headers: auth(eve) });
        return ((await res.json()) as { liked: boolean }).liked;
      };
      await expect.poll(() => liked(pmids[3]!)).toBe(true);

      // Unlike the second one, then leave the list: only then does it close up.
      await second.getByTestId("like-button").click();
      await expect(second.getByTestId("removed-placeholder")).toBeVisible();
      await expect(items).toHaveCount(4);
      await page.mouse.move(2, 2);
      await page.getByRole("tab", { name: /Liked Articles/ }).focus();
      await expect(items).toHaveCount(3);
      await expect(list.getByTestId("removed-placeholder")).toHaveCount(0);
      await expect(list.locator(`[data-testid="article-card"][data-pmid="${pmids[2]}"]`)).toHaveCount(0);

      // The toast's Undo re-likes it.
      await page.getByTestId("toast-info").filter({ hasText: REMOVED }).getByTestId("toast-action").click();
      await expect(list.locator(`[data-testid="article-card"][data-pmid="${pmids[2]}"]`)).toHaveCount(1);
      await expect(items).toHaveCount(4);
      await shot(page, `h12-dashboard-undone-${size.width}`);
    });
  });
}
