/**
 * "How this review was made" (issue 13): the query as the engine read it, the counts from the index to the citations
 * (a PRISMA-style flow), the filters, the engine and the corpus the review ran on. Loaded with a completed review.
 */
import * as css from "./method.css.ts";
import type { components } from "../lib/api-types.gen.ts";

/** GET /details' search_report (src/reviews/report.ts), as the server's OpenAPI document declares it. */
export type SearchReport = NonNullable<components["schemas"]["SearchReport"]>;

/** What PubMed on demand did for a review (src/reviews/report.ts PubmedReport). */
export type PubmedReport = NonNullable<SearchReport["pubmed"]>;

/** "2026-11-26 10:02 UTC" for an ISO time. */
function utcMinute(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : `${d.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/** The panel's paragraph on PubMed: what was sent to NCBI, how PubMed read it, what it counted and what was fetched. */
export function pubmedParagraph(p: PubmedReport): string {
  const parts = [`The topic's text was sent to NCBI's PubMed on ${utcMinute(p.searched_at)} as: ${p.term}.`];
  if (p.query_translation) parts.push(`PubMed read it as: ${p.query_translation}.`);
  if (p.total !== null) {
    parts.push(
      `PubMed counts ${n(p.total)} matching ${p.total === 1 ? "record" : "records"}; of its ${n(p.considered)} best matches, ` +
        `${n(p.already_held)} ${p.already_held === 1 ? "was" : "were"} already in the index and ${n(p.fetched)} ${p.fetched === 1 ? "was" : "were"} fetched for this review` +
        `${p.failed > 0 ? ` (${n(p.failed)} could not be read)` : ""}.`,
    );
  }
  if (p.note) parts.push(p.note);
  return parts.join(" ");
}

/** Props of {@link HowMade}. */
export interface HowMadeProps {
  report: SearchReport;
  engine: string | null;
}

const n = (x: number) => x.toLocaleString("en-US");

/** The panel's content: a definition list of the flow, then what the query was read as. */
export function HowMade({ report, engine }: HowMadeProps) {
  const { counts: c, query: q } = report;
  // "All Relevant Articles" lists the relevant articles, then the partial matches: its count is their sum, said here
  // beside the relevant ones so the two numbers on the page do not seem to disagree (issue 35: 86 beside 63).
  const listed = c.relevant + c.partial;
  const rows: [number, string][] = [
    [c.matched, "articles in the index address every concept of the topic"],
    [c.screened, "best matches retrieved and re-ranked"],
    ...(c.after_filters !== null ? ([[c.after_filters, "pass the filters"]] as [number, string][]) : []),
    [c.relevant, "kept as relevant: they address every concept"],
    [
      listed,
      c.partial > 0
        ? `listed under All Relevant Articles: these ${n(c.relevant)}, then ${n(c.partial)} partial ${c.partial === 1 ? "match" : "matches"} (some concepts only, never cited)`
        : "listed under All Relevant Articles",
    ],
    [
      c.summarized,
      `best-ranked read for the summary${c.retracted_excluded > 0 ? ` (${c.retracted_excluded} retracted, left out)` : ""}`,
    ],
    [c.cited, "cited"],
  ];
  const updated = report.corpus.last_updated ? new Date(report.corpus.last_updated).toISOString().slice(0, 10) : null;
  return (
    <div data-testid="review-how-made">
      <ol className={css.flow} aria-label="From the index to the citations">
        {rows.map(([count, label]) => (
          <li key={label} className={css.step}>
            <span className={css.count}>{n(count)}</span>
            <span>{label}</span>
          </li>
        ))}
      </ol>
      {q.pubmed_syntax ? (
        // A PubMed search strategy is evaluated as written: every term of it, not concepts of our own.
        <p
          className={css.text}
          data-testid="how-made-syntax"
        >{`Read as a PubMed search strategy, every term as written: ${q.pubmed_syntax}`}</p>
      ) : (
        <p className={css.text} data-testid="how-made-query">
          {"Read as: "}
          {q.concepts.map((concept, i) => (
            <span key={concept.label}>
              {i > 0 ? " AND " : null}
              <strong>{concept.label}</strong>
              {concept.alternatives.length > 1 ? ` (${concept.alternatives.join(" OR ")})` : null}
            </span>
          ))}
          {q.phrases.length > 0 ? `; phrases: ${q.phrases.map((p) => `"${p}"`).join(", ")}` : null}
          {q.excluded.length > 0 ? `; excluding: ${q.excluded.join(", ")}` : null}
          {q.generic_words.length > 0 ? `; ranked but not required: ${q.generic_words.join(", ")}` : null}
        </p>
      )}
      {report.pubmed ? (
        <p className={css.text} data-testid="how-made-pubmed">
          {pubmedParagraph(report.pubmed)}
        </p>
      ) : report.pubmed_not_asked ? (
        <p className={css.text} data-testid="how-made-pubmed">
          {report.pubmed_not_asked}
        </p>
      ) : null}
      <p className={css.text}>{`Filters: ${report.filters.length > 0 ? report.filters.join("; ") : "none"}.`}</p>
      <p className={css.text}>
        {`Corpus: ${n(report.corpus.records)} articles (distinct PubMed records, one per PMID)${updated ? `, last updated ${updated}` : ""}. Summary: ${engine ?? "extractive"}.`}
      </p>
    </div>
  );
}

/**
 * Why a review found nothing, in one sentence, from its search report: what PubMed said (or why it was not heard), or
 * how many records the local index holds. Null without a report.
 */
export function noArticlesReason(report: SearchReport | null): string | null {
  if (!report) return null;
  const records = report.corpus.records.toLocaleString("en-US");
  const p = report.pubmed;
  if (p?.note) return p.note;
  if (p && p.total === 0) return "PubMed has no records for this topic either.";
  if (p && p.total !== null)
    return `PubMed found ${p.total.toLocaleString("en-US")} records; none of the ${p.considered.toLocaleString("en-US")} best, now in the index of ${records} articles, addresses every part of the topic.`;
  return `The index holds ${records} articles, and none addresses every part of the topic.`;
}

/**
 * The sentence under "No Articles Found" saying why (noArticlesReason), loaded with this module only when a review
 * found nothing, so the workspace's first load does not carry it.
 */
export function NoArticlesReason({ report }: { report: SearchReport | null }) {
  const reason = noArticlesReason(report);
  return reason ? <span data-testid="review-no-articles-reason">{reason}</span> : null;
}
