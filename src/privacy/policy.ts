/**
 * The retention periods of the privacy policy (docs/product.md, "Privacy"; src/pages/legal/PrivacyPolicy.tsx §4),
 * as numbers the retention job applies. docs/decisions/0035-retention-and-data-export.md says what each kind of data
 * is in this product.
 */

/** An account without a login for this long is deleted with everything it owns ("2 ans"). */
export const INACTIVE_ACCOUNT_DAYS = 730;
/** The account's owner is told this many days before the deletion (a login in between keeps the account). */
export const DELETION_NOTICE_DAYS = 30;
/** Archived data (what proves a contract: billing) is kept this long after its account is gone ("5 ans"). */
export const ARCHIVE_YEARS = 5;
/**
 * Prospect data ("3 ans à compter du dernier contact"): share invitations to addresses without an account, kept as a
 * keyed hash of the address and deleted this long after the invitation by the invitation job
 * (src/shares/invitations.ts).
 */
export const PROSPECT_YEARS = 3;
/** A "Download my data" file can be downloaded this long after it is ready. */
export const DATA_EXPORT_VALID_DAYS = 7;
/** A user may ask for one data export per this many hours; asking again returns the pending or ready one. */
export const DATA_EXPORT_INTERVAL_HOURS = 24;

const DAY_MS = 86_400_000;

/** `date` plus `days` days (UTC, exact milliseconds). */
export function addDays(date: Date, days: number): Date {
  return new Date(date.getTime() + days * DAY_MS);
}

/** `date` plus `years` calendar years (UTC; 29 February becomes 1 March). */
export function addYears(date: Date, years: number): Date {
  const d = new Date(date.getTime());
  d.setUTCFullYear(d.getUTCFullYear() + years);
  return d;
}
