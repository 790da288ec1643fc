import { NO_APPRAISAL } from "../reviews/evidence/types.ts";
import { describe, expect, test } from "bun:test";
import { parse } from "csv-parse/sync";
import type { EvidenceRow } from "../reviews/evidence/types.ts";
import { csvField, EVIDENCE_CSV_COLUMNS, evidenceCsv, evidenceCsvFileName } from "./evidence-csv.ts";

// The CSV is read back with csv-parse (an independent RFC 4180 reader), never with our writer.

const ROWS: EvidenceRow[] = [
  {
    pmid: 12345678,
    citation: 1,
    duplicate_pmids: [23456789, 34567890],
    same_cohort: [],
    design: "rct",
    design_source: "record",
    evidence_level: 2,
    participants: 1250,
    participants_arms: [600, 650],
    participants_text: "600 received spironolactone and 650 placebo.",
    appraisal: {
      ...NO_APPRAISAL,
      randomised: true,
      comparison_group: true,
      blinding: "double-blind",
      follow_up: "followed for 12 weeks",
    },
    population: 'adults with "resistant" hypertension, aged 40-75',
    intervention: "spironolactone",
    comparator: "placebo",
    outcome: "change in systolic blood pressure\nat 12 weeks",
    result: "Spironolactone lowered systolic pressure more than placebo (−8.7 mm Hg).",
    effects: [
      {
        measure: "mean difference",
        value: -8.7,
        ci_low: -9.72,
        ci_high: -7.69,
        p_value: 0.001,
        p_relation: "<",
        compared_value: null,
        text: "−8.70 mm Hg (95% CI −9.72 to −7.69; p<0·0001)",
      },
      {
        measure: "percentage",
        value: 12,
        ci_low: null,
        ci_high: null,
        p_value: null,
        p_relation: null,
        compared_value: 18,
        text: "12% vs 18%",
      },
    ],
    significance: "significant",
  },
  {
    pmid: 99,
    citation: 2,
    duplicate_pmids: [],
    same_cohort: [],
    design: null,
    design_source: null,
    evidence_level: null,
    participants: null,
    participants_arms: null,
    participants_text: null,
    appraisal: NO_APPRAISAL,
    population: "=cmd|' /C calc'!A0",
    intervention: null,
    comparator: null,
    outcome: null,
    result: null,
    effects: [],
    significance: null,
  },
];

describe("the evidence table as CSV", () => {
  const csv = evidenceCsv(ROWS);

  test("RFC 4180: a header line, CRLF after every line, PMID first; csv-parse reads every cell back", () => {
    expect(csv.startsWith("\uFEFFPMID,Citation,")).toBe(true);
    // Every line break that ends a record is CRLF; the LF inside a quoted field is the outcome's own.
    expect(csv.endsWith("\r\n")).toBe(true);
    const records = parse(csv, { bom: true, record_delimiter: "\r\n", relax_column_count: false }) as string[][];
    expect(records).toHaveLength(3);
    expect(records[0]).toEqual([...EVIDENCE_CSV_COLUMNS]);
    const [first, second] = [records[1]!, records[2]!];
    const cell = (record: string[], column: (typeof EVIDENCE_CSV_COLUMNS)[number]) =>
      record[EVIDENCE_CSV_COLUMNS.indexOf(column)];
    expect(first[0]).toBe("12345678");
    expect(cell(first, "Design")).toBe("Randomized controlled trial");
    expect(cell(first, "OCEBM level")).toBe("2");
    expect(cell(first, "Participants")).toBe("1250");
    expect(cell(first, "Participant groups")).toBe("600 + 650");
    expect(cell(first, "Participants as stated")).toBe("600 received spironolactone and 650 placebo.");
    expect(cell(first, "Randomized")).toBe("yes");
    expect(cell(first, "Comparison group")).toBe("yes");
    expect(cell(first, "Timing")).toBe("");
    expect(cell(first, "Blinding")).toBe("double-blind");
    expect(cell(first, "Follow-up")).toBe("followed for 12 weeks");
    expect(cell(second, "Randomized")).toBe("");
    expect(cell(first, "Population")).toBe('adults with "resistant" hypertension, aged 40-75');
    expect(cell(first, "Outcome")).toBe("change in systolic blood pressure\nat 12 weeks");
    expect(cell(first, "Effects")).toBe("MD -8.7 (95% CI -9.72 to -7.69), p < 0.001; 12% vs 18%");
    expect(cell(first, "Effects as stated")).toBe("−8.70 mm Hg (95% CI −9.72 to −7.69; p<0·0001) | 12% vs 18%");
    expect(cell(first, "Significance")).toBe("significant");
    expect(cell(first, "Also indexed as PMID")).toBe("23456789 34567890");
    expect(second.slice(0, 2)).toEqual(["99", "2"]);
    expect(cell(second, "Design")).toBe("");
    expect(cell(second, "Effects")).toBe("");
  });

  test("a cell a spreadsheet would run as a formula is written as text", () => {
    const records = parse(csv, { bom: true }) as string[][];
    expect(records[2]![EVIDENCE_CSV_COLUMNS.indexOf("Population")]).toBe("'=cmd|' /C calc'!A0");
    expect(csvField(-3)).toBe("-3");
    expect(csvField("+1")).toBe("'+1");
  });

  test("an empty table is the header alone", () => {
    expect(parse(evidenceCsv([]), { bom: true })).toEqual([[...EVIDENCE_CSV_COLUMNS]]);
  });

  test("the file is named after the topic and the day", () => {
    const topic = "Spironolactone vs placebo in resistant hypertension";
    expect(evidenceCsvFileName(topic, new Date("2026-11-26T09:00:00Z"))).toBe(
      "litreview-spironolactone-vs-placebo-in-resistant-evidence-2026-11-26.csv",
    );
  });
});
