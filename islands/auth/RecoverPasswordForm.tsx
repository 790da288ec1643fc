import { useState, type FormEvent } from "react";
import { api, errorMessage } from "../lib/api.ts";
import { showError, showSuccess } from "../lib/toast.tsx";
import { FormAlert, TextField, useForm, useHydrated } from "./form.tsx";
import { recoverRules, type RecoverValues } from "./validation.ts";
import * as s from "./forms.css.ts";

/** Password recovery (spec §2 /recover-password): one e-mail field and a Continue button. */
export function RecoverPasswordForm() {
  const form = useForm<RecoverValues>(recoverRules, { email: "" });
  const hydrated = useHydrated();
  const [submitting, setSubmitting] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const [sent, setSent] = useState(false);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (submitting || !form.validateAll()) return;
    setSubmitting(true);
    setServerError(null);
    try {
      await api("POST", `/password-recovery/${encodeURIComponent(form.values.email)}`);
      showSuccess("Password recovery email sent successfully.");
      setSent(true);
    } catch (err) {
      const message = errorMessage(err);
      setServerError(message);
      showError(message);
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <form className={s.form} method="post" onSubmit={onSubmit} noValidate aria-labelledby="recover-heading">
      <h1 id="recover-heading" className={s.heading}>
        Password Recovery
      </h1>
      <p className={s.note}>A password recovery email will be sent to the registered account.</p>
      {serverError ? <FormAlert>{serverError}</FormAlert> : null}
      {sent ? (
        <p role="status" className={s.note}>
          Password recovery email sent successfully.
        </p>
      ) : null}
      <TextField label="Email" type="email" autoComplete="email" placeholder="Email" required {...form.field("email")} />
      <button type="submit" className={s.submit} disabled={!hydrated || submitting}>
        Continue
      </button>
      <p className={s.note}>
        <a href="/login">Back to Log In</a>
      </p>
    </form>
  );
}
