import type { Updateable } from "kysely";
import { archiveBilling } from "../privacy/archive.ts";
import type { AppDeps } from "../deps.ts";
import type { Database } from "../db/database.ts";
import type { UsersTable } from "../db/types.ts";
import { ApiError } from "../http/errors.ts";
import { hashPassword, verifyPassword, verifyPasswordTimingSafe } from "../auth/passwords.ts";
import { startTrial } from "../subscriptions/service.ts";
import * as repo from "./repository.ts";
import type { UserRow } from "./repository.ts";
import type { UpdatePassword, UserCreate, UserSearchResult, UserSignup, UserUpdate, UserUpdateMe } from "./schemas.ts";

// The rules about accounts. Routes call these; SQL stays in repository.ts.

export const EMAIL_TAKEN_ON_CREATE = "The user with this email already exists in the system";
export const EMAIL_TAKEN_ON_UPDATE = "User with this email already exists";
export const USER_NOT_FOUND = "User not found";
export const SUPERUSER_SELF_DELETE = "Super users are not allowed to delete themselves";
export const LAST_SUPERUSER =
  "This is the last active superuser: make another account a superuser before deactivating or demoting this one.";

/**
 * Throws ApiError(status, detail) when another account than `exceptId` already uses this address (case-insensitively).
 */
async function assertEmailFree(
  db: Database,
  email: string,
  status: 400 | 409,
  detail: string,
  exceptId?: string,
): Promise<void> {
  const existing = await repo.findUserByEmail(db, email);
  if (existing && existing.id !== exceptId) throw new ApiError(status, detail);
}

/**
 * Creates an account and, in the same transaction, its one-week Plus trial (docs/product.md §1: signup includes the
 * trial), so that an account never exists without it.
 * @throws ApiError 400 when the address is taken (also when two signups race for it).
 */
export async function signup(db: Database, input: UserSignup): Promise<UserRow> {
  await assertEmailFree(db, input.email, 400, EMAIL_TAKEN_ON_CREATE);
  // Hash before opening the transaction so that it stays short.
  const hashed_password = await hashPassword(input.password);
  try {
    return await db.transaction().execute(async (trx) => {
      const user = await repo.insertUser(trx, { email: input.email, full_name: input.full_name, hashed_password });
      await startTrial(trx, user.id);
      return user;
    });
  } catch (err) {
    if (repo.isUniqueViolation(err)) throw new ApiError(400, EMAIL_TAKEN_ON_CREATE);
    throw err;
  }
}

/**
 * Checks an address and password. Takes the same time whether or not the address has an account.
 * @returns the user when the password matches (active or not: the caller words the refusal), else null.
 */
export async function authenticate(db: Database, email: string, password: string): Promise<UserRow | null> {
  const user = await repo.findUserByEmail(db, email);
  const ok = await verifyPasswordTimingSafe(password, user?.hashed_password);
  return ok && user ? user : null;
}

/**
 * Creates an account for a superuser (POST /users/). Regular accounts get the same one-week Plus trial as a
 * signup, since there is no other way for them to start using the product; superuser accounts get none.
 * @throws ApiError 400 when the address is taken.
 */
export async function createUser(db: Database, input: UserCreate): Promise<UserRow> {
  await assertEmailFree(db, input.email, 400, EMAIL_TAKEN_ON_CREATE);
  const hashed_password = await hashPassword(input.password);
  try {
    return await db.transaction().execute(async (trx) => {
      const user = await repo.insertUser(trx, {
        email: input.email,
        full_name: input.full_name ?? null,
        institution_email: input.institution_email ?? null,
        description: input.description ?? null,
        is_active: input.is_active,
        is_superuser: input.is_superuser,
        hashed_password,
      });
      if (!input.is_superuser) await startTrial(trx, user.id);
      return user;
    });
  } catch (err) {
    if (repo.isUniqueViolation(err)) throw new ApiError(400, EMAIL_TAKEN_ON_CREATE);
    throw err;
  }
}

/** Applies a patch, turning a lost race for an address into the same 409 as the up-front check. */
async function applyPatch(
  db: Database,
  id: string,
  patch: Updateable<UsersTable>,
  bumpTokenVersion: boolean,
): Promise<UserRow> {
  try {
    const row = await repo.updateUser(db, id, patch, { bumpTokenVersion });
    if (!row) throw new ApiError(404, USER_NOT_FOUND);
    return row;
  } catch (err) {
    if (repo.isUniqueViolation(err)) throw new ApiError(409, EMAIL_TAKEN_ON_UPDATE);
    throw err;
  }
}

