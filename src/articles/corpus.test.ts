import { describe, expect, test } from "bun:test";
import { EMBEDDED_RECORDS_LIMIT, embeddedSizeWarning } from "./corpus.ts";

// The operator is told when the embedded database outgrows what docs/scaling.md gives it (issue 19: PubMed on demand
// grows the corpus with use).

describe("embeddedSizeWarning", () => {
  test("says nothing up to the limit, or on a PostgreSQL server whatever the size", () => {
    expect(embeddedSizeWarning(true, { records: 3_453 })).toBeNull();
    expect(embeddedSizeWarning(true, { records: EMBEDDED_RECORDS_LIMIT })).toBeNull();
    expect(embeddedSizeWarning(false, { records: 5_000_000 })).toBeNull();
  });

  test("past the limit on the embedded database, names the size, the limit and the way out", () => {
    expect(embeddedSizeWarning(true, { records: 100_001 })).toBe(
      "The embedded database holds 100,001 PubMed records, past the 100,000 at which docs/scaling.md advises moving to a PostgreSQL server (DATABASE_URL).",
    );
  });
});
