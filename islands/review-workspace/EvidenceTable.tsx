/**
 * A review's evidence table (issue 21): one row per cited study, in citation order, with what its abstract states:
 * design and OCEBM 2011 level, participants, population, intervention and comparator, outcome, the main result and
 * every effect estimate. Every text is a verbatim span of the abstract; "not stated" where the abstract gives nothing
 * the extractor could read. The citation numbers are the summary's own (hover preview, dialog on activation). Loaded
 * with a completed review, apart from the page's first load (its JavaScript budget); the table itself is rendered
 * when its panel is opened. The "Download CSV" link is a plain link to the export API, which answers with the file.
 * Test ids: `evidence-table-panel`, `evidence-table`, `evidence-row` (data-pmid), `evidence-csv-link`.
 */
import { useState, type ComponentType, type ReactNode } from "react";
import { DESIGN_INFO } from "../../src/articles/evidence.ts";
import { effectPhrase } from "../../src/reviews/evidence/phrases.ts";
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
          Read from each cited abstract: every text is quoted from it; numbers are those it states.
        </p>
        <a className={css.download} href={evidenceCsvHref(reviewId)} download data-testid="evidence-csv-link">
          Download CSV
        </a>
      </div>
      {/* biome-ignore lint/a11y: a scrolling region takes focus to scroll by keyboard */}
      <div className={css.scroller} tabIndex={0} role="region" aria-labelledby={`evidence-caption-${reviewId}`}>
        <table className={css.table}>
          <caption id={`evidence-caption-${reviewId}`} className={css.caption}>
            {`Evidence table: ${rows.length} cited ${rows.length === 1 ? "study" : "studies"}, in citation order`}
          </caption>
          <thead>
            <tr>
              <th scope="col">Study</th>
              <th scope="col">Design and level</th>
              <th scope="col">Participants</th>
              <th scope="col">Population</th>
              <th scope="col">Intervention / comparator</th>
              <th scope="col">Outcome</th>
              <th scope="col">Main result</th>
              <th scope="col">Effects</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <EvidenceTableRow key={row.citation} row={row} citation={cite(row.citation)} />
            ))}
          </tbody>
        </table>
      </div>
      {dialogArticle ? <Dialog article={dialogArticle} onClose={() => setDialogArticle(null)} /> : null}
    </div>
  );
}

function EvidenceTableRow({ row, citation }: { row: EvidenceRow; citation: ReactNode }) {
  const { design, level } = designText(row);
  return (
    <tr data-testid="evidence-row" data-pmid={row.pmid}>
      <th scope="row" className={css.studyCell}>
        [{citation}]<span className={css.small}>{`PMID ${row.pmid}`}</span>
        {row.duplicate_pmids.length > 0 ? (
          <span className={css.small} data-testid="evidence-duplicates">
            {`Also indexed as PMID ${row.duplicate_pmids.join(", ")}`}
          </span>
        ) : null}
      </th>
      <td>
        {design ?? notStated}
        {design && row.design_source === "abstract" ? (
          <span className={css.small}>from the abstract's wording</span>
        ) : null}
        {level ? <span className={css.small}>{level}</span> : null}
      </td>
      <td className={css.numberCell}>
        {row.participants !== null ? row.participants.toLocaleString("en-US") : notStated}
      </td>
      <td className={css.textCell}>{text(row.population)}</td>
      <td className={css.textCell}>
        {text(row.intervention)}
        {row.comparator ? <span className={css.small}>{`vs ${row.comparator}`}</span> : null}
      </td>
      <td className={css.textCell}>{text(row.outcome)}</td>
      <td className={css.textCell}>{text(row.result)}</td>
      <td className={css.textCell}>
        {row.effects.length > 0 ? (
          <ul className={css.effects}>
            {row.effects.map((e, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a row's effects, fixed once reported
              <li key={i} title={e.text}>
                {effectPhrase(e)}
              </li>
            ))}
          </ul>
        ) : (
          notStated
        )}
      </td>
    </tr>
  );
}
