/**
 * The share e-mail setting of /settings: whether the user is e-mailed when someone shares an article with them.
 * The e-mail's one-click unsubscribe turns it off; this turns it back on (or off). Test id: `share-email-toggle`.
 */
import { useId, useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, detailOr } from "../lib/api.ts";
import { showError, showSuccess } from "../lib/toast.tsx";
import * as s from "./settings.css.ts";

const KEY = ["shares", "email-setting"] as const;

type Setting = { share_emails: boolean };

export function ShareEmailSection({ hydrated }: { hydrated: boolean }) {
  const id = useId();
  const qc = useQueryClient();
  const setting = useQuery({ queryKey: KEY, queryFn: () => api<Setting>("GET", "/shares/email-setting") });
  // What the user just chose, shown at once (see DigestSection: a controlled checkbox would flip back meanwhile).
  const [chosen, setChosen] = useState<boolean | null>(null);
  const save = useMutation({
    mutationFn: (on: boolean) => api<Setting>("PUT", "/shares/email-setting", { body: { share_emails: on } }),
    onSuccess: (data) => {
      qc.setQueryData(KEY, data);
      showSuccess(data.share_emails ? "Share e-mails turned on." : "Share e-mails turned off.");
    },
    onError: (err) => showError(detailOr(err, "Could not change the share e-mail setting.")),
    onSettled: () => setChosen(null),
  });
  const on = chosen ?? (save.isPending ? save.variables : setting.data?.share_emails);
  return (
    <section className={s.card} aria-labelledby={`${id}-title`}>
      <div className={s.cardHeader}>
        <h2 id={`${id}-title`} className={s.cardTitle}>
          Shared Articles
        </h2>
      </div>
      <p className={s.hint}>Articles shared with you always appear under Received Shares on your dashboard.</p>
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
          data-testid="share-email-toggle"
        />{" "}
        E-mail me when someone shares an article with me
      </label>
    </section>
  );
}
