import { api } from "../lib/api.ts";
import { setFlash } from "../lib/flash.ts";
import { NEXT_PARAM, safeNextPath } from "../lib/next-path.ts";
import { rememberSignupEmail } from "./prefill.ts";
import { TextField, useForm, useHydrated } from "./form.tsx";
import { FormAlert, useSubmit } from "./submit.tsx";
import { signupRules, type SignupValues } from "./validation.ts";
import { StrengthMeter } from "../lib/StrengthMeter.tsx";
import * as s from "./forms.css.ts";

/**
 * The sign-up form (docs/product.md §2 /signup). Creates the account (which starts the free Plus trial), then goes to
 * /login with 'Sign up successful! Please log in.', where the new address is already filled in; a `next` parameter of
 * this site is carried along to the login.
 */
export function SignupForm() {
  const form = useForm<SignupValues>(signupRules, { full_name: "", email: "", password: "", confirm_password: "" });
  const hydrated = useHydrated();
  const { submitting, serverError, onSubmit } = useSubmit(form.validateAll, async () => {
    const { full_name, email, password } = form.values;
    await api("POST", "/users/signup", { body: { email, full_name, password } });
    setFlash({ kind: "success", message: "Sign up successful! Please log in." });
    rememberSignupEmail(email);
    const next = safeNextPath(new URLSearchParams(window.location.search).get(NEXT_PARAM));
    window.location.assign(next ? `/login?${NEXT_PARAM}=${encodeURIComponent(next)}` : "/login");
    return "leaving";
  });

  return (
    <form className={s.form} method="post" onSubmit={onSubmit} noValidate aria-labelledby="signup-heading">
      <h1 id="signup-heading" className={s.heading}>
        Sign Up
      </h1>
      <p className={s.note}>Sign up and get started today!</p>
      <p className={s.note}>Your account includes a free week trial of our Plus plan.</p>
      {serverError ? <FormAlert>{serverError}</FormAlert> : null}
      <TextField
        label="Full Name"
        type="text"
        autoComplete="name"
        placeholder="Full Name"
        minLength={3}
        required
        {...form.field("full_name")}
      />
      <TextField
        label="Email"
        type="email"
        autoComplete="email"
        placeholder="Email"
        required
        {...form.field("email")}
      />
      <TextField
        label="Password"
        type="password"
        autoComplete="new-password"
        placeholder="Password"
        required
        {...form.field("password")}
      />
      <StrengthMeter password={form.values.password} />
      <TextField
        label="Confirm Password"
        type="password"
        autoComplete="new-password"
        placeholder="Repeat Password"
        required
        {...form.field("confirm_password")}
      />
      <button type="submit" className={s.submit} disabled={!hydrated || submitting}>
        {submitting ? "Signing up…" : "Sign Up"}
      </button>
      <p className={s.note}>
        Already have an account? <a href="/login">Log In</a>
      </p>
    </form>
  );
}
