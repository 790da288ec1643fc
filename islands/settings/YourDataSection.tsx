/**
 * "Your data" in /settings: the GDPR rights the privacy policy lists, exercisable here. "Download my data" asks the
 * server for one JSON file with everything it holds about the user; a job prepares it and e-mails a link that works
 * for 7 days (src/privacy/data-export.ts). Test id: `download-data`.
 */
import { useId } from "react";
import { useMutation } from "@tanstack/react-query";
import * as s from "./settings.css.ts";

export function YourDataSection({ hydrated }: { hydrated: boolean }) {
  const id = useId();
  // The request and its toasts load on the first press (docs/decisions/0043-first-paint-javascript.md).
  const ask = useMutation({ mutationFn: async () => (await import("./on-demand.ts")).requestDataExport() });
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
