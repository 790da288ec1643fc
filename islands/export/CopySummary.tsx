/**
 * "Copy summary with references" (issue 13): the review's summary and its references in Vancouver style, from the
 * export API, to the clipboard. Test id: `copy-summary`.
 */
import { useState } from "react";
import { detailOf } from "../lib/api.ts";
import { showError, showSuccess } from "../lib/toast.tsx";
import * as css from "./export.css.ts";

export const COPIED = "Summary and references copied.";
export const COPY_FAILED = "Could not copy the summary.";

/** GET the plain-text summary (not JSON, so not through `api`). @throws Error with the server's detail. */
async function fetchText(reviewId: string): Promise<string> {
  const res = await fetch(`/api/v1/export/reviews/${encodeURIComponent(reviewId)}/summary`, {
    credentials: "include",
    headers: bearer(),
  });
  const text = await res.text();
  if (!res.ok) {
    let detail: string | null = null;
    try {
      detail = detailOf(JSON.parse(text));
    } catch {}
    throw new Error(detail ?? COPY_FAILED);
  }
  return text;
}

function bearer(): Record<string, string> {
  try {
    const token = localStorage.getItem("access_token");
    return token ? { authorization: `Bearer ${token}` } : {};
  } catch {
    return {};
  }
}

export function CopySummary({ reviewId }: { reviewId: string }) {
  const [busy, setBusy] = useState(false);
  const copy = async () => {
    if (busy) return;
    setBusy(true);
    try {
      await navigator.clipboard.writeText(await fetchText(reviewId));
      showSuccess(COPIED);
    } catch (err) {
      showError(err instanceof Error && err.message ? err.message : COPY_FAILED);
    } finally {
      setBusy(false);
    }
  };
  return (
    <button type="button" className={css.link} onClick={() => void copy()} disabled={busy} data-testid="copy-summary">
      Copy summary with references (Vancouver)
    </button>
  );
}
