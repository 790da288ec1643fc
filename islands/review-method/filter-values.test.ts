import { describe, expect, test } from "bun:test";
import { filterQuery } from "./filter-values.ts";
import { DESIGNS } from "./FilterFields.tsx";
import { DESIGN_INFO, RECORD_DESIGNS } from "../../src/articles/evidence.ts";

describe("review filters in the topic form", () => {
  test("only the filters set go out, as the start call reads them", () => {
    expect(filterQuery({})).toEqual({});
    expect(filterQuery({ year_from: " 2010 ", year_to: "", study_designs: [], humans_only: false })).toEqual({
      year_from: "2010",
    });
    expect(
      filterQuery({ year_to: "2020", study_designs: ["rct", "cohort"], humans_only: true, free_full_text: true }),
    ).toEqual({
      year_to: "2020",
      study_designs: "rct,cohort",
      humans_only: "true",
      free_full_text: "true",
    });
  });

  test("the designs offered are the server's, with the server's labels, strongest first", () => {
    // The filter reads the design a record states (RECORD_DESIGNS: a case series is read from the abstract only).
    expect(DESIGNS.map(([code]) => code)).toEqual(RECORD_DESIGNS.filter((d) => d !== "opinion"));
    for (const [code, label] of DESIGNS) expect(label).toBe(DESIGN_INFO[code as keyof typeof DESIGN_INFO].label);
  });
});
