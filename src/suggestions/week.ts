/**
 * ISO 8601 weeks (Monday to Sunday, week 1 holds the year's first Thursday), in UTC: the unit of the weekly
 * suggestions job. Pure.
 */

const DAY_MS = 86_400_000;

/** The ISO week of `date` as "YYYY-Www", e.g. 2026-11-24 → "2026-W48". */
export function isoWeek(date: Date): string {
  const day = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
  const weekday = day.getUTCDay() || 7; // Monday 1 … Sunday 7
  // The Thursday of this week decides the ISO year.
  day.setUTCDate(day.getUTCDate() + 4 - weekday);
  const yearStart = Date.UTC(day.getUTCFullYear(), 0, 1);
  const week = Math.ceil(((day.getTime() - yearStart) / DAY_MS + 1) / 7);
  return `${day.getUTCFullYear()}-W${String(week).padStart(2, "0")}`;
}

/** Whether `week` has the form of isoWeek's answers. */
export function isIsoWeek(week: string): boolean {
  return /^\d{4}-W(0[1-9]|[1-4]\d|5[0-3])$/.test(week);
}
