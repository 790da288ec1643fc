import type { ColumnType, Generated } from "kysely";

// Row types of the tables created in migrations/. Keep in step with them.

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
/** A timestamp with a database default: optional on insert, settable on update. */
type GeneratedTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface UsersTable {
  id: Generated<string>;
  email: string;
  full_name: string | null;
  hashed_password: string;
  institution_email: string | null;
  description: string | null;
  is_active: Generated<boolean>;
  is_superuser: Generated<boolean>;
  token_version: Generated<number>;
  /** Whether the weekly suggestions digest is e-mailed (one-click unsubscribe turns it off). */
  weekly_digest: Generated<boolean>;
  created_at: GeneratedTimestamp;
  updated_at: GeneratedTimestamp;
}

export interface SubscriptionsTable {
  id: Generated<string>;
  user_id: string;
  status: string;
  subscription_type: string;
  billing_interval: Generated<string>;
  is_trial: Generated<boolean>;
  trial_ends_at: Timestamp | null;
  current_period_end: Timestamp | null;
  cancel_at_period_end: Generated<boolean>;
  stripe_customer_id: string | null;
  stripe_subscription_id: string | null;
  created_at: GeneratedTimestamp;
  updated_at: GeneratedTimestamp;
}

/** One labelled part of a structured abstract (label "" when unlabelled). */
export interface AbstractSection {
  label: string;
  nlm_category: string | null;
  text: string;
}

export interface ArticlesTable {
  pmid: number;
  title: string | null;
  authors: string | null;
  abstract: string | null;
  abstract_sections: ColumnType<AbstractSection[], string, string>;
  journal: string | null;
  /** ISO date (YYYY-MM-DD), first day of the month/year when only those are known. */
  publication_date: ColumnType<string | null, string | null, string | null>;
  /** "day", "month" or "year": what the record states of publication_date; null for rows ingested before it existed. */
  publication_date_precision: string | null;
  publication_year: number | null;
  doi: string | null;
  pmc_id: string | null;
  full_text_link: string | null;
  pdf_free_link: string | null;
  language: string | null;
  publication_types: string[];
  mesh_terms: string[];
  keywords: string[];
  /** PMID of the retraction notice (CommentsCorrections RetractionIn) of a retracted article. */
  retraction_notice_pmid: ColumnType<number | null, number | null | undefined, number | null>;
  /** PMIDs of the articles it cites (its PubMed reference list), without repeats; empty when it carries none. */
  reference_pmids: ColumnType<number[], number[] | undefined, number[]>;
  /** ISO date the record entered PubMed (PubMedPubDate PubStatus="entrez"); null when the record does not say. */
  entrez_date: ColumnType<string | null, string | null | undefined, string | null>;
  /** MeSH headings marked as a major topic of the article (for PubMed's [majr] tag). */
  mesh_major_terms: ColumnType<string[], string[] | undefined, string[]>;
  // Citation fields (migrations/2026_11_26_0201_citation_fields.ts, issue 20).
  volume: ColumnType<string | null, string | null | undefined, string | null>;
  /** JournalIssue/Issue, a supplement included ("19 Suppl"). */
  issue: ColumnType<string | null, string | null | undefined, string | null>;
  /** Pagination/MedlinePgn as given ("123-9"). */
  medline_pages: ColumnType<string | null, string | null | undefined, string | null>;
  start_page: ColumnType<string | null, string | null | undefined, string | null>;
  end_page: ColumnType<string | null, string | null | undefined, string | null>;
  /** ELocationID EIdType="pii": the "page" of an e-only article. */
  elocation_pii: ColumnType<string | null, string | null | undefined, string | null>;
  journal_iso_abbreviation: ColumnType<string | null, string | null | undefined, string | null>;
  /** MedlineJournalInfo/MedlineTA: NLM's title abbreviation ("Spine (Phila Pa 1976)"). */
  journal_medline_ta: ColumnType<string | null, string | null | undefined, string | null>;
  issn: ColumnType<string | null, string | null | undefined, string | null>;
  /** ArticleDate DateType="Electronic", ISO date. */
  epub_date: ColumnType<string | null, string | null | undefined, string | null>;
  /** Authors in order (src/articles/schemas.ts AuthorEntry), as JSON. */
  author_list: ColumnType<unknown, string | undefined, string>;
  book_publisher: ColumnType<string | null, string | null | undefined, string | null>;
  book_publisher_place: ColumnType<string | null, string | null | undefined, string | null>;
  book_title: ColumnType<string | null, string | null | undefined, string | null>;
  /** "article", "book" or "chapter". */
  record_kind: ColumnType<string, string | undefined, string>;
  content_hash: string;
  created_at: GeneratedTimestamp;
  updated_at: GeneratedTimestamp;
}