/** Keeps only the keys present in the request, so that "absent" (unchanged) differs from null (cleared). */
function presentOnly<T extends object>(input: T): Partial<T> {
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/**
 * Superuser update of any account (PATCH /users/{id}). A new password is hashed and ends the user's other
 * sessions (token_version is bumped); deactivating ends them too, because inactive users' tokens are refused.
 * @throws ApiError 404 unknown user, 409 address taken.
 */
export async function updateUser(db: Database, id: string, input: UserUpdate): Promise<UserRow> {
  const { password, ...rest } = presentOnly(input);
  if (!(await repo.findUserById(db, id))) throw new ApiError(404, USER_NOT_FOUND);
  if (rest.email) await assertEmailFree(db, rest.email, 409, EMAIL_TAKEN_ON_UPDATE, id);
  const patch: Updateable<UsersTable> = { ...rest };
  if (password) patch.hashed_password = await hashPassword(password);
  if (rest.is_active !== false && rest.is_superuser !== false) return applyPatch(db, id, patch, Boolean(password));
  // Deactivating or demoting: the site must keep an administrator. The active superusers are locked first, so two
  // administrators demoting each other at the same moment cannot both succeed.
  return db.transaction().execute(async (trx) => {
    const admins = await repo.lockActiveSuperusers(trx);
    if (admins.length === 1 && admins[0] === id) throw new ApiError(409, LAST_SUPERUSER);
    return applyPatch(trx, id, patch, Boolean(password));
  });
}

/**
 * A user's update of their own profile (PATCH /users/me): full name, address, institutional address, interests.
 * @throws ApiError 409 when the new address belongs to someone else.
 */
export async function updateMe(db: Database, userId: string, input: UserUpdateMe): Promise<UserRow> {
  const patch = presentOnly(input);
  if (patch.email) await assertEmailFree(db, patch.email, 409, EMAIL_TAKEN_ON_UPDATE, userId);
  if (Object.keys(patch).length === 0) {
    const row = await repo.findUserById(db, userId);
    if (!row) throw new ApiError(404, USER_NOT_FOUND);
    return row;
  }
  return applyPatch(db, userId, patch, false);
}

/**
 * Changes the signed-in user's password after checking the current one, and bumps token_version so that every
 * other session ends. @returns the updated row, whose token_version the caller uses to issue a fresh token.
 * @throws ApiError 400 "Incorrect password" or when the new password equals the current one.
 */
export async function changePassword(db: Database, userId: string, input: UpdatePassword): Promise<UserRow> {
  const user = await repo.findUserById(db, userId);
  if (!user) throw new ApiError(404, USER_NOT_FOUND);
  if (!(await verifyPassword(input.current_password, user.hashed_password)))
    throw new ApiError(400, "Incorrect password");
  if (input.new_password === input.current_password)
    throw new ApiError(400, "New password cannot be the same as the current one");
  return applyPatch(db, userId, { hashed_password: await hashPassword(input.new_password) }, true);
}

/**
 * Sets a new password without the old one (password reset), ending every session.
 * @returns the updated row, or undefined when the user no longer exists.
 */
export async function setPassword(db: Database, userId: string, newPassword: string): Promise<UserRow | undefined> {
  return repo.updateUser(db, userId, { hashed_password: await hashPassword(newPassword) }, { bumpTokenVersion: true });
}

/**
 * Deletes an account and, through the foreign keys' cascades, everything it owns (subscription, reviews, likes…).
 * Its billing records, if it paid, are archived first, as the privacy policy says (src/privacy/archive.ts).
 * @throws ApiError 403 when a superuser tries to delete their own account (there must stay an administrator),
 * 404 for an unknown user.
 */
export async function deleteUser(
  db: Database,
  id: string,
  actingUser: { id: string; is_superuser: boolean },
  now = new Date(),
): Promise<void> {
  if (id === actingUser.id && actingUser.is_superuser) throw new ApiError(403, SUPERUSER_SELF_DELETE);
  const deleted = await db.transaction().execute(async (trx) => {
    await archiveBilling(trx, id, "account_deleted", now);
    return repo.deleteUser(trx, id);
  });
  if (!deleted) throw new ApiError(404, USER_NOT_FOUND);
}

/** A page of all accounts for superusers. */
export function listUsers(db: Database, skip: number, limit: number): Promise<{ rows: UserRow[]; count: number }> {
  return repo.listUsers(db, skip, limit);
}

/** An account by id. @throws ApiError 404 when it does not exist. */
export async function getUser(db: Database, id: string): Promise<UserRow> {
  const row = await repo.findUserById(db, id);
  if (!row) throw new ApiError(404, USER_NOT_FOUND);
  return row;
}

/**
 * Finds share recipients for the signed-in user: other active, non-administrator accounts whose address, name or
 * a word of the name starts with `q` (at least 3 characters, checked by the route's schema).
 * A blank query answers [] without touching the database (docs/product.md §5: blank search makes no call).
 */
export async function searchUsers(
  db: Database,
  q: string,
  userId: string,
  skip: number,
  limit: number,
): Promise<UserSearchResult[]> {
  const needle = q.trim();
  if (!needle) return [];
  return repo.searchUsers(db, needle, userId, skip, limit);
}

/**
 * Creates the first superuser from FIRST_SUPERUSER / FIRST_SUPERUSER_PASSWORD at startup when that address has
 * no account yet. An existing account is left exactly as it is (its password is never reset from the environment).
 * @returns the created user, or null when nothing was configured or the account already existed.
 */
export async function ensureFirstSuperuser(deps: Pick<AppDeps, "db" | "config">): Promise<UserRow | null> {
  const { FIRST_SUPERUSER: email, FIRST_SUPERUSER_PASSWORD: password } = deps.config;
  if (!email || !password) return null;
  const normalized = email.trim().toLowerCase();
  if (await repo.findUserByEmail(deps.db, normalized)) return null;
  try {
    return await repo.insertUser(deps.db, {
      email: normalized,
      full_name: null,
      hashed_password: await hashPassword(password),
      is_superuser: true,
      is_active: true,
    });
  } catch (err) {
    // Another process (e.g. a worker starting at the same time) created it first.
    if (repo.isUniqueViolation(err)) return null;
    throw err;
  }
}
