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

// Issue 33 items 6 and 7 at a laptop's width: every column visible without sideways scrolling, each number opens the
// sentence it was read from, and the article dialog shows the evidence and marks its source in the abstract.
test("at 1366 px the table fits, a number opens its source sentence, the dialog marks the sources", async ({
  page,
}) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1366, height: 900 });
  await signInNewUser(page, "Wide Reader");
  await page.goto("/literature_management");
  await islandsReady(page);
  const workspace = page.getByTestId("review-workspace");
  await workspace.getByTestId("new-review-button").click();
  await workspace.getByTestId("review-topic-input").fill("spinal fusion");
  await workspace.getByTestId("review-topic-submit").click();
  const summary = workspace.getByTestId("review-summary");
  await expect(summary).toHaveAttribute("data-revealing", "false", { timeout: 30_000 });
  await workspace.getByTestId("evidence-table-panel").getByText("Evidence table").click();
  const table = workspace.getByTestId("evidence-table");
  await expect(table).toBeVisible();

  // Four columns, each header inside the window and the table inside its panel: no sideways scrolling.
  const headers = table.locator("thead th");
  await expect(headers).toHaveCount(4);
  for (const box of await headers.evaluateAll((ths) => ths.map((th) => th.getBoundingClientRect().toJSON()))) {
    expect(box.right).toBeLessThanOrEqual(1366);
    expect(box.width).toBeGreaterThan(100);
  }
  expect(await table.locator("table").evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1366);

  // A number read from an abstract opens its sentence, the number marked in it.
  const numbers = table.locator('[data-testid="evidence-participants"], [data-testid="evidence-effect"]');
  expect(await numbers.count()).toBeGreaterThan(0);
  const first = numbers.first();
  await first.click();
  await expect(first).toHaveAttribute("aria-expanded", "true");
  const source = table.getByTestId("evidence-source").first();
  await expect(source).toBeVisible();
  await expect(source.locator("mark")).not.toHaveCount(0);

  // The cited article's dialog shows what was read from it and marks the sentences it comes from.
  const row = first.locator("xpath=ancestor::tr[1]");
  await row.getByTestId("citation-ref").click();
  const dialog = page.getByTestId("article-dialog");
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId("article-evidence")).toBeVisible();
  await expect(dialog.getByTestId("article-dialog-mark").first()).toBeVisible();
  await expectNoSeriousA11yViolations(page);
});
