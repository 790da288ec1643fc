import { useState, type FormEvent } from "react";
import { api, errorMessage, TOKEN_KEY } from "../lib/api.ts";
import { showError, showSuccess } from "../lib/toast.tsx";
import { StrengthMeter } from "../lib/StrengthMeter.tsx";
import { TextField, useForm } from "../auth/form.tsx";
import { changePasswordRules, type ChangePasswordValues } from "../auth/validation.ts";
import * as s from "./settings.css.ts";

const EMPTY: ChangePasswordValues = { current_password: "", new_password: "", confirm_password: "" };

/**
 * Password (docs/product.md §2, §5): Current Password, New Password (with the strength meter), Confirm Password, Save and
 * Cancel. Rules show on blur; Save stays disabled until the form is valid and while it is being sent. The API ends
 * every other session and answers with a fresh token, which replaces the stored one so this tab stays signed in.
 */
export function PasswordSection({ hydrated }: { hydrated: boolean }) {
  // A new key remounts the form: Cancel and a successful change both start from empty fields.
  const [generation, setGeneration] = useState(0);
  return (
    <section className={s.card} aria-labelledby="password-title">
      <div className={s.cardHeader}>
        <h2 id="password-title" className={s.cardTitle}>
          Password
        </h2>
      </div>
      <PasswordForm key={generation} hydrated={hydrated} onReset={() => setGeneration((g) => g + 1)} />
    </section>
  );
}

function PasswordForm({ hydrated, onReset }: { hydrated: boolean; onReset: () => void }) {
  const form = useForm<ChangePasswordValues>(changePasswordRules, EMPTY);
  const [submitting, setSubmitting] = useState(false);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (submitting || !form.validateAll()) return;
    setSubmitting(true);
    try {
      const res = await api<{ access_token: string }>("PATCH", "/users/me/password", { body: form.values });
      try {
        localStorage.setItem(TOKEN_KEY, res.access_token);
      } catch {
        // Without storage the session cookie, which the API also renewed, keeps the pages signed in.
      }
      showSuccess("Password updated successfully.");
      onReset();
    } catch (err) {
      showError(errorMessage(err));
      setSubmitting(false);
    }
  };

  return (
    <form className={s.form} onSubmit={onSubmit} noValidate aria-label="Change password">
      <TextField
        label="Current Password"
        type="password"
        autoComplete="current-password"
        required
        {...form.field("current_password")}
      />
      <TextField
        label="New Password"
        type="password"
        autoComplete="new-password"
        required
        {...form.field("new_password")}
      />
      <StrengthMeter password={form.values.new_password} />
      <TextField
        label="Confirm Password"
        type="password"
        autoComplete="new-password"
        required
        {...form.field("confirm_password")}
      />
      <div className={s.actions}>
        <button type="submit" className={s.button.primary} disabled={!hydrated || !form.isValid || submitting}>
          {submitting ? "Saving…" : "Save"}
        </button>
        <button type="button" className={s.button.secondary} onClick={onReset} disabled={!hydrated || submitting}>
          Cancel
        </button>
      </div>
    </form>
  );
}