export interface ArticleSearchTable {
  pmid: number;
  document: string;
  title_document: string;
  doc_length: number;
  publication_year: number | null;
}

/** Impact tiers of an article_search row (migration 2026_11_25_0201): tokens 'lexeme level'. */
export interface ArticleSearchTiersTable {
  pmid: number;
  tiers: string;
}

export interface SearchLexemeStatsTable {
  lexeme: string;
  /** bigint: postgres.js returns it as a string, PGlite as a number; cast in SQL when reading. */
  df: ColumnType<string | number, number | string, number | string>;
  /** Documents with the lexeme in title_document (title, MeSH, keywords); bigint like df. */
  title_df: ColumnType<string | number, number | string | undefined, number | string>;
}

export interface LiteratureReviewsTable {
  id: Generated<string>;
  /** Creation order (bigint identity, read as text); never inserted. */
  seq: ColumnType<string, never, never>;
  user_id: string;
  user_query: string | null;
  status: Generated<string>;
  summary: string | null;
  /** Which engine wrote the summary (null for reviews summarized before it was recorded). */
  summary_engine: string | null;
  error_message: string | null;
  fts_articles_total_count: Generated<number>;
  /** The concepts the topic was read as (search/concepts.ts Concept[]), for display. */
  topic_concepts: ColumnType<unknown, string | undefined, string>;
  /** Articles in the index covering every concept (exact); null for reviews made before coverage. */
  matching_count: number | null;
  /** The optional filters the review was started with (src/reviews/filters.ts ReviewFilters); null when none. */
  search_filters: ColumnType<unknown, string | null | undefined, string | null>;
  /** How the review was made (src/reviews/report.ts SearchReport); null before it ran or for older reviews. */
  search_report: ColumnType<unknown, string | null | undefined, string | null>;
  /**
   * One row per cited study, in citation order (src/reviews/evidence/types.ts EvidenceRow[]), written with the summary;
   * null for reviews summarised before it existed (migrations/2026_11_26_0301_evidence_table.ts).
   */
  evidence_table: ColumnType<unknown, string | null | undefined, string | null>;
  /** What the current step is doing, shown under the status ("Fetching 143 records from PubMed…"); null when idle. */
  progress: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: GeneratedTimestamp;
  updated_at: GeneratedTimestamp;
}

export interface LiteratureReviewArticlesTable {
  review_id: string;
  rank: number;
  pmid: number;
  score: number;
  citation_number: number | null;
  /** Whether the article covers every concept of the topic (else it is a partial match, listed after). */
  covers_topic: Generated<boolean>;
}

export interface JobsTable {
  id: Generated<string>;
  kind: string;
  payload: ColumnType<unknown, string | undefined, string>;
  status: Generated<string>;
  attempts: Generated<number>;
  max_attempts: Generated<number>;
  run_at: GeneratedTimestamp;
  locked_at: Timestamp | null;
  locked_by: string | null;
  last_error: string | null;
  /** Whose work this is (the user id for reviews): each key's first job is claimed before anyone's second. */
  fairness_key: string | null;
  /**
   * The job's place in the queue: run_at plus FAIR_STEP_SECONDS per job its key had queued or running when it was
   * enqueued (src/jobs/queue-pg.ts). Claims take due jobs in (fair_at, id) order.
   */
  fair_at: GeneratedTimestamp;
  created_at: GeneratedTimestamp;
  updated_at: GeneratedTimestamp;
}

export interface DB {
  users: UsersTable;
  subscriptions: SubscriptionsTable;
  articles: ArticlesTable;
  article_search: ArticleSearchTable;
  article_search_tiers: ArticleSearchTiersTable;
  search_lexeme_stats: SearchLexemeStatsTable;
  literature_reviews: LiteratureReviewsTable;
  literature_review_articles: LiteratureReviewArticlesTable;
  jobs: JobsTable;
}

// Accounts (migrations/2026_11_21_0002_accounts.ts). Declared as a second `DB` block, which TypeScript merges
// with the one above, so that this part is appended without editing shared lines.

/** A timestamp column that the database fills in on insert. */
type CreatedAt = ColumnType<Date, Date | string | undefined, Date | string>;

