import { FULL_NAME_MAX } from "../../src/rules/account.ts";
import { email, fullNameRules } from "../auth/field-rules.ts";
import type { Rules } from "../auth/rules.ts";
import type { RequestOf } from "../lib/api.ts";
import type { CurrentUserData } from "../lib/current-user.ts";

/** Profile rules and the PATCH /users/me body of a profile edit (docs/product.md §5 "Profile"). Pure. */

/** Most characters of a full name in the profile (docs/product.md §9); the same bound as at sign-up. */
export { FULL_NAME_MAX };

/** The profile form's fields, as typed. */
export type ProfileValues = { full_name: string; email: string; institution_email: string };

/** The fields of PATCH /users/me's body a profile edit may send; null clears a value. */
export type ProfileChanges = Pick<RequestOf<"PATCH", "/users/me">["body"], "full_name" | "email" | "institution_email">;

/**
 * Full name on one line and at most 30 characters (the sign-up's rules but its minimum, docs/product.md §5); Email
 * required and an address; Institutional Email optional, an address.
 */
export const profileRules: Rules<ProfileValues> = {
  full_name: { rules: fullNameRules<ProfileValues>("Full name") },
  email: { required: "Email is required", rules: [email()] },
  institution_email: { rules: [email()] },
};

/** The form's starting values for `user` (missing values are empty fields). */
export function profileValuesOf(
  user: Pick<CurrentUserData, "full_name" | "email" | "institution_email">,
): ProfileValues {
  return { full_name: user.full_name ?? "", email: user.email, institution_email: user.institution_email ?? "" };
}

/** A stored value as a form field holds it, for comparison: trimmed, null as "". */
function normalized(value: string | null | undefined): string {
  return (value ?? "").trim();
}

/**
 * Only the fields that really changed, as the API takes them: trimmed; an emptied full name or institutional
 * address becomes null; addresses compare case-insensitively (the server stores them lower-cased). An empty
 * object means there is nothing to send ('No changes detected.').
 */
export function profileChanges(
  user: Pick<CurrentUserData, "full_name" | "email" | "institution_email">,
  values: ProfileValues,
): ProfileChanges {
  const changes: ProfileChanges = {};
  const fullName = values.full_name.trim();
  if (fullName !== normalized(user.full_name)) changes.full_name = fullName === "" ? null : fullName;
  const address = values.email.trim();
  if (address.toLowerCase() !== normalized(user.email).toLowerCase()) changes.email = address;
  const institution = values.institution_email.trim();
  if (institution.toLowerCase() !== normalized(user.institution_email).toLowerCase())
    changes.institution_email = institution === "" ? null : institution;
  return changes;
}
