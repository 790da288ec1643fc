import { useState, type FormEvent } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { errorMessage } from "../lib/api.ts";
import { updateMe, type CurrentUserData } from "../lib/current-user.ts";
import { showError, showInfo, showSuccess } from "../lib/toast.tsx";
import { TextField, useForm } from "../auth/form.tsx";
import { profileChanges, profileRules, profileValuesOf, type ProfileValues } from "./profile.ts";
import * as s from "./settings.css.ts";

/** The edit mode of My Profile. Mounted fresh each time, so Cancel (unmounting it) resets the fields. */
export function ProfileForm({ user, onDone }: { user: CurrentUserData; onDone: () => void }) {
  const queryClient = useQueryClient();
  const initial = profileValuesOf(user);
  const form = useForm<ProfileValues>(profileRules, initial);
  const [submitting, setSubmitting] = useState(false);
  const dirty = (Object.keys(initial) as (keyof ProfileValues)[]).some((k) => form.values[k] !== initial[k]);
  // docs/product.md §5: Save is disabled unless the form changed and the e-mail is filled in.
  const canSave = dirty && form.values.email.trim() !== "" && !submitting;

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (!canSave || !form.validateAll()) return;
    const changes = profileChanges(user, form.values);
    if (Object.keys(changes).length === 0) {
      showInfo("No changes detected.", { form: "profile" });
      onDone();
      return;
    }
    setSubmitting(true);
    try {
      await updateMe(queryClient, changes);
      showSuccess("User updated successfully.", { form: "profile" });
      onDone();
    } catch (err) {
      showError(errorMessage(err), { form: "profile" });
      setSubmitting(false);
    }
  };

  return (
    <form className={s.form} onSubmit={onSubmit} noValidate aria-label="Edit profile">
      <TextField
        label="Full name"
        type="text"
        autoComplete="name"
        placeholder="Full name"
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
        label="Institutional Email"
        type="email"
        autoComplete="off"
        placeholder="Optional institutional email"
        {...form.field("institution_email")}
      />
      <div className={s.actions}>
        <button type="submit" className={s.button.primary} disabled={!canSave}>
          {submitting ? "Saving…" : "Save"}
        </button>
        <button type="button" className={s.button.secondary} onClick={onDone} disabled={submitting}>
          Cancel
        </button>
      </div>
    </form>
  );
}
