import { describe, expect, test } from "bun:test";
import { formatDate } from "./format.ts";

describe("formatDate", () => {
  test("shows N/A when the date is missing", () => {
    expect(formatDate(null)).toBe("N/A");
    expect(formatDate(undefined)).toBe("N/A");
    expect(formatDate("  ")).toBe("N/A");
  });

  test("shows Invalid Date when the value is not a date", () => {
    expect(formatDate("not a date")).toBe("Invalid Date");
    expect(formatDate("2021-02-31")).toBe("Invalid Date");
    expect(formatDate("2021-13")).toBe("Invalid Date");
  });

  test("shows a full date-only value on the same calendar day, whatever the time zone", () => {
    expect(formatDate("2021-07-14", "en-US")).toBe("Jul 14, 2021");
  });

  test("shows only the parts a partial PubMed date gives", () => {
    expect(formatDate("2021", "en-US")).toBe("2021");
    expect(formatDate("2021-07", "en-US")).toBe("Jul 2021");
  });

  test("formats timestamps in the requested locale", () => {
    const local = new Date(2024, 0, 5, 13, 30);
    expect(formatDate(local.toISOString(), "en-US")).toBe("Jan 5, 2024");
    expect(formatDate(local, "fr-FR")).toBe("5 janv. 2024");
  });
});
