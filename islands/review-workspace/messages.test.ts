import { describe, expect, test } from "bun:test";
import { ApiRequestError } from "../lib/api.ts";
import { detailsBanner, noArticlesText, relevantListCaption, startBanner } from "./detail-messages.ts";
import { corpusText, deleteBanner, detailOr, reviewTitle } from "./messages.ts";

const apiError = (status: number, detail: string | null) =>
  new ApiRequestError(status, detail, detail ? { detail } : null);

describe("failure messages", () => {
  test("toasts show the server's detail, else the default text", () => {
    expect(detailOr(apiError(500, "Search index unavailable"), "Failed to load reviews.")).toBe(
      "Search index unavailable",
    );
    expect(detailOr(apiError(500, null), "Failed to load reviews.")).toBe("Failed to load reviews.");
    expect(detailOr(new TypeError("Failed to fetch"), "Failed to create review.")).toBe("Failed to create review.");
  });

  test("the details banner names the HTTP status, or N/A when the server never answered", () => {
    expect(detailsBanner(apiError(404, "Not found"))).toBe("Could not load the review information (Status: 404).");
    expect(detailsBanner(new TypeError("Failed to fetch"))).toBe(
      "Could not load the review information (Status: N/A).",
    );
  });

  test("the start banner carries the reason", () => {
    expect(startBanner(apiError(409, "Review already started"))).toBe(
      "Could not start the review process: Review already started",
    );
    expect(startBanner(new TypeError("Failed to fetch"))).toBe(
      "Could not start the review process: Failed to start review processing.",
    );
  });

  test("a delete that finds nothing says so; other delete failures ask to retry", () => {
    expect(deleteBanner(apiError(404, "Not found"))).toBe(
      "Review not found or you do not have permission to delete it.",
    );
    expect(deleteBanner(apiError(500, null))).toBe("Could not delete the literature review. Please try again.");
  });
});

describe("review texts", () => {
  test("a review without a query is titled 'Untitled Review'", () => {
    expect(reviewTitle(null)).toBe("Untitled Review");
    expect(reviewTitle("  ")).toBe("Untitled Review");
    expect(reviewTitle("statins and dementia")).toBe("statins and dementia");
  });

  test("the no-articles text quotes the query", () => {
    expect(noArticlesText("zzz qqq")).toBe('Your query "zzz qqq" did not return any articles.');
  });
});

describe("the caption of All Relevant Articles", () => {
  test("says how many articles match the whole topic when the list is a cap", () => {
    expect(relevantListCaption(100, 2345, ["nasopharyngeal", "carcinoma"])).toBe(
      "The 100 most relevant of 2,345 matching articles (addressing all of: nasopharyngeal, carcinoma).",
    );
  });
  test("says when only some listed articles address the whole topic, and that the rest are partial matches", () => {
    expect(relevantListCaption(42, 2, ["spinal", "fusion"])).toBe(
      "2 articles address all of: spinal, fusion; the other 40 listed are partial matches, addressing only some of it.",
    );
    expect(relevantListCaption(2, 1, ["x"])).toBe(
      "1 article addresses all of: x; the other 1 listed is a partial match, addressing only some of it.",
    );
  });
  test("with the review's own count of relevant articles, says how many of the listed ones address the whole topic", () => {
    // Issue 35: 86 listed, 63 of them relevant (so "kept as relevant" in How this review was made), 500 in the index.
    expect(relevantListCaption(86, 500, ["spinal", "fusion"], 63)).toBe(
      "63 articles address all of: spinal, fusion (the best of the 500 in the index that do); the other 23 listed are partial matches, addressing only some of it.",
    );
    expect(relevantListCaption(86, 63, ["spinal", "fusion"], 63)).toBe(
      "63 articles address all of: spinal, fusion; the other 23 listed are partial matches, addressing only some of it.",
    );
    expect(relevantListCaption(40, 40, ["x"], 40)).toBe("All 40 address all of: x.");
  });
  test("the corpus line says what it counts: articles, one per PMID", () => {
    expect(corpusText({ records: 2869, approximate: false, lastUpdated: null })).toBe(
      "The index holds 2,869 articles (distinct PubMed records, one per PMID).",
    );
  });
  test("says nothing for reviews made before the count existed", () => {
    expect(relevantListCaption(10, null, [])).toBeNull();
  });
});
