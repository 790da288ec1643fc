import type { MiddlewareHandler, Context } from "hono";
import { getCookie } from "hono/cookie";
import { ApiError } from "../http/errors.ts";
import { SESSION_COOKIE, parseBearer } from "../http/credentials.ts";
import { sql } from "kysely";
import { verifyAccessToken, type AccessTokenClaims } from "./tokens.ts";
import type { AppDeps } from "../deps.ts";

/** The signed-in user as handlers see it (never carries the password hash). */
export interface CurrentUser {
  id: string;
  email: string;
  full_name: string | null;
  institution_email: string | null;
  description: string | null;
  is_active: boolean;
  is_superuser: boolean;
}

export type AuthEnv = { Variables: { user: CurrentUser } };

/** Reads the token from `Authorization: Bearer …`, else from the session cookie. */
export function readToken(c: Context): string | null {
  return parseBearer(c.req.header("authorization")) ?? getCookie(c, SESSION_COOKIE) ?? null;
}

/** The verified claims of the request's token, or null when it has none or an invalid one. */
export async function readClaims(deps: AppDeps, c: Context): Promise<AccessTokenClaims | null> {
  const token = readToken(c);
  return token ? verifyAccessToken(deps.secretKey, token) : null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The user lookup of verified claims: the user row, unless the token was revoked by logout (one statement). */
function userLookup(deps: AppDeps, claims: AccessTokenClaims) {
  const jti = claims.jti;
  return (
    deps.db
      .selectFrom("users")
      // Qualified, so that a caller may join other tables to the lookup (resolveUserWith).
      .select([
        "users.id",
        "users.email",
        "users.full_name",
        "users.institution_email",
        "users.description",
        "users.is_active",
        "users.is_superuser",
        "users.token_version",
      ])
      .where("users.id", "=", claims.sub)
      // The revocation check rides on the user lookup (a primary-key probe of a small table).
      .$if(jti !== undefined, (qb) =>
        qb.where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom("revoked_access_tokens")
                .select(sql`1`.as("one"))
                .where("revoked_access_tokens.jti", "=", jti!),
            ),
          ),
        ),
      )
  );
}

/** The user lookup that resolveUserWith callers extend. */
export type UserLookup = ReturnType<typeof userLookup>;

type UserLookupRow = CurrentUser & { token_version: number };

/**
 * Resolves the user of a request, or null when there is no valid token, the user is gone or inactive,
 * the token was issued before the user's last password change (token_version), or it was revoked by logout.
 */
export async function resolveUser(deps: AppDeps, c: Context): Promise<CurrentUser | null> {
  return (await resolveUserWith(deps, c, (lookup) => lookup))?.user ?? null;
}

/**
 * resolveUser, reading more in the same statement: `extend` adds joins and columns to the user lookup (a route that
 * needs the user and one row of theirs makes one round trip instead of two). The rules of resolveUser are the same.
 * @returns the user, and the whole row `extend` selected; null as resolveUser.
 */
export async function resolveUserWith<R extends UserLookupRow>(
  deps: AppDeps,
  c: Context,
  extend: (lookup: UserLookup) => { executeTakeFirst(): Promise<R | undefined> },
): Promise<{ user: CurrentUser; row: R } | null> {
  const claims = await readClaims(deps, c);
  // A signed token whose subject is not a user id names no user. Checked here, not by catching the database's
  // error: every other database error (an outage, a time-out) must propagate and answer 503, never "signed out".
  if (!claims || !UUID.test(claims.sub)) return null;
  const row = await extend(userLookup(deps, claims)).executeTakeFirst();
  if (!row?.is_active || row.token_version !== claims.ver) return null;
  const { id, email, full_name, institution_email, description, is_active, is_superuser } = row;
  return { user: { id, email, full_name, institution_email, description, is_active, is_superuser }, row };
}

/** The 401 of a request without valid credentials: `{"detail": "Could not validate credentials"}`. */
export function credentialsRefused(): ApiError {
  return new ApiError(401, "Could not validate credentials", { "WWW-Authenticate": "Bearer" });
}

/** Middleware: 401 `{"detail": "Could not validate credentials"}` unless a valid token is presented. */
export function requireUser(deps: AppDeps): MiddlewareHandler<AuthEnv> {
  return async (c, next) => {
    const user = await resolveUser(deps, c);
    if (!user) throw credentialsRefused();
    c.set("user", user);
    await next();
  };
}

/** Middleware (after requireUser): 403 unless the user is a superuser. */
export const requireSuperuser: MiddlewareHandler<AuthEnv> = async (c, next) => {
  if (!c.get("user").is_superuser) throw new ApiError(403, "The user doesn't have enough privileges");
  await next();
};
