import { z } from "@hono/zod-openapi";
import { hasRefusedCharacter } from "../http/input-text.ts";
// The pages' own pattern and limits (src/rules/, shared with the forms), so that the server refuses exactly what the
// forms refuse, with the same messages.
import {
  EMAIL_PATTERN,
  FULL_NAME_MAX,
  FULL_NAME_MIN,
  isSingleLine,
  PASSWORD_MIN,
  singleLineMessage,
} from "../rules/account.ts";
import {
  INTEREST_MAX,
  INTEREST_NOT_SINGLE_LINE,
  INTEREST_SLOTS,
  INTEREST_TOO_LONG,
  INTERESTS_TOTAL_MAX,
  TOTAL_TOO_LONG,
} from "../rules/interests.ts";

// Request and response shapes of the users API. Create, update and public shapes are separate (as in the
// FastAPI full-stack template) so that a password or its hash can never leak into a response.
// Messages are the ones the client shows (docs/product.md §5); unknown fields are dropped, not rejected.

/** Builds a zod error callback: "<label> is required" for a missing value, `invalid` for a value of the wrong type. */
function requiredOr(label: string, invalid: string) {
  return (issue: { input?: unknown }) =>
    issue.input === undefined || issue.input === null ? `${label} is required` : invalid;
}

/** An e-mail address: trimmed, lower-cased (addresses are unique case-insensitively), at most 255 characters. */
export function emailField(label = "Email") {
  return (
    z
      .string({ error: requiredOr(label, "Invalid email address") })
      .trim()
      .toLowerCase()
      .min(1, `${label} is required`)
      .max(255, "Email must be at most 255 characters")
      // One check, one message: the page's own pattern (docs/product.md §5), so an invalid address is reported once.
      .pipe(z.email({ pattern: EMAIL_PATTERN, error: "Invalid email address" }))
  );
}

/** A new password: 8 to 128 characters (the upper bound only keeps hashing cost bounded). */
export function passwordField(label = "Password") {
  return (
    z
      .string({ error: requiredOr(label, `${label} must be text`) })
      // An empty password is reported as missing, as the forms do, not as too short as well.
      .min(1, { error: `${label} is required`, abort: true })
      .min(PASSWORD_MIN, `${label} must be at least ${PASSWORD_MIN} characters`)
      .max(128, `${label} must be at most 128 characters`)
  );
}

/**
 * Whether a single-line field is free of what only single-line fields refuse: tab, line feed, carriage return and the
 * Unicode line separators. The other control characters pass here and are refused for every field alike, with the
 * API's own message, by the validation hook (src/http/input-text.ts).
 */
function lineBreakFree(value: string): boolean {
  return hasRefusedCharacter(value) || isSingleLine(value);
}

/**
 * A full name, the one rule of every endpoint that writes one (docs/product.md §9; the forms' fullNameRules): on one
 * line, with no control character (checked before trimming, so a line break is refused, not silently cut off), and at
 * most FULL_NAME_MAX characters after trimming. Sign-up adds its minimum (FULL_NAME_MIN).
 */
function fullNameField(label: string) {
  return z
    .string({ error: requiredOr(label, `${label} must be text`) })
    .refine(lineBreakFree, singleLineMessage(label))
    .trim()
    .max(FULL_NAME_MAX, `${label} must be at most ${FULL_NAME_MAX} characters`);
}

/** An optional institutional address: null, or "" (sent by an emptied form field, read as null), or an address. */
const institutionEmailField = z
  .union([z.literal("").transform(() => null), z.null(), emailField("Institutional email")])
  .optional();

/**
 * Main interests: one comma-joined string of up to five interests (docs/product.md §3), at most 2000 characters, each
 * interest at most 100 (docs/product.md §5, §9), with the settings page's messages.
 */
const descriptionField = z
  .string({ error: "Description must be text" })
  .max(INTERESTS_TOTAL_MAX, TOTAL_TOO_LONG)
  .refine(lineBreakFree, INTEREST_NOT_SINGLE_LINE)
  .refine((d) => interestsOf(d).every((i) => i.length <= INTEREST_MAX), INTEREST_TOO_LONG)
  .refine((d) => interestsOf(d).length <= INTEREST_SLOTS, `At most ${INTEREST_SLOTS} interests are allowed.`)
  .nullable()
  .optional();

/** The interests of a description: split on commas, trimmed, empty ones dropped. */
function interestsOf(description: string): string[] {
  return description
    .split(",")
    .map((i) => i.trim())
    .filter((i) => i !== "");
}

/** POST /users/signup. */
export const userSignupSchema = z.object({
  email: emailField(),
  full_name: fullNameField("Full Name")
    .min(1, { error: "Full Name is required", abort: true })
    .min(FULL_NAME_MIN, `Full Name must be at least ${FULL_NAME_MIN} characters`),
  password: passwordField(),
});
export type UserSignup = z.infer<typeof userSignupSchema>;

/** POST /users/ (superusers): any account, optionally active/superuser. */
export const userCreateSchema = z.object({
  email: emailField(),
  password: passwordField(),
  full_name: fullNameField("Full Name").nullable().optional(),
  institution_email: institutionEmailField,
  description: descriptionField,
  is_active: z.boolean().default(true),
  is_superuser: z.boolean().default(false),
});
export type UserCreate = z.infer<typeof userCreateSchema>;

