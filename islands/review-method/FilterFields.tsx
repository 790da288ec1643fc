/**
 * The optional filters of a new review (issue 13): publication years, study designs, humans only, free full text.
 * Loaded when the reader opens "Filters" under the topic input; the values go out as the start call's query
 * parameters (src/reviews/filters.ts), and the server checks them again.
 */
import { useId } from "react";
import type { FilterValues } from "./filter-values.ts";
import * as css from "./method.css.ts";

/**
 * Designs offered, strongest evidence first: the codes and labels of src/articles/evidence.ts (a test keeps them in
 * step), less "opinion".
 */
export const DESIGNS: [code: string, label: string][] = [
  ["meta-analysis", "Meta-analysis"],
  ["systematic-review", "Systematic review"],
  ["rct", "Randomized controlled trial"],
  ["clinical-trial", "Clinical trial"],
  ["guideline", "Practice guideline"],
  ["cohort", "Cohort study"],
  ["case-control", "Case-control study"],
  ["cross-sectional", "Cross-sectional study"],
  ["observational", "Observational study"],
  ["review", "Review"],
  ["case-report", "Case report"],
];

/** Props of {@link FilterFields}. */
export interface FilterFieldsProps {
  value: FilterValues;
  onChange: (value: FilterValues) => void;
  disabled: boolean;
}

/** The filter inputs; controlled by the topic form that owns `value`. */
export function FilterFields({ value, onChange, disabled }: FilterFieldsProps) {
  const id = useId();
  const designs = new Set(value.study_designs ?? []);
  const toggleDesign = (code: string, on: boolean) => {
    const next = new Set(designs);
    if (on) next.add(code);
    else next.delete(code);
    onChange({ ...value, study_designs: DESIGNS.map(([c]) => c).filter((c) => next.has(c)) });
  };
  return (
    <div className={css.fields} data-testid="review-filters">
      <fieldset className={css.group} disabled={disabled}>
        <legend className={css.legend}>Published</legend>
        {(["year_from", "year_to"] as const).map((field) => (
          <span key={field} className={css.check}>
            <label htmlFor={`${id}-${field}`}>{field === "year_from" ? "from" : "to"}</label>
            <input
              id={`${id}-${field}`}
              className={css.year}
              type="number"
              inputMode="numeric"
              min={1780}
              placeholder="year"
              value={value[field] ?? ""}
              onChange={(e) => onChange({ ...value, [field]: e.target.value || undefined })}
              data-testid={field === "year_from" ? "filter-year-from" : "filter-year-to"}
            />
          </span>
        ))}
      </fieldset>
      <fieldset className={css.group} disabled={disabled}>
        <legend className={css.legend}>Study designs</legend>
        {DESIGNS.map(([code, label]) => (
          <label key={code} className={css.check}>
            <input
              type="checkbox"
              checked={designs.has(code)}
              onChange={(e) => toggleDesign(code, e.target.checked)}
              data-testid={`filter-design-${code}`}
            />
            {label}
          </label>
        ))}
      </fieldset>
      <fieldset className={css.group} disabled={disabled}>
        <legend className={css.legend}>Other</legend>
        <label className={css.check}>
          <input
            type="checkbox"
            checked={value.humans_only === true}
            onChange={(e) => onChange({ ...value, humans_only: e.target.checked })}
            data-testid="filter-humans"
          />
          Humans only
        </label>
        <label className={css.check}>
          <input
            type="checkbox"
            checked={value.free_full_text === true}
            onChange={(e) => onChange({ ...value, free_full_text: e.target.checked })}
            data-testid="filter-free-full-text"
          />
          Free full text
        </label>
      </fieldset>
    </div>
  );
}
