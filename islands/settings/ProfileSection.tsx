import { useState, type FormEvent } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { errorMessage } from "../lib/api.ts";
import { updateMe, type CurrentUserData } from "../lib/current-user.ts";
import { showError, showInfo, showSuccess } from "../lib/toast.tsx";
import { TextField, useForm } from "../auth/form.tsx";
import { profileChanges, profileRules, profileValuesOf, type ProfileValues } from "./profile.ts";
import * as s from "./settings.css.ts";

/** The text of a missing value (docs/product.md §2: empty values show N/A). */
export const NOT_AVAILABLE = "N/A";

/** A stored value for display: N/A when empty. */
export function shown(value: string | null | undefined): string {
  return value && value.trim() ? value : NOT_AVAILABLE;
}

/**
 * My Profile (docs/product.md §2, §5): read-only with Edit Profile; the edit form has Save and Cancel and sends only the fields
 * that changed. `hydrated` keeps the button inert until the island is live.
 */
export function ProfileSection({ user, hydrated }: { user: CurrentUserData; hydrated: boolean }) {
  const [editing, setEditing] = useState(false);
  return (
    <section className={s.card} aria-labelledby="profile-title">
      <div className={s.cardHeader}>
        <h2 id="profile-title" className={s.cardTitle}>
          My Profile
        </h2>
        {editing ? null : (
          <button type="button" className={s.button.secondary} disabled={!hydrated} onClick={() => setEditing(true)}>
            Edit Profile
          </button>
        )}
      </div>
      {editing ? (
        <ProfileForm user={user} onDone={() => setEditing(false)} />
      ) : (
        <dl className={s.fieldList}>
          <dt>Full name</dt>
          <dd>{shown(user.full_name)}</dd>
          <dt>Email</dt>
          <dd>{shown(user.email)}</dd>
          <dt>Institutional Email</dt>
          <dd>{shown(user.institution_email)}</dd>
        </dl>
      )}
    </section>
  );
}

/** The edit mode of My Profile. Mounted fresh each time, so Cancel (unmounting it) resets the fields. */
function ProfileForm({ user, onDone }: { user: CurrentUserData; onDone: () => void }) {
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
      showInfo("No changes detected.");
      onDone();
      return;
    }
    setSubmitting(true);
    try {
      await updateMe(queryClient, changes);
      showSuccess("User updated successfully.");
      onDone();
    } catch (err) {
      showError(errorMessage(err));
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
