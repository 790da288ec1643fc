import { useState } from "react";
import { api } from "../lib/api.ts";
import { showSuccess } from "../lib/toast.tsx";
import { TextField, useForm, useHydrated } from "./form.tsx";
import { FormAlert, useSubmit } from "./submit.tsx";
import { recoverRules, type RecoverValues } from "./validation.ts";
import * as s from "./forms.css.ts";

/** Password recovery (docs/product.md §2 /recover-password): one e-mail field and a Continue button. */
export function RecoverPasswordForm() {
  const form = useForm<RecoverValues>(recoverRules, { email: "" });
  const hydrated = useHydrated();
  const [sent, setSent] = useState(false);
  const { submitting, serverError, onSubmit } = useSubmit(form.validateAll, async () => {
    await api("POST", "/password-recovery/{email}", { path: { email: form.values.email } });
    showSuccess("Password recovery email sent successfully.");
    setSent(true);
  });

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
      <TextField
        label="Email"
        type="email"
        autoComplete="email"
        placeholder="Email"
        required
        {...form.field("email")}
      />
      <button type="submit" className={s.submit} disabled={!hydrated || submitting}>
        Continue
      </button>
      <p className={s.note}>
        <a href="/login">Back to Log In</a>
      </p>
    </form>
  );
}
