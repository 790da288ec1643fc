import type { Page, Request } from "@playwright/test";
import { mkdirSync } from "node:fs";
import { createAccount, expect, islandsReady, signIn, test } from "./fixtures.ts";

// Issue 24, item 2: every page fits a 320 px and a 390 px screen without horizontal scroll, public and signed in,
// with data on the pages (a completed review with its summary, likes, a received share, a week of suggestions). For
// each page and width: document.scrollingElement.scrollWidth <= window.innerWidth, and, when E2E_SCREENSHOTS_DIR is
// set, a full-page screenshot there for a person to look at. A failure names the elements that stick out. The public
// pages and the signed-in ones are separate tests, so that parallel workers share them out.

const WIDTHS = [320, 390] as const;
const SHOTS = process.env.E2E_SCREENSHOTS_DIR;

/** A full-page screenshot under E2E_SCREENSHOTS_DIR, when it is set (encoding them costs seconds of CPU per run). */
async function shot(page: Page, name: string, fullPage = true): Promise<void> {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage });
}

const inFlightByPage = new WeakMap<Page, () => number>();

/**
 * The page's requests still in flight (a status stream, which stays open by design, left out), counted from the
 * first call for this page on.
 */
function requestsInFlight(page: Page): () => number {
  let counter = inFlightByPage.get(page);
  if (!counter) {
    const open = new Set<Request>();
    page.on("request", (r) => {
      if (r.resourceType() !== "eventsource") open.add(r);
    });
    page.on("requestfinished", (r) => open.delete(r));
    page.on("requestfailed", (r) => open.delete(r));
    counter = () => open.size;
    inFlightByPage.set(page, counter);
  }
  return counter;
}

/**
 * Waits until the page has settled: no request in flight for 150 ms (the islands' data, late images), then its web
 * fonts loaded; any of them can widen a line after the load event. Playwright's "networkidle" did the same with a
 * fixed 500 ms of quiet, which cost that much on each of the 42 visits. Gives up waiting after 10 s, as before.
 */
async function settled(page: Page, inFlight: () => number): Promise<void> {
  const deadline = Date.now() + 10_000;
  let quietSince = Date.now();
  while (Date.now() < deadline && Date.now() - quietSince < 150) {
    if (inFlight() > 0) quietSince = Date.now();
    await new Promise((r) => setTimeout(r, 25));
  }
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
}

const TOPIC = "nasopharyngeal carcinoma radiotherapy";
// The first interest is the title of the sample's article with the longest author list (PMID 11237011, 2,818
// characters of authors): its card, among the suggestions, is what widened /suggestions on a phone.
const INTERESTS =
  "initial sequencing and analysis of the human genome, surgical site infection, childhood acute lymphoblastic leukemia";

const PUBLIC_PAGES = [
  "/landing",
  "/pricing",
  "/legal",
  "/privacy",
  "/cookies",
  "/legal/en",
  "/privacy/en",
  "/cookies/en",
  "/login",
  "/signup",
  "/recover-password",
  "/reset-password?token=not-a-token",
  "/unsubscribe?token=not-a-token",
  "/unsubscribe/shares?token=not-a-token",
  "/api/docs",
];
const SIGNED_IN_PAGES = [
  "/home",
  "/dashboard",
  "/dashboard?tab=shares",
  "/settings",
  "/suggestions",
  "/literature_management",
];

/**
 * The page's horizontal overflow: the document's scroll width, and the visible elements reaching past the viewport's
 * right edge (at most 8 named; hidden ones, with no box or `visibility: hidden`, are left out).
 */
async function overflow(page: Page): Promise<{ scrollWidth: number; innerWidth: number; culprits: string[] }> {
  return page.evaluate(() => {
    const innerWidth = window.innerWidth;
    const culprits: string[] = [];
    for (const el of document.body.querySelectorAll("*")) {
      const r = el.getBoundingClientRect();
      if (r.width > 0 && r.height > 0 && r.right > innerWidth + 0.5 && getComputedStyle(el).visibility !== "hidden") {
        const id = el.getAttribute("data-testid") ?? el.id ?? "";
        const name = `${el.tagName.toLowerCase()}${id ? `[${id}]` : ""}.${String(el.className).slice(0, 40)}`;
        culprits.push(`${name} right=${Math.round(r.right)}`);
      }
    }
    return { scrollWidth: document.scrollingElement!.scrollWidth, innerWidth, culprits: culprits.slice(0, 8) };
  });
}

/**
 * Records the page's horizontal overflow, if any, in `problems` under `label`: a document wider than the screen, or
 * an element reaching past its right edge. The second matters as much: the layout clips overflowing content
 * (`overflow-x` of the page's containers), so a too-wide section leaves the document's width alone while its text is
 * cut and its buttons are out of reach, which is what a reader saw on /suggestions (issue 24).
 */
async function measure(page: Page, label: string, problems: string[]): Promise<void> {
  const o = await overflow(page);
  if (o.scrollWidth > o.innerWidth || o.culprits.length > 0) {
    problems.push(`${label}: scrollWidth ${o.scrollWidth} vs ${o.innerWidth}: ${o.culprits.join("; ")}`);
  }
}

/**
 * Visits `path` at each width, screenshots it, and records any horizontal overflow in `problems`; `prepare` brings the
 * page to the state to look at, `more` may measure further states (pages of a list).
 */
