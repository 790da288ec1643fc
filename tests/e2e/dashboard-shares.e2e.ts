import type { APIRequestContext } from "@playwright/test";
import { createAccount, expect, islandsReady, signIn, test, type Account } from "./fixtures.ts";

// Received Shares a page at a time (issue 22, item 4): no page of the signed-in site loads the whole list of received
// shares with their articles; the layout loads their ids (GET /shares/received/ids), and the dashboard's tab asks
// the server for one page (`limit`, `after` the id that ends the page before). A share e-mail's link
// (`?tab=shares&article=PMID`) opens that share's page and its dialog.

const TOPIC = "nasopharyngeal carcinoma radiotherapy";

/** Runs a review on TOPIC as `account` through the API until it completes; @returns its first 20 relevant PMIDs. */
async function relevantPmids(request: APIRequestContext, account: Account): Promise<number[]> {
  const headers = { authorization: `Bearer ${account.token}` };
  const api = async <T>(method: "get" | "post", path: string) =>
    (await (await request[method](`/api/v1/literature_review/${path}`, { headers })).json()) as T;
  const { id } = await api<{ id: string }>("post", "create");
  await api("post", `start/${id}?user_query=${encodeURIComponent(TOPIC)}`);
  await expect
    .poll(async () => (await api<{ status: string }>("get", `status/${id}`)).status, { timeout: 30_000 })
    .toBe("complete");
  const details = await api<{ fts_articles_refs: { pmid: number }[] }>("get", `details/${id}?fts_limit=20`);
  return details.fts_articles_refs.map((a) => a.pmid);
}

test("received shares: a link opens its page and dialog, pages load one at a time, delete", async ({ page }) => {
  test.setTimeout(120_000);
  const fay = await createAccount(page, "Fay Reader");
  const gus = await createAccount(page, "Gus Giver");
  const headers = { authorization: `Bearer ${gus.token}` };
  const pmids = (await relevantPmids(page.request, gus)).slice(0, 12);
  expect(pmids).toHaveLength(12);
  // Shared oldest first: pmids[11] leads the list, pmids[0] is the last of its 12 (page 2 of 2 at 10 a page).
  for (const pmid of pmids) {
    const res = await page.request.post(`/api/v1/shares/${pmid}`, { headers, data: { recipient_email: fay.email } });
    expect(res.ok()).toBe(true);
  }

  const sharesCalls: string[] = [];
  page.on("request", (req) => {
    const url = new URL(req.url());
    if (req.method() === "GET" && url.pathname.startsWith("/api/v1/shares/received")) {
      sharesCalls.push(url.pathname + url.search);
    }
  });
  await signIn(page, fay);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/dashboard?tab=shares&article=${pmids[0]}`);
  await islandsReady(page);
  await expect(page.getByTestId("dashboard-tab-shares")).toHaveAttribute("aria-selected", "true");
  await expect(page.getByTestId("dashboard-tab-shares")).toContainText("12");
  const dialog = page.getByTestId("article-dialog");
  await expect(dialog).toBeVisible();
  await page.keyboard.press("Escape");
  const list = page.getByTestId("shares-list");
  await expect(page.getByTestId("dashboard-pagination")).toContainText("Page 2 of 2");
  await expect(list.getByTestId("article-card")).toHaveCount(2);
  await expect(list.getByTestId("article-card").last()).toHaveAttribute("data-pmid", String(pmids[0]));
  await expect(list.getByTestId("article-note").first()).toHaveText(/^Shared by Gus Giver on /);

  // Deleting on page 2: gone at once, and the server agrees.
  await list.getByTestId("share-delete").first().click();
  await expect(list.getByTestId("article-card")).toHaveCount(1);
  await expect(page.getByTestId("dashboard-tab-shares")).toContainText("11");
  await page.getByTestId("dashboard-pagination").getByRole("button", { name: "Previous page" }).click();
  await expect(list.getByTestId("article-card")).toHaveCount(10);
  await expect(list.getByTestId("article-card").first()).toHaveAttribute("data-pmid", String(pmids[11]));
  const faysIds = await page.request.get("/api/v1/shares/received/ids", {
    headers: { authorization: `Bearer ${fay.token}` },
  });
  const left = (await faysIds.json()) as unknown[];
  expect(left).toHaveLength(11);

  // Every call for received shares was the ids or one page: never the whole list.
  expect(sharesCalls.length).toBeGreaterThan(0);
  for (const call of sharesCalls) {
    expect(call).toMatch(/^\/api\/v1\/shares\/received(\/ids|\?limit=10(&after=[0-9a-f-]+)?)$/);
  }
  expect(sharesCalls.filter((c) => c.includes("after="))).not.toHaveLength(0);
});
