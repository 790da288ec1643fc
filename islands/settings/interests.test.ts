import { describe, expect, test } from "bun:test";
import {
  COMMA_MESSAGE,
  INTEREST_NOT_SINGLE_LINE,
  INTEREST_TOO_LONG,
  interestErrors,
  joinInterests,
  sameInterests,
  splitInterests,
} from "./interests.ts";

describe("main interests: splitting the stored description (docs/product.md §3)", () => {
  test("splits on commas, trims, drops empty entries and pads to five slots", () => {
    expect(splitInterests(" oncology ,, immunology,  ,gene therapy ")).toEqual([
      "oncology",
      "immunology",
      "gene therapy",
      "",
      "",
    ]);
  });

  test("no description gives five empty slots", () => {
    expect(splitInterests(null)).toEqual(["", "", "", "", ""]);
    expect(splitInterests(undefined)).toEqual(["", "", "", "", ""]);
    expect(splitInterests("   ")).toEqual(["", "", "", "", ""]);
  });

  test("shows at most five interests", () => {
    expect(splitInterests("a,b,c,d,e,f,g")).toEqual(["a", "b", "c", "d", "e"]);
  });
});

describe("main interests: joining the slots for PATCH /users/me", () => {
  test("trims each interest, skips empty slots and joins with commas", () => {
    expect(joinInterests(["  CRISPR ", "", "protein folding", " ", "sepsis"])).toBe("CRISPR, protein folding, sepsis");
    expect(joinInterests(["", "", "", "", ""])).toBe("");
  });

  test("what is joined splits back into the same slots", () => {
    const slots = ["CRISPR", "protein folding", "", "sepsis", ""];
    expect(splitInterests(joinInterests(slots))).toEqual(["CRISPR", "protein folding", "sepsis", "", ""]);
  });

  test("moving or re-spacing interests without changing them counts as no change", () => {
    expect(sameInterests(["oncology", " immunology", "", "", ""], "oncology,immunology")).toBe(true);
    expect(sameInterests(["", "", "", "", ""], null)).toBe(true);
    expect(sameInterests(["oncology", "", "", "", ""], "oncology,immunology")).toBe(false);
  });
});

describe("main interests: rules of one slot (docs/product.md §5)", () => {
  test("commas are refused with the product's message", () => {
    expect(interestErrors("cancer, heart")).toEqual([COMMA_MESSAGE]);
    expect(COMMA_MESSAGE).toBe("Commas are not allowed.");
  });

  test("at most 100 characters", () => {
    expect(interestErrors("x".repeat(100))).toEqual([]);
    expect(interestErrors("x".repeat(101))).toEqual([INTEREST_TOO_LONG]);
  });

  test("an empty slot is fine", () => {
    expect(interestErrors("")).toEqual([]);
  });
});

describe("main interests: one line each", () => {
  test("a line break, a tab or a line separator is refused", () => {
    for (const v of ["sepsis\nBcc: x", "sepsis\tcare", "sepsis\u2029"])
      expect(interestErrors(v)).toEqual([INTEREST_NOT_SINGLE_LINE]);
    expect(interestErrors("sepsis care")).toEqual([]);
  });
});
