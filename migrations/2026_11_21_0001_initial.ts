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
  // a title (+MeSH/keywords) vector for bounded candidate generation on common terms, the field-weighted
  // length for BM25 normalisation, and the year so that a year range filters inside the same scan.
  await sql`
    CREATE TABLE article_search (
      pmid integer PRIMARY KEY REFERENCES articles(pmid) ON DELETE CASCADE,
      document tsvector NOT NULL,
      title_document tsvector NOT NULL,
      doc_length integer NOT NULL,
      publication_year integer
    )`.execute(db);
  // Keep vectors in the row (compressed if need be) rather than in the TOAST table: scoring reads the
  // document of each of a few thousand candidates, and an out-of-line value costs a TOAST index lookup.
  await sql`ALTER TABLE article_search ALTER COLUMN document SET STORAGE MAIN`.execute(db);
  await sql`CREATE INDEX article_search_document_idx ON article_search USING gin (document)`.execute(db);
  await sql`CREATE INDEX article_search_title_idx ON article_search USING gin (title_document)`.execute(db);
  // Document frequency per lexeme, kept up to date by the adapter, for idf; title_df counts the documents
  // having the lexeme in title_document, for choosing how to draw candidates. Two reserved keys that no
  // lexeme can take (they start with a space) hold the document count and the summed document length in
  // df; bigint because that sum outgrows integer at a few million records.
  await sql`
    CREATE TABLE search_lexeme_stats (
      lexeme text PRIMARY KEY,
      df bigint NOT NULL,
      title_df bigint NOT NULL DEFAULT 0
    )`.execute(db);
  // The statistics follow article_search through statement-level triggers over transition tables, so they
  // stay exact whoever changes the rows: the adapter's upserts and deletes, and deletes cascading from
  // articles. A statement adds its new vectors and subtracts its old ones (a lexeme is in title_document
  // exactly when it has a position of weight A or B in document); lexemes are applied in sorted order so
  // that concurrent batches lock shared rows in the same order; lexemes whose df falls to 0 go.
  await sql`
    CREATE FUNCTION article_search_stats_maintain() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        INSERT INTO search_lexeme_stats AS s (lexeme, df, title_df)
        SELECT lexeme, sum(delta), sum(title_delta) FROM (
          SELECT u.lexeme, 1::bigint AS delta, (u.weights && '{A,B}'::text[])::integer::bigint AS title_delta
          FROM new_rows n, unnest(n.document) u
          UNION ALL SELECT ' documents', count(*), 0 FROM new_rows
          UNION ALL SELECT ' length', sum(doc_length), 0 FROM new_rows
        ) d GROUP BY lexeme HAVING sum(delta) <> 0 ORDER BY lexeme
        ON CONFLICT (lexeme) DO UPDATE SET df = s.df + excluded.df, title_df = s.title_df + excluded.title_df;
      ELSIF TG_OP = 'UPDATE' THEN
        INSERT INTO search_lexeme_stats AS s (lexeme, df, title_df)
        SELECT lexeme, sum(delta), sum(title_delta) FROM (
          SELECT u.lexeme, 1::bigint AS delta, (u.weights && '{A,B}'::text[])::integer::bigint AS title_delta
          FROM new_rows n, unnest(n.document) u
          UNION ALL
          SELECT u.lexeme, -1::bigint, -(u.weights && '{A,B}'::text[])::integer::bigint
          FROM old_rows o, unnest(o.document) u
          UNION ALL SELECT ' length', sum(doc_length), 0 FROM new_rows
          UNION ALL SELECT ' length', -sum(doc_length), 0 FROM old_rows
        ) d GROUP BY lexeme HAVING sum(delta) <> 0 OR sum(title_delta) <> 0 ORDER BY lexeme
        ON CONFLICT (lexeme) DO UPDATE SET df = s.df + excluded.df, title_df = s.title_df + excluded.title_df;
        DELETE FROM search_lexeme_stats
        WHERE df = 0 AND lexeme IN (SELECT u.lexeme FROM old_rows o, unnest(o.document) u);
      ELSE
        INSERT INTO search_lexeme_stats AS s (lexeme, df, title_df)
        SELECT lexeme, sum(delta), sum(title_delta) FROM (
          SELECT u.lexeme, -1::bigint AS delta, -(u.weights && '{A,B}'::text[])::integer::bigint AS title_delta
          FROM old_rows o, unnest(o.document) u
          UNION ALL SELECT ' documents', -count(*), 0 FROM old_rows
          UNION ALL SELECT ' length', -sum(doc_length), 0 FROM old_rows
        ) d GROUP BY lexeme HAVING sum(delta) <> 0 ORDER BY lexeme
        ON CONFLICT (lexeme) DO UPDATE SET df = s.df + excluded.df, title_df = s.title_df + excluded.title_df;
        DELETE FROM search_lexeme_stats
        WHERE df = 0 AND lexeme IN (SELECT u.lexeme FROM old_rows o, unnest(o.document) u);
      END IF;
      RETURN NULL;
    END $$`.execute(db);
  await sql`
    CREATE TRIGGER article_search_stats_insert AFTER INSERT ON article_search
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION article_search_stats_maintain()`.execute(db);
  await sql`
    CREATE TRIGGER article_search_stats_update AFTER UPDATE ON article_search
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION article_search_stats_maintain()`.execute(db);
  await sql`
    CREATE TRIGGER article_search_stats_delete AFTER DELETE ON article_search
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION article_search_stats_maintain()`.execute(db);

  await sql`
    CREATE TABLE literature_reviews (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      -- Creation order: timestamps of reviews created in the same clock tick tie, a sequence never does.
      seq bigint GENERATED ALWAYS AS IDENTITY,
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      user_query text,
      status text NOT NULL DEFAULT 'initial',
      summary text,
      error_message text,
      fts_articles_total_count integer NOT NULL DEFAULT 0,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE INDEX literature_reviews_user_created_idx ON literature_reviews (user_id, seq DESC)`.execute(db);

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
  for (const t of [
    "jobs",
    "literature_review_articles",
    "literature_reviews",
    "search_lexeme_stats",
    "article_search",
    "articles",
    "subscriptions",
    "users",
  ])
    await sql`DROP TABLE IF EXISTS ${sql.ref(t)} CASCADE`.execute(db);
  await sql`DROP FUNCTION IF EXISTS article_search_stats_maintain()`.execute(db);
}
