/**
 * A review's evidence table (issues 21, 33 and 37): one row per cited study, in citation order, with what its abstract
 * states: design, OCEBM 2011 level and the appraisal items (randomised, comparison group, timing, blinding), the
 * participants with the follow-up, population, intervention and comparator, outcome, the main result and every
 * between-group result. Every text is a verbatim span of the abstract; "not stated" where the abstract gives nothing
 * the extractor read with confidence. Each number opens the sentence it was read from. Four columns fit a laptop's
 * width without sideways scrolling; below 720 px each study is a card. The citation numbers are the summary's own
 * (hover preview, dialog on activation). Loaded with a completed review, apart from the page's first load (its
 * JavaScript budget); the table itself is rendered when its panel is opened. The "Download CSV" link is a plain link to
 * the export API, which answers with the file. Test ids: `evidence-table-panel`, `evidence-table`, `evidence-row`
 * (data-pmid), `evidence-csv-link`, `evidence-participants`, `evidence-effect`, `evidence-source`,
 * `evidence-appraisal`.
 */
import { Fragment, useState, type ComponentType, type ReactNode } from "react";
import { DESIGN_INFO } from "../../src/articles/evidence.ts";
import { appraisalItems, effectPhrase, participantsPhrase } from "../../src/reviews/evidence/phrases.ts";
import { markPassages } from "../article-card/highlight.ts";
import { tokenize } from "../../src/reviews/evidence/tokens.ts";
import type { EvidenceRow } from "../../src/reviews/evidence/types.ts";
import type { Article } from "../article-card/types.ts";
import * as css from "./EvidenceTable.css.ts";

/** Props of {@link EvidenceTable}. */
export interface EvidenceTableProps {
  reviewId: string;
  rows: readonly EvidenceRow[];
  /** Cited articles in citation order: number n is refs[n-1] (as for the summary). */
  refs: readonly Article[];
  /**
   * The summary's citation button (hover preview) and the article dialog it opens. Passed in rather than imported, so
   * that this lazily loaded chunk shares no module with the page's first load (its JavaScript budget, 0006).
   */
  Citation: ComponentType<{ n: number; article: Article; onOpen: (a: Article) => void }>;
  Dialog: ComponentType<{ article: Article; onClose: () => void }>;
}

/** The CSV export of a review's evidence table (src/export/routes.ts). */
export const evidenceCsvHref = (reviewId: string) => `/api/v1/export/reviews/${encodeURIComponent(reviewId)}/evidence`;

/** How the design cell reads: "Randomized controlled trial" and "OCEBM level 2", each null when unknown. */
export function designText(row: Pick<EvidenceRow, "design" | "evidence_level">): {
  design: string | null;
  level: string | null;
} {
  return {
    design: row.design ? DESIGN_INFO[row.design].label : null,
    level: row.evidence_level !== null ? `OCEBM level ${row.evidence_level}` : null,
  };
}

const notStated = <span className={css.missing}>not stated</span>;

/** A verbatim cell, or "not stated". */
const text = (value: string | null): ReactNode => value ?? notStated;

/**
 * The collapsible "Evidence table" panel under the summary: a native disclosure (keyboard operable, announced as
 * expandable), closed at first; the table is rendered once it is opened. Nothing when the review has no rows. The
 * page's default import.
 */
export default function EvidencePanel({
  rows,
  ...props
}: Omit<EvidenceTableProps, "rows"> & { rows?: readonly EvidenceRow[] | null }) {
  const [open, setOpen] = useState(false);
  // Reviews made before the table existed have none; a review citing nothing has an empty one.
  if (!rows?.length) return null;
  return (
    <details className={css.panel} onToggle={(e) => setOpen(e.currentTarget.open)} data-testid="evidence-table-panel">
      <summary className={css.panelSummary}>
        Evidence table <span className={css.count}>{rows.length}</span>
      </summary>
      {open ? <EvidenceTable rows={rows} {...props} /> : null}
    </details>
  );
}

/** The table (one row per cited study), its note and the "Download CSV" link; the dialog of an activated citation. */
export function EvidenceTable({ reviewId, rows, refs, Citation, Dialog }: EvidenceTableProps) {
  const [dialogArticle, setDialogArticle] = useState<Article | null>(null);
  const cite = (n: number): ReactNode => {
    const article = refs[n - 1];
    return article ? <Citation n={n} article={article} onOpen={setDialogArticle} /> : n;
  };
  return (
    <div data-testid="evidence-table">
      <div className={css.toolbar}>
        <p className={css.note}>
          Read from each cited abstract: every text is quoted from it; numbers are those it states, shown only when read
          with confidence. Select a number to see the sentence it comes from.
        </p>
        <a className={css.download} href={evidenceCsvHref(reviewId)} download data-testid="evidence-csv-link">
          Download CSV
        </a>
      </div>
      <table className={css.table}>
        <caption className={css.caption}>
          {`Evidence table: ${rows.length} cited ${rows.length === 1 ? "study" : "studies"}, in citation order`}
        </caption>
        <colgroup>
          <col className={css.colStudy} />
          <col className={css.colParticipants} />
          <col className={css.colPico} />
          <col className={css.colResults} />
        </colgroup>
        <thead>
          <tr>
            <th scope="col">Study, design and appraisal</th>
            <th scope="col">Participants</th>
            <th scope="col">Population, intervention, outcome</th>
            <th scope="col">Results</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <EvidenceTableRow key={row.citation} row={row} citation={cite(row.citation)} />
          ))}
        </tbody>
      </table>
      {dialogArticle ? <Dialog article={dialogArticle} onClose={() => setDialogArticle(null)} /> : null}
    </div>
  );
}

