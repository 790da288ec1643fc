import { createHash } from "node:crypto";
import type { AppDeps } from "../deps.ts";
import type { Config } from "../config.ts";
import type { Database } from "../db/database.ts";
import { ApiError } from "../http/errors.ts";
import { findUserByEmail, findUserById, type UserRow } from "../users/repository.ts";
import { setPassword } from "../users/service.ts";
import { sendEmail, type EmailMessage } from "../email/service.ts";
import { passwordResetEmail } from "./emails.ts";
import { clearAccountFailures } from "./login-guard.ts";

/** How long a reset link works (the FastAPI template's default). */
export const RESET_TOKEN_VALID_HOURS = 48;

export const INVALID_TOKEN = "Invalid token";
export const EXPIRED_TOKEN = "Token has expired";

/** SHA-256 (hex) of a reset token: what the database keeps instead of the token. */
export function hashResetToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/**
 * Creates a single-use reset token for a user, valid RESET_TOKEN_VALID_HOURS.
 * @returns the token (256 random bits, base64url), which exists only in the e-mail from now on.
 */
export async function createResetToken(db: Database, userId: string, now: Date = new Date()): Promise<string> {
  const token = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
  await db
    .insertInto("password_reset_tokens")
    .values({
      token_hash: hashResetToken(token),
      user_id: userId,
      expires_at: new Date(now.getTime() + RESET_TOKEN_VALID_HOURS * 3600_000),
    })
    .execute();
  return token;
}

/** The page address of a reset link: PUBLIC_URL (or the local server) + /reset-password?token=… */
export function resetLink(config: Config, token: string): string {
  const origin = (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/+$/, "");
  return `${origin}/reset-password?token=${encodeURIComponent(token)}`;
}

/** Creates a reset token for `user` and renders the recovery message that carries it. */
export async function buildRecoveryEmail(deps: Pick<AppDeps, "db" | "config">, user: UserRow): Promise<EmailMessage> {
  const token = await createResetToken(deps.db, user.id);
  return passwordResetEmail({
    to: user.email,
    link: resetLink(deps.config, token),
    validHours: RESET_TOKEN_VALID_HOURS,
    supportEmail: deps.config.SUPPORT_EMAIL,
  });
}

/**
 * Sends a recovery message if `email` belongs to an active account, and does nothing otherwise.
 * The caller answers the same either way; run this in the background so timing does not tell either.
 * @returns whether a message was sent.
 */
export async function sendRecoveryEmail(deps: Pick<AppDeps, "db" | "config">, email: string): Promise<boolean> {
  const user = await findUserByEmail(deps.db, email);
  if (!user?.is_active) return false;
  await sendEmail(deps, await buildRecoveryEmail(deps, user));
  return true;
}

/**
 * Sets a new password with a reset token. The token is consumed atomically (a second use, even concurrent,
 * fails), every other outstanding token of the user is voided, every session ends (token_version is bumped),
 * and the account's failed-login counter is cleared so that a locked-out user gets back in.
 * @throws ApiError 400 "Invalid token" (unknown, already used, or its user is gone), "Token has expired",
 * "Inactive user".
 */
export async function resetPassword(db: Database, token: string, newPassword: string): Promise<void> {
  const tokenHash = hashResetToken(token);
  const row = await db
    .selectFrom("password_reset_tokens")
    .selectAll()
    .where("token_hash", "=", tokenHash)
    .executeTakeFirst();
  if (!row || row.used_at) throw new ApiError(400, INVALID_TOKEN);
  if (new Date(row.expires_at) <= new Date()) throw new ApiError(400, EXPIRED_TOKEN);
  const user = await findUserById(db, row.user_id);
  if (!user) throw new ApiError(400, INVALID_TOKEN);
  if (!user.is_active) throw new ApiError(400, "Inactive user");

  await db.transaction().execute(async (trx) => {
    const now = new Date();
    const claimed = await trx
      .updateTable("password_reset_tokens")
      .set({ used_at: now })
      .where("token_hash", "=", tokenHash)
      .where("used_at", "is", null)
      .where("expires_at", ">", now)
      .returning("user_id")
      .executeTakeFirst();
    // Lost a race with another use of the same token.
    if (!claimed) throw new ApiError(400, INVALID_TOKEN);
    await setPassword(trx, user.id, newPassword);
    await trx
      .updateTable("password_reset_tokens")
      .set({ used_at: now })
      .where("user_id", "=", user.id)
      .where("used_at", "is", null)
      .execute();
  });
  await clearAccountFailures(db, user.email.toLowerCase());
}
