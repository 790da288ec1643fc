import { sql, type Kysely } from "kysely";

// Frozen in time: this file never imports application code.
// Column comments (issue 25; docs/decisions/0037-generated-database-types.md). The row types are generated from the
// schema (`npm run db:types`), so what a column means is kept where the generator reads it: as its comment, which
// kysely-codegen writes above the column's type in src/db/schema.gen.ts. A later migration that changes a column's
// meaning comments it again.

/** "table.column" → what the column holds, for every column whose meaning its name and type do not tell. */
const COMMENTS: Record<string, string> = {
  "users.weekly_digest": "Whether the weekly suggestions digest is e-mailed (one-click unsubscribe turns it off).",
  "users.last_active_at": "The last login, or the signup: an account without one for 2 years is deleted.",
  "users.retention_notice_at": 'When the "your account will be deleted" notice was queued; cleared by the next login.',
  "users.share_emails": "Whether the user is e-mailed when someone shares an article with them.",
  "subscriptions.source":
    'Who decides the row: "trial" (the signup trial), "stripe" (mirrors a Stripe subscription) or "operator".',
  "subscriptions.revision": "Bumped by every write; a webhook writes only if the revision it read is still current.",
  "subscriptions.trial_reminder_sent_at": 'When the "your trial ends in two days" e-mail was queued.',
  "subscriptions.trial_ended_notice_at": 'When the "your trial has ended" e-mail was queued.',
  "articles.abstract_sections": 'The labelled parts of a structured abstract, as JSON (label "" when unlabelled).',
  "articles.publication_date": "First day of the month or year when only those are known.",
  "articles.publication_date_precision":
    '"day", "month" or "year": what the record states of publication_date; null for rows ingested before it.',
  "articles.retraction_notice_pmid": "PMID of the retraction notice (CommentsCorrections RetractionIn).",
  "articles.reference_pmids": "PMIDs of the articles it cites (its PubMed reference list), without repeats.",
  "articles.entrez_date": 'When the record entered PubMed (PubMedPubDate PubStatus="entrez"); null when not stated.',
  "articles.mesh_major_terms": "MeSH headings marked as a major topic of the article (for PubMed's [majr] tag).",
  "articles.issue": 'JournalIssue/Issue, a supplement included ("19 Suppl").',
  "articles.medline_pages": 'Pagination/MedlinePgn as given ("123-9").',
  "articles.elocation_pii": 'ELocationID EIdType="pii": the "page" of an e-only article.',
  "articles.journal_medline_ta": 'MedlineJournalInfo/MedlineTA: NLM\'s title abbreviation ("Spine (Phila Pa 1976)").',
  "articles.epub_date": 'ArticleDate DateType="Electronic".',
  "articles.author_list": "Authors in order, as JSON.",
  "articles.record_kind": '"article", "book" or "chapter".',
  "article_search_tiers.tiers": "Impact tiers of an article_search row: tokens 'lexeme level'.",
  "search_lexeme_stats.df": "Documents with the lexeme (bigint: postgres.js reads it as a string, PGlite as a number).",
  "search_lexeme_stats.title_df":
    "Documents with the lexeme in title_document (title, MeSH, keywords); bigint like df.",
  "literature_reviews.seq": "Creation order (bigint identity, read as text); never inserted.",
  "literature_reviews.summary_engine":
    "Which engine wrote the summary (null for reviews summarized before it was recorded).",
  "literature_reviews.topic_concepts": "The concepts the topic was read as, as JSON, for display.",
  "literature_reviews.matching_count":
    "Articles in the index covering every concept (exact); null for reviews made before coverage.",
  "literature_reviews.search_filters": "The optional filters the review was started with, as JSON; null when none.",
  "literature_reviews.search_report": "How the review was made, as JSON; null before it ran or for older reviews.",
  "literature_reviews.evidence_table":
    "One row per cited study, in citation order, as JSON, written with the summary; null for older reviews.",
  "literature_reviews.progress": "What the current step is doing, shown under the status; null when idle.",
  "literature_review_articles.covers_topic":
    "Whether the article covers every concept of the topic (else it is a partial match, listed after).",
  "jobs.fairness_key":
    "Whose work this is (the user id for reviews): each key's first job is claimed before anyone's second.",
  "jobs.fair_at":
    "The job's place in the queue: run_at pushed back one step per job its key had queued or running when enqueued.",
  "email_outbox.html": "Kept only while the message was not delivered (stored without SMTP, or failed).",
  "email_outbox.status": '"stored" (no SMTP configured), "sent" or "failed".',
  "password_reset_tokens.token_hash": "SHA-256 (hex) of the token sent by e-mail; the token itself is never stored.",
  "rate_limits.key": '"<limit name>:<subject>", e.g. "login-ip:203.0.113.7".',
  "rate_limits.last_hit_at": "The last counted hit (progressive delays are measured from it).",
  "revoked_access_tokens.jti": "The jti claim of a token ended by logout.",
  "revoked_access_tokens.expires_at": "When the token would have expired; the row is useless after it.",
  "stripe_customers.customer_id": "Stripe's customer id (cus_…).",
  "stripe_events.id": "Stripe's event id (evt_…).",
  "known_login_clients.client_key": "An IPv4 address or an IPv6 /64.",
  "shares.sharer_id": "Null once the sharer has deleted their account.",
  "weekly_suggestions.week": 'ISO 8601 week, e.g. "2026-W48".',
  "pubmed_fetch_usage.day": "UTC day.",
  "account_archives.reason": '"account_deleted" (by its owner or an administrator) or "inactive" (the retention job).',
  "account_archives.record": "What proves the contract: billing identifiers and subscription periods.",
  "data_exports.status": '"queued", then "ready" (content written) or "failed".',
  "share_invitations.recipient_hash": "HMAC-SHA-256 (hex) of the lower-cased address with the server's key.",
};

/** Comments each column of COMMENTS. */
export async function up(db: Kysely<any>): Promise<void> {
  for (const [path, text] of Object.entries(COMMENTS)) {
    const [table, column] = path.split(".") as [string, string];
    await sql`COMMENT ON COLUMN ${sql.id(table, column)} IS ${sql.lit(text)}`.execute(db);
  }
}

/** Removes the comments. */
export async function down(db: Kysely<any>): Promise<void> {
  for (const path of Object.keys(COMMENTS)) {
    const [table, column] = path.split(".") as [string, string];
    await sql`COMMENT ON COLUMN ${sql.id(table, column)} IS NULL`.execute(db);
  }
}
