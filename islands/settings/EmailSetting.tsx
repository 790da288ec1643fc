/**
 * One e-mail preference of /settings as a card with a checkbox, saved through the API at once (the weekly digest,
 * share notifications). The e-mails' one-click unsubscribe turns a preference off; this turns it back on or off.
 */
import { useId, useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, detailOr, type RequestOf } from "../lib/api.ts";
import { showError, showSuccess } from "../lib/toast.tsx";
import * as s from "./settings.css.ts";

/** What differs between the preferences: where they are read and written, and what the card says. */
export interface EmailSettingSpec<F extends string> {
  /** API path (GET and PUT) and the boolean field of its body. */
  path: "/shares/email-setting" | "/suggestions/digest";
  field: F;
  title: string;
  hint: string;
  label: string;
  /** Toasts after saving: on, off; and when saving fails. */
  turnedOn: string;
  turnedOff: string;
  failed: string;
  testId: string;
}

export function EmailSetting<F extends string>({ spec, hydrated }: { spec: EmailSettingSpec<F>; hydrated: boolean }) {
  type Setting = Record<F, boolean>;
  const id = useId();
  const qc = useQueryClient();
  const key = ["email-setting", spec.path] as const;
  const setting = useQuery({ queryKey: key, queryFn: async () => (await api("GET", spec.path)) as Setting });
  // What the user just chose, shown at once: react-query reports the pending mutation a tick later, and a controlled
  // checkbox would flip back in between.
  const [chosen, setChosen] = useState<boolean | null>(null);
  const save = useMutation({
    // The body and the answer are the field named by spec: one of the two settings' schemas.
    mutationFn: async (on: boolean) =>
      (await api("PUT", spec.path, {
        body: { [spec.field]: on } as RequestOf<"PUT", typeof spec.path>["body"],
      })) as Setting,
    onSuccess: (data) => {
      qc.setQueryData(key, data);
      showSuccess(data[spec.field] ? spec.turnedOn : spec.turnedOff);
    },
    onError: (err) => showError(detailOr(err, spec.failed)),
    onSettled: () => setChosen(null),
  });
  const on = chosen ?? (save.isPending ? save.variables : setting.data?.[spec.field]);
  return (
    <section className={s.card} aria-labelledby={`${id}-title`}>
      <div className={s.cardHeader}>
        <h2 id={`${id}-title`} className={s.cardTitle}>
          {spec.title}
        </h2>
      </div>
      <p className={s.hint}>{spec.hint}</p>
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
          data-testid={spec.testId}
        />{" "}
        {spec.label}
      </label>
    </section>
  );
}