export interface EmailOutboxTable {
  id: Generated<string>;
  to: string;
  subject: string;
  /** Kept only while the message was not delivered (stored without SMTP, or failed). */
  html: string | null;
  text: string | null;
  /** "stored" (no SMTP configured), "sent" or "failed". */
  status: string;
  created_at: CreatedAt;
  sent_at: Date | null;
  error: string | null;
}

export interface PasswordResetTokensTable {
  /** SHA-256 (hex) of the token sent by e-mail; the token itself is never stored. */
  token_hash: string;
  user_id: string;
  created_at: CreatedAt;
  expires_at: Date;
  used_at: Date | null;
}

export interface RateLimitsTable {
  /** "<limit name>:<subject>", e.g. "login-ip:203.0.113.7". */
  key: string;
  hits: number;
  window_started_at: Date;
  /** The last counted hit (progressive delays are measured from it). */
  last_hit_at: Date | null;
}

export interface DB {
  email_outbox: EmailOutboxTable;
  password_reset_tokens: PasswordResetTokensTable;
  rate_limits: RateLimitsTable;
}

// Token revocation (migrations/2026_11_24_0001_token_revocation.ts).

export interface RevokedAccessTokensTable {
  /** The `jti` claim of a token ended by logout. */
  jti: string;
  user_id: string;
  /** When the token would have expired; the row is useless after it. */
  expires_at: Date;
}

export interface DB {
  revoked_access_tokens: RevokedAccessTokensTable;
}

// Billing with Stripe (migrations/2026_11_24_0006_billing.ts). The new subscriptions columns are declared as a second
// `SubscriptionsTable` block, which TypeScript merges with the one above.

export interface SubscriptionsTable {
  /** Who decides the row: "trial" (the signup trial), "stripe" (mirrors a Stripe subscription) or "operator". */
  source: Generated<string>;
  /** Bumped by every write; a webhook writes only if the revision it read is still current. */
  revision: Generated<number>;
  /** When the "your trial ends in two days" e-mail was queued. */
  trial_reminder_sent_at: Date | null;
  /** When the "your trial has ended" e-mail was queued. */
  trial_ended_notice_at: Date | null;
}

export interface StripeCustomersTable {
  user_id: string;
  /** Stripe's customer id (cus_…). */
  customer_id: string;
  created_at: CreatedAt;
}

export interface StripeEventsTable {
  /** Stripe's event id (evt_…). */
  id: string;
  type: string;
  stripe_created_at: Date;
  received_at: CreatedAt;
}

export interface DB {
  stripe_customers: StripeCustomersTable;
  stripe_events: StripeEventsTable;
}

// Abuse limits (migrations/2026_11_24_0002_abuse_limits.ts).

