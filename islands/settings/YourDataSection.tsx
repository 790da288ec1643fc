/**
 * "Your data" in /settings: the GDPR rights the privacy policy lists, exercisable here. "Download my data" asks the
 * server for one JSON file with everything it holds about the user; a job prepares it and e-mails a link that works
 * for 7 days (src/privacy/data-export.ts). Test id: `download-data`.
 */
import { useId } from "react";
import { useMutation } from "@tanstack/react-query";
import { api, detailOr } from "../lib/api.ts";
import { showError, showSuccess } from "../lib/toast.tsx";
import * as s from "./settings.css.ts";

export function YourDataSection({ hydrated }: { hydrated: boolean }) {
  const id = useId();
  const ask = useMutation({
    mutationFn: () => api<{ message: string }>("POST", "/privacy/data-export"),
    onSuccess: (data) => showSuccess(data.message),
    onError: (err) => showError(detailOr(err, "Could not ask for a copy of your data.")),
  });
  return (
    <section className={s.card} aria-labelledby={`${id}-title`}>
      <div className={s.cardHeader}>
        <h2 id={`${id}-title`} className={s.cardTitle}>
          Your Data
        </h2>
      </div>
      <p className={s.hint}>
        A copy of everything LitReview holds about you (account, interests, reviews, likes, shares, subscription), as
        one JSON file. We e-mail you a download link that works for 7 days.
      </p>
      <div className={s.actions}>
        <button
          type="button"
          className={s.button.secondary}
          disabled={!hydrated || ask.isPending}
          onClick={() => ask.mutate()}
          data-testid="download-data"
        >
          Download my data
        </button>
      </div>
    </section>
  );
}
