import { describe, expect, test } from "bun:test";
import { showsSpinner, statusLabel } from "./status-label.ts";
import { isInProgress, isTerminal } from "./status.ts";

describe("statusLabel", () => {
  test("shows the product's label for every known status", () => {
    expect(statusLabel("initial")).toBe("Initializing review...");
    expect(statusLabel("searching")).toBe("Searching for relevant articles...");
    expect(statusLabel("sorting")).toBe("Sorting articles...");
    expect(statusLabel("summarizing")).toBe("Generating summary...");
    expect(statusLabel("complete")).toBe("Review complete.");
    expect(statusLabel("canceled")).toBe("Review canceled.");
    expect(statusLabel("error")).toBe("An error occurred during the review process.");
    expect(statusLabel("no_articles_found")).toBe("No articles found for your query.");
  });

  test("shows 'Unknown status' for anything else, including inherited object keys", () => {
    expect(statusLabel("paused")).toBe("Unknown status");
    expect(statusLabel("toString")).toBe("Unknown status");
    expect(statusLabel(null)).toBe("Unknown status");
    expect(statusLabel(undefined)).toBe("Unknown status");
  });
});

describe("status groups", () => {
  test("terminal statuses end the review", () => {
    for (const s of ["complete", "canceled", "error", "no_articles_found"]) expect(isTerminal(s)).toBe(true);
    for (const s of ["initial", "searching", "sorting", "summarizing", "weird", null])
      expect(isTerminal(s)).toBe(false);
  });

  test("in-progress statuses", () => {
    for (const s of ["initial", "searching", "sorting", "summarizing"]) expect(isInProgress(s)).toBe(true);
    expect(isInProgress("complete")).toBe(false);
  });

  test("only the first three statuses show a spinner", () => {
    expect(["initial", "searching", "sorting", "summarizing", "complete"].map(showsSpinner)).toEqual([
      true,
      true,
      true,
      false,
      false,
    ]);
  });
});
