/**
 * The article lists under a complete review's summary (docs/product.md §2): 'Cited Articles' (all sent at once, paged
 * in the browser) and 'All Relevant Articles' (paged by the server). Each is a native disclosure (`<details>`),
 * which is keyboard operable and announced as expandable without any script.
 */
import { useState, type ReactNode } from "react";
import { ArticleList } from "../article-card/ArticleList.tsx";
import { Pagination } from "../article-card/Pagination.tsx";
import { Icon } from "../article-card/icons.tsx";
import { clampPage, pageCount, pageSlice } from "../article-card/paging.ts";
import type { Article } from "../article-card/types.ts";
import { appraisalPhrases, participantsPhrase } from "../../src/reviews/evidence/phrases.ts";
import type { EvidenceRow } from "../../src/reviews/evidence/types.ts";
import { CITED_PAGE_SIZE, FTS_PAGE_SIZE } from "./queries.ts";
import { relevantListCaption } from "./detail-messages.ts";
import * as css from "./ReviewWorkspace.css.ts";

function Section({
  title,
  count,
  defaultOpen,
  testId,
  children,
}: {
  title: string;
  count: number;
  defaultOpen: boolean;
  testId: string;
  children: ReactNode;
}) {
  const [open, setOpen] = useState(defaultOpen);
  return (
    <details className={css.section} open={open} onToggle={(e) => setOpen(e.currentTarget.open)} data-testid={testId}>
      <summary className={css.sectionSummary}>
        <Icon name="chevron" className={css.chevron} />
        {title}
        <span className={css.count} data-testid={`${testId}-count`}>
          {count}
        </span>
      </summary>
      {/* Only an open section renders its cards, so a long list costs nothing while closed. */}
      {open ? <div className={css.sectionBody}>{children}</div> : null}
    </details>
  );
}

/** The short labels a cited card shows of its study: participants, then the appraisal items (issue 37 item 1). */
export function cardAppraisal(row: EvidenceRow | undefined): string[] | undefined {
  if (!row) return undefined;
  const n = participantsPhrase(row);
  return [...(n ? [`n = ${n}`] : []), ...appraisalPhrases(row.appraisal)];
}

/**
 * 'Cited Articles': the summary's references in citation order, six per page, each card with its citation number and
 * what the evidence table read of its study.
 */
export function CitedArticles({
  articles,
  evidence,
}: {
  articles: readonly Article[];
  evidence?: readonly EvidenceRow[] | null;
}) {
  const [page, setPage] = useState(0);
  const pages = pageCount(articles.length, CITED_PAGE_SIZE);
  const current = clampPage(page, pages);
  const rows = new Map((evidence ?? []).map((r) => [r.pmid, r]));
  return (
    <Section title="Cited Articles" count={articles.length} defaultOpen testId="cited-articles">
      <ArticleList
        articles={pageSlice(articles, current, CITED_PAGE_SIZE)}
        testId="cited-articles-list"
        citationOf={(i) => current * CITED_PAGE_SIZE + i + 1}
        appraisalOf={(a) => cardAppraisal(rows.get(a.pmid))}
      />
      <Pagination
        page={current}
        pageCount={pages}
        onPageChange={setPage}
        label="Cited Articles pages"
        testId="cited-articles-pagination"
      />
    </Section>
  );
}

/** Props of {@link AllRelevantArticles}: one server page of articles and the total count. */
export interface AllRelevantArticlesProps {
  articles: readonly Article[];
  total: number;
  page: number;
  onPageChange: (page: number) => void;
  /** True while another page is being fetched; the current one stays visible meanwhile. */
  loading: boolean;
  /** Articles in the index covering the whole topic, and the topic's concepts, for the caption. */
  matching?: number | null;
  concepts?: readonly string[];
  /** Of the listed articles, those covering the whole topic (the search report's "kept as relevant"). */
  relevant?: number | null;
}

/** 'All Relevant Articles': every article the search kept, six per page fetched from the server. */
export function AllRelevantArticles({
  articles,
  total,
  page,
  onPageChange,
  loading,
  matching,
  concepts = [],
  relevant,
}: AllRelevantArticlesProps) {
  const caption = relevantListCaption(total, matching, concepts, relevant);
  return (
    <Section title="All Relevant Articles" count={total} defaultOpen={false} testId="all-articles">
      {caption ? (
        <p className={css.listCaption} data-testid="all-articles-caption">
          {caption}
        </p>
      ) : null}
      <div className={css.pageLoading} aria-busy={loading || undefined} data-loading={String(loading)}>
        <ArticleList articles={articles} testId="all-articles-list" />
      </div>
      <Pagination
        page={page}
        pageCount={pageCount(total, FTS_PAGE_SIZE)}
        onPageChange={onPageChange}
        label="All Relevant Articles pages"
        busy={loading}
        testId="all-articles-pagination"
      />
    </Section>
  );
}
