import { Suspense, lazy, useState, type FormEvent } from "react";
import { TextField, useForm } from "../auth/form.tsx";
import { changePasswordRules, type ChangePasswordValues } from "../auth/rules.ts";
import * as strength from "../lib/strength.css.ts";
import * as s from "./settings.css.ts";

// Shown only once a new password is typed, so it loads then (docs/decisions/0043-first-paint-javascript.md).
const StrengthMeter = lazy(() => import("../lib/StrengthMeter.tsx").then((m) => ({ default: m.StrengthMeter })));

/**
 * The meter's place while it loads: the same boxes, empty. Without it the meter appeared a moment after the first
 * character and pushed Confirm Password and Save down, under a pointer already on its way to them.
 */
function StrengthSlot() {
  return (
    <div className={strength.strength} aria-hidden="true" data-testid="password-strength-slot">
      <div className={strength.meter} />
      <span>{"\u00a0"}</span>
    </div>
  );
}

const EMPTY: ChangePasswordValues = { current_password: "", new_password: "", confirm_password: "" };

/** Said before a change (issue 35: the other sessions were signed out without a word). */
export const SIGNS_OUT_ELSEWHERE =
  "Saving a new password signs you out of LitReview in every other browser and device; this one stays signed in.";
/** Said after a change, until the form is used again. */
export const SIGNED_OUT_ELSEWHERE = "Your password was changed. Every other browser and device has been signed out.";

/**
 * Password (docs/product.md §2, §5): Current Password, New Password (with the strength meter), Confirm Password, Save
 * and Cancel. Rules show on blur; Save stays disabled until the form is valid and while it is being sent. The API ends
 * every other session and answers with a fresh token, which replaces the stored one so this tab stays signed in: the
 * section says so before (SIGNS_OUT_ELSEWHERE) and after a change (SIGNED_OUT_ELSEWHERE).
 */
export function PasswordSection({ hydrated }: { hydrated: boolean }) {
  // A new key remounts the form: Cancel and a successful change both start from empty fields.
  const [generation, setGeneration] = useState(0);
  const [changed, setChanged] = useState(false);
  return (
    <section className={s.card} aria-labelledby="password-title">
      <div className={s.cardHeader}>
        <h2 id="password-title" className={s.cardTitle}>
          Password
        </h2>
      </div>
      <p className={s.hint} id="password-sessions-hint">
        {SIGNS_OUT_ELSEWHERE}
      </p>
      <p className={s.statusLine} role="status" data-testid="password-changed">
        {changed ? SIGNED_OUT_ELSEWHERE : ""}
      </p>
      <PasswordForm
        key={generation}
        hydrated={hydrated}
        onEdit={() => setChanged(false)}
        onReset={(succeeded) => {
          setChanged(succeeded);
          setGeneration((g) => g + 1);
        }}
      />
    </section>
  );
}

function PasswordForm({
  hydrated,
  onEdit,
  onReset,
}: {
  hydrated: boolean;
  onEdit: () => void;
  onReset: (succeeded: boolean) => void;
}) {
  const form = useForm<ChangePasswordValues>(changePasswordRules, EMPTY);
  const [submitting, setSubmitting] = useState(false);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (submitting || !form.validateAll()) return;
    setSubmitting(true);
    // The request and its toasts load on the first submit (docs/decisions/0043-first-paint-javascript.md).
    const { changePassword } = await import("./on-demand.ts");
    if (await changePassword(form.values)) onReset(true);
    else setSubmitting(false);
  };

  return (
    <form
      className={s.form}
      onSubmit={onSubmit}
      onInput={onEdit}
      noValidate
      aria-label="Change password"
      aria-describedby="password-sessions-hint"
    >
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
      {form.values.new_password === "" ? null : (
        <Suspense fallback={<StrengthSlot />}>
          <StrengthMeter password={form.values.new_password} />
        </Suspense>
      )}
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
        <button
          type="button"
          className={s.button.secondary}
          onClick={() => onReset(false)}
          disabled={!hydrated || submitting}
        >
          Cancel
        </button>
      </div>
    </form>
  );
}
