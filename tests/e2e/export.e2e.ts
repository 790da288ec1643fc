import { readFileSync } from "node:fs";
import { createAccount, expect, islandsReady, signIn, test } from "./fixtures.ts";

// Exports in Chromium (issue 13): a completed review's cited articles downloaded as RIS, its summary copied with
// Vancouver references, and the liked articles downloaded as MEDLINE (.nbib) from the dashboard.

const TOPIC = "nasopharyngeal carcinoma radiotherapy";

test("a review's cited articles download as RIS, its summary copies with references, liked articles download as .nbib", async ({
  page,
  context,
}) => {
  test.setTimeout(90_000);
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const ada = await createAccount(page, "Ada Export");
  const headers = { authorization: `Bearer ${ada.token}` };
  const review = (await (await page.request.post("/api/v1/literature_review/create", { headers })).json()) as {
    id: string;
  };
  expect(
    (
      await page.request.post(`/api/v1/literature_review/start/${review.id}?user_query=${encodeURIComponent(TOPIC)}`, {
        headers,
      })
    ).ok(),
  ).toBe(true);
  await expect
    .poll(
      async () =>
        (
          (await (await page.request.get(`/api/v1/literature_review/status/${review.id}`, { headers })).json()) as {
            status: string;
          }
        ).status,
      { timeout: 30_000 },
    )
    .toBe("complete");

  await signIn(page, ada);
  await page.goto("/literature_management");
  await islandsReady(page);
  await page.getByTestId("review-history-select").first().click();
  const cited = page.getByTestId("export-cited");
  await expect(cited).toBeVisible({ timeout: 20_000 });
  const citedCount = await page.getByTestId("cited-articles").getByTestId("article-card").count();
  // The review says which engine wrote its summary (no language model is configured here).
  await expect(page.getByTestId("summary-engine")).toHaveText(
    "Summary written by the extractive summarizer: every sentence is quoted from the abstract it cites.",
  );

  const [download] = await Promise.all([page.waitForEvent("download"), cited.locator('[data-format="ris"]').click()]);
  // The file name says what it holds: the topic, the list and the day (the server's UTC date).
  expect(download.suggestedFilename()).toMatch(
    /^litreview-nasopharyngeal-carcinoma-radiotherapy-cited-\d{4}-\d{2}-\d{2}\.ris$/,
  );
  const ris = readFileSync(await download.path(), "utf8");
  expect(ris.startsWith("TY  - JOUR")).toBe(true);
  expect((ris.match(/^ER {2}- /gm) ?? []).length).toBeGreaterThanOrEqual(citedCount);

  await page.getByTestId("copy-summary").click();
  await expect(page.getByTestId("toast-success").filter({ hasText: "Summary and references copied." })).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied.startsWith(`Literature review: ${TOPIC}`)).toBe(true);
  expect(copied).toContain("\nReferences\n1. ");

  // Like the first cited article, then export the liked articles from the dashboard.
  await page.getByTestId("cited-articles").getByTestId("article-card").first().getByTestId("like-button").click();
  await expect(
    page.getByTestId("cited-articles").getByTestId("article-card").first().getByTestId("like-button"),
  ).toHaveAttribute("aria-pressed", "true");
  await page.goto("/dashboard");
  await islandsReady(page);
  const [nbib] = await Promise.all([
    page.waitForEvent("download"),
    page.getByTestId("export-likes").locator('[data-format="nbib"]').click(),
  ]);
  expect(nbib.suggestedFilename()).toMatch(/^litreview-likes-\d{4}-\d{2}-\d{2}\.nbib$/);
  // MEDLINE's field order, as PubMed writes it: the PMID first, the journal issue's fields, then the title.
  const medline = readFileSync(await nbib.path(), "utf8");
  expect(medline).toMatch(/^PMID- \d+\n/);
  expect(medline).toMatch(/\nTI {2}- .+/);
  expect(medline.indexOf("\nVI  - ") < medline.indexOf("\nTI  - ") || !medline.includes("\nVI  - ")).toBe(true);
});
