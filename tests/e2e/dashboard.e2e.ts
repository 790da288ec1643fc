import type { APIRequestContext } from "@playwright/test";
import {
  createAccount,
  expect,
  expectNoSeriousA11yViolations,
  islandsReady,
  signIn,
  test,
  waitForMail,
  type Account,
} from "./fixtures.ts";

// Likes, shares and the dashboard (docs/product.md §2, §3, §8) in Chromium against the running app: the like state
// shared by every card of a PMID, a refused like rolled back with its toast, a share found through the user search and
// received by a second user (with its e-mail and link), page sizes by screen width, deleting a share, the tab list's
// keys.

const TOPIC = "nasopharyngeal carcinoma radiotherapy";

/**
 * Runs a review on TOPIC through the API until it completes; @returns its id and the PMIDs of its first relevant
 * articles.
 */
async function completedReview(
  request: APIRequestContext,
  account: Account,
  relevant = 20,
): Promise<{ id: string; pmids: number[] }> {
  const headers = { authorization: `Bearer ${account.token}` };
  const created = (await (await request.post("/api/v1/literature_review/create", { headers })).json()) as {
    id: string;
  };
  expect(
    (
      await request.post(`/api/v1/literature_review/start/${created.id}?user_query=${encodeURIComponent(TOPIC)}`, {
        headers,
      })
    ).ok(),
  ).toBe(true);
  await expect
    .poll(
      async () =>
        (
          (await (await request.get(`/api/v1/literature_review/status/${created.id}`, { headers })).json()) as {
            status: string;
          }
        ).status,
      { timeout: 30_000 },
    )
    .toBe("complete");
  const details = (await (
    await request.get(`/api/v1/literature_review/details/${created.id}?fts_limit=${relevant}`, { headers })
  ).json()) as {
    fts_articles_refs: { pmid: number }[];
  };
  return { id: created.id, pmids: details.fts_articles_refs.map((a) => a.pmid) };
}

test("like and unlike from a review: every card of the article follows, and the dashboard lists it", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const alice = await createAccount(page, "Alice Liddell");
  await completedReview(page.request, alice);
  await signIn(page, alice);
  await page.goto("/literature_management");
  await islandsReady(page);
  await page.getByTestId("review-history-select").first().click();

  // An article both cited and on the first page of the relevant list: its two cards share one state. The cited
  // list is paged (6 a page, in citation order), so its pages are turned until one shows such an article.
  await expect(page.getByTestId("cited-articles").getByTestId("article-card").first()).toBeVisible({ timeout: 20_000 });
  await page.getByTestId("all-articles").locator("summary").click();
  await expect(page.getByTestId("all-articles-list").getByTestId("article-card").first()).toBeVisible();
  const common = () =>
    page.evaluate(() => {
      const pmidsIn = (testId: string) =>
        [...document.querySelectorAll(`[data-testid="${testId}"] [data-testid="article-card"]`)].map((e) =>
          e.getAttribute("data-pmid"),
        );
      const relevant = new Set(pmidsIn("all-articles-list"));
      return pmidsIn("cited-articles-list").find((p) => relevant.has(p)) ?? null;
    });
  let pmid = await common();
  const nextCited = page.getByTestId("cited-articles-pagination").getByRole("button", { name: "Next page" });
  while (pmid === null && (await nextCited.count()) > 0 && (await nextCited.isEnabled())) {
    await nextCited.click();
    pmid = await common();
  }
  expect(pmid, "no article both cited and among the first relevant ones").not.toBeNull();
  const cards = page.locator(`[data-testid="article-card"][data-pmid="${pmid}"]`);
  await expect(cards).toHaveCount(2);
  const firstCited = cards.first();
  const likeButtons = cards.getByTestId("like-button");
  for (const b of await likeButtons.all()) await expect(b).toHaveAttribute("aria-pressed", "false");

  await likeButtons.first().click();
  for (const b of await likeButtons.all()) {
    await expect(b).toHaveAttribute("aria-pressed", "true");
    await expect(b).toHaveText("Unlike");
  }
  // The title is the heading's button; a cited card's heading also holds its citation number (issue 35 item 6).
  // biome-ignore lint/performance/useDomNodeTextContent: Playwright's innerText(): the rendered text
  const title = (await firstCited.locator("h3 button").innerText()).trim();

  await page.goto("/dashboard");
  await islandsReady(page);
  const liked = page.getByTestId("liked-list");
  await expect(liked.getByTestId("article-card")).toHaveCount(1);
  await expect(liked.getByTestId("article-card").locator("h3")).toHaveText(title);
  await expect(liked.getByTestId("article-note")).toContainText("Liked on ");

  // Unliking on the dashboard removes it from the list, and the server agrees.
  await liked.getByTestId("like-button").click();
  await expect(page.getByTestId("liked-list-empty")).toHaveText("No liked articles found.");
  const status = await page.request.get(`/api/v1/likes/status/${pmid}`, {
    headers: { authorization: `Bearer ${alice.token}` },
  });
  expect(((await status.json()) as { liked: boolean }).liked).toBe(false);
});

