import type { FormEvent } from "react";
import { api } from "../lib/api.ts";
import { setFlash } from "../lib/flash.ts";
import { TextField, useForm, useHydrated } from "./form.tsx";
import { FormAlert, useSubmit } from "./submit.tsx";
import { resetRules, type ResetValues } from "./validation.ts";
import { StrengthMeter } from "../lib/StrengthMeter.tsx";
import * as s from "./forms.css.ts";

/**
 * Password reset (docs/product.md §2 /reset-password): the token comes from the page address (`?token=`); without one,
 * submitting does nothing. Success goes to /login with 'Password updated successfully.'.
 */
export function ResetPasswordForm() {
  const form = useForm<ResetValues>(resetRules, { new_password: "", confirm_password: "" });
  const hydrated = useHydrated();
  const submit = useSubmit(form.validateAll, async () => {
    const token = new URLSearchParams(window.location.search).get("token")!;
    await api("POST", "/reset-password", { body: { new_password: form.values.new_password, token } });
    setFlash({ kind: "success", message: "Password updated successfully." });
    window.location.assign("/login");
    return "leaving";
  });
  const { submitting, serverError } = submit;
  const onSubmit = (e: FormEvent) => {
    // docs/product.md §2: without a token in the address, submitting does nothing (not even the field checks).
    if (!new URLSearchParams(window.location.search).get("token")) return e.preventDefault();
    void submit.onSubmit(e);
  };

  return (
    <form className={s.form} method="post" onSubmit={onSubmit} noValidate aria-labelledby="reset-heading">
      <h1 id="reset-heading" className={s.heading}>
        Reset Password
      </h1>
      <p className={s.note}>Please enter your new password and confirm it to reset your password.</p>
      {serverError ? <FormAlert>{serverError}</FormAlert> : null}
      <TextField
        label="New Password"
        type="password"
        autoComplete="new-password"
        placeholder="New Password"
        required
        {...form.field("new_password")}
      />
      <StrengthMeter password={form.values.new_password} />
      <TextField
        label="Confirm Password"
        type="password"
        autoComplete="new-password"
        placeholder="Confirm Password"
        required
        {...form.field("confirm_password")}
      />
      <button type="submit" className={s.submit} disabled={!hydrated || submitting}>
        Reset Password
      </button>
    </form>
  );
}
