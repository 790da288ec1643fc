import { sql, type Kysely } from "kysely";

// Frozen in time: this file never imports application code.

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE users (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      email text NOT NULL,
      full_name text,
      hashed_password text NOT NULL,
      institution_email text,
      description text,
      is_active boolean NOT NULL DEFAULT true,
      is_superuser boolean NOT NULL DEFAULT false,
      token_version integer NOT NULL DEFAULT 0,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  // E-mail addresses are unique case-insensitively.
  await sql`CREATE UNIQUE INDEX users_email_lower_key ON users (lower(email))`.execute(db);

  await sql`
    CREATE TABLE subscriptions (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      user_id uuid NOT NULL UNIQUE REFERENCES users(id) ON DELETE CASCADE,
      status text NOT NULL,
      subscription_type text NOT NULL,
      billing_interval text NOT NULL DEFAULT 'annual',
      is_trial boolean NOT NULL DEFAULT false,
      trial_ends_at timestamptz,
      current_period_end timestamptz,
      cancel_at_period_end boolean NOT NULL DEFAULT false,
      stripe_customer_id text,
      stripe_subscription_id text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);

  // Canonical PubMed records. The search adapters index from here.
  await sql`
    CREATE TABLE articles (
      pmid integer PRIMARY KEY,
      title text,
      authors text,
      abstract text,
      abstract_sections jsonb NOT NULL DEFAULT '[]',
      journal text,
      publication_date date,
      publication_year integer,
      doi text,
      pmc_id text,
      full_text_link text,
      pdf_free_link text,
      language text,
      publication_types text[] NOT NULL DEFAULT '{}',
      mesh_terms text[] NOT NULL DEFAULT '{}',
      keywords text[] NOT NULL DEFAULT '{}',
      content_hash text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);

  // PostgreSQL full-text adapter's own data: weighted document (title A, MeSH/keywords B, abstract C),
  // a title-only vector for bounded candidate generation on common terms, and the length for BM25 normalisation.
  await sql`
    CREATE TABLE article_search (
      pmid integer PRIMARY KEY REFERENCES articles(pmid) ON DELETE CASCADE,
      document tsvector NOT NULL,
      title_document tsvector NOT NULL,
      doc_length integer NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX article_search_document_idx ON article_search USING gin (document)`.execute(db);
  await sql`CREATE INDEX article_search_title_idx ON article_search USING gin (title_document)`.execute(db);
  // Document frequency per lexeme, kept up to date by the adapter, for idf.
  await sql`
    CREATE TABLE search_lexeme_stats (
      lexeme text PRIMARY KEY,
      df integer NOT NULL
    )`.execute(db);

  await sql`
    CREATE TABLE literature_reviews (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      user_query text,
      status text NOT NULL DEFAULT 'initial',
      summary text,
      error_message text,
      fts_articles_total_count integer NOT NULL DEFAULT 0,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE INDEX literature_reviews_user_created_idx ON literature_reviews (user_id, created_at DESC)`.execute(db);

  // The ranked list of relevant articles of a review; citation_number is set for cited ones.
  await sql`
    CREATE TABLE literature_review_articles (
      review_id uuid NOT NULL REFERENCES literature_reviews(id) ON DELETE CASCADE,
      rank integer NOT NULL,
      pmid integer NOT NULL REFERENCES articles(pmid) ON DELETE CASCADE,
      score real NOT NULL,
      citation_number integer,
      PRIMARY KEY (review_id, rank)
    )`.execute(db);

  // Durable job queue (see docs/decisions/0003-job-queue.md).
  await sql`
    CREATE TABLE jobs (
      id bigserial PRIMARY KEY,
      kind text NOT NULL,
      payload jsonb NOT NULL DEFAULT '{}',
      status text NOT NULL DEFAULT 'queued',
      attempts integer NOT NULL DEFAULT 0,
      max_attempts integer NOT NULL DEFAULT 3,
      run_at timestamptz NOT NULL DEFAULT now(),
      locked_at timestamptz,
      locked_by text,
      last_error text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE INDEX jobs_ready_idx ON jobs (run_at) WHERE status = 'queued'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ["jobs", "literature_review_articles", "literature_reviews", "search_lexeme_stats", "article_search", "articles", "subscriptions", "users"])
    await sql`DROP TABLE IF EXISTS ${sql.ref(t)} CASCADE`.execute(db);
}
