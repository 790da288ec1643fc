import { defineConfig } from "@playwright/test";

/**
 * Browser tests (tests/e2e/*.e2e.ts). Run them through `node scripts/run-e2e.mjs`, which starts the app on a free
 * port with a fresh database and passes its address as E2E_BASE_URL. The browser is Debian's Chromium: Playwright's
 * own browser downloads are not used.
 *
 * Tests run in parallel, one browser per worker, against the one app
 * (docs/decisions/0042-browser-tests-in-parallel.md): every test signs up accounts of its own (tests/e2e/fixtures.ts)
 * or reads the seeded ones without changing them, so no test sees another's data whatever the order. E2E_WORKERS sets
 * the number of workers (default 2, one a core).
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const WORKERS = Number(process.env.E2E_WORKERS ?? 2);

export default defineConfig({
  testDir: "tests/e2e",
  testMatch: "**/*.e2e.ts",
  // Most of a test's time is the app's work, the browser's and waits on the app: a few browsers at once keep 2 cores
  // busy. Tests, not files, are shared out, so a long file does not hold one worker. No retries that would hide a
  // flaky test.
  workers: WORKERS,
  fullyParallel: true,
  retries: 0,
  forbidOnly: true,
  // Two tests at a time share the app and the cores: each takes longer than alone.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // scripts/run-e2e.mjs gives each run folders of its own: Playwright empties its output folder when it starts, which
  // would delete a run's traces while another run writes them.
  outputDir: process.env.E2E_OUTPUT_DIR ?? "test-results/e2e",
  reporter: [["list"], ["json", { outputFile: process.env.E2E_RESULTS_FILE ?? "test-results/e2e-results.json" }]],
  use: {
    baseURL: process.env.E2E_BASE_URL ?? "http://127.0.0.1:3000",
    browserName: "chromium",
    viewport: { width: 1280, height: 800 },
    // A failed test keeps a screenshot and its error context (the page's ARIA snapshot). Its trace (each action's
    // DOM) is recorded only when E2E_TRACE=1: recording one for every test, to keep the failed ones, snapshots the DOM
    // around every action and cost about a tenth of the suite's time here (docs/benchmarks.md); Playwright calls
    // tracing every test "performance heavy" (https://playwright.dev/docs/api/class-testoptions#test-options-trace).
    trace:
      process.env.E2E_TRACE === "1"
        ? { mode: "retain-on-failure", screenshots: false, snapshots: true, sources: true }
        : "off",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--no-first-run",
        // Chromium keeps a spare renderer process started for the next navigation; every test's fresh context wastes
        // one (about a tenth of a second of CPU each, measured in docs/benchmarks.md).
        "--disable-features=SpareRendererForSitePerProcess",
      ],
    },
  },
});
