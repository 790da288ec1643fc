import { Hono } from "hono";
import { zValidator } from "@hono/zod-validator";
import { z } from "zod";
import type { AppDeps } from "../deps.ts";
import { ApiError, zodHook } from "../http/errors.ts";
import { requireUser, type AuthEnv } from "./middleware.ts";
import { clearSessionCookie, issueAccessToken, setSessionCookie, type TokenResponse } from "./session.ts";
import { authenticate } from "../users/service.ts";
import { LIMITS, assertAllowed, clientIp, hit, reset } from "./rate-limit.ts";
import { toUserPublic } from "../users/schemas.ts";

/** The OAuth2 password form (form-encoded `username` and `password`; other OAuth2 fields are ignored). */
const loginFormSchema = z.object({
  username: z
    .string({ error: "Username is required" })
    .trim()
    .min(1, "Username is required")
    .max(255, "Username must be at most 255 characters"),
  password: z.string({ error: "Password is required" }).min(1, "Password is required").max(1024, "Password must be at most 1024 characters"),
});

/**
 * /api/v1/login: the OAuth2 password login (token in the body and as the HttpOnly session cookie),
 * the token check, and logout (which clears the cookie).
 * Login is rate limited (see rate-limit.ts): every attempt counts against the client address (a burst limit),
 * and failed attempts count against the account; past either limit the answer is 429 with Retry-After.
 */
export function loginRoutes(deps: AppDeps) {
  const app = new Hono<AuthEnv>();

  app.post("/access-token", zValidator("form", loginFormSchema, zodHook("body")), async (c) => {
    const { username, password } = c.req.valid("form");
    const account = username.toLowerCase();
    const ip = clientIp(c);
    if (ip) assertAllowed(await hit(deps.db, LIMITS.loginPerIp, ip));
    // Every attempt is counted before the password is checked, and a success clears the count: the counter is then
    // exact even for concurrent guesses, a locked account costs no hashing, and even the right password waits.
    assertAllowed(await hit(deps.db, LIMITS.loginFailuresPerAccount, account));

    const user = await authenticate(deps.db, username, password);
    // One message for an unknown address and a wrong password, so the answer does not reveal accounts.
    if (!user) throw new ApiError(400, "Incorrect email or password");
    if (!user.is_active) throw new ApiError(400, "Inactive user");
    await reset(deps.db, LIMITS.loginFailuresPerAccount, account);
    const token = await issueAccessToken(deps, user);
    setSessionCookie(c, token);
    return c.json<TokenResponse>({ access_token: token, token_type: "bearer" });
  });

  app.post("/test-token", requireUser(deps), (c) => c.json(toUserPublic(c.get("user"))));

  // No authentication needed: clearing a cookie is harmless, and a client with an expired token must still be able
  // to get rid of it.
  app.post("/logout", (c) => {
    clearSessionCookie(c);
    return c.json({ message: "Logged out" });
  });

  return app;
}
