import type { MiddlewareHandler, Context } from "hono";
import { getCookie } from "hono/cookie";
import { ApiError } from "../http/errors.ts";
import { verifyAccessToken } from "./tokens.ts";
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

/** Name of the HttpOnly session cookie that carries the access token for server-rendered pages. */
export const SESSION_COOKIE = "access_token";

/** Reads the token from `Authorization: Bearer …`, else from the session cookie. */
export function readToken(c: Context): string | null {
  const header = c.req.header("authorization");
  if (header?.toLowerCase().startsWith("bearer ")) return header.slice(7).trim() || null;
  return getCookie(c, SESSION_COOKIE) ?? null;
}

/**
 * Resolves the user of a request, or null when there is no valid token, the user is gone or inactive,
 * or the token was issued before the user's last password change (token_version).
 */
export async function resolveUser(deps: AppDeps, c: Context): Promise<CurrentUser | null> {
  const token = readToken(c);
  if (!token) return null;
  const claims = await verifyAccessToken(deps.secretKey, token);
  if (!claims) return null;
  const row = await deps.db
    .selectFrom("users")
    .select(["id", "email", "full_name", "institution_email", "description", "is_active", "is_superuser", "token_version"])
    .where("id", "=", claims.sub)
    .executeTakeFirst()
    .catch(() => undefined); // a malformed uuid in `sub` is just an unknown user
  if (!row || !row.is_active || row.token_version !== claims.ver) return null;
  const { token_version: _v, ...user } = row;
  return user;
}

/** Middleware: 401 `{"detail": "Could not validate credentials"}` unless a valid token is presented. */
export function requireUser(deps: AppDeps): MiddlewareHandler<AuthEnv> {
  return async (c, next) => {
    const user = await resolveUser(deps, c);
    if (!user) throw new ApiError(401, "Could not validate credentials", { "WWW-Authenticate": "Bearer" });
    c.set("user", user);
    await next();
  };
}

/** Middleware (after requireUser): 403 unless the user is a superuser. */
export const requireSuperuser: MiddlewareHandler<AuthEnv> = async (c, next) => {
  if (!c.get("user").is_superuser) throw new ApiError(403, "The user doesn't have enough privileges");
  await next();
};