test("a like the server refuses comes back unliked with the product's toast", async ({ page }) => {
  test.setTimeout(90_000);
  const ann = await createAccount(page, "Ann Refused");
  await completedReview(page.request, ann);
  await signIn(page, ann);
  // The server answers every like with an error (the browser's request never reaches the handler).
  await page.route("**/api/v1/likes/*", (route) =>
    route.request().method() === "POST"
      ? route.fulfill({
          status: 500,
          contentType: "application/json",
          body: JSON.stringify({ detail: "Internal Server Error" }),
        })
      : route.continue(),
  );
  await page.goto("/literature_management");
  await islandsReady(page);
  await page.getByTestId("review-history-select").first().click();
  const card = page.getByTestId("cited-articles").getByTestId("article-card").first();
  await expect(card).toBeVisible({ timeout: 20_000 });
  const like = card.getByTestId("like-button");
  await like.click();
  await expect(
    page.getByTestId("toast-error").filter({ hasText: "Failed to like article. Please try again later." }),
  ).toBeVisible();
  await expect(like).toHaveAttribute("aria-pressed", "false");
});

test("share with a colleague found by name: they get the e-mail, see it under Received Shares, open it and delete it", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const bea = await createAccount(page, "Bea Sender");
  const surname = `Zed${Date.now().toString(36)}`;
  const carl = await createAccount(page, `Carl ${surname}`);
  await completedReview(page.request, bea);
  await signIn(page, bea);
  await page.goto("/literature_management");
  await islandsReady(page);
  await page.getByTestId("review-history-select").first().click();
  const card = page.getByTestId("cited-articles").getByTestId("article-card").first();
  await expect(card).toBeVisible({ timeout: 20_000 });
  const pmid = (await card.getAttribute("data-pmid"))!;
  // The title is the heading's button; a cited card's heading also holds its citation number (issue 35 item 6).
  // biome-ignore lint/performance/useDomNodeTextContent: Playwright's innerText(): the rendered text
  const title = (await card.locator("h3 button").innerText()).trim();

  await card.getByTestId("share-button").click();
  const popover = page.getByTestId("share-popover").filter({ visible: true });
  await expect(popover).toBeVisible();
  const search = popover.getByTestId("share-search");
  await expect(search).toBeFocused();
  // A name nobody has: the product's text; then the colleague's surname.
  await search.fill("Qqqxyz");
  await expect(popover.getByTestId("share-status")).toHaveText('No users found matching "Qqqxyz".');
  await search.fill("");
  await expect(popover.getByTestId("share-status")).toHaveText("");
  await search.fill(surname.toLowerCase());
  const result = popover.locator(`[data-testid="share-result"][data-email="${carl.email}"]`);
  await expect(result).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await result.click();
  const since = Date.now();
  await popover.getByTestId("share-send").click();
  await expect(
    page.getByTestId("toast-success").filter({ hasText: `Article shared with Carl ${surname}.` }),
  ).toBeVisible();
  await expect(popover).toBeHidden();

  // Sharing it again is refused with the server's detail.
  await card.getByTestId("share-button").click();
  await page
    .getByTestId("share-popover")
    .filter({ visible: true })
    .getByTestId("share-search")
    .fill(surname.toLowerCase());
  await page
    .getByTestId("share-popover")
    .filter({ visible: true })
    .locator(`[data-testid="share-result"][data-email="${carl.email}"]`)
    .click();
  await page.getByTestId("share-popover").filter({ visible: true }).getByTestId("share-send").click();
  await expect(
    page.getByTestId("toast-error").filter({ hasText: "You have already shared this article with this user." }),
  ).toBeVisible();
  await page.keyboard.press("Escape");

  const mail = await waitForMail(carl.email, since);
  expect(mail.subject).toBe("LitReview - Bea Sender shared an article with you");
  expect(mail.text).toContain(title);
  const link = /http:\/\/\S+\/dashboard\?tab=shares&article=\d+/.exec(mail.text)?.[0];
  expect(link).toContain(`article=${pmid}`);

  // Carl follows the link: Received Shares is open, with the article's dialog.
  await signIn(page, carl);
  await page.goto(new URL(link!).pathname + new URL(link!).search);
  await islandsReady(page);
  await expect(page.getByTestId("dashboard-tab-shares")).toHaveAttribute("aria-selected", "true");
  const dialog = page.getByTestId("article-dialog");
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("heading").first()).toHaveText(title);
  await page.keyboard.press("Escape");
  const shares = page.getByTestId("shares-list");
  await expect(shares.getByTestId("article-note")).toHaveText(/^Shared by Bea Sender on /);

  // A delete the server refuses is rolled back with 'Failed to delete share.'; then a real delete.
  await page.route("**/api/v1/shares/received/*", (route) =>
    route.fulfill({ status: 500, contentType: "application/json", body: "{}" }),
  );
  await shares.getByTestId("share-delete").click();
  await expect(page.getByTestId("toast-error").filter({ hasText: "Failed to delete share." })).toBeVisible();
  await expect(shares.getByTestId("article-card")).toHaveCount(1);
  await page.unroute("**/api/v1/shares/received/*");
  await shares.getByTestId("share-delete").click();
  await expect(page.getByTestId("shares-list-empty")).toHaveText("No received shares found.");
  await page.reload();
  await islandsReady(page);
  await expect(page.getByTestId("shares-list-empty")).toBeVisible();
});