export interface KnownLoginClientsTable {
  user_id: string;
  /** An IPv4 address or an IPv6 /64, as src/auth/client-address.ts keys clients. */
  client_key: string;
  last_login_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface DB {
  known_login_clients: KnownLoginClientsTable;
}

// Corpus updates (migrations/2026_11_24_0003_topic_coverage.ts).

export interface IngestRunsTable {
  id: Generated<string>;
  finished_at: ColumnType<Date, Date | string | undefined, Date | string>;
  files: number;
  inserted: number;
  updated: number;
  deleted: number;
}

export interface DB {
  ingest_runs: IngestRunsTable;
}

/** A user's like of an article (docs/product.md §3); liked_at is set by the first like and kept. */
export interface LikesTable {
  user_id: string;
  article_pmid: number;
  liked_at: GeneratedTimestamp;
}

/** An article shared with a recipient; sharer_id becomes null when the sharer deletes their account. */
export interface SharesTable {
  id: Generated<string>;
  article_pmid: number;
  sharer_id: string | null;
  recipient_id: string;
  shared_at: GeneratedTimestamp;
}

export interface DB {
  likes: LikesTable;
  shares: SharesTable;
}

/** Ranked candidates of a suggestion source, shared by users (migration 2026_11_25_0301). */
export interface SuggestionSourceCacheTable {
  key: string;
  computed_at: Date;
  pmids: number[];
}

/** One user's suggestions of one ISO week (docs/product.md §3 Weekly suggestions). */
export interface WeeklySuggestionsTable {
  id: Generated<string>;
  user_id: string;
  /** ISO 8601 week, e.g. "2026-W48". */
  week: string;
  created_at: GeneratedTimestamp;
  new_weekly_articles_summary: string | null;
  new_yearly_articles_summary: string | null;
  pertinent_articles_summary: string | null;
  disruptive_articles_summary: string | null;
  digest_queued_at: Timestamp | null;
}

/** One suggested article: its section, rank in it (from 0) and why it was suggested. */
export interface SuggestionArticlesTable {
  suggestion_id: string;
  section: string;
  rank: number;
  article_pmid: number;
  reason: string;
  signal: string;
}

/** The CD index of an article with references, over the corpus's later articles (src/suggestions/cd-index.ts). */
export interface ArticleDisruptionTable {
  pmid: number;
  cd_index: number;
  citing_articles: number;
  cite_only_it: number;
  cite_both: number;
}

/** Per MeSH heading: the earliest publication year in the index and the number of articles (df). */
export interface MeshHeadingStatsTable {
  heading: string;
  first_year: number;
  df: number;
}

export interface DB {
  weekly_suggestions: WeeklySuggestionsTable;
  suggestion_source_cache: SuggestionSourceCacheTable;
  suggestion_articles: SuggestionArticlesTable;
  mesh_heading_stats: MeshHeadingStatsTable;
  article_disruption: ArticleDisruptionTable;
}

/** A PubMed baseline or update file and what `npm run pubmed:sync` did with it. */
export interface PubmedSyncFilesTable {
  name: string;
  kind: string;
  status: string;
  md5: string | null;
  records: Generated<number>;
  inserted: Generated<number>;
  updated: Generated<number>;
  deleted: Generated<number>;
  error: string | null;
  started_at: GeneratedTimestamp;
  finished_at: Timestamp | null;
}

export interface DB {
  pubmed_sync_files: PubmedSyncFilesTable;
}

// PubMed on demand (migrations/2026_11_26_0101_pubmed_on_demand.ts).

export interface NcbiRateGateTable {
  name: string;
  next_slot_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface PubmedFetchUsageTable {
  user_id: string;
  /** UTC day, ISO YYYY-MM-DD. */
  day: ColumnType<string, string, string>;
  records: Generated<number>;
}

export interface PubmedSearchCacheTable {
  key: string;
  pmids: number[];
  total: number;
  query_translation: string | null;
  searched_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface DB {
  ncbi_rate_gate: NcbiRateGateTable;
  pubmed_fetch_usage: PubmedFetchUsageTable;
  pubmed_search_cache: PubmedSearchCacheTable;
}

// Retention and the user's own data (migrations/2026_11_26_0303_retention_and_data_export.ts, issue 22).

export interface UsersTable {
  /** The last login, or the signup: an account without one for 2 years is deleted (src/privacy/retention.ts). */
  last_active_at: ColumnType<Date, Date | string | undefined, Date | string>;
  /** When the "your account will be deleted" notice was queued; cleared by the next login. */
  retention_notice_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export interface AccountArchivesTable {
  id: Generated<string>;
  user_id: string;
  email: string;
  /** "account_deleted" (by its owner or an administrator) or "inactive" (the retention job). */
  reason: string;
  /** What proves the contract: billing identifiers and subscription periods (src/privacy/archive.ts). */
  record: unknown;
  archived_at: ColumnType<Date, Date | string | undefined, Date | string>;
  delete_after: ColumnType<Date, Date | string, Date | string>;
}

export interface DataExportsTable {
  id: Generated<string>;
  user_id: string;
  /** "queued", then "ready" (content written) or "failed". */
  status: Generated<"queued" | "ready" | "failed">;
  content: unknown;
  created_at: ColumnType<Date, Date | string | undefined, Date | string>;
  ready_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  expires_at: ColumnType<Date, Date | string, Date | string>;
}

export interface DB {
  account_archives: AccountArchivesTable;
  data_exports: DataExportsTable;
}

// Share privacy and preferences (migrations/2026_11_26_0302_share_email_preference.ts, issue 22).

export interface UsersTable {
  /** Whether the user is e-mailed when someone shares an article with them (settings; one-click unsubscribe). */
  share_emails: Generated<boolean>;
}

/** A share to an address without an active account: a keyed hash of the address, never the address itself. */
export interface ShareInvitationsTable {
  id: Generated<string>;
  sharer_id: string;
  /** HMAC-SHA-256 (hex) of the lower-cased address with the server's key (src/shares/invitations.ts). */
  recipient_hash: string;
  article_pmid: number;
  invited_at: GeneratedTimestamp;
}

export interface DB {
  share_invitations: ShareInvitationsTable;
}
