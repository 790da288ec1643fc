import { useEffect, useId, useMemo, useState } from "react";
import type { InputHTMLAttributes, Ref } from "react";
import { formErrors, type Rules } from "./rules.ts";
import * as s from "./forms.css.ts";

// The account pages' submit flow and alert are in ./submit.tsx: /settings uses the fields without them
// (docs/decisions/0043-first-paint-javascript.md).

/**
 * State of a small form validated on blur (docs/product.md §5): a field's messages appear once it has been left, then
 * follow every keystroke; submitting reveals all of them.
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