test("the dashboard pages 5, 7 or 10 by screen width; its tabs work from the keyboard; no serious accessibility issue", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const dee = await createAccount(page, "Dee Many");
  const eve = await createAccount(page, "Eve Giver");
  const { pmids } = await completedReview(page.request, dee, 20);
  expect(pmids.length).toBeGreaterThanOrEqual(12);
  for (const pmid of pmids.slice(0, 12)) {
    expect(
      (await page.request.post(`/api/v1/likes/${pmid}`, { headers: { authorization: `Bearer ${dee.token}` } })).ok(),
    ).toBe(true);
  }
  expect(
    (
      await page.request.post(`/api/v1/shares/${pmids[0]}`, {
        headers: { authorization: `Bearer ${eve.token}` },
        data: { recipient_email: dee.email },
      })
    ).ok(),
  ).toBe(true);
  await signIn(page, dee);

  for (const [width, perPage] of [
    [375, 5],
    [700, 7],
    [1280, 10],
  ] as const) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/dashboard");
    await islandsReady(page);
    await expect(page.getByTestId("liked-list").getByTestId("article-card")).toHaveCount(perPage);
    await expect(page.getByTestId("dashboard-pagination")).toContainText(`Page 1 of ${Math.ceil(12 / perPage)}`);
  }
  // Newest first: the last like leads.
  await expect(page.getByTestId("liked-list").getByTestId("article-card").first()).toHaveAttribute(
    "data-pmid",
    String(pmids[11]),
  );
  await page.getByTestId("dashboard-pagination").getByRole("button", { name: "Next page" }).click();
  await expect(page.getByTestId("liked-list").getByTestId("article-card")).toHaveCount(2);

  // The tab list: one tab stop, arrows move and select.
  await page.getByTestId("dashboard-tab-likes").focus();
  await page.keyboard.press("ArrowDown");
  await expect(page.getByTestId("dashboard-tab-shares")).toBeFocused();
  await expect(page.getByTestId("dashboard-tab-shares")).toHaveAttribute("aria-selected", "true");
  await expect(page.getByTestId("shares-list").getByTestId("article-note")).toHaveText(/^Shared by Eve Giver on /);
  await expectNoSeriousA11yViolations(page);
  // The share popover open on the dashboard.
  await page.getByTestId("shares-list").getByTestId("share-button").click();
  await expect(page.getByTestId("share-popover").filter({ visible: true })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await page.keyboard.press("Escape");
  await page.keyboard.press("Home");
  await page.getByTestId("dashboard-tab-shares").focus();
  await page.keyboard.press("Home");
  await expect(page.getByTestId("dashboard-tab-likes")).toHaveAttribute("aria-selected", "true");
  await expectNoSeriousA11yViolations(page);
});
