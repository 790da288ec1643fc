import { Suspense, lazy, useState } from "react";
import type { CurrentUserData } from "../lib/current-user.ts";
import { splitInterests } from "./interests.ts";
import { NOT_AVAILABLE } from "./ProfileSection.tsx";
import * as s from "./settings.css.ts";

// The edit form shows only after Edit Interests, so it loads then (docs/decisions/0043-first-paint-javascript.md).
const InterestsForm = lazy(() => import("./InterestsForm.tsx").then((m) => ({ default: m.InterestsForm })));

/**
 * Main Interests (docs/product.md §2, §5): five numbered slots, read-only with Edit Interests; the edit form has Save
 * (enabled once something changed) and Cancel. Saved through PATCH /users/me as the comma-joined description.
 */
export function InterestsSection({ user, hydrated }: { user: CurrentUserData; hydrated: boolean }) {
  const [editing, setEditing] = useState(false);
  const slots = splitInterests(user.description);
  return (
    <section className={s.card} aria-labelledby="interests-title">
      <div className={s.cardHeader}>
        <h2 id="interests-title" className={s.cardTitle}>
          Main Interests
        </h2>
        {editing ? null : (
          <button type="button" className={s.button.secondary} disabled={!hydrated} onClick={() => setEditing(true)}>
            Edit Interests
          </button>
        )}
      </div>
      <p className={s.hint}>Your weekly suggestions are based on these interests and the articles you like.</p>
      {editing ? (
        // The slots stay on screen while the form loads.
        <Suspense fallback={<InterestSlots slots={slots} />}>
          <InterestsForm user={user} slots={slots} onDone={() => setEditing(false)} />
        </Suspense>
      ) : (
        <InterestSlots slots={slots} />
      )}
    </section>
  );
}

/** The five slots as shown when not editing, 'N/A' for an empty one. */
function InterestSlots({ slots }: { slots: string[] }) {
  return (
    <ol className={s.interestList} data-testid="interests">
      {slots.map((slot, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the five slots are positions
        <li key={i} className={slot ? undefined : s.empty}>
          {slot || NOT_AVAILABLE}
        </li>
      ))}
    </ol>
  );
}
