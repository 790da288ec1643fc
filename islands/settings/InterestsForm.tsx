import { useState, type FormEvent } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { errorMessage } from "../lib/api.ts";
import { updateMe, type CurrentUserData } from "../lib/current-user.ts";
import { showError, showInfo, showSuccess } from "../lib/toast.tsx";
import { TextField, useForm } from "../auth/form.tsx";
import type { Rules } from "../auth/rules.ts";
import {
  INTEREST_MAX,
  INTEREST_RULES,
  INTEREST_SLOTS,
  INTERESTS_TOTAL_MAX,
  TOTAL_TOO_LONG,
  joinInterests,
  sameInterests,
} from "./interests.ts";
import * as s from "./settings.css.ts";

type InterestValues = Record<string, string>;

const NAMES = Array.from({ length: INTEREST_SLOTS }, (_, i) => `interest_${i + 1}`);

// Every slot follows the same rules; fieldErrors skips empty slots, which are allowed.
const RULES: Rules<InterestValues> = Object.fromEntries(NAMES.map((name) => [name, { rules: [...INTEREST_RULES] }]));

export function InterestsForm({ user, slots, onDone }: { user: CurrentUserData; slots: string[]; onDone: () => void }) {
  const queryClient = useQueryClient();
  const initial: InterestValues = Object.fromEntries(NAMES.map((name, i) => [name, slots[i] ?? ""]));
  const form = useForm<InterestValues>(RULES, initial);
  const [submitting, setSubmitting] = useState(false);
  const dirty = NAMES.some((name) => form.values[name] !== initial[name]);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (!dirty || submitting || !form.validateAll()) return;
    const entries = NAMES.map((name) => form.values[name] ?? "");
    const description = joinInterests(entries);
    if (description.length > INTERESTS_TOTAL_MAX) {
      showError(TOTAL_TOO_LONG, { form: "interests" });
      return;
    }
    if (sameInterests(entries, user.description)) {
      showInfo("No changes detected.", { form: "interests" });
      onDone();
      return;
    }
    setSubmitting(true);
    try {
      await updateMe(queryClient, { description });
      showSuccess("Main interests updated successfully.", { form: "interests" });
      onDone();
    } catch (err) {
      showError(errorMessage(err), { form: "interests" });
      setSubmitting(false);
    }
  };

  return (
    <form className={s.form} onSubmit={onSubmit} noValidate aria-label="Edit main interests">
      {NAMES.map((name, i) => (
        <TextField
          key={name}
          label={`Interest ${i + 1}`}
          type="text"
          maxLength={INTEREST_MAX}
          autoComplete="off"
          {...form.field(name)}
        />
      ))}
      <div className={s.actions}>
        <button type="submit" className={s.button.primary} disabled={!dirty || submitting}>
          {submitting ? "Saving…" : "Save"}
        </button>
        <button type="button" className={s.button.secondary} onClick={onDone} disabled={submitting}>
          Cancel
        </button>
      </div>
    </form>
  );
}
