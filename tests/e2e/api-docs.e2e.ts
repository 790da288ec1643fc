import { expect, test } from "./fixtures.ts";

// The API reference (issue 7): Swagger UI at /api/docs renders the generated OpenAPI document under the pages'
// strict Content-Security-Policy (no inline script), and can call the API.

test("the API reference renders every operation under the strict CSP and runs a call", async ({ page }) => {
  await page.addInitScript(() => {
    (window as unknown as { cspViolations: string[] }).cspViolations = [];
    document.addEventListener("securitypolicyviolation", (e) => {
      (window as unknown as { cspViolations: string[] }).cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  const res = await page.goto("/api/docs");
  expect(res?.headers()["content-security-policy"]).toContain("script-src 'self'");
  await expect(page.getByRole("heading", { name: /LitReview API/ })).toBeVisible();
  // One operation block per documented call, grouped by tag.
  const doc = (await (await page.request.get("/api/v1/openapi.json")).json()) as {
    paths: Record<string, Record<string, unknown>>;
  };
  const operations = Object.values(doc.paths).reduce((n, ops) => n + Object.keys(ops).length, 0);
  await expect(page.locator(".opblock")).toHaveCount(operations);
  // Try a public call from the page: GET /subscriptions/me without a token answers 401 in the {detail} shape.
  const block = page.locator(".opblock", { hasText: "/subscriptions/me" });
  await block.locator(".opblock-summary").click();
  await block.getByRole("button", { name: "Try it out" }).click();
  await block.getByRole("button", { name: "Execute" }).click();
  await expect(block.locator(".live-responses-table tbody td.response-col_status").first()).toHaveText(/401/);
  await expect(block.locator(".live-responses-table")).toContainText("Could not validate credentials");
  expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual([]);
});
