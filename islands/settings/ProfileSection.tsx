import { Suspense, lazy, useState } from "react";
import type { CurrentUserData } from "../lib/current-user.ts";
import * as s from "./settings.css.ts";

// The edit form shows only after Edit Profile, so it loads then (docs/decisions/0043-first-paint-javascript.md).
const ProfileForm = lazy(() => import("./ProfileForm.tsx").then((m) => ({ default: m.ProfileForm })));

/** The text of a missing value (docs/product.md §2: empty values show N/A). */
export const NOT_AVAILABLE = "N/A";

/** A stored value for display: N/A when empty. */
export function shown(value: string | null | undefined): string {
  return value?.trim() ? value : NOT_AVAILABLE;
}

/**
 * My Profile (docs/product.md §2, §5): read-only with Edit Profile; the edit form has Save and Cancel and sends only
 * the fields that changed. `hydrated` keeps the button inert until the island is live.
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
        // The values stay on screen while the form loads.
        <Suspense fallback={<ProfileValuesList user={user} />}>
          <ProfileForm user={user} onDone={() => setEditing(false)} />
        </Suspense>
      ) : (
        <ProfileValuesList user={user} />
      )}
    </section>
  );
}

/** The profile as shown when not editing: full name, e-mail and institutional e-mail, 'N/A' when empty. */
function ProfileValuesList({ user }: { user: CurrentUserData }) {
  return (
    <dl className={s.fieldList}>
      <dt>Full name</dt>
      <dd>{shown(user.full_name)}</dd>
      <dt>Email</dt>
      <dd>{shown(user.email)}</dd>
      <dt>Institutional Email</dt>
      <dd>{shown(user.institution_email)}</dd>
    </dl>
  );
}
