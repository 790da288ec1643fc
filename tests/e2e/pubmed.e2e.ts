import { expect, expectNoSeriousA11yViolations, islandsReady, signInNewUser, test } from "./fixtures.ts";

// Issue 19 in Chromium against the running app, whose PubMed is the E-utilities stand-in (scripts/run-e2e.mjs): a
// first topic the bundled sample lacks is fetched from PubMed while the page says so, then reviewed with citations,
// and the "How this review was made" panel tells what was sent to NCBI and what came back.

test("a topic the index lacks: the page shows the fetch from PubMed, then a cited summary and what was sent to NCBI", async ({
  page,
}) => {
  test.setTimeout(60_000);
  await signInNewUser(page, "First Topic");
  await page.goto("/literature_management");
  await islandsReady(page);
  // Every progress line the page shows, however briefly, is recorded as it appears.
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { progressSeen: string[] }).progressSeen = seen;
    new MutationObserver(() => {
      const line = document.querySelector('[data-testid="review-progress"]')?.textContent;
      if (line && seen.at(-1) !== line) seen.push(line);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  const workspace = page.getByTestId("review-workspace");
  await workspace.getByTestId("new-review-button").click();
  await workspace.getByTestId("review-topic-input").fill("asthma inhaled corticosteroids children");
  await workspace.getByTestId("review-topic-submit").click();
  await expect(workspace.getByTestId("review-summary")).toBeVisible({ timeout: 30_000 });
  const seen = await page.evaluate(() => (window as unknown as { progressSeen: string[] }).progressSeen);
  expect(seen.some((l) => /^Fetching \d+ records? from PubMed…$/.test(l))).toBe(true);
  await expect(workspace.getByTestId("review-progress")).toHaveCount(0);
  await expect(workspace.getByTestId("cited-articles")).toBeVisible();

  // Issue 20: a fetched journal article's card and its dialog show the NLM citation line, as PubMed shows it.
  const cited = workspace.getByTestId("cited-articles");
  const line = cited.getByTestId("article-citation").first();
  await expect(line).toHaveText(/^.+\. \d{4}( [A-Z][a-z]{2}( \d{1,2})?)?;\d+(\([^)]+\))?:[\w.-]+\.$/);
  const card = cited
    .locator("[data-pmid]")
    .filter({ has: page.getByTestId("article-citation") })
    .first();
  await card.getByRole("button").first().click();
  await expect(page.getByTestId("article-dialog").getByTestId("article-dialog-citation")).toHaveText(
    (await line.textContent()) ?? "",
  );
  await page.keyboard.press("Escape");

  const panel = workspace.getByTestId("review-how-made-panel");
  await panel.getByText("How this review was made").click();
  const pubmed = workspace.getByTestId("how-made-pubmed");
  await expect(pubmed).toContainText("The topic's text was sent to NCBI's PubMed on");
  await expect(pubmed).toContainText("as: asthma inhaled corticosteroids children.");
  await expect(pubmed).toContainText("PubMed read it as:");
  await expect(pubmed).toContainText(/were fetched for this review|was fetched for this review/);
  await expectNoSeriousA11yViolations(page);
  if (process.env.E2E_SCREENSHOTS) {
    await page.screenshot({ path: `${process.env.E2E_SCREENSHOTS}/pubmed-review.png`, fullPage: true });
    await workspace
      .getByTestId("cited-articles")
      .screenshot({ path: `${process.env.E2E_SCREENSHOTS}/pubmed-cards.png` });
  }
});
