import type { AppDeps } from "../deps.ts";
import { ApiError } from "../http/errors.ts";
import { MessageSchema, SIGNED_IN, apiRoute, createApi, errorResponses, jsonContent } from "../http/openapi.ts";
import { parseBearer } from "../http/credentials.ts";
import { credentialsRefused, requireUser, resolveUser, type AuthEnv } from "./middleware.ts";
import {
  clearSessionCookie,
  issueAccessToken,
  revokeRequestToken,
  setSessionCookie,
  type TokenResponse,
} from "./session.ts";
import { authenticate } from "../users/service.ts";
import { assertLoginAllowed, recordLoginFailure, recordLoginSuccess } from "./login-guard.ts";
import { requestClientKey } from "./client-address.ts";
import { UserPublicSchema, toUserPublic } from "../users/schemas.ts";
import { TokenSchema, loginFormSchema } from "./schemas.ts";

const login = apiRoute({
  method: "post",
  path: "/access-token",
  tags: ["login"],
  summary: "Log in (OAuth2 password flow)",
  description:
    "Checks the address and password and returns an access token, also set as the HttpOnly session cookie. Rate limited per client and per account (429 with Retry-After).",
  request: { body: { content: { "application/x-www-form-urlencoded": { schema: loginFormSchema } }, required: true } },
  responses: { 200: jsonContent(TokenSchema, "The access token"), ...errorResponses(400, 403, 429) },
});

const logout = apiRoute({
  method: "post",
  path: "/logout",
  tags: ["login"],
  summary: "Log out",
  description:
    "Revokes the access token presented (bearer header or session cookie) on the server, so it is refused from now on even before it expires, and clears the session cookie. Answers 200 without a token too.",
  responses: { 200: jsonContent(MessageSchema, "Logged out"), ...errorResponses(403) },
});

const session = apiRoute({
  method: "post",
  path: "/session",
  tags: ["login"],
  summary: "Restore the session cookie from the stored token",
  description:
    "Exchanges a valid access token, sent as `Authorization: Bearer …` (never the cookie), for the HttpOnly " +
    "session cookie holding the same token, so that server-rendered pages see a user whose browser kept the token " +
    "but dropped the session cookie (a browser restart). 401 when the header is missing or its token is invalid, " +
    "expired or revoked.",
  security: SIGNED_IN,
  responses: { 200: jsonContent(MessageSchema, "Session cookie set"), ...errorResponses(401, 403) },
});

/**
 * /api/v1/login: the OAuth2 password login (token in the body and as the HttpOnly session cookie),
 * the token check, and logout (which revokes the token and clears the cookie).
 * Login is guarded against guessing by progressive delays and per-client and per-account limits that never lock an
 * account's owner out (login-guard.ts); a refused attempt answers 429 with Retry-After.
 */
export function loginRoutes(deps: AppDeps) {
  const app = createApi<AuthEnv>();

  app.openapi(login, async (c) => {
    const { username, password } = c.req.valid("form");
    const account = username.toLowerCase();
    const client = requestClientKey(c, deps.config);
    // Refused before the password is hashed: a throttled attempt costs the server nothing.
    await assertLoginAllowed(deps.db, account, client, deps.config.LOGINS_PER_CLIENT_PER_MINUTE);

    const user = await authenticate(deps.db, username, password);
    if (!user) {
      await recordLoginFailure(deps.db, account, client);
      // One message for an unknown address and a wrong password, so the answer does not reveal accounts.
      throw new ApiError(400, "Incorrect email or password");
    }
    if (!user.is_active) throw new ApiError(400, "Inactive user");
    await recordLoginSuccess(deps.db, user.id, account, client);
    const token = await issueAccessToken(deps, user);
    setSessionCookie(c, deps.config, token);
    return c.json({ access_token: token, token_type: "bearer" } satisfies TokenResponse, 200);
  });

  const testToken = apiRoute({
    method: "post",
    path: "/test-token",
    tags: ["login"],
    summary: "Check the access token",
    security: SIGNED_IN,
    middleware: [requireUser(deps)],
    responses: { 200: jsonContent(UserPublicSchema, "The token's user") },
  });
  app.openapi(testToken, (c) => c.json(toUserPublic(c.get("user")), 200));

  // Only the bearer header counts here: a cookie is what this call creates, and a browser never adds that header on
  // its own, so another site cannot make a visitor's browser call this (no CORS; docs/decisions/0036-first-hour.md).
  app.openapi(session, async (c) => {
    const token = parseBearer(c.req.header("authorization"));
    const user = token ? await resolveUser(deps, c) : null;
    if (!token || !user) throw credentialsRefused();
    setSessionCookie(c, deps.config, token);
    return c.json({ message: "Session restored" }, 200);
  });

  // No authentication needed: a client with an expired token must still be able to get rid of it.
  app.openapi(logout, async (c) => {
    await revokeRequestToken(deps, c);
    clearSessionCookie(c, deps.config);
    return c.json({ message: "Logged out" }, 200);
  });

  return app;
}
