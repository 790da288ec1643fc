/**
 * Downloads for reference managers (issue 13): one link per format to the export API. Plain links: the browser sends
 * the session cookie and saves the file the answer names, with no script involved.
 * Test id: `export-link` (data-format).
 */
import * as css from "./export.css.ts";

/** The formats, as the API names them, with the label a researcher knows them by. */
export const EXPORT_LINKS = [
  { format: "ris", label: "RIS" },
  { format: "bibtex", label: "BibTeX" },
  { format: "csl-json", label: "CSL-JSON" },
  { format: "nbib", label: "MEDLINE (.nbib)" },
] as const;

/** `path` is the export call without its format, e.g. "/likes" or "/reviews/ID?list=cited". */
export function ExportLinks({
  label,
  path,
  testId = "export-links",
}: {
  label: string;
  path: string;
  testId?: string;
}) {
  const join = path.includes("?") ? "&" : "?";
  return (
    <div className={css.bar} data-testid={testId}>
      <span className={css.label}>{label}</span>
      {EXPORT_LINKS.map((f) => (
        <a
          key={f.format}
          className={css.link}
          href={`/api/v1/export${path}${join}format=${f.format}`}
          download
          data-testid="export-link"
          data-format={f.format}
        >
          {f.label}
        </a>
      ))}
    </div>
  );
}