/**
 * A number that opens the sentence it was read from (issue 33 item 7): a disclosure button; the sentence shows below
 * it with the number's own text marked.
 */
function Sourced({
  label,
  source,
  marks,
  testId,
}: {
  label: string;
  source: string | null;
  marks: readonly string[];
  testId: string;
}) {
  const [open, setOpen] = useState(false);
  if (!source) return <span className={css.number}>{label}</span>;
  const runs = markPassages(source, marks);
  return (
    <>
      <button
        type="button"
        className={css.sourceButton}
        aria-expanded={open}
        onClick={() => setOpen(!open)}
        data-testid={testId}
        title="Show the sentence this comes from"
      >
        {label}
      </button>
      {open ? (
        <blockquote className={css.source} data-testid="evidence-source">
          {runs.map((r, i) =>
            // biome-ignore lint/suspicious/noArrayIndexKey: runs of a fixed sentence
            r.marked ? <mark key={i}>{r.text}</mark> : <Fragment key={i}>{r.text}</Fragment>,
          )}
        </blockquote>
      ) : null}
    </>
  );
}

/** The numbers of `values` as `text` writes them ("Forty-eight", "1,532", "0.40"), to mark in it. */
function writtenNumbers(text: string, values: readonly (number | null)[]): string[] {
  const wanted = values.filter((v): v is number => v !== null).map(Math.abs);
  return tokenize(text)
    .filter((t) => t.kind === "number" && wanted.some((v) => Math.abs(t.value - v) < 1e-9))
    .map((t) => t.text);
}

function EvidenceTableRow({ row, citation }: { row: EvidenceRow; citation: ReactNode }) {
  const { design, level } = designText(row);
  const appraisal = appraisalItems(row.appraisal);
  const participants = participantsPhrase(row);
  return (
    <tr data-testid="evidence-row" data-pmid={row.pmid}>
      <th scope="row" className={css.studyCell} data-label="Study">
        <span className={css.studyLine}>
          [{citation}] {design ?? notStated}
        </span>
        {level ? <span className={css.small}>{level}</span> : null}
        {appraisal.length > 0 ? (
          <span className={css.chips} data-testid="evidence-appraisal">
            {appraisal.map((a) => (
              <span key={a.item} className={css.chip}>
                <Sourced
                  label={a.label}
                  source={row.appraisal.sources?.[a.item] ?? null}
                  marks={[]}
                  testId="evidence-appraisal-item"
                />
              </span>
            ))}
          </span>
        ) : null}
        <span className={css.small}>{`PMID ${row.pmid}`}</span>
        {row.duplicate_pmids.length > 0 ? (
          <span className={css.small} data-testid="evidence-duplicates">
            {`Also indexed as PMID ${row.duplicate_pmids.join(", ")}`}
          </span>
        ) : null}
      </th>
      <td className={css.numberCell} data-label="Participants">
        {participants ? (
          <Sourced
            label={participants}
            source={row.participants_text}
            marks={writtenNumbers(row.participants_text ?? "", row.participants_arms ?? [row.participants])}
            testId="evidence-participants"
          />
        ) : (
          notStated
        )}
        {row.appraisal.follow_up ? <span className={css.small}>{row.appraisal.follow_up}</span> : null}
        {row.same_cohort.length > 0 ? (
          <span className={css.small}>{`Same cohort as [${row.same_cohort.join(", ")}]`}</span>
        ) : null}
      </td>
      <td data-label="Population, intervention, outcome">
        <dl className={css.pico}>
          <dt>Population</dt>
          <dd>{text(row.population)}</dd>
          <dt>Intervention</dt>
          <dd>
            {text(row.intervention)}
            {row.comparator ? ` vs ${row.comparator}` : null}
          </dd>
          <dt>Outcome</dt>
          <dd>{text(row.outcome)}</dd>
        </dl>
      </td>
      <td data-label="Results">
        <p className={css.result}>{text(row.result)}</p>
        {row.effects.length > 0 ? (
          <ul className={css.effects}>
            {row.effects.map((e, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a row's effects, fixed once reported
              <li key={i}>
                <Sourced
                  label={effectPhrase(e)}
                  source={e.text}
                  marks={writtenNumbers(e.text, [e.value, e.compared_value, e.ci_low, e.ci_high, e.p_value])}
                  testId="evidence-effect"
                />
              </li>
            ))}
          </ul>
        ) : null}
      </td>
    </tr>
  );
}
