import { useEffect, useRef, useState } from "react";
import { api, TOKEN_KEY } from "../lib/api.ts";
import { NEXT_PARAM, safeNextPath } from "../lib/next-path.ts";
import { takeSignupEmail } from "./prefill.ts";
import { setFlash } from "../lib/flash.ts";
import { TextField, useForm, useHydrated } from "./form.tsx";
import { FormAlert, useSubmit } from "./submit.tsx";
import { loginRules, type LoginValues } from "./validation.ts";
import * as s from "./forms.css.ts";

/**
 * The login form (docs/product.md §2 /login): username (an e-mail) and password. On success the token is kept in
 * localStorage (the API also sets the session cookie the server pages read) and the browser goes to /, with 'Login
 * successful!'; or to the page named by the address's `next` parameter when it is a path of this site (a protected page
 * or a share e-mail's link that sent the visitor here, islands/lib/next-path.ts). Right after signing up, the e-mail is
 * filled in and the password field has the focus.
 */
export function LoginForm() {
  const form = useForm<LoginValues>(loginRules, { username: "", password: "" });
  const hydrated = useHydrated();
  const [next, setNext] = useState<string | null>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const signupHref = next ? `/signup?${NEXT_PARAM}=${encodeURIComponent(next)}` : "/signup";
  // Read after hydration (the server render knows neither the browser's storage nor, here, its address).
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, on arrival
  useEffect(() => {
    setNext(safeNextPath(new URLSearchParams(window.location.search).get(NEXT_PARAM)));
    const email = takeSignupEmail();
    if (email) {
      form.setValue("username", email);
      passwordRef.current?.focus();
    }
    // Once, on arrival.
  }, []);
  const { submitting, serverError, onSubmit } = useSubmit(form.validateAll, async () => {
    const body = new URLSearchParams({ username: form.values.username, password: form.values.password });
    const res = await api("POST", "/login/access-token", { body });
    localStorage.setItem(TOKEN_KEY, res.access_token);
    setFlash({ kind: "success", message: "Login successful!" });
    window.location.assign(next ?? "/");
    return "leaving";
  });

  return (
    <form className={s.form} method="post" onSubmit={onSubmit} noValidate aria-labelledby="login-heading">
      <h1 id="login-heading" className={s.heading}>
        Log In
      </h1>
      {serverError ? <FormAlert>{serverError}</FormAlert> : null}
      <TextField
        label="Email"
        type="email"
        autoComplete="username"
        placeholder="Email"
        required
        {...form.field("username")}
      />
      <TextField
        ref={passwordRef}
        label="Password"
        type="password"
        autoComplete="current-password"
        placeholder="Password"
        required
        {...form.field("password")}
      />
      <div className={s.links}>
        <a href="/recover-password">Forgot Password?</a>
      </div>
      <button type="submit" className={s.submit} disabled={!hydrated || submitting}>
        {submitting ? "Logging in…" : "Log In"}
      </button>
      <p className={s.note}>
        Don't have an account? <a href={signupHref}>Sign Up</a>
      </p>
    </form>
  );
}
