import { expect, islandsReady, signInNewUser, test } from "./fixtures.ts";

// The main job, in a real browser against the running app and its real PubMed sample: create a review, submit a
// topic, watch it run to completion, read the summary, use its citations, page through the article lists, delete it.

const TOPIC = "nasopharyngeal carcinoma radiotherapy";

test("a literature review from topic to cited summary, then deleted", async ({ page }) => {
  test.setTimeout(90_000);
  await signInNewUser(page, "Rosalind Franklin");
  await page.goto("/literature_management");
  await islandsReady(page);

  const workspace = page.getByTestId("review-workspace");
  await expect(workspace.getByTestId("review-history-empty")).toHaveText("No review history found.");
  await expect(workspace.getByTestId("review-empty-selection")).toHaveText(
    "Select a review to see its details or create a new one.",
  );

  // New Review creates an entry, selects it and offers the topic input.
  await workspace.getByTestId("new-review-button").click();
  await expect(
    page.getByTestId("toast-success").filter({ hasText: "New literature review entry created." }),
  ).toBeVisible();
  const item = workspace.getByTestId("review-history-item");
  await expect(item).toHaveCount(1);
  await expect(item).toContainText("Untitled Review");
  await expect(item).toContainText("Created:");

  // A blank topic is refused on the page; typing clears the message.
  const input = workspace.getByTestId("review-topic-input");
  await expect(input).toHaveAttribute("placeholder", "Enter review topic...");
  await input.fill("   ");
  await workspace.getByTestId("review-topic-submit").click();
  await expect(workspace.getByTestId("review-topic-error")).toHaveText("Review topic cannot be empty.");
  await input.fill(TOPIC);
  await expect(workspace.getByTestId("review-topic-error")).toHaveCount(0);

  // Enter submits: the query bubble and a status bubble appear, then the review completes on the server.
  await input.press("Enter");
  await expect(workspace.getByTestId("review-query-bubble")).toHaveText(TOPIC);
  await expect(
    page.getByTestId("toast-success").filter({ hasText: "Literature review process started." }),
  ).toBeVisible();
  const status = workspace.getByTestId("review-status-bubble");
  await expect(status).toHaveText("Review complete.", { timeout: 30_000 });
  await expect(item).toContainText(TOPIC);

  // The summary is revealed progressively, then complete, with numbered citations.
  const summary = workspace.getByTestId("review-summary");
  await expect(summary).toHaveAttribute("data-revealing", "false", { timeout: 20_000 });
  const refs = summary.getByTestId("citation-ref");
  expect(await refs.count()).toBeGreaterThan(2);
  await expect(summary.getByTestId("citation-invalid")).toHaveCount(0);
  await expect(summary.locator("strong").first()).toBeVisible();
  await expect(summary.locator("li").first()).toBeVisible();

  // Each citation number points at the article of the same rank in 'Cited Articles'.
  const cited = workspace.getByTestId("cited-articles");
  // biome-ignore lint/performance/useDomNodeTextContent: Playwright's innerText(): the rendered text
  const citedCount = Number((await cited.getByTestId("cited-articles-count").innerText()).replace(/\D/g, ""));
  expect(citedCount).toBeGreaterThan(2);
  // The title is the heading's button; the heading also holds the card's citation number, "[1]" (issue 35 item 6).
  const firstCited = cited.getByTestId("article-card").first();
  await expect(firstCited.getByTestId("article-citation-number")).toHaveText("[1]");
  const firstCitedTitle =
    // biome-ignore lint/performance/useDomNodeTextContent: Playwright's innerText(): the rendered text
    (await firstCited.locator("h3 button").first().innerText()).trim();

  // Hovering [1] shows the preview card of the first cited article; clicking opens its full abstract.
  const ref1 = summary.locator('[data-testid="citation-ref"][data-ref="1"]').first();
  await ref1.hover();
  const preview = page.locator('[data-testid="citation-preview"][data-ref="1"]');
  await expect(preview).toBeVisible();
  await expect(preview).toContainText(firstCitedTitle.slice(0, 40));
  await ref1.click();
  const dialog = page.getByTestId("article-dialog");
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("heading").first()).toContainText(firstCitedTitle.slice(0, 40));
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();

  // 'Cited Articles' shows 6 per page; the next page shows other articles.
  const citedCards = cited.getByTestId("article-card");
  await expect(citedCards).toHaveCount(Math.min(6, citedCount));
  if (citedCount > 6) {
    const firstPmid = await citedCards.first().getAttribute("data-pmid");
    await cited.getByTestId("cited-articles-pagination").getByRole("button", { name: "Next page" }).click();
    await expect(citedCards.first()).not.toHaveAttribute("data-pmid", firstPmid ?? "");
  }

  // 'All Relevant Articles' is paged by the server, 6 at a time.
  const all = workspace.getByTestId("all-articles");
  await all.locator("summary").click();
  // biome-ignore lint/performance/useDomNodeTextContent: Playwright's innerText(): the rendered text
  const allCount = Number((await all.getByTestId("all-articles-count").innerText()).replace(/\D/g, ""));
  expect(allCount).toBeGreaterThan(6);
  const allCards = all.getByTestId("article-card");
  await expect(allCards).toHaveCount(6);
  const pageOne = await allCards.evaluateAll((cards) => cards.map((c) => c.getAttribute("data-pmid")));
  const detailsRequest = page.waitForRequest(
    (r) => r.url().includes("/literature_review/details/") && r.url().includes("fts_skip=6"),
  );
  await all.getByTestId("all-articles-pagination").getByRole("button", { name: "Next page" }).click();
  await detailsRequest;
  await expect(allCards.first()).not.toHaveAttribute("data-pmid", pageOne[0] ?? "");
  const pageTwo = await allCards.evaluateAll((cards) => cards.map((c) => c.getAttribute("data-pmid")));
  expect(pageTwo.filter((p) => pageOne.includes(p))).toEqual([]);

  // An article card opens its detail dialog.
  await allCards.first().click();
  await expect(page.getByTestId("article-dialog")).toBeVisible();
  await page.keyboard.press("Escape");

  // Reloading shows the finished review at once from history.
  await page.reload();
  await islandsReady(page);
  await workspace.getByTestId("review-history-select").first().click();
  await expect(workspace.getByTestId("review-status-bubble")).toHaveText("Review complete.");
  await expect(workspace.getByTestId("review-summary")).toHaveAttribute("data-revealing", "false");

  // Delete it: it leaves the list at once and stays gone.
  await workspace.getByRole("button", { name: "Delete Review" }).first().click();
  await expect(page.getByTestId("toast-success").filter({ hasText: "Review deleted successfully." })).toBeVisible();
  await expect(workspace.getByTestId("review-history-empty")).toBeVisible();
  await page.reload();
  await islandsReady(page);
  await expect(workspace.getByTestId("review-history-empty")).toBeVisible();
});
