import { describe, expect, test } from "bun:test";
import { eutilsRequestsPerSecond } from "./client.ts";

// The gate's rate: NCBI's documented budget unless a mirror or stand-in is configured with its own, and never above
// NCBI's against NCBI's own host (https://www.ncbi.nlm.nih.gov/books/NBK25497/).

const NCBI = "https://eutils.ncbi.nlm.nih.gov/entrez/eutils/";
const STAND_IN = "http://127.0.0.1:4000/entrez/eutils/";

describe("eutilsRequestsPerSecond", () => {
  test("unset: NCBI's 3 requests a second without an API key, 10 with one", () => {
    expect(eutilsRequestsPerSecond({ PUBMED_EUTILS_URL: NCBI })).toBe(3);
    expect(eutilsRequestsPerSecond({ PUBMED_EUTILS_URL: NCBI, NCBI_API_KEY: "key" })).toBe(10);
    expect(eutilsRequestsPerSecond({ PUBMED_EUTILS_URL: STAND_IN })).toBe(3);
  });

  test("a mirror or stand-in may be given its own rate, higher or lower", () => {
    expect(eutilsRequestsPerSecond({ PUBMED_EUTILS_URL: STAND_IN, PUBMED_EUTILS_REQUESTS_PER_SECOND: 50 })).toBe(50);
    expect(eutilsRequestsPerSecond({ PUBMED_EUTILS_URL: STAND_IN, PUBMED_EUTILS_REQUESTS_PER_SECOND: 1 })).toBe(1);
  });

  test("against NCBI's own host a higher rate is capped at NCBI's; a lower one is kept", () => {
    expect(eutilsRequestsPerSecond({ PUBMED_EUTILS_URL: NCBI, PUBMED_EUTILS_REQUESTS_PER_SECOND: 50 })).toBe(3);
    expect(
      eutilsRequestsPerSecond({ PUBMED_EUTILS_URL: NCBI, NCBI_API_KEY: "key", PUBMED_EUTILS_REQUESTS_PER_SECOND: 50 }),
    ).toBe(10);
    expect(eutilsRequestsPerSecond({ PUBMED_EUTILS_URL: NCBI, PUBMED_EUTILS_REQUESTS_PER_SECOND: 2 })).toBe(2);
  });
});
