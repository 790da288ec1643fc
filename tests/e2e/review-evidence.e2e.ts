import { expect, expectNoSeriousA11yViolations, islandsReady, signInNewUser, test } from "./fixtures.ts";

// Issue 13 on the review page, in Chromium against the running app: filters under the topic input, shown under the
// query; study designs on the cards and beside the citations; the "How this review was made" panel.

test("filters go with the topic, show under the query, and the review says how it was made", async ({ page }) => {
  test.setTimeout(60_000);
  await signInNewUser(page, "Evidence Reader");
  await page.goto("/literature_management");
  await islandsReady(page);
  const workspace = page.getByTestId("review-workspace");
  await workspace.getByTestId("new-review-button").click();
  await workspace.getByTestId("review-topic-input").fill("vertebral osteomyelitis");
  await workspace.getByTestId("review-filters-toggle").click();
  await workspace.getByTestId("filter-year-from").fill("2000");
  await workspace.getByTestId("filter-humans").check();
  await workspace.getByTestId("review-topic-submit").click();
  await expect(workspace.getByTestId("review-summary")).toBeVisible({ timeout: 20_000 });
  await expect(workspace.getByTestId("review-filters-line")).toHaveText(
    "Filters: Published 2000 or later · Humans only",
  );

  // Study designs: on cards, and as badges beside citations in the summary.
  await expect(workspace.getByTestId("study-design").first()).toBeVisible();
  await expect(workspace.getByTestId("citation-design").first()).toBeVisible();

  // The panel opens on demand and shows the flow from the index to the citations.
  const panel = workspace.getByTestId("review-how-made-panel");
  await panel.getByText("How this review was made").click();
  const howMade = workspace.getByTestId("review-how-made");
  await expect(howMade).toContainText("articles in the index address every concept of the topic");
  await expect(howMade).toContainText("cited");
  await expect(howMade).toContainText("Filters: Published 2000 or later; Humans only.");
  await expect(workspace.getByTestId("how-made-query")).toContainText("osteomyelitis");
  await expectNoSeriousA11yViolations(page);
});
