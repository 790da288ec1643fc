import { type OpenAPIHono, z } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import type { AppDeps } from "../deps.ts";
import { ApiError } from "../http/errors.ts";
import {
  MessageSchema,
  SIGNED_IN,
  apiRoute,
  createApi,
  errorResponses,
  jsonBody,
  jsonContent,
} from "../http/openapi.ts";
import { requireSuperuser, requireUser, type AuthEnv } from "../auth/middleware.ts";
import { clearSessionCookie, issueAccessToken, setSessionCookie } from "../auth/session.ts";
import { LIMITS, assertAllowed, hit, reset } from "../auth/rate-limit.ts";
import { requestClientKey } from "../auth/client-address.ts";
import * as users from "./service.ts";
import { enqueueUserSuggestions } from "../suggestions/queueing.ts";
import {
  UserPublicSchema,
  UserSearchResultSchema,
  UsersPublicSchema,
  paginationSchema,
  toUserPublic,
  updatePasswordSchema,
  userCreateSchema,
  userIdParamSchema,
  userSearchSchema,
  userSignupSchema,
  userUpdateMeSchema,
  userUpdateSchema,
} from "./schemas.ts";

const PasswordChangedSchema = z
  .object({
    message: z.string(),
    access_token: z.string().openapi({ description: "A fresh token for this session" }),
    token_type: z.literal("bearer"),
  })
  .openapi("PasswordChanged");

type UsersApp = OpenAPIHono<AuthEnv>;

const tags = ["users"];

/**
 * /api/v1/users: signup, the signed-in user's own account (me, profile, password, deletion), user search for
 * sharing, and account management for superusers (list, create, read, update, delete).
 */
export function usersRoutes(deps: AppDeps) {
  const app = createApi<AuthEnv>();
  const signedIn = requireUser(deps);
  registerSignup(app, deps);
  registerOwnProfile(app, deps, signedIn);
  registerPasswordChange(app, deps, signedIn);
  registerOwnAccountDeletion(app, deps, signedIn);
  registerUserSearch(app, deps, signedIn);
  registerAccountList(app, deps, signedIn);
  registerAccountById(app, deps, signedIn);
  return app;
}

/** POST /signup: a new account with its trial, limited per client. */
function registerSignup(app: UsersApp, deps: AppDeps): void {
  const signup = apiRoute({
    method: "post",
    path: "/signup",
    tags,
    summary: "Sign up",
    description:
      "Creates an account with a one-week Plus trial. Answers the account (never its password). At most 10 an hour per client (429).",
    request: { body: jsonBody(userSignupSchema) },
    responses: { 200: jsonContent(UserPublicSchema, "The new account"), ...errorResponses(400, 429) },
  });
  app.openapi(signup, async (c) => {
    const client = requestClientKey(c, deps.config);
    // Each account comes with a trial: creating them in bulk from one network is refused.
    if (client)
      assertAllowed(
        await hit(deps.db, { ...LIMITS.signupPerClient, max: deps.config.SIGNUPS_PER_CLIENT_PER_HOUR }, client),
      );
    return c.json(toUserPublic(await users.signup(deps.db, c.req.valid("json"))), 200);
  });
}

/** GET and PATCH /me: the signed-in user's account, its profile and interests. */
function registerOwnProfile(app: UsersApp, deps: AppDeps, signedIn: MiddlewareHandler<AuthEnv>): void {
  const readMe = apiRoute({
    method: "get",
    path: "/me",
    tags,
    summary: "Read the signed-in user",
    security: SIGNED_IN,
    middleware: [signedIn],
    responses: { 200: jsonContent(UserPublicSchema, "The signed-in user") },
  });
  app.openapi(readMe, (c) => c.json(toUserPublic(c.get("user")), 200));

  const updateMe = apiRoute({
    method: "patch",
    path: "/me",
    tags,
    summary: "Update the signed-in user's profile and interests",
    description: 'Only the fields sent change; `institution_email: null` (or "") clears it.',
    security: SIGNED_IN,
    middleware: [signedIn],
    request: { body: jsonBody(userUpdateMeSchema) },
    responses: { 200: jsonContent(UserPublicSchema, "The updated user"), ...errorResponses(409) },
  });
  app.openapi(updateMe, async (c) => {
    const before = c.get("user");
    const updated = await users.updateMe(deps.db, before.id, c.req.valid("json"));
    // New interests: this week's suggestions are recomputed in the background, within a minute (issue 11).
    if ((updated.description ?? "") !== (before.description ?? ""))
      await enqueueUserSuggestions(deps, before.id, { replace: true });
    return c.json(toUserPublic(updated), 200);
  });
}

