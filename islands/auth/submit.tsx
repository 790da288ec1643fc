/**
 * The submit flow and the server's error alert of the account forms (login, sign-up, password recovery and reset);
 * their fields and rules are in ./form.tsx, which /settings shares.
 */
import { useState } from "react";
import type { FormEvent, ReactNode } from "react";
import { errorMessage } from "../lib/api.ts";
import { showError } from "../lib/toast.tsx";
import * as s from "./forms.css.ts";

/**
 * The submit flow every account form shares: a second submit while one is under way and an invalid form are
 * ignored; a failure shows the server's message in an alert above the form (role alert, announced at once), where
 * it stays while the form is corrected, and in the error toast every failure gets (docs/product.md §8: 'Something went
 * wrong!' with the server's detail), which leaves on its own.
 * `action` resolves to "leaving" when it has sent the browser to another page: the button then stays busy until
 * the page goes, so it cannot be pressed twice.
 * @returns `submitting`, the `serverError` to show, and the form's `onSubmit` handler.
 */
export function useSubmit(validateAll: () => boolean, action: () => Promise<"leaving" | undefined>) {
  const [submitting, setSubmitting] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (submitting || !validateAll()) return;
    setSubmitting(true);
    setServerError(null);
    try {
      if ((await action()) === "leaving") return;
    } catch (err) {
      const message = errorMessage(err);
      setServerError(message);
      showError(message);
    }
    setSubmitting(false);
  };
  return { submitting, serverError, onSubmit };
}

/** The server's answer to a failed submit, announced to screen readers. */
export function FormAlert({ children }: { children: ReactNode }) {
  return (
    <div role="alert" className={s.alert}>
      {children}
    </div>
  );
}
