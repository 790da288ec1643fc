import { useEffect, useId, useMemo, useState } from "react";
import type { FormEvent, InputHTMLAttributes, ReactNode, Ref } from "react";
import { errorMessage } from "../lib/api.ts";
import { showError } from "../lib/toast.tsx";
import { formErrors, type Rules } from "./validation.ts";
import * as s from "./forms.css.ts";

/**
 * The submit flow every account form shares: a second submit while one is under way and an invalid form are
 * ignored; a failure shows the server's message in an alert above the form (role alert, announced at once), where
 * it stays while the form is corrected, and in the error toast every failure gets (docs/product.md §8: 'Something went wrong!'
 * with the server's detail), which leaves on its own.
 * `action` resolves to "leaving" when it has sent the browser to another page: the button then stays busy until
 * the page goes, so it cannot be pressed twice.
 * @returns `submitting`, the `serverError` to show, and the form's `onSubmit` handler.
 */
export function useSubmit(validateAll: () => boolean, action: () => Promise<"leaving" | void>) {
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

/**
 * State of a small form validated on blur (docs/product.md §5): a field's messages appear once it has been left, then follow
 * every keystroke; submitting reveals all of them.
 */
export function useForm<V extends Record<string, string>>(rules: Rules<V>, initial: V) {
  const [values, setValues] = useState<V>(initial);
  const [touched, setTouched] = useState<Partial<Record<keyof V, boolean>>>({});
  const errors = useMemo(() => formErrors(rules, values), [rules, values]);

  /** Props for the input of `name`. */
  const field = (name: keyof V & string) => ({
    name,
    value: values[name],
    errors: touched[name] ? (errors[name] ?? []) : [],
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => {
      const value = e.currentTarget.value;
      setValues((v) => ({ ...v, [name]: value }));
    },
    onBlur: () => setTouched((t) => ({ ...t, [name]: true })),
  });

  /** Marks every field as visited; true when the form may be sent. */
  const validateAll = (): boolean => {
    setTouched(Object.fromEntries(Object.keys(rules).map((k) => [k, true])) as Partial<Record<keyof V, boolean>>);
    return Object.keys(errors).length === 0;
  };

  /** Sets a field's value from code (a prefill), as typing would. */
  const setValue = (name: keyof V & string, value: string) => setValues((v) => ({ ...v, [name]: value }));

  return { values, field, setValue, validateAll, isValid: Object.keys(errors).length === 0 };
}

/**
 * False on the server and during hydration, true once the island is live. Submit buttons stay disabled until then,
 * so a form sent before its script ran can never fall back to a native submission.
 */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

/** A labelled input with its validation messages, linked for assistive technology; `ref` reaches the input. */
export function TextField({
  label,
  errors,
  ref,
  ...input
}: { label: string; errors: string[]; ref?: Ref<HTMLInputElement> } & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  const errorId = `${id}-errors`;
  return (
    <div className={s.field}>
      <label className={s.label} htmlFor={id}>
        {label}
      </label>
      <input
        {...input}
        ref={ref}
        id={id}
        className={s.input}
        aria-invalid={errors.length > 0}
        aria-describedby={errors.length > 0 ? errorId : undefined}
      />
      {errors.length > 0 ? (
        <ul id={errorId} className={s.fieldErrors}>
          {errors.map((m) => (
            <li key={m}>{m}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** The server's answer to a failed submit, announced to screen readers. */
export function FormAlert({ children }: { children: ReactNode }) {
  return (
    <div role="alert" className={s.alert}>
      {children}
    </div>
  );
}
