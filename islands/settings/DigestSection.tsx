/**
 * The weekly digest setting of /settings (issue 11): whether the weekly suggestions e-mail is sent. The digest's
 * one-click unsubscribe turns it off; this turns it back on. Test id: `digest-toggle`.
 */
import { useId, useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, detailOr } from "../lib/api.ts";
import { showError, showSuccess } from "../lib/toast.tsx";
import * as s from "./settings.css.ts";

const KEY = ["suggestions", "digest"] as const;

export function DigestSection({ hydrated }: { hydrated: boolean }) {
  const id = useId();
  const qc = useQueryClient();
  const setting = useQuery({
    queryKey: KEY,
    queryFn: () => api<{ weekly_digest: boolean }>("GET", "/suggestions/digest"),
  });
  // What the user just chose, shown at once: react-query reports the pending mutation a tick later, and a controlled
  // checkbox would flip back in between.
  const [chosen, setChosen] = useState<boolean | null>(null);
  const save = useMutation({
    mutationFn: (on: boolean) =>
      api<{ weekly_digest: boolean }>("PUT", "/suggestions/digest", { body: { weekly_digest: on } }),
    onSuccess: (data) => {
      qc.setQueryData(KEY, data);
      showSuccess(data.weekly_digest ? "Weekly digest turned on." : "Weekly digest turned off.");
    },
    onError: (err) => showError(detailOr(err, "Could not change the weekly digest setting.")),
    onSettled: () => setChosen(null),
  });
  const on = chosen ?? (save.isPending ? save.variables : setting.data?.weekly_digest);
  return (
    <section className={s.card} aria-labelledby={`${id}-title`}>
      <div className={s.cardHeader}>
        <h2 id={`${id}-title`} className={s.cardTitle}>
          Weekly Digest
        </h2>
      </div>
      <p className={s.hint}>
        Your weekly suggestions by e-mail, once a week: each section's first articles, with why they were chosen.
      </p>
      <label htmlFor={`${id}-toggle`}>
        <input
          id={`${id}-toggle`}
          type="checkbox"
          checked={on ?? false}
          disabled={!hydrated || setting.isPending || save.isPending}
          onChange={(e) => {
            setChosen(e.target.checked);
            save.mutate(e.target.checked);
          }}
          data-testid="digest-toggle"
        />{" "}
        E-mail me my weekly suggestions
      </label>
    </section>
  );
}
