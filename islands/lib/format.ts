/**
 * Display formatting shared by islands. Pure: safe on the server and in the browser, no dependencies.
 */

/** The product's text for a date that is missing (§2 Article card). */
export const MISSING_DATE = "N/A";
/** The product's text for a date that cannot be parsed (§2 Article card). */
export const INVALID_DATE = "Invalid Date";

// PubMed dates are often partial ("2021", "2021-07") or date-only ("2021-07-14"). `new Date("2021-07-14")`
// reads those as UTC midnight, which shows the previous day west of Greenwich, and a bare year would be shown
// as "Jan 1": so date-only values are built in local time and only the parts that were given are shown.
const DATE_ONLY = /^(\d{4})(?:-(\d{1,2})(?:-(\d{1,2}))?)?$/;

/**
 * Formats a date for display in the user's locale: "Jul 14, 2021", or "Jul 2021" / "2021" when the value
 * only names a month or a year. Returns 'N/A' for null, undefined or blank input and 'Invalid Date' when the
 * value cannot be read as a date.
 * @param locales defaults to the runtime's locale (the browser's language in islands).
 */
export function formatDate(value: string | number | Date | null | undefined, locales?: string | string[]): string {
  if (value === null || value === undefined) return MISSING_DATE;
  if (typeof value === "string" && value.trim() === "") return MISSING_DATE;
  let date: Date;
  let parts: Intl.DateTimeFormatOptions = { year: "numeric", month: "short", day: "numeric" };
  const m = typeof value === "string" ? DATE_ONLY.exec(value.trim()) : null;
  if (m) {
    const year = Number(m[1]);
    const month = m[2] ? Number(m[2]) : 1;
    const day = m[3] ? Number(m[3]) : 1;
    if (month < 1 || month > 12 || day < 1 || day > 31) return INVALID_DATE;
    date = new Date(year, month - 1, day);
    // Rejects "2021-02-31" instead of silently rolling over to March.
    if (date.getMonth() !== month - 1) return INVALID_DATE;
    if (!m[2]) parts = { year: "numeric" };
    else if (!m[3]) parts = { year: "numeric", month: "short" };
  } else {
    date = value instanceof Date ? value : new Date(value);
  }
  if (Number.isNaN(date.getTime())) return INVALID_DATE;
  return date.toLocaleDateString(locales, parts);
}