/** PATCH /me/password: a new password, checked against the current one. */
function registerPasswordChange(app: UsersApp, deps: AppDeps, signedIn: MiddlewareHandler<AuthEnv>): void {
  // The password change ends every other session (token_version is bumped). This session continues with the
  // fresh token returned here, which is also set as the session cookie; a client that ignores it logs in again.
  const changePassword = apiRoute({
    method: "patch",
    path: "/me/password",
    tags,
    summary: "Change the signed-in user's password",
    description:
      "Ends every other session; this one continues with the token returned. At most 5 current-password checks per 15 minutes without a success (429).",
    security: SIGNED_IN,
    middleware: [signedIn],
    request: { body: jsonBody(updatePasswordSchema) },
    responses: { 200: jsonContent(PasswordChangedSchema, "Password changed"), ...errorResponses(400, 429) },
  });
  app.openapi(changePassword, async (c) => {
    const me = c.get("user").id;
    // Counted before the current password is checked, cleared when it matched: a stolen session cannot be used to
    // guess the password it does not know.
    assertAllowed(await hit(deps.db, LIMITS.passwordCheckPerUser, me));
    const user = await users.changePassword(deps.db, me, c.req.valid("json"));
    await reset(deps.db, LIMITS.passwordCheckPerUser, me);
    const token = await issueAccessToken(deps, user);
    setSessionCookie(c, deps.config, token);
    return c.json(
      { message: "Password updated successfully", access_token: token, token_type: "bearer" as const },
      200,
    );
  });
}

/** DELETE /me: the signed-in user deletes their own account. */
function registerOwnAccountDeletion(app: UsersApp, deps: AppDeps, signedIn: MiddlewareHandler<AuthEnv>): void {
  const deleteMe = apiRoute({
    method: "delete",
    path: "/me",
    tags,
    summary: "Delete the signed-in user's account and all its data",
    security: SIGNED_IN,
    middleware: [signedIn],
    responses: { 200: jsonContent(MessageSchema, "Deleted"), ...errorResponses(403) },
  });
  app.openapi(deleteMe, async (c) => {
    await users.deleteUser(deps.db, c.get("user").id, c.get("user"));
    clearSessionCookie(c, deps.config);
    return c.json({ message: "User deleted successfully" }, 200);
  });
}

/** GET /search: colleagues to share with. */
function registerUserSearch(app: UsersApp, deps: AppDeps, signedIn: MiddlewareHandler<AuthEnv>): void {
  const search = apiRoute({
    method: "get",
    path: "/search",
    tags,
    summary: "Find a colleague to share with",
    description:
      "Active, non-administrator accounts other than the caller whose address, full name or a word of the name starts with q. Rate limited per user.",
    security: SIGNED_IN,
    middleware: [signedIn],
    request: { query: userSearchSchema },
    responses: {
      200: jsonContent(z.array(UserSearchResultSchema), "Matching users, best first"),
      ...errorResponses(429),
    },
  });
  app.openapi(search, async (c) => {
    const { q, skip, limit } = c.req.valid("query");
    const me = c.get("user");
    if (q.trim()) assertAllowed(await hit(deps.db, LIMITS.userSearchPerUser, me.id));
    return c.json(await users.searchUsers(deps.db, q, me.id, skip, limit), 200);
  });
}

