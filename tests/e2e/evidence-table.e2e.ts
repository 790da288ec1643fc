import { readFileSync } from "node:fs";
import { parse } from "csv-parse/sync";
import { expect, expectNoSeriousA11yViolations, islandsReady, signInNewUser, test } from "./fixtures.ts";

// Issue 21 on the review page, in Chromium against the running app: the summary opens with its count of the evidence;
// the collapsed "Evidence table" panel opens on a phone-sized screen as one card per study, without the page or the
// table scrolling sideways, its citation numbers open the article, and "Download CSV" saves the table, read back by
// csv-parse.

test("the evidence table opens under the summary, fits a phone, and downloads as CSV", async ({ page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 390, height: 844 });
  await signInNewUser(page, "Table Reader");
  await page.goto("/literature_management");
  await islandsReady(page);
  const workspace = page.getByTestId("review-workspace");
  await workspace.getByTestId("new-review-button").click();
  await workspace.getByTestId("review-topic-input").fill("antibiotic treatment of vertebral osteomyelitis");
  await workspace.getByTestId("review-topic-submit").click();
  const summary = workspace.getByTestId("review-summary");
  await expect(summary).toBeVisible({ timeout: 30_000 });
  await expect(summary).toHaveAttribute("data-revealing", "false", { timeout: 20_000 });
  await expect(summary.locator("p").first()).toContainText("The evidence. The summary cites ");

  // Collapsed by default: the table is not in the page until the panel is opened.
  const panel = workspace.getByTestId("evidence-table-panel");
  await expect(panel).not.toHaveAttribute("open", "");
  await expect(workspace.getByTestId("evidence-table")).toHaveCount(0);
  await panel.getByText("Evidence table").click();
  const table = workspace.getByTestId("evidence-table");
  await expect(table).toBeVisible();
  const rows = table.getByTestId("evidence-row");
  const count = await rows.count();
  expect(count).toBeGreaterThan(0);
  // On a phone each study is a card (the four columns that fit a laptop do not fit here): no header row, each cell
  // labelled with its column, and nothing wider than the screen, the page or the table's own box.
  await expect(table.locator("thead")).toBeHidden();
  const label = await rows
    .first()
    .locator("td")
    .first()
    .evaluate((td) => getComputedStyle(td, "::before").content);
  expect(label).toBe('"Participants"');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  expect(await table.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);

  // The citation number is the summary's: it opens the cited article's dialog.
  await rows.first().getByTestId("citation-ref").click();
  await expect(page.getByTestId("article-dialog")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("article-dialog")).toBeHidden();

  await expectNoSeriousA11yViolations(page);

  const [download] = await Promise.all([page.waitForEvent("download"), table.getByTestId("evidence-csv-link").click()]);
  const name = /^litreview-antibiotic-treatment-of-vertebral-evidence-\d{4}-\d{2}-\d{2}\.csv$/;
  expect(download.suggestedFilename()).toMatch(name);
  const csv = readFileSync(await download.path(), "utf8");
  const records = parse(csv, { bom: true, record_delimiter: "\r\n" }) as string[][];
  expect(records[0]![0]).toBe("PMID");
  expect(records).toHaveLength(count + 1);
  const pmids = await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-pmid")));
  expect(records.slice(1).map((r) => r[0])).toEqual(pmids);
});
