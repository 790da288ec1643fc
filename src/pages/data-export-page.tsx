import * as s from "./pages.css.ts";
import {
  DATA_EXPORT_EXPIRED,
  DATA_EXPORT_OTHER_ACCOUNT,
  DATA_EXPORT_PREPARING,
  dataExportFilePath,
  type DataExportState,
} from "../privacy/data-export.ts";

/** The HTTP status of the download page in each state. */
export function downloadPageStatus(state: DataExportState): 200 | 403 | 404 | 409 {
  return state.state === "ready"
    ? 200
    : state.state === "another-account"
      ? 403
      : state.state === "expired"
        ? 404
        : 409;
}

/**
 * /my-data/{id}, where the e-mail's "Download my data" link leads (issue 35): signed out, the page's route sends the
 * browser through the login page and back here (src/pages/routes.tsx). Signed in, it offers the file, or says why not:
 * still being prepared, expired, or sent to another account (which the page says as such, not as "expired").
 * Server-rendered without script; inside the signed-in layout.
 */
export function DataExportPage({ exportId, state }: { exportId: string; state: DataExportState }) {
  return (
    <>
      <h1 className={s.pageTitle}>Your data</h1>
      {state.state === "ready" ? (
        <>
          <p className={s.lead} data-testid="data-export-ready">
            {`A copy of everything LitReview holds about your account, as one JSON file. The link works until ${state.expiresAt.toISOString().slice(0, 10)} (UTC).`}
          </p>
          <a
            href={dataExportFilePath(exportId)}
            download="litreview-my-data.json"
            className={s.button.primary}
            data-testid="data-export-download"
          >
            Download my data
          </a>
        </>
      ) : (
        <p className={s.lead} role="alert" data-testid={`data-export-${state.state}`}>
          {state.state === "another-account"
            ? DATA_EXPORT_OTHER_ACCOUNT
            : state.state === "preparing"
              ? DATA_EXPORT_PREPARING
              : DATA_EXPORT_EXPIRED}
        </p>
      )}
    </>
  );
}
