import { Hono } from "hono";
import { zValidator } from "@hono/zod-validator";
import type { AppDeps } from "../deps.ts";
import { ApiError, zodHook } from "../http/errors.ts";
import { requireSuperuser, requireUser, type AuthEnv } from "../auth/middleware.ts";
import { clearSessionCookie, issueAccessToken, setSessionCookie } from "../auth/session.ts";
import * as users from "./service.ts";
import {
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

/**
 * The collection's own path, with and without the trailing slash: the client calls `/users/` (FastAPI style)
 * while Hono, in strict mode, would only match `/users`. The second pattern is an empty parameter that only
 * matches the trailing slash.
 */
const COLLECTION = ["/", "/:trailingSlash{^$}"];

/**
 * /api/v1/users: signup, the signed-in user's own account (me, profile, password, deletion), user search for
 * sharing, and account management for superusers (list, create, read, update, delete).
 */
export function usersRoutes(deps: AppDeps) {
  const app = new Hono<AuthEnv>();
  const signedIn = requireUser(deps);

  app.post("/signup", zValidator("json", userSignupSchema, zodHook("body")), async (c) => {
    const user = await users.signup(deps.db, c.req.valid("json"));
    return c.json(toUserPublic(user));
  });

  app.get("/me", signedIn, (c) => c.json(toUserPublic(c.get("user"))));

  app.patch("/me", signedIn, zValidator("json", userUpdateMeSchema, zodHook("body")), async (c) => {
    const user = await users.updateMe(deps.db, c.get("user").id, c.req.valid("json"));
    return c.json(toUserPublic(user));
  });

  // The password change ends every other session (token_version is bumped). This session continues with the
  // fresh token returned here, which is also set as the session cookie; a client that ignores it logs in again.
  app.patch("/me/password", signedIn, zValidator("json", updatePasswordSchema, zodHook("body")), async (c) => {
    const user = await users.changePassword(deps.db, c.get("user").id, c.req.valid("json"));
    const token = await issueAccessToken(deps, user);
    setSessionCookie(c, token);
    return c.json({ message: "Password updated successfully", access_token: token, token_type: "bearer" as const });
  });

  app.delete("/me", signedIn, async (c) => {
    await users.deleteUser(deps.db, c.get("user").id, c.get("user"));
    clearSessionCookie(c);
    return c.json({ message: "User deleted successfully" });
  });

  for (const path of ["/search", "/search/"]) {
    app.get(path, signedIn, zValidator("query", userSearchSchema, zodHook("query")), async (c) => {
      const { q, skip, limit } = c.req.valid("query");
      return c.json(await users.searchUsers(deps.db, q, c.get("user").id, skip, limit));
    });
  }

  for (const path of COLLECTION) {
    app.get(path, signedIn, requireSuperuser, zValidator("query", paginationSchema, zodHook("query")), async (c) => {
      const { skip, limit } = c.req.valid("query");
      const { rows, count } = await users.listUsers(deps.db, skip, limit);
      return c.json({ data: rows.map(toUserPublic), count });
    });

    app.post(path, signedIn, requireSuperuser, zValidator("json", userCreateSchema, zodHook("body")), async (c) => {
      const user = await users.createUser(deps.db, c.req.valid("json"));
      return c.json(toUserPublic(user));
    });
  }

  app.get("/:user_id", signedIn, zValidator("param", userIdParamSchema, zodHook("path")), async (c) => {
    const { user_id } = c.req.valid("param");
    const me = c.get("user");
    if (user_id === me.id) return c.json(toUserPublic(me));
    // Checked before the lookup so that regular users cannot probe which ids exist.
    if (!me.is_superuser) throw new ApiError(403, "The user doesn't have enough privileges");
    return c.json(toUserPublic(await users.getUser(deps.db, user_id)));
  });

  app.patch(
    "/:user_id",
    signedIn,
    requireSuperuser,
    zValidator("param", userIdParamSchema, zodHook("path")),
    zValidator("json", userUpdateSchema, zodHook("body")),
    async (c) => {
      const user = await users.updateUser(deps.db, c.req.valid("param").user_id, c.req.valid("json"));
      return c.json(toUserPublic(user));
    },
  );

  app.delete("/:user_id", signedIn, requireSuperuser, zValidator("param", userIdParamSchema, zodHook("path")), async (c) => {
    await users.deleteUser(deps.db, c.req.valid("param").user_id, c.get("user"));
    return c.json({ message: "User deleted successfully" });
  });

  return app;
}
