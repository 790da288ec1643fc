/**
 * A review's evidence table as CSV (issue 21), for a spreadsheet or a systematic-review tool: one line per cited study,
 * PMID first, written as RFC 4180 says (comma-separated, every field quoted when it holds a comma, a quote or a line
 * break, quotes doubled, lines ended by CRLF, a header line). Pure.
 */
import { DESIGN_INFO } from "../articles/evidence.ts";
import type { EvidenceRow } from "../reviews/evidence/types.ts";
import { effectPhrase } from "../reviews/evidence/phrases.ts";
import { topicSlug } from "./formats.ts";

/** The columns, in order: the header line's names. */
export const EVIDENCE_CSV_COLUMNS = [
  "PMID",
  "Citation",
  "Design",
  "Design source",
  "OCEBM level",
  "Participants",
  "Participant groups",
  "Participants as stated",
  "Randomized",
  "Comparison group",
  "Timing",
  "Blinding",
  "Follow-up",
  "Loss to follow-up",
  "Population",
  "Intervention",
  "Comparator",
  "Outcome",
  "Main result",
  "Effects",
  "Effects as stated",
  "Significance",
  "Also indexed as PMID",
] as const;

/**
 * A field as RFC 4180 writes it: quoted when it holds a comma, a quote, CR or LF (quotes doubled inside). A text that
 * a spreadsheet would run as a formula (starting with =, +, -, @, tab or CR; OWASP "CSV injection") is prefixed
 * with an apostrophe, which spreadsheets show as text; numbers are written as they are.
 */
export function csvField(value: string | number | null): string {
  if (value === null) return "";
  let text = String(value);
  if (typeof value === "string" && /^[=+\-@\t\r]/u.test(text)) text = `'${text}`;
  return /[",\r\n]/u.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const yesNo = (v: boolean | null) => (v === null ? null : v ? "yes" : "no");

/** The fields of one row, in EVIDENCE_CSV_COLUMNS order. */
function rowFields(r: EvidenceRow): (string | number | null)[] {
  return [
    r.pmid,
    r.citation,
    r.design ? DESIGN_INFO[r.design].label : null,
    r.design_source,
    r.evidence_level,
    r.participants,
    r.participants_arms ? r.participants_arms.join(" + ") : null,
    r.participants_text,
    yesNo(r.appraisal.randomised),
    yesNo(r.appraisal.comparison_group),
    r.appraisal.timing,
    r.appraisal.blinding,
    r.appraisal.follow_up,
    r.appraisal.loss_to_follow_up,
    r.population,
    r.intervention,
    r.comparator,
    r.outcome,
    r.result,
    r.effects.length > 0 ? r.effects.map(effectPhrase).join("; ") : null,
    r.effects.length > 0 ? r.effects.map((e) => e.text).join(" | ") : null,
    r.significance === "significant" ? "significant" : r.significance === "not_significant" ? "not significant" : null,
    r.duplicate_pmids.length > 0 ? r.duplicate_pmids.join(" ") : null,
  ];
}

/**
 * The evidence table as CSV text: a UTF-8 byte-order mark (so that Excel reads the abstracts' "≥" and "−" as such;
 * RFC 4180 parsers that know it skip it), the header line, then one line per row in citation order, every line
 * ending in CRLF.
 */
export function evidenceCsv(rows: readonly EvidenceRow[]): string {
  const lines = [EVIDENCE_CSV_COLUMNS.map(csvField), ...rows.map((r) => rowFields(r).map(csvField))];
  return `\uFEFF${lines.map((fields) => `${fields.join(",")}\r\n`).join("")}`;
}

/** "litreview-nasopharyngeal-carcinoma-evidence-2026-11-26.csv" (the UTC day of `now`). */
export function evidenceCsvFileName(topic: string | null, now: Date): string {
  return `litreview-${topicSlug(topic)}-evidence-${now.toISOString().slice(0, 10)}.csv`;
}