/** GET and POST /: every account, and creating one (superusers). */
function registerAccountList(app: UsersApp, deps: AppDeps, signedIn: MiddlewareHandler<AuthEnv>): void {
  const list = apiRoute({
    method: "get",
    path: "/",
    tags,
    summary: "List accounts (superusers)",
    security: SIGNED_IN,
    middleware: [signedIn, requireSuperuser],
    request: { query: paginationSchema },
    responses: {
      200: jsonContent(UsersPublicSchema, "A page of accounts, oldest first, and their total"),
      ...errorResponses(403),
    },
  });
  app.openapi(list, async (c) => {
    const { skip, limit } = c.req.valid("query");
    const { rows, count } = await users.listUsers(deps.db, skip, limit);
    return c.json({ data: rows.map(toUserPublic), count }, 200);
  });

  const create = apiRoute({
    method: "post",
    path: "/",
    tags,
    summary: "Create an account (superusers)",
    security: SIGNED_IN,
    middleware: [signedIn, requireSuperuser],
    request: { body: jsonBody(userCreateSchema) },
    responses: { 200: jsonContent(UserPublicSchema, "The new account"), ...errorResponses(400, 403) },
  });
  app.openapi(create, async (c) => {
    const created = await users.createUser(deps.db, c.req.valid("json"));
    // An account created with its interests and a trial is a new subscriber: its first week is computed now.
    if (created.description && !created.is_superuser) await enqueueUserSuggestions(deps, created.id);
    return c.json(toUserPublic(created), 200);
  });
}

/** GET, PATCH and DELETE /{user_id}: one account (one's own to read; any for superusers). */
function registerAccountById(app: UsersApp, deps: AppDeps, signedIn: MiddlewareHandler<AuthEnv>): void {
  const readOne = apiRoute({
    method: "get",
    path: "/{user_id}",
    tags,
    summary: "Read an account (one's own, or any for superusers)",
    security: SIGNED_IN,
    middleware: [signedIn],
    request: { params: userIdParamSchema },
    responses: { 200: jsonContent(UserPublicSchema, "The account"), ...errorResponses(403, 404) },
  });
  app.openapi(readOne, async (c) => {
    const { user_id } = c.req.valid("param");
    const me = c.get("user");
    if (user_id === me.id) return c.json(toUserPublic(me), 200);
    // Checked before the lookup so that regular users cannot probe which ids exist.
    if (!me.is_superuser) throw new ApiError(403, "The user doesn't have enough privileges");
    return c.json(toUserPublic(await users.getUser(deps.db, user_id)), 200);
  });

  const update = apiRoute({
    method: "patch",
    path: "/{user_id}",
    tags,
    summary: "Update an account (superusers)",
    description: "The last active superuser cannot be deactivated or demoted (409).",
    security: SIGNED_IN,
    middleware: [signedIn, requireSuperuser],
    request: { params: userIdParamSchema, body: jsonBody(userUpdateSchema) },
    responses: { 200: jsonContent(UserPublicSchema, "The updated account"), ...errorResponses(403, 404, 409) },
  });
  app.openapi(update, async (c) =>
    c.json(toUserPublic(await users.updateUser(deps.db, c.req.valid("param").user_id, c.req.valid("json"))), 200),
  );

  const remove = apiRoute({
    method: "delete",
    path: "/{user_id}",
    tags,
    summary: "Delete an account (superusers)",
    security: SIGNED_IN,
    middleware: [signedIn, requireSuperuser],
    request: { params: userIdParamSchema },
    responses: { 200: jsonContent(MessageSchema, "Deleted"), ...errorResponses(403, 404) },
  });
  app.openapi(remove, async (c) => {
    await users.deleteUser(deps.db, c.req.valid("param").user_id, c.get("user"));
    return c.json({ message: "User deleted successfully" }, 200);
  });
}