/** PATCH /users/{user_id} (superusers): every field optional; a new password is hashed and ends the user's sessions. */
export const userUpdateSchema = z.object({
  email: emailField().optional(),
  password: passwordField().optional(),
  full_name: fullNameField("Full Name").nullable().optional(),
  institution_email: institutionEmailField,
  description: descriptionField,
  is_active: z.boolean().optional(),
  is_superuser: z.boolean().optional(),
});
export type UserUpdate = z.infer<typeof userUpdateSchema>;

/** PATCH /users/me: the profile fields a user may change (docs/product.md §5 "Profile"). */
export const userUpdateMeSchema = z.object({
  full_name: fullNameField("Full name").nullable().optional(),
  email: emailField().optional(),
  institution_email: institutionEmailField,
  description: descriptionField,
});
export type UserUpdateMe = z.infer<typeof userUpdateMeSchema>;

/** PATCH /users/me/password. */
export const updatePasswordSchema = z
  .object({
    current_password: z
      .string({ error: requiredOr("Current password", "Current password must be text") })
      .min(1, "Current password is required"),
    new_password: passwordField(),
    confirm_password: z
      .string({
        error: (i) =>
          i.input === undefined || i.input === null
            ? "Password confirmation is required"
            : "Password confirmation must be text",
      })
      .min(1, "Password confirmation is required"),
  })
  .refine((v) => v.new_password === v.confirm_password, {
    message: "The passwords do not match",
    path: ["confirm_password"],
  });
export type UpdatePassword = z.infer<typeof updatePasswordSchema>;

/** `{user_id}` path parameter. */
export const userIdParamSchema = z.object({
  user_id: z.uuid({ error: "Invalid user id" }).openapi({ param: { name: "user_id", in: "path" } }),
});

/** Largest `skip` of any list: deeper pages are never needed, and the bound keeps the number a safe integer. */
export const MAX_SKIP = 1_000_000;

/** `skip`/`limit` query of list endpoints (FastAPI template defaults: 0 and 100). */
export const paginationSchema = z.object({
  skip: z.coerce
    .number({ error: "skip must be a number" })
    .int()
    .min(0)
    .max(MAX_SKIP, `skip must be at most ${MAX_SKIP}`)
    .default(0),
  limit: z.coerce.number({ error: "limit must be a number" }).int().min(1).max(1000).default(100),
});

// The share popover's own rule and message, so that the server refuses exactly what the popover does not send.
export { USER_SEARCH_MIN_CHARS, USER_SEARCH_TOO_SHORT } from "../rules/user-search.ts";
import { USER_SEARCH_MIN_CHARS, USER_SEARCH_TOO_SHORT } from "../rules/user-search.ts";

/**
 * GET /users/search/: `q` matched against the start of an address, of a full name or of a word in it; the client
 * asks for 5 at a time. A blank q answers [] (docs/product.md §5: a blank search clears the results); 1 or 2 characters
 * are refused.
 */
export const userSearchSchema = z.object({
  q: z
    .string()
    .max(255, "Search query must be at most 255 characters")
    .default("")
    .refine((q) => q.trim() === "" || q.trim().length >= USER_SEARCH_MIN_CHARS, USER_SEARCH_TOO_SHORT)
    .openapi({
      description: `Start of an address or name; blank gives [], else at least ${USER_SEARCH_MIN_CHARS} characters`,
      example: "ada",
    }),
  skip: z.coerce
    .number({ error: "skip must be a number" })
    .int()
    .min(0)
    .max(100, "skip must be at most 100")
    .default(0),
  limit: z.coerce
    .number({ error: "limit must be a number" })
    .int()
    .min(1)
    .max(10, "limit must be at most 10")
    .default(5),
});

/** A user as every response shows it (docs/product.md §3): never the password or its hash. */
export const UserPublicSchema = z
  .object({
    id: z.uuid(),
    email: z.string(),
    full_name: z.string().nullable(),
    institution_email: z.string().nullable(),
    description: z.string().nullable().openapi({ description: "Main interests: up to five, joined by commas" }),
    is_active: z.boolean(),
    is_superuser: z.boolean(),
  })
  .openapi("UserPublic");
export type UserPublic = z.infer<typeof UserPublicSchema>;

/** GET /users/: a page of accounts and the total. */
export const UsersPublicSchema = z
  .object({ data: z.array(UserPublicSchema), count: z.number().int() })
  .openapi("UsersPublic");

/** What user search returns to any signed-in user: just enough to pick a share recipient. */
export const UserSearchResultSchema = z
  .object({ id: z.uuid(), full_name: z.string().nullable(), email: z.string() })
  .openapi("UserSearchResult");
export type UserSearchResult = z.infer<typeof UserSearchResultSchema>;

/** Copies the public fields of a user row (or CurrentUser), dropping everything else. */
export function toUserPublic(u: UserPublic): UserPublic {
  return {
    id: u.id,
    email: u.email,
    full_name: u.full_name,
    institution_email: u.institution_email,
    description: u.description,
    is_active: u.is_active,
    is_superuser: u.is_superuser,
  };
}
