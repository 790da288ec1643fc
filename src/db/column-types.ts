// The values and JSON shapes that the generated row types (src/db/schema.gen.ts) use for columns the catalog types
// only as `text` or `jsonb`. The tables carry no CHECK constraints on these columns: the code that writes them is the
// only guard, and these lists are what it may write. src/db/codegen.ts maps each column to its type here.

/** literature_reviews.status: the life of a review (docs/product.md §4). */
export const REVIEW_STATUSES = [
  "initial",
  "searching",
  "sorting",
  "summarizing",
  "complete",
  "canceled",
  "error",
  "no_articles_found",
] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];

/** subscriptions.status (docs/product.md §3); Stripe's statuses are mapped onto these (src/subscriptions/sync.ts). */
export const SUBSCRIPTION_STATUSES = ["active", "trialing", "trial_expired", "past_due", "canceled"] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** subscriptions.subscription_type: the plans of docs/product.md §1, in order (plus < pro < max). */
export const SUBSCRIPTION_TYPES = ["plus", "pro", "max"] as const;
export type SubscriptionType = (typeof SUBSCRIPTION_TYPES)[number];

/** subscriptions.billing_interval (docs/product.md §3). */
export const BILLING_INTERVALS = ["monthly", "annual"] as const;
export type BillingInterval = (typeof BILLING_INTERVALS)[number];

/** subscriptions.source: who decides the row (the signup trial, a Stripe subscription, or an operator). */
export const SUBSCRIPTION_SOURCES = ["trial", "stripe", "operator"] as const;
export type SubscriptionSource = (typeof SUBSCRIPTION_SOURCES)[number];

/** jobs.status: queued → running → done, or failed once its attempts are used up (src/jobs/worker.ts). */
export const JOB_STATUSES = ["queued", "running", "done", "failed"] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** data_exports.status: "queued", then "ready" (content written) or "failed" (src/privacy/data-export.ts). */
export const DATA_EXPORT_STATUSES = ["queued", "ready", "failed"] as const;
export type DataExportStatus = (typeof DATA_EXPORT_STATUSES)[number];

/** email_outbox.status: "stored" (no SMTP configured), "sent" or "failed" (src/email/service.ts). */
export const EMAIL_OUTBOX_STATUSES = ["stored", "sent", "failed"] as const;
export type EmailOutboxStatus = (typeof EMAIL_OUTBOX_STATUSES)[number];

/** account_archives.reason: deleted by its owner or an administrator, or by the retention job (src/privacy/). */
export const ARCHIVE_REASONS = ["account_deleted", "inactive"] as const;
export type ArchiveReason = (typeof ARCHIVE_REASONS)[number];

/** articles.record_kind: a journal article, a whole book, or a part of a book (search/pubmed/mapping.ts). */
export const RECORD_KINDS = ["article", "book", "chapter"] as const;
export type RecordKind = (typeof RECORD_KINDS)[number];

/** One labelled part of a structured abstract (label "" when unlabelled): articles.abstract_sections holds a list. */
export interface AbstractSection {
  label: string;
  nlm_category: string | null;
  text: string;
}