async function check(
  page: Page,
  path: string,
  problems: string[],
  prepare?: () => Promise<void>,
  more?: (width: number) => Promise<void>,
): Promise<void> {
  const inFlight = requestsInFlight(page);
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto(path);
    await page.waitForLoadState("load");
    // Public pages without islands load no client script.
    if ((await page.locator("[data-island]").count()) > 0) await islandsReady(page);
    if (prepare) await prepare();
    await settled(page, inFlight);
    const name = path.replace(/^\//, "").replace(/[^a-z0-9]+/gi, "-") || "root";
    await shot(page, `${width}-${name}`);
    await measure(page, `${path} at ${width} px`, problems);
    if (more) await more(width);
  }
}

test.beforeEach(() => {
  if (SHOTS) mkdirSync(SHOTS, { recursive: true });
});

// The public pages, in two halves (each at both widths).
for (const [half, pages] of [
  ["first", PUBLIC_PAGES.slice(0, 8)],
  ["second", PUBLIC_PAGES.slice(8)],
] as const) {
  test(`the public pages fit 320 and 390 px screens without horizontal scroll (${half} half: ${pages.join(", ")})`, async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const problems: string[] = [];
    for (const path of pages) await check(page, path, problems);
    expect(problems).toEqual([]);
  });
}

test("every signed-in page fits 320 and 390 px screens without horizontal scroll, with data", async ({ page }) => {
  test.setTimeout(240_000);
  const problems: string[] = [];

  // A reader with a completed review, likes, a received share and a week of suggestions.
  const ann = await createAccount(page, "Annabelle Narrow-Screen-Reader");
  const giver = await createAccount(page, "Gil Giver");
  const headers = { authorization: `Bearer ${ann.token}` };
  const request = page.request;
  const reviews = "/api/v1/literature_review";
  const created = (await (await request.post(`${reviews}/create`, { headers })).json()) as { id: string };
  const start = await request.post(`${reviews}/start/${created.id}?user_query=${encodeURIComponent(TOPIC)}`, {
    headers,
  });
  expect(start.ok()).toBe(true);
  const status = async () =>
    ((await (await request.get(`${reviews}/status/${created.id}`, { headers })).json()) as { status: string }).status;
  await expect.poll(status, { timeout: 60_000 }).toBe("complete");
  const details = (await (await request.get(`${reviews}/details/${created.id}?fts_limit=8`, { headers })).json()) as {
    fts_articles_refs: { pmid: number }[];
  };
  const pmids = details.fts_articles_refs.map((a) => a.pmid);
  expect(pmids.length).toBeGreaterThanOrEqual(4);
  for (const pmid of pmids.slice(0, 3)) {
    expect((await request.post(`/api/v1/likes/${pmid}`, { headers })).ok()).toBe(true);
  }
  const giverHeaders = { authorization: `Bearer ${giver.token}` };
  const share = await request.post(`/api/v1/shares/${pmids[3]}`, {
    headers: giverHeaders,
    data: { recipient_email: ann.email },
  });
  expect(share.ok()).toBe(true);
  expect((await request.patch("/api/v1/users/me", { headers, data: { description: INTERESTS } })).ok()).toBe(true);
  const latest = async () => (await request.get("/api/v1/suggestions/weekly/latest", { headers })).status();
  await expect.poll(latest, { timeout: 60_000, intervals: [500] }).toBe(200);

  // Every page of every suggestion section: one card with a long author list is enough to widen a page.
  const suggestionPages = async (width: number) => {
    // The page scrolls inside its layout, so a full-page screenshot stops at the screen: a tall one shows it all.
    if (SHOTS) {
      await page.setViewportSize({ width, height: 4000 });
      await shot(page, `${width}-suggestions-tall`, false);
      await page.setViewportSize({ width, height: 800 });
    }
    for (const section of await page.getByTestId("suggestions-section").all()) {
      const next = section.getByRole("button", { name: "Next page" });
      for (let n = 2; (await next.count()) > 0 && (await next.isEnabled()); n++) {
        await next.click();
        const name = await section.getAttribute("data-section");
        await measure(page, `/suggestions at ${width} px, ${name} page ${n}`, problems);
      }
    }
  };

  await signIn(page, ann);
  for (const path of SIGNED_IN_PAGES) {
    await check(
      page,
      path,
      problems,
      async () => {
        if (path === "/literature_management") {
          // The completed review, its summary shown in full; on a phone the history is behind its toggle.
          const toggle = page.getByTestId("review-history-toggle");
          const closed =
            (await toggle.count()) > 0 &&
            (await toggle.isVisible()) &&
            (await toggle.getAttribute("aria-expanded")) !== "true";
          if (closed) await toggle.click();
          await page.getByTestId("review-history-select").first().click();
          const summary = page.getByTestId("review-summary");
          await expect(summary).toHaveAttribute("data-revealing", "false", { timeout: 20_000 });
        }
        if (path === "/suggestions") await expect(page.getByTestId("suggestions-section")).toHaveCount(4);
        if (path.startsWith("/dashboard")) await expect(page.getByTestId("article-card").first()).toBeVisible();
      },
      path === "/suggestions" ? suggestionPages : undefined,
    );
  }

  expect(problems).toEqual([]);
});
